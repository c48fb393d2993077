/**
 * Hex text <-> bytes, shared by every codec whose standard writes binary fields as hex (EMV tag dumps,
 * PIN blocks, KSNs, keys). Errors never echo the input: a hex string here is usually a key or card data.
 */

export class HexFormatError extends TypeError {
  override readonly name = 'HexFormatError';
  constructor(message = 'not an even-length hexadecimal string') {
    super(message);
  }
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** True when `s` is even-length hex; with `byteLength`, also exactly that many bytes. */
export function isHex(s: string, byteLength?: number): boolean {
  if (!HEX_RE.test(s)) return false;
  return byteLength === undefined || s.length === byteLength * 2;
}

/** Decodes even-length hex (either case); throws HexFormatError otherwise. */
export function hexToBytes(hex: string): Uint8Array {
  if (!HEX_RE.test(hex)) throw new HexFormatError();
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Upper-case hex, the form the vectors, the PIN-pad protocol and EMV dumps all use. */
export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s.toUpperCase();
}

/** Byte-wise XOR of two equal-length arrays (PIN block ⊕ PAN block, key ⊕ variant mask). */
export function xorBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length !== b.length) throw new RangeError('xorBytes: length mismatch');
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i += 1) out[i] = (a[i] ?? 0) ^ (b[i] ?? 0);
  return out;
}
