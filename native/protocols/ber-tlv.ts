import { bytesToHex, hexToBytes, isHex } from './hex';

/**
 * BER-TLV as EMV uses it (EMV 4.4 Book 3 Annex B; ISO/IEC 8825-1 §8.1): multi-byte tags, definite
 * short- and long-form lengths, constructed objects decoded recursively. Decoding is bounded (tag size,
 * length size, nesting depth) and always makes progress, so hostile or truncated input ends in a TlvError.
 */

export type TlvNode = {
  /** Upper-case hex of the whole tag, e.g. `9F02`. */
  tag: string;
  /** The value field as received; for constructed tags, the encoding of `children`. */
  value: Uint8Array;
  /** Decoded contents of a constructed tag (bit 6 of the first tag byte set). */
  children?: TlvNode[];
};

export type TlvErrorCode =
  | 'hex' // input is not even-length hex
  | 'truncated' // a tag, length or value runs past the end of its enclosing data
  | 'tag' // tag longer than MAX_TAG_BYTES or malformed
  | 'length' // long-form length over 4 bytes, or the indefinite form EMV forbids
  | 'depth' // constructed objects nested deeper than MAX_DEPTH
  | 'children'; // children given for a primitive tag when encoding

/** Carries a byte offset, never the data: TLV here holds PANs and track-2 equivalents. */
export class TlvError extends Error {
  override readonly name = 'TlvError';
  readonly code: TlvErrorCode;
  readonly offset: number;
  constructor(code: TlvErrorCode, message: string, offset = 0) {
    super(offset > 0 ? `${message} (at byte ${offset})` : message);
    this.code = code;
    this.offset = offset;
  }
}

// EMV tags are at most 3 bytes (Book 3 Annex B1); 4 leaves room for other BER users without unbounded scans.
const MAX_TAG_BYTES = 4;
// Lengths beyond 4 bytes cannot fit in memory anyway; EMV itself uses at most 0x82.
const MAX_LENGTH_BYTES = 4;
// Real EMV nesting is 3-4 levels (6F > A5 > BF0C > 61); the bound keeps recursion off the stack limit.
const MAX_DEPTH = 16;

/** Bit 6 of the first tag byte marks a constructed object (ISO/IEC 8825-1 §8.1.2.5). */
export function isConstructedTag(tag: string): boolean {
  return (parseInt(tag.slice(0, 2), 16) & 0x20) !== 0;
}

function decodeAt(bytes: Uint8Array, start: number, end: number, depth: number, recurse = true): TlvNode[] {
  if (depth > MAX_DEPTH) throw new TlvError('depth', 'TLV nested too deeply', start);
  const nodes: TlvNode[] = [];
  let i = start;
  while (i < end) {
    const first = bytes[i] ?? 0;
    // EMV Book 3 Annex B: '00' bytes may appear before, between or after objects; ISO/IEC 7816-4 treats
    // 'FF' the same. Neither is a valid first tag byte.
    if (first === 0x00 || first === 0xff) {
      i += 1;
      continue;
    }
    const tagStart = i;
    i += 1;
    if ((first & 0x1f) === 0x1f) {
      // Subsequent tag bytes continue while bit 8 is set (§8.1.2.4.2).
      for (;;) {
        if (i >= end) throw new TlvError('truncated', 'TLV tag runs past the end', tagStart);
        const b = bytes[i] ?? 0;
        i += 1;
        if (i - tagStart > MAX_TAG_BYTES) throw new TlvError('tag', 'TLV tag too long', tagStart);
        if ((b & 0x80) === 0) break;
      }
    }
    const tag = bytesToHex(bytes.subarray(tagStart, i));
    if (i >= end) throw new TlvError('truncated', 'TLV length missing', i);
    const lenByte = bytes[i] ?? 0;
    i += 1;
    let length = lenByte;
    if (lenByte === 0x80) throw new TlvError('length', 'indefinite TLV length is not allowed in EMV', i - 1);
    if (lenByte > 0x80) {
      const n = lenByte & 0x7f;
      if (n > MAX_LENGTH_BYTES) throw new TlvError('length', 'TLV length field too long', i - 1);
      if (i + n > end) throw new TlvError('truncated', 'TLV length runs past the end', i - 1);
      length = 0;
      for (let k = 0; k < n; k += 1) length = length * 256 + (bytes[i + k] ?? 0);
      i += n;
    }
    if (length > end - i) throw new TlvError('truncated', 'TLV value runs past the end', tagStart);
    const value = bytes.slice(i, i + length);
    const node: TlvNode = { tag, value };
    if (recurse && (first & 0x20) !== 0) node.children = decodeAt(bytes, i, i + length, depth + 1);
    nodes.push(node);
    i += length;
  }
  return nodes;
}

/** Decodes a sequence of BER-TLV objects; throws TlvError on malformed input. */
export function decodeTlv(bytes: Uint8Array): TlvNode[] {
  return decodeAt(bytes, 0, bytes.length, 0);
}

/**
 * Decodes the top level only: constructed objects keep their raw value and get no `children`. For data
 * whose inner objects the receiver must not judge, such as issuer script templates (71/72) a reader
 * passes to the card, where a malformed script fails that script alone (EMV Book 4 §12.2.4).
 */
export function decodeTlvTopLevel(bytes: Uint8Array): TlvNode[] {
  return decodeAt(bytes, 0, bytes.length, 0, false);
}

export function decodeTlvHex(hex: string): TlvNode[] {
  const compact = hex.replace(/\s+/g, '');
  if (!isHex(compact)) throw new TlvError('hex', 'TLV input is not even-length hex');
  return decodeTlv(hexToBytes(compact));
}

function encodeTag(tag: string): Uint8Array {
  if (!isHex(tag) || tag.length === 0 || tag.length > MAX_TAG_BYTES * 2) {
    throw new TlvError('tag', 'TLV tag must be 1-4 bytes of hex');
  }
  const b = hexToBytes(tag);
  const multi = ((b[0] ?? 0) & 0x1f) === 0x1f;
  const wellFormed = multi
    ? b.length > 1 && b.every((x, k) => k === 0 || (k < b.length - 1 ? (x & 0x80) !== 0 : (x & 0x80) === 0))
    : b.length === 1;
  if (!wellFormed) throw new TlvError('tag', 'TLV tag bytes are not a well-formed BER tag');
  return b;
}

function encodeLength(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

/** Encodes nodes with minimal definite lengths; a constructed node with `children` is built from them. */
export function encodeTlv(nodes: readonly TlvNode[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const node of nodes) {
    const tag = encodeTag(node.tag);
    if (node.children && !isConstructedTag(node.tag)) {
      throw new TlvError('children', 'a primitive TLV tag cannot have children');
    }
    const value = node.children ? encodeTlv(node.children) : node.value;
    parts.push(tag, Uint8Array.from(encodeLength(value.length)), value);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function encodeTlvHex(nodes: readonly TlvNode[]): string {
  return bytesToHex(encodeTlv(nodes));
}

/** Every node, depth first, constructed ones before their children. */
export function flattenTlv(nodes: readonly TlvNode[]): TlvNode[] {
  const out: TlvNode[] = [];
  const walk = (list: readonly TlvNode[]): void => {
    for (const n of list) {
      out.push(n);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** First node with this tag at any depth. */
export function findTlv(nodes: readonly TlvNode[], tag: string): TlvNode | undefined {
  const wanted = tag.toUpperCase();
  return flattenTlv(nodes).find((n) => n.tag === wanted);
}
