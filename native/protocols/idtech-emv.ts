/**
 * ID TECH NGA "Protocol 2" host-driven contact EMV commands (VP3300/VP3350, NEO 2 family), on top of the
 * `ViVOtech2\0` framing of vivotech2.ts. Source: docs/idtech-emv.md, which summarises the public ID TECH
 * manuals and SDK headers (section numbers below are its sections; "NEO2 p.N" is the NEO 2 Interface
 * Developer's Guide page it cites). Pure: builds and parses frames' data, no I/O, no timers.
 *
 *   02-40  Start (Activate) Transaction, all interfaces; DFEF37 selects them (bit2 = contact) (§2)
 *   60-10  Contact Start Transaction: power-on, application selection, GPO, read records   (§3)
 *   60-11  Contact Authenticate: ODA, CVM, risk management, 1st GENERATE AC               (§3)
 *   60-12  Contact Apply Host Response: EXTERNAL AUTHENTICATE, scripts, 2nd GENERATE AC     (§3)
 *   05-01  Cancel Transaction (data length 0), or reset (length 1 + mode)                  (§4)
 *
 * Every layout the notes mark [inferred] or [gap] is decided in this one file, and each decision is
 * marked "CHOICE" below (docs/chip.md lists them):
 *
 * - CHOICE (§3 "Responses", §8.1): the data of a 60-1x response is `RC (2 bytes, big-endian) |
 *   Attribution (1) | TLVs`, the MiniSmart II layout with its leading ACK byte replaced by the Protocol 2
 *   status byte. One response frame per command: no early empty ACK frame ([gap] in §3).
 * - CHOICE (§3, §8.1): a 60-11 that ends in an online request answers status 00 with RC 0004 (NEO2
 *   p.185 "if response code is 00 04 … go online"). A reader that signals it with status 23 "request
 *   online authorization" instead (the 02-40 convention, §2.1) is read the same way.
 * - CHOICE (§8.2): the 60-11 request data is an optional TLV list (the SDK's updated 9F02/9F03/9C/5F57/
 *   DFEE1A); empty is valid (`… 60 11 00 00 66 49`).
 * - CHOICE (§8.3): the two 2-byte timeouts of 60-10 are big-endian, like DFEF3C's timeout (§2), the one
 *   documented 2-byte timeout of this command family.
 * - CHOICE (§3): the 60-12 data is `ComFlag | [8A][91][71/72…] | App Data TLVs` — the MiniSmart II body
 *   without its `72 46 05 03` prefix; the bracketed part only when ComFlag = 01.
 * - CHOICE (§2.1, [gap] for contact): a 02-40 that started a contact transaction answers status 00 with
 *   the 02-40 data layout `Attribution | TLVs` (no DFEE12 KSN: data encryption is off), Attribution bits
 *   4/3/0 = 000 (contact); the host continues with 60-11 as after 60-10. A 02-40 contact start that does
 *   not reach "start OK" answers status 0A with the 2-byte EMV result code as its only data (fallback
 *   0007, 3002 …); no card within its timeout answers status 08, as the contactless 02-xx do.
 * - CHOICE (§3.1; same C SDK enum `IDTDef.h EMV_RESULT_CODE`): card removed mid-transaction is RC 3005
 *   (SMARTCARD_ABSENT), a card that stops answering RC 3006 (SMARTCARD_TIMEOUT), no card seated within
 *   TimeOut1 RC 0008 (TIMEOUT). The notes list the enum's values up to 0010 and 3004; these three are
 *   read from the same header.
 */
import { type TlvNode, TlvError, decodeTlv, decodeTlvTopLevel, encodeTlv, findTlv } from './ber-tlv';
import {
  fromBcd,
  toBcd,
  type Vivo2Frame,
  encodeVivo2Command,
  encodeVivo2Response,
  VIVO2_STATUS,
  vivo2StatusText,
} from './vivotech2';

export const IDTECH_EMV_COMMANDS = {
  activateTransaction: { cmd: 0x02, sub: 0x40 },
  contactStart: { cmd: 0x60, sub: 0x10 },
  contactAuthenticate: { cmd: 0x60, sub: 0x11 },
  contactApplyHostResponse: { cmd: 0x60, sub: 0x12 },
  cancelTransaction: { cmd: 0x05, sub: 0x01 },
} as const;

