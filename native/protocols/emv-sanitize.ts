import { decodeTlvHex, encodeTlv, encodeTlvHex, flattenTlv, TlvError, type TlvNode } from './ber-tlv';
import { bytesToHex } from './hex';

/**
 * Card data inside EMV TLV: what may be kept when EmvData is logged, recorded or shown, and what the
 * gateway reads out of it to authorise a chip sale. The team's rule: never a PAN, track, CVN, PIN block,
 * cryptogram or key in a log, a journal, an error or a snapshot (docs/decisions.md#card-data; PCI DSS 3.2: sensitive authentication
 * data is not kept after authorisation; 3.4: the PAN is unreadable wherever it is stored).
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

/**
 * Tags that carry the card's or the issuer's cryptographic output, or data unique to one card that feeds
 * it: whoever holds them holds a proof the card made (a replayable ARQC/TC) or the inputs of one.
 * 9F26 the application cryptogram; 9F10 issuer application data (the CVR, counters and, by cryptogram
 * version, a MAC or the card's own discretionary data: Book 3 Annex A leaves its content to the issuer);
 * 80 the format 1 GENERATE AC answer (CID, ATC, AC and IAD concatenated); 9F4B signed dynamic application
 * data and 93 signed static application data (signatures); 9F4C ICC dynamic number; 9F45 data
 * authentication code; 9F69 card authentication related data (contactless fDDA); 91 issuer authentication
 * data (the ARPC); 71/72 issuer scripts (MACed commands, a PIN change carries an enciphered PIN);
 * 86 an issuer script command; 9F46/9F47/9F48 the card's public key certificate, exponent and remainder,
 * and 9F2D/9F2E/9F2F its PIN encipherment key (unique to one card); 9F5D/9F7C/9F6E scheme fields that
 * may carry available balance, customer-exclusive data or third-party data; 5F34 the PAN sequence number
 * (with the PAN, it names one card); 9F13/9F17 the card's online ATC register and PIN try counter.
 */
export const CRYPTOGRAPHIC_TAGS: ReadonlySet<string> = new Set([
  '9F26',
  '9F10',
  '80',
  '9F4B',
  '93',
  '9F4C',
  '9F45',
  '9F69',
  '91',
  '71',
  '72',
  '86',
  '9F46',
  '9F47',
  '9F48',
  '9F2D',
  '9F2E',
  '9F2F',
  '9F5D',
  '9F7C',
  '9F6E',
  '5F34',
  '9F13',
  '9F17',
]);

/**
 * What a recording or a tech's dump must overwrite in place (frame-recorder.ts, the tool's `tlv`): the
 * card data and the cryptographic output above. Those two keep a frame's structure, so they need a list
 * of what to blank; a log line needs no structure and keeps only LOGGABLE_EMV_TAGS.
 */
export const NOT_LOGGABLE_EMV_TAGS: ReadonlySet<string> = new Set([...CARD_DATA_TAGS, ...CRYPTOGRAPHIC_TAGS]);

/**
 * What a log may keep of EmvData: an allow-list, since a kernel may put anything in a proprietary tag
 * (DFxx, 9F7x) and a list of what to remove would let it through. Each is a code, a flag set, an amount or
 * a terminal's own setting — nothing of the cardholder's and nothing that proves or keys anything:
 * - 9F27 CID: which cryptogram the card made (ARQC/TC/AAC), the one fact a decline dispute needs; the
 *   cryptogram itself (9F26) is dropped.
 * - 95 TVR, 9B TSI, 9F34 CVM results: the terminal's own check results and the CVM it performed.
 * - 9F36 ATC: a 2-byte counter, neither cardholder data nor sensitive authentication data in PCI DSS
 *   terms; it is what tells a replay from a fresh read (the gateway's ATC register says the same).
 * - 82 AIP, 9F07 AUC, 9F0D/9F0E/9F0F IACs, 9F08 application version, 9F6C CTQ: the product's profile,
 *   identical on every card the issuer makes of it.
 * - 4F/84/9F06 AID, 50 application label, 9F12 preferred name: the scheme's application ("VISA CREDIT").
 * - 5F28 issuer country, 5F2A currency, 5F36 exponent, 9F1A terminal country: ISO 3166/4217 codes.
 * - 9F02/9F03 amounts, 9A date, 9F21 time, 9C type, 9F41 sequence counter, 9F53 category: the sale.
 * - 9F33/9F40 terminal capabilities, 9F35 terminal type, 9F09 terminal application version, 9F1E IFD
 *   serial number, 9F39 POS entry mode, 9F66 TTQ: the terminal's own settings.
 * - 8A authorisation response code and 9F5B issuer script results: the outcome, not the issuer's proof.
 * Constructed templates (70, 77, 61, 6F, A5, BF0C…) are kept for their shape and filtered inside.
 * Not kept: 9F37 (the unpredictable number, useless without the cryptogram it salted) and anything else
 * not named here.
 */
export const LOGGABLE_EMV_TAGS: ReadonlySet<string> = new Set([
  '9F27',
  '95',
  '9B',
  '9F34',
  '9F36',
  '82',
  '9F07',
  '9F0D',
  '9F0E',
  '9F0F',
  '9F08',
  '9F6C',
  '4F',
  '84',
  '9F06',
  '50',
  '9F12',
  '5F28',
  '5F2A',
  '5F36',
  '9F1A',
  '9F02',
  '9F03',
  '9A',
  '9F21',
  '9C',
  '9F41',
  '9F53',
  '9F33',
  '9F40',
  '9F35',
  '9F09',
  '9F1E',
  '9F39',
  '9F66',
  '8A',
  '9F5B',
]);

/** Logged in place of EMV data that does not parse, since its card data cannot be located to remove. */
export const UNPARSEABLE_EMV_FOR_LOG = '[unparseable EMV TLV removed]';

/**
 * The nodes whose tags `keep` accepts, at any depth; a constructed node is kept for its shape (re-encoded
 * with its new length) unless its own tag is not loggable (71/72 issuer scripts go whole).
 */
function keepOnly(nodes: readonly TlvNode[], keep: (tag: string) => boolean): TlvNode[] {
  const out: TlvNode[] = [];
  for (const n of nodes) {
    if (NOT_LOGGABLE_EMV_TAGS.has(n.tag)) continue;
    if (n.children) {
      const children = keepOnly(n.children, keep);
      out.push({ tag: n.tag, value: encodeTlv(children), children });
    } else if (keep(n.tag)) out.push(n);
  }
  return out;
}

/** EmvData hex reduced to LOGGABLE_EMV_TAGS (inside its templates), for logs; never throws. */
export function sanitizeEmvForLog(hex: string): string {
  try {
    return encodeTlvHex(keepOnly(decodeTlvHex(hex), (tag) => LOGGABLE_EMV_TAGS.has(tag)));
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
