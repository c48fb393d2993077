import { type TlvNode, TlvError, decodeTlvTopLevel, encodeTlv } from './ber-tlv';
import { bytesToHex, hexToBytes, isHex } from './hex';

/**
 * The issuer's answer for the card, as it travels in a sale response's `EmvData` and back to the reader
 * (EMV 4.4 Book 4 §6.3.8-6.3.9): 8A the Authorisation Response Code (2 characters, "00" approved), 91
 * the Issuer Authentication Data (ARPC with ARC or CSU), and issuer script templates 71/72.
 */
export type IssuerResponseData = {
  /** 8A as its two characters, e.g. "00". */
  arc: string;
  /** 91 as hex. */
  issuerAuthData?: string;
  /** The 71/72 templates as hex TLV, in the issuer's order. */
  scripts?: string;
};

const ARC_RE = /^[\x20-\x7e]{2}$/;

export function isArc(value: string): boolean {
  return ARC_RE.test(value);
}

/** The TLV hex of an issuer response: 8A, then 91, then the scripts. */
export function encodeIssuerResponse(r: {
  arc: string;
  issuerAuthData?: Uint8Array;
  scripts?: readonly TlvNode[];
}): string {
  if (!isArc(r.arc)) throw new RangeError('8A is two printable characters');
  const nodes: TlvNode[] = [{ tag: '8A', value: Uint8Array.from(Buffer.from(r.arc, 'latin1')) }];
  if (r.issuerAuthData) nodes.push({ tag: '91', value: r.issuerAuthData });
  nodes.push(...(r.scripts ?? []));
  return bytesToHex(encodeTlv(nodes));
}

/**
 * Reads 8A, 91, 71 and 72 from a response's EmvData (other tags ignored; scripts kept as sent, since a
 * malformed script is the card's to refuse). undefined when the data does not parse or has no 8A.
 */
export function readIssuerResponse(emvHex: string): IssuerResponseData | undefined {
  if (!isHex(emvHex)) return undefined;
  let nodes: TlvNode[];
  try {
    nodes = decodeTlvTopLevel(hexToBytes(emvHex));
  } catch (e) {
    if (e instanceof TlvError) return undefined;
    throw e;
  }
  const arc = nodes.find((n) => n.tag === '8A');
  if (arc?.value.length !== 2) return undefined;
  const out: IssuerResponseData = { arc: Buffer.from(arc.value).toString('latin1') };
  const iad = nodes.find((n) => n.tag === '91');
  if (iad) out.issuerAuthData = bytesToHex(iad.value);
  const scripts = nodes.filter((n) => n.tag === '71' || n.tag === '72');
  if (scripts.length > 0) out.scripts = bytesToHex(encodeTlv(scripts));
  return out;
}