// ---------------------------------------------------------------------------------------------------
// Status byte (response byte 11), NEO2 p.28 (§1): the one table is the framing's (vivotech2.ts), since
// every Protocol 2 reader answers with it; these names stay for the chip reader's code.

export const PROTOCOL2_STATUS = VIVO2_STATUS;

/** Text of a Protocol 2 status byte (vivotech2.ts `vivo2StatusText`). */
export const protocol2StatusText = vivo2StatusText;

// ---------------------------------------------------------------------------------------------------
// Two-byte EMV result codes (§3.1, IDTDef.h `enum EMV_RESULT_CODE`)

export const EMV_RESULT = {
  approvedOffline: 0x0000,
  declinedOffline: 0x0001,
  approved: 0x0002,
  declined: 0x0003,
  goOnline: 0x0004,
  callYourBank: 0x0005,
  notAccepted: 0x0006,
  fallbackToMsr: 0x0007,
  timeout: 0x0008,
  goOnlineContactless: 0x0009,
  startOk: 0x0010,
  swipeNonIcc: 0x0011,
  cancelled: 0x0012,
  unableToReachHost: 0x00ff,
  smartcardFail: 0x3002,
  fallbackSituation: 0x3004,
  smartcardAbsent: 0x3005,
  smartcardTimeout: 0x3006,
  cardRejected: 0x5009,
  cardBlocked: 0x5023,
  arcAbsent: 0x5028,
  arcInvalid: 0x5029,
  commNoOnline: 0x5030,
} as const;

const RESULT_TEXT: Readonly<Record<number, string>> = {
  0x0000: 'approved offline',
  0x0001: 'declined offline',
  0x0002: 'approved',
  0x0003: 'declined',
  0x0004: 'go online',
  0x0005: 'call your bank (referral)',
  0x0006: 'not accepted',
  0x0007: 'fallback to magstripe',
  0x0008: 'timeout',
  0x0009: 'go online (contactless)',
  0x0010: 'start OK, authenticate next',
  0x0011: 'swipe of a non-ICC card',
  0x0012: 'cancelled',
  0x007a: 'two contactless cards',
  0x007d: 'terminated, try another interface',
  0x007e: 'terminated',
  0x00ff: 'unable to reach host',
  0x3002: 'smart card failure',
  0x3004: 'fallback situation',
  0x3005: 'card removed',
  0x3006: 'card did not answer',
  0x5009: 'card rejected',
  0x5023: 'card blocked',
  0x5028: 'authorisation response code absent',
  0x5029: 'authorisation response code invalid',
  0x5030: 'no online communication',
};

