import { decodeTlvHex, encodeTlv, encodeTlvHex, flattenTlv, TlvError, type TlvNode } from './ber-tlv';
import { bytesToHex } from './hex';

/**
 * Card data inside EMV TLV: what must be removed before EmvData is logged or stored
 * (docs/decisions.md#card-data; PCI DSS 3.2/3.4), and what the gateway reads out of it to authorise a chip
 * sale.
 */

// rule: emv-card-data
/**
 * Tags that carry cardholder data, sensitive authentication data or the PIN block: track 1 (56) and
 * track 2 (57) equivalents, PAN (5A), name (5F20, 9F0B), expiry (5F24), PIN data (99), track 1/2
 * discretionary data (9F1F, 9F20), and the contactless Track 2 Data of Mastercard kernels (9F6B), which
 * holds the same PAN and discretionary data as 57.
 */
export const CARD_DATA_TAGS: ReadonlySet<string> = new Set([
  '56',
  '57',
  '5A',
  '5F20',
  '5F24',
  '99',
  '9F0B',
  '9F1F',
  '9F20',
  '9F6B',
]);

/** Logged in place of EMV data that does not parse, since its card data cannot be located to remove. */
export const UNPARSEABLE_EMV_FOR_LOG = '[unparseable EMV TLV removed]';

/** Removes card-data tags at any depth; constructed parents are re-encoded with their new lengths. */
export function stripCardDataTags(nodes: readonly TlvNode[]): TlvNode[] {
  const out: TlvNode[] = [];
  for (const n of nodes) {
    if (CARD_DATA_TAGS.has(n.tag)) continue;
    if (n.children) {
      const children = stripCardDataTags(n.children);
      out.push({ tag: n.tag, value: encodeTlv(children), children });
    } else out.push(n);
  }
  return out;
}

/** EmvData hex with card-data tags removed, for logs; never throws. */
export function sanitizeEmvForLog(hex: string): string {
  try {
    return encodeTlvHex(stripCardDataTags(decodeTlvHex(hex)));
  } catch (e) {
    if (e instanceof TlvError) return UNPARSEABLE_EMV_FOR_LOG;
    throw e;
  }
}

export type EmvCardData = {
  pan: string;
  expiryYYMM?: string;
  serviceCode?: string;
  /** 9F02 in the currency's minor unit (cents for USD, exponent 2). */
  amountCents?: number;
  /** ISO 4217 numeric code from 5F2A, e.g. `840`. */
  currencyNumeric?: string;
};

export type EmvCardDataError =
  | 'tlv' // not valid BER-TLV
  | 'no-pan' // neither 5A nor 57 present
  | 'pan-mismatch' // 5A and the PAN in 57 differ
  | 'field'; // a present field is not in its EMV format

export type EmvCardDataResult = { ok: true; value: EmvCardData } | { ok: false; error: EmvCardDataError };

// Book 3 Annex A: 57 is PAN, separator 'D', YYMM, service code, discretionary data, 'F' pad to a byte.
const TRACK2_EQUIVALENT_RE = /^(\d{8,19})D(\d{4})(\d{3})\d*F?$/;
// 5A is cn: PAN digits left-justified, padded with 'F'.
const PAN_CN_RE = /^(\d{8,19})F*$/;

/**
 * PAN, expiry and service code for authorising a chip card, plus amount (9F02, n12) and currency (5F2A,
 * n3). PAN from 5A, else from 57; expiry from 5F24 (YYMMDD), else 57; service code from 57, else 5F30.
 */
export function readEmvCardData(hex: string): EmvCardDataResult {
  let nodes: TlvNode[];
  try {
    nodes = flattenTlv(decodeTlvHex(hex));
  } catch (e) {
    if (e instanceof TlvError) return { ok: false, error: 'tlv' };
    throw e;
  }
  const first = (tag: string): string | undefined => {
    const n = nodes.find((x) => x.tag === tag);
    return n ? bytesToHex(n.value) : undefined;
  };
  const t57 = first('57');
  const t5a = first('5A');
  const t5f24 = first('5F24');
  const t5f30 = first('5F30');
  const t9f02 = first('9F02');
  const t5f2a = first('5F2A');

  const track2 = t57 === undefined ? undefined : TRACK2_EQUIVALENT_RE.exec(t57);
  const panField = t5a === undefined ? undefined : PAN_CN_RE.exec(t5a);
  if ((t57 !== undefined && !track2) || (t5a !== undefined && !panField))
    return { ok: false, error: 'field' };
  const pan = panField?.[1] ?? track2?.[1];
  if (pan === undefined) return { ok: false, error: 'no-pan' };
  if (panField && track2 && panField[1] !== track2[1]) return { ok: false, error: 'pan-mismatch' };

  if (t5f24 !== undefined && !/^\d{6}$/.test(t5f24)) return { ok: false, error: 'field' };
  if (t5f30 !== undefined && !/^0\d{3}$/.test(t5f30)) return { ok: false, error: 'field' };
  if (t9f02 !== undefined && !/^\d{12}$/.test(t9f02)) return { ok: false, error: 'field' };
  if (t5f2a !== undefined && !/^0\d{3}$/.test(t5f2a)) return { ok: false, error: 'field' };

  const expiryYYMM = t5f24?.slice(0, 4) ?? track2?.[2];
  const serviceCode = track2?.[3] ?? t5f30?.slice(1);
  const value: EmvCardData = { pan };
  if (expiryYYMM !== undefined) value.expiryYYMM = expiryYYMM;
  if (serviceCode !== undefined) value.serviceCode = serviceCode;
  if (t9f02 !== undefined) value.amountCents = Number(t9f02);
  if (t5f2a !== undefined) value.currencyNumeric = t5f2a.slice(1);
  return { ok: true, value };
}