export function emvResultText(code: number): string {
  return RESULT_TEXT[code] ?? `EMV result 0x${code.toString(16).padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------------------------------
// Shared request fields

/** 9C values of EMV Book 3 Annex A (first two digits of ISO 8583 processing code). */
export const TRANSACTION_TYPE = {
  purchase: 0x00,
  cash: 0x01,
  purchaseWithCashback: 0x09,
  refund: 0x20,
} as const;

export type TransactionAmounts = {
  /** 9F02 in minor units. */
  amountCents: number;
  /** 9F03 in minor units (cash back). Default 0. */
  otherAmountCents?: number;
  /** 9C as a number (TRANSACTION_TYPE). Default purchase. */
  transactionType?: number;
  /** 5F2A, ISO 4217 numeric; omitted when undefined (the reader's configured currency). */
  currencyCode?: number;
};

export class IdtechEmvError extends RangeError {
  override readonly name = 'IdtechEmvError';
}

const N12_MAX = 999_999_999_999;

function amountTlv(tag: '9F02' | '9F03', cents: number): TlvNode {
  if (!Number.isInteger(cents) || cents < 0 || cents > N12_MAX)
    throw new IdtechEmvError(`${tag} must be a whole number of minor units that fits n12`);
  return { tag, value: toBcd(cents, 6) };
}

function typeTlv(type: number): TlvNode {
  if (!Number.isInteger(type) || type < 0 || type > 99) throw new IdtechEmvError('9C must be 00..99');
  return { tag: '9C', value: toBcd(type, 1) };
}

function currencyTlv(code: number): TlvNode {
  if (!Number.isInteger(code) || code < 0 || code > 999) throw new IdtechEmvError('5F2A must be 000..999');
  return { tag: '5F2A', value: toBcd(code, 2) };
}

function readAmounts(nodes: readonly TlvNode[]): TransactionAmounts | undefined {
  const amount = findTlv(nodes, '9F02');
  if (amount?.value.length !== 6) return undefined;
  const digits = fromBcd(amount.value);
  if (!/^\d{12}$/.test(digits)) return undefined;
  const out: TransactionAmounts = { amountCents: Number(digits) };
  const other = findTlv(nodes, '9F03');
  if (other) {
    const d = fromBcd(other.value);
    if (other.value.length !== 6 || !/^\d{12}$/.test(d)) return undefined;
    out.otherAmountCents = Number(d);
  }
  const type = findTlv(nodes, '9C');
  if (type) {
    const d = fromBcd(type.value);
    if (type.value.length !== 1 || !/^\d{2}$/.test(d)) return undefined;
    out.transactionType = Number(d);
  }
  const currency = findTlv(nodes, '5F2A');
  if (currency) {
    const d = fromBcd(currency.value);
    if (currency.value.length !== 2 || !/^\d{4}$/.test(d)) return undefined;
    out.currencyCode = Number(d);
  }
  return out;
}

function safeDecode(bytes: Uint8Array, topLevelOnly = false): TlvNode[] | undefined {
  try {
    return topLevelOnly ? decodeTlvTopLevel(bytes) : decodeTlv(bytes);
  } catch (e) {
    if (e instanceof TlvError) return undefined;
    throw e;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u16(n: number): Uint8Array {
  return Uint8Array.of((n >> 8) & 0xff, n & 0xff);
}

function seconds16(s: number, what: string): number {
  if (!Number.isInteger(s) || s < 0 || s > 0xffff) throw new IdtechEmvError(`${what} must be 0..65535 s`);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// 02-40 Start (Activate) Transaction (§2, NEO2 p.210, VP3350 manual p.13-14)

/** DFEF37 interface bits (VP3350 p.13): bit0 MSR, bit1 contactless, bit2 contact. */
export type Interfaces = { msr?: boolean; contactless?: boolean; contact?: boolean };

export function interfaceBits(i: Interfaces): number {
  return (i.msr ? 0x01 : 0) | (i.contactless ? 0x02 : 0) | (i.contact ? 0x04 : 0);
}

export type ActivateTransactionRequest = TransactionAmounts & {
  /** The mandatory first data byte: seconds the reader waits for a card (1..255). */
  timeoutSeconds: number;
  /** DFEF37; omitted when undefined (the reader's default interfaces). */
  interfaces?: Interfaces;
  /** DFEF3C: fallback to MSR allowed, and the timeout (s) for the next command (big-endian). */
  fallback?: { allowed: boolean; nextCommandTimeoutSeconds: number };
  /** Further TLVs appended as given (DFEE1A output tag list, …). */
  extraTlvs?: readonly TlvNode[];
};

/**
 * The 02-40 frame: `Timeout | 9C | 9F02 | 9F03 | [5F2A] | [DFEF37] | [DFEF3C] | extra TLVs`, the order of
 * the VP3350 manual's worked frame (CRC 0xD118).
 */
export function buildActivateTransaction240(req: ActivateTransactionRequest): Uint8Array {
  if (!Number.isInteger(req.timeoutSeconds) || req.timeoutSeconds < 1 || req.timeoutSeconds > 255)
    throw new IdtechEmvError('the 02-40 timeout is 1..255 s');
  const nodes: TlvNode[] = [
    typeTlv(req.transactionType ?? TRANSACTION_TYPE.purchase),
    amountTlv('9F02', req.amountCents),
    amountTlv('9F03', req.otherAmountCents ?? 0),
  ];
  if (req.currencyCode !== undefined) nodes.push(currencyTlv(req.currencyCode));
  if (req.interfaces) nodes.push({ tag: 'DFEF37', value: Uint8Array.of(interfaceBits(req.interfaces)) });
  if (req.fallback) {
    const t = seconds16(req.fallback.nextCommandTimeoutSeconds, 'the DFEF3C timeout');
    nodes.push({ tag: 'DFEF3C', value: concat(Uint8Array.of(req.fallback.allowed ? 1 : 0), u16(t)) });
  }
  nodes.push(...(req.extraTlvs ?? []));
  const { cmd, sub } = IDTECH_EMV_COMMANDS.activateTransaction;
  return encodeVivo2Command(cmd, sub, concat(Uint8Array.of(req.timeoutSeconds), encodeTlv(nodes)));
}

export type ParsedActivateTransaction = TransactionAmounts & {
  timeoutSeconds: number;
  /** Interfaces enabled; all three when DFEF37 is absent (the reader default, `07`). */
  interfaces: Required<Interfaces>;
  fallbackAllowed: boolean;
  nextCommandTimeoutSeconds?: number;
  outputTags?: string[];
};

/** Reads a 02-40 command's data (the reader's side); undefined when it is not `timeout | TLVs` with 9F02. */
export function parseActivateTransaction240Data(data: Uint8Array): ParsedActivateTransaction | undefined {
  if (data.length < 1 || (data[0] ?? 0) === 0) return undefined;
  const nodes = safeDecode(data.subarray(1));
  if (!nodes) return undefined;
  const amounts = readAmounts(nodes);
  if (!amounts) return undefined;
  const dfef37 = findTlv(nodes, 'DFEF37');
  const bits = dfef37?.value.length === 1 ? (dfef37.value[0] ?? 0) : 0x07;
  const out: ParsedActivateTransaction = {
    ...amounts,
    timeoutSeconds: data[0] ?? 0,
    interfaces: { msr: (bits & 1) !== 0, contactless: (bits & 2) !== 0, contact: (bits & 4) !== 0 },
    fallbackAllowed: false,
  };
  const dfef3c = findTlv(nodes, 'DFEF3C');
  if (dfef3c?.value.length === 3) {
    out.fallbackAllowed = dfef3c.value[0] === 1;
    out.nextCommandTimeoutSeconds = ((dfef3c.value[1] ?? 0) << 8) | (dfef3c.value[2] ?? 0);
  }
  const tags = outputTagList(nodes);
  if (tags) out.outputTags = tags;
  return out;
}

/** Attribution byte (§2.1, NEO2 p.232): bits 4/3/0 give the interface. */
export type CardInterface = 'contact' | 'contactless' | 'msr' | 'unknown';

export function attributionInterface(attribution: number): CardInterface {
  const b4 = (attribution >> 4) & 1;
  const b3 = (attribution >> 3) & 1;
  const b0 = attribution & 1;
  if (b4 === 0 && b3 === 1) return 'msr';
  if (b4 === 0 && b3 === 0 && b0 === 0) return 'contact';
  if (b3 === 0 && b0 === 1) return 'contactless';
  return 'unknown';
}

/** Attribution of a contact transaction with data encryption off and TDES selected: all bits zero. */
export const ATTRIBUTION_CONTACT = 0x00;

/** Attribution of a contactless EMV read (bits 4/3/0 = 001), encryption off, TDES. */
export const ATTRIBUTION_CONTACTLESS_EMV = 0x01;

// ---------------------------------------------------------------------------------------------------
// 60-10 Contact Start (§3, NEO2 p.178-179)

export type ContactStartRequest = TransactionAmounts & {
  /** FallBack byte: 01 allows fallback to MSR. */
  allowFallback: boolean;
  /** TimeOut1: seconds to wait for a card to be seated. */
  cardSeatedTimeoutSeconds: number;
  /** TimeOut2: seconds the reader waits for 60-11 after answering. */
  authenticateTimeoutSeconds: number;
  /** DFEE1A: the TLVs the reader should return (command value overrides terminal data). */
  outputTags?: readonly string[];
  /** DFEF1F byte 1: run 60-11 automatically. Default false (the host sends 60-11). */
  autoAuthenticate?: boolean;
  /** DFEF1F byte 2: force the transaction online. Default true (every sandbox chip sale goes online). */
  forceOnline?: boolean;
};

function outputTagList(nodes: readonly TlvNode[]): string[] | undefined {
  const dfee1a = findTlv(nodes, 'DFEE1A');
  return dfee1a ? decodeOutputTags(dfee1a.value) : undefined;
}

/** DFEE1A's value: a list of bare tags (no lengths), read tag after tag with BER tag rules. */
export function decodeOutputTags(v: Uint8Array): string[] | undefined {
  const tags: string[] = [];
  let i = 0;
  while (i < v.length) {
    const start = i;
    const first = v[i] ?? 0;
    i += 1;
    if ((first & 0x1f) === 0x1f) {
      while (i < v.length && ((v[i] ?? 0) & 0x80) !== 0) i += 1;
      i += 1;
    }
    if (i > v.length || i - start > 3) return undefined;
    tags.push(Buffer.from(v.subarray(start, i)).toString('hex').toUpperCase());
  }
  return tags;
}

export function encodeOutputTags(tags: readonly string[]): TlvNode {
  const parts = tags.map((t) => {
    if (!/^(?:[0-9A-Fa-f]{2}){1,3}$/.test(t)) throw new IdtechEmvError('an output tag is 1-3 bytes of hex');
    return Uint8Array.from(Buffer.from(t, 'hex'));
  });
  return { tag: 'DFEE1A', value: concat(...parts) };
}

/** `FallBack | TimeOut1 | TimeOut2 | 9F02 | 9F03 | 9C | [5F2A] | [DFEE1A] | DFEF1F | extra`. */
export function buildContactStart(req: ContactStartRequest, extraTlvs: readonly TlvNode[] = []): Uint8Array {
  const nodes: TlvNode[] = [
    amountTlv('9F02', req.amountCents),
    amountTlv('9F03', req.otherAmountCents ?? 0),
    typeTlv(req.transactionType ?? TRANSACTION_TYPE.purchase),
  ];
  if (req.currencyCode !== undefined) nodes.push(currencyTlv(req.currencyCode));
  if (req.outputTags) nodes.push(encodeOutputTags(req.outputTags));
  nodes.push({
    tag: 'DFEF1F',
    value: Uint8Array.of(req.autoAuthenticate ? 1 : 0, (req.forceOnline ?? true) ? 1 : 0),
  });
  nodes.push(...extraTlvs);
  const head = concat(
    Uint8Array.of(req.allowFallback ? 1 : 0),
    u16(seconds16(req.cardSeatedTimeoutSeconds, 'TimeOut1')),
    u16(seconds16(req.authenticateTimeoutSeconds, 'TimeOut2')),
  );
  const { cmd, sub } = IDTECH_EMV_COMMANDS.contactStart;
  return encodeVivo2Command(cmd, sub, concat(head, encodeTlv(nodes)));
}

export type ParsedContactStart = Omit<ContactStartRequest, 'outputTags'> & {
  outputTags?: string[];
  /** Every TLV of the command, for a reader that honours more than the named ones. */
  tlv: TlvNode[];
};

/** Reads a 60-10 command's data (the reader's side); undefined when malformed or without 9F02. */
export function parseContactStartData(data: Uint8Array): ParsedContactStart | undefined {
  if (data.length < 5) return undefined;
  const fallback = data[0] ?? 0;
  if (fallback > 1) return undefined;
  const nodes = safeDecode(data.subarray(5));
  if (!nodes) return undefined;
  const amounts = readAmounts(nodes);
  if (!amounts) return undefined;
  const dfef1f = findTlv(nodes, 'DFEF1F');
  const out: ParsedContactStart = {
    ...amounts,
    allowFallback: fallback === 1,
    cardSeatedTimeoutSeconds: ((data[1] ?? 0) << 8) | (data[2] ?? 0),
    authenticateTimeoutSeconds: ((data[3] ?? 0) << 8) | (data[4] ?? 0),
    autoAuthenticate: dfef1f?.value[0] === 1,
    forceOnline: dfef1f ? dfef1f.value[1] === 1 : false,
    tlv: nodes,
  };
  const tags = outputTagList(nodes);
  if (tags) out.outputTags = tags;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// 60-11 Contact Authenticate (§3, NEO2 p.185)

/** The 60-11 frame; `tlvs` optionally update 9F02/9F03/9C or carry DFEE1A. */
export function buildContactAuthenticate(tlvs: readonly TlvNode[] = []): Uint8Array {
  const { cmd, sub } = IDTECH_EMV_COMMANDS.contactAuthenticate;
  return encodeVivo2Command(cmd, sub, encodeTlv(tlvs));
}

/** Reads a 60-11 command's data; undefined when it is not a (possibly empty) TLV list. */
export function parseContactAuthenticateData(data: Uint8Array): TlvNode[] | undefined {
  return safeDecode(data);
}

// ---------------------------------------------------------------------------------------------------
// 60-12 Contact Apply Host Response (§3, NEO2 p.189; MiniSmart II p.24 body)

export type ApplyHostResponse =
  | {
      kind: 'online';
      /** 8A, 2 bytes ("00" approved is 30 30). */
      arc: Uint8Array;
      /** 91: ARPC || ARC (method 1) or ARPC || CSU [|| data] (method 2). */
      issuerAuthData?: Uint8Array;
      /** 71 / 72 issuer script templates, in the order the issuer sent them. */
      scripts?: readonly TlvNode[];
      /** App Data TLVs (DFEE1A). */
      appData?: readonly TlvNode[];
    }
  | { kind: 'unable-to-go-online'; appData?: readonly TlvNode[] };

export function buildContactApplyHostResponse(r: ApplyHostResponse): Uint8Array {
  const nodes: TlvNode[] = [];
  if (r.kind === 'online') {
    if (r.arc.length !== 2) throw new IdtechEmvError('8A (authorisation response code) is 2 bytes');
    nodes.push({ tag: '8A', value: r.arc });
    if (r.issuerAuthData) {
      if (r.issuerAuthData.length < 8 || r.issuerAuthData.length > 16)
        throw new IdtechEmvError('91 (issuer authentication data) is 8 to 16 bytes');
      nodes.push({ tag: '91', value: r.issuerAuthData });
    }
    for (const s of r.scripts ?? []) {
      if (s.tag !== '71' && s.tag !== '72') throw new IdtechEmvError('issuer scripts are 71 or 72 templates');
      nodes.push(s);
    }
  }
  nodes.push(...(r.appData ?? []));
  const { cmd, sub } = IDTECH_EMV_COMMANDS.contactApplyHostResponse;
  return encodeVivo2Command(cmd, sub, concat(Uint8Array.of(r.kind === 'online' ? 1 : 0), encodeTlv(nodes)));
}

/** Reads a 60-12 command's data; undefined when ComFlag is not 00/01, the TLVs do not parse or 8A is missing. */
export function parseContactApplyHostResponseData(data: Uint8Array): ApplyHostResponse | undefined {
  if (data.length < 1) return undefined;
  const comFlag = data[0];
  // Scripts are the card's to judge: one the reader cannot parse still goes to the card (Book 4 §12.2.4).
  const nodes = safeDecode(data.subarray(1), true);
  if (!nodes) return undefined;
  if (comFlag === 0) return { kind: 'unable-to-go-online', appData: nodes };
  if (comFlag !== 1) return undefined;
  const arc = nodes.find((n) => n.tag === '8A');
  if (arc?.value.length !== 2) return undefined;
  const out: ApplyHostResponse = { kind: 'online', arc: arc.value };
  const iad = nodes.find((n) => n.tag === '91');
  if (iad) out.issuerAuthData = iad.value;
  const scripts = nodes.filter((n) => n.tag === '71' || n.tag === '72');
  if (scripts.length > 0) out.scripts = scripts;
  const appData = nodes.filter((n) => !['8A', '91', '71', '72'].includes(n.tag));
  if (appData.length > 0) out.appData = appData;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// 05-01 Cancel (§4, NEO2 p.242)

/** Cancel: data length 00 (`… 05 01 00 00 92 EF`). */
export function buildCancel(): Uint8Array {
  const { cmd, sub } = IDTECH_EMV_COMMANDS.cancelTransaction;
  return encodeVivo2Command(cmd, sub);
}

/** Reset: data length 01 + mode (01 = reset status without display: `… 05 01 00 01 01 D1 BD`). */
export function buildCancelReset(mode = 0x01): Uint8Array {
  const { cmd, sub } = IDTECH_EMV_COMMANDS.cancelTransaction;
  return encodeVivo2Command(cmd, sub, Uint8Array.of(mode & 0xff));
}

// ---------------------------------------------------------------------------------------------------
// Responses

/** Data of a 60-1x response: `RC | Attribution | TLVs` (CHOICE above). */
export function encodeContactResponseData(
  resultCode: number,
  tlvs: readonly TlvNode[] = [],
  attribution = ATTRIBUTION_CONTACT,
): Uint8Array {
  return concat(u16(resultCode), Uint8Array.of(attribution & 0xff), encodeTlv(tlvs));
}

/** A whole 60-1x response frame (the reader's side). */
export function encodeContactResponse(
  resultCode: number,
  tlvs: readonly TlvNode[] = [],
  status: number = PROTOCOL2_STATUS.ok,
): Uint8Array {
  // A response carries the command byte only: which 60-1x it answers follows from the exchange.
  return encodeVivo2Response(0x60, status, encodeContactResponseData(resultCode, tlvs));
}

export type ContactResponse =
  | {
      ok: true;
      status: number;
      resultCode: number;
      attribution: number;
      tlv: TlvNode[];
      /** The TLV bytes as received, for the gateway's EmvData. */
      tlvBytes: Uint8Array;
    }
  | { ok: false; status: number; reason: string };

/**
 * Reads a 60-1x response. Status 00 (and 23, see CHOICE) carry `RC | Attribution | TLVs`; any other
 * status is a reader-level failure whose data, if any, is ignored.
 */
export function parseContactResponse(frame: Vivo2Frame): ContactResponse {
  if (!frame.crcOk) return { ok: false, status: PROTOCOL2_STATUS.crcError, reason: 'response CRC mismatch' };
  const s = frame.subOrStatus;
  if (s !== PROTOCOL2_STATUS.ok && s !== PROTOCOL2_STATUS.requestOnlineAuthorization)
    return { ok: false, status: s, reason: protocol2StatusText(s) };
  if (frame.data.length < 3)
    return {
      ok: false,
      status: PROTOCOL2_STATUS.malformattedData,
      reason: 'response shorter than RC + Attribution',
    };
  const tlvBytes = frame.data.slice(3);
  const nodes = safeDecode(tlvBytes);
  if (!nodes)
    return { ok: false, status: PROTOCOL2_STATUS.malformattedData, reason: 'response TLVs do not parse' };
  let resultCode = ((frame.data[0] ?? 0) << 8) | (frame.data[1] ?? 0);
  // Status 23 means "go online" whatever RC says (CHOICE above).
  if (s === PROTOCOL2_STATUS.requestOnlineAuthorization) resultCode = EMV_RESULT.goOnline;
  return { ok: true, status: s, resultCode, attribution: frame.data[2] ?? 0, tlv: nodes, tlvBytes };
}

export type ActivateResponse =
  | {
      ok: true;
      status: number;
      attribution: number;
      cardInterface: CardInterface;
      tlv: TlvNode[];
      tlvBytes: Uint8Array;
    }
  | { ok: false; status: number; reason: string };

/** Data of a 02-40 response with card data: `Attribution | TLVs` (no KSN; CHOICE above). */
export function encodeActivateResponseData(attribution: number, tlvs: readonly TlvNode[]): Uint8Array {
  return concat(Uint8Array.of(attribution & 0xff), encodeTlv(tlvs));
}

/** Data of a 02-40 contact start that ended before "start OK": its EMV result code (CHOICE above). */
export function encodeActivateFailureData(resultCode: number): Uint8Array {
  return u16(resultCode);
}

/** The EMV result code of a 02-40 failure (status 0A with 2 bytes of data), if it carries one. */
export function activateFailureResultCode(frame: Vivo2Frame): number | undefined {
  if (!frame.crcOk || frame.subOrStatus !== PROTOCOL2_STATUS.failed || frame.data.length !== 2)
    return undefined;
  return ((frame.data[0] ?? 0) << 8) | (frame.data[1] ?? 0);
}

/** Reads a 02-40 response: status 00 or 23 with `Attribution | TLVs`, else the status. */
export function parseActivateResponse(frame: Vivo2Frame): ActivateResponse {
  if (!frame.crcOk) return { ok: false, status: PROTOCOL2_STATUS.crcError, reason: 'response CRC mismatch' };
  const s = frame.subOrStatus;
  if (s !== PROTOCOL2_STATUS.ok && s !== PROTOCOL2_STATUS.requestOnlineAuthorization)
    return { ok: false, status: s, reason: protocol2StatusText(s) };
  if (frame.data.length < 1)
    return {
      ok: false,
      status: PROTOCOL2_STATUS.malformattedData,
      reason: 'response has no Attribution byte',
    };
  const attribution = frame.data[0] ?? 0;
  const tlvBytes = frame.data.slice(1);
  const nodes = safeDecode(tlvBytes);
  if (!nodes)
    return { ok: false, status: PROTOCOL2_STATUS.malformattedData, reason: 'response TLVs do not parse' };
  return {
    ok: true,
    status: s,
    attribution,
    cardInterface: attributionInterface(attribution),
    tlv: nodes,
    tlvBytes,
  };
}
