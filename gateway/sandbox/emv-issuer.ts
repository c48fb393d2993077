/**
 * The sandbox issuer's chip checks (EMV 4.4 Book 2 §8.1-8.2, Book 4 §6.3.8): from the EmvData of a chip
 * read or a tap it recomputes the card's ARQC — ICC master key from the issuer master key of the card's
 * scheme and its PAN/PSN, session key and MAC by the card's cryptogram version, over the CDOL1 data in the
 * card's order — and answers a contact read with 8A and 91 (the ARPC) and, for the script trigger cards,
 * issuer scripts 71/72 with their secure-messaging MACs (a PIN change's PIN block enciphered too). Pure: the ATC register and the decision to
 * approve live in sandbox-processor.ts. Imports only native/protocols (the gateway's layering rule).
 *
 * Which EmvData is checked: all of it. A contactless read (9F39 07) or EmvData without 9F39 carries the
 * card's ARQC as a contact read does (a contactless kernel runs the same 1st GENERATE AC), so it is
 * checked the same way — skipping it let any made-up contactless EmvData be approved, and a tap be
 * replayed. Only the answer differs: a tapped card has left the field, so nothing is sent back for it.
 *
 * Nothing here logs, and nothing it computes is stored: cryptograms and keys live only in this call.
 */
import { type TlvNode, TlvError, decodeTlvHex, findTlv, flattenTlv } from '../../native/protocols/ber-tlv';
import {
  type AcTransactionData,
  type CryptogramVersion,
  type MasterKeys,
  acDataTailFromIad,
  applicationCryptogram,
  cryptogramVersion,
  deriveIccMasterKeys,
  issuerAuthenticationData,
  pinChangeCommand,
  scriptCommandMac,
} from '../../native/protocols/emv-cryptogram-versions';
import { buildIssuerScript } from '../../native/protocols/emv-issuer-script';
import { encodeIssuerResponse } from '../../native/protocols/emv-issuer-response';
import { hexToBytes } from '../../native/protocols/hex';
import { fromBcd } from '../../native/protocols/vivotech2';

export type ChipScheme = 'visa' | 'mastercard';

/**
 * The sandbox issuer master keys per scheme (MK-AC, MK-SMI, MK-SMC), published in the README with the
 * test cards. The simulated chip cards are personalised from the same values
 * (native/simulators/test-cards.ts SANDBOX_ISSUER_MASTER_KEYS). Test keys only.
 */
export const SANDBOX_ISSUER_KEYS: Readonly<Record<ChipScheme, MasterKeys>> = {
  visa: {
    ac: hexToBytes('0123456789ABCDEFFEDCBA9876543210'),
    smi: hexToBytes('FEDCBA98765432100123456789ABCDEF'),
    smc: hexToBytes('89ABCDEF0123456776543210FEDCBA98'),
  },
  mastercard: {
    ac: hexToBytes('11111111111111112222222222222222'),
    smi: hexToBytes('33333333333333334444444444444444'),
    smc: hexToBytes('55555555555555556666666666666666'),
  },
};

/** Why a chip read or a tap did not verify; each maps to its own ResponseCode in sandbox-processor.ts. */
export type ChipRefusal =
  'cryptogram-missing' | 'cryptogram-version-unsupported' | 'cryptogram-invalid' | 'amount-mismatch';

/** A verified ARQC: what the issuer needs to answer the card. Held in memory for this authorisation only. */
export type VerifiedArqc = {
  version: CryptogramVersion;
  scheme: ChipScheme;
  pan: string;
  panSequenceNumber: string;
  atc: number;
  /** 9F02 and 9F03 as the card signed them. */
  amountCents: number;
  otherAmountCents: number;
  /**
   * 8A and 91, and with an approval the scripts asked for: `scripts`, the PUT DATA (71) and PIN UNBLOCK
   * (72) pair; `pinChange`, a PIN CHANGE/UNBLOCK (72) that sets the card's offline PIN to this one, the
   * PIN block enciphered under the SM confidentiality key and the command MACed under the integrity key.
   */
  answer(arc: string, options?: { scripts?: boolean; pinChange?: string }): string;
};

/** `contact`: a contact chip read (9F39 05), whose card waits for the issuer's answer. */
export type ChipCheck =
  | { kind: 'refused'; reason: ChipRefusal; contact: boolean }
  | { kind: 'verified'; arqc: VerifiedArqc; contact: boolean };

const TABLE_26 = ['9F02', '9F03', '9F1A', '95', '5F2A', '9A', '9C', '9F37', '82', '9F36'] as const;
const LENGTHS: Readonly<Record<(typeof TABLE_26)[number], number>> = {
  '9F02': 6,
  '9F03': 6,
  '9F1A': 2,
  '95': 5,
  '5F2A': 2,
  '9A': 3,
  '9C': 1,
  '9F37': 4,
  '82': 2,
  '9F36': 2,
};

/** Book 2 §8.2.2 CSU byte 2 bit 8: the issuer approves the online transaction. */
const CSU_APPROVE = Uint8Array.of(0x00, 0x80, 0x00, 0x00);
const CSU_DECLINE = Uint8Array.of(0x00, 0x00, 0x00, 0x00);

/** ARCs that approve (Book 4 Annex A6, ISO 8583 field 39). */
const APPROVING = new Set(['00', '08', '10', '11']);

function schemeOf(pan: string): ChipScheme | undefined {
  if (pan.startsWith('4')) return 'visa';
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  return undefined;
}

/** The CVN byte inside 9F10: VIS `len | DKI | CVN | …`, M/Chip `KDI | CVN | …`. */
function cvnOf(scheme: ChipScheme, iad: Uint8Array): number | undefined {
  return scheme === 'visa' ? iad[2] : iad[1];
}

// rule: arqc-check
/**
 * Checks the ARQC of a chip read or a tap. `pan` is the PAN the gateway resolved from the same EmvData;
 * `amounts` what the request charges (9F02 must equal the total, 9F03 the cash back).
 */
export function checkChipCryptogram(
  emvHex: string,
  pan: string,
  amounts: { totalCents: number; cashbackCents: number },
  keys: Readonly<Record<ChipScheme, MasterKeys>> = SANDBOX_ISSUER_KEYS,
): ChipCheck {
  let nodes: TlvNode[];
  try {
    nodes = flattenTlv(decodeTlvHex(emvHex));
  } catch (e) {
    // The gateway refuses EmvData that does not parse before it gets here; nothing in it can be checked.
    if (e instanceof TlvError) return { kind: 'refused', reason: 'cryptogram-missing', contact: false };
    throw e;
  }
  const tag = (t: string): Uint8Array | undefined => findTlv(nodes, t)?.value;
  const entry = tag('9F39');
  const contact = entry?.length === 1 && entry[0] === 0x05;
  const refused = (reason: ChipRefusal): ChipCheck => ({ kind: 'refused', reason, contact });
  // A scheme the issuer holds no keys for: nothing in the EmvData could be verified, whatever it holds.
  const scheme = schemeOf(pan);
  if (!scheme) return refused('cryptogram-version-unsupported');

  const arqc = tag('9F26');
  const cid = tag('9F27');
  const iad = tag('9F10');
  const values: Partial<Record<(typeof TABLE_26)[number], Uint8Array>> = {};
  for (const t of TABLE_26) {
    const v = tag(t);
    if (v?.length === LENGTHS[t]) values[t] = v;
  }
  const complete = TABLE_26.every((t) => values[t] !== undefined);
  // 9F27 bits 8-7 = 10: the card asked to go online (Book 3 Table 14).
  if (!arqc || arqc.length !== 8 || cid?.length !== 1 || ((cid[0] ?? 0) & 0xc0) !== 0x80 || !iad || !complete)
    return refused('cryptogram-missing');
  const cvn = cvnOf(scheme, iad);
  const version = cvn !== undefined ? cryptogramVersion(scheme, cvn) : undefined;
  if (!version) return refused('cryptogram-version-unsupported');
  const psnTag = tag('5F34');
  const psn = psnTag?.length === 1 ? fromBcd(psnTag) : '00';
  if (!/^\d{2}$/.test(psn)) return refused('cryptogram-missing');

  const acTags = values as AcTransactionData;
  const icc = deriveIccMasterKeys(version, keys[scheme], pan, psn);
  let expected: Uint8Array;
  try {
    expected = applicationCryptogram(version, icc.ac, acTags, acDataTailFromIad(version, iad));
  } catch {
    // A 9F10 too short for the CVN's CVR/counters: the card could not have signed it.
    return refused('cryptogram-invalid');
  }
  if (!Buffer.from(expected).equals(Buffer.from(arqc))) return refused('cryptogram-invalid');

  const amount = fromBcd(acTags['9F02']);
  const other = fromBcd(acTags['9F03']);
  if (!/^\d{12}$/.test(amount) || !/^\d{12}$/.test(other)) return refused('cryptogram-invalid');
  const amountCents = Number(amount);
  const otherAmountCents = Number(other);
  // The ARQC is genuine but signs another sale than the one charged: altered request data.
  if (amountCents !== amounts.totalCents || otherAmountCents !== amounts.cashbackCents)
    return refused('amount-mismatch');

  const atcBytes = acTags['9F36'];
  const un = acTags['9F37'];
  return {
    kind: 'verified',
    contact,
    arqc: {
      version,
      scheme,
      pan,
      panSequenceNumber: psn,
      atc: ((atcBytes[0] ?? 0) << 8) | (atcBytes[1] ?? 0),
      amountCents,
      otherAmountCents,
      answer(arc, options = {}) {
        const arcBytes = Uint8Array.from(Buffer.from(arc, 'latin1'));
        const approve = APPROVING.has(arc);
        const auth = issuerAuthenticationData(version, icc.ac, {
          arqc,
          atc: atcBytes,
          unpredictableNumber: un,
          arc: arcBytes,
          csu: approve ? CSU_APPROVE : CSU_DECLINE,
        });
        const scripts: TlvNode[] = [];
        if (options.scripts && approve) {
          // 71 (before the 2nd GENERATE AC): PUT DATA 9F58, lower consecutive offline limit = 5.
          const putHeader = Uint8Array.of(0x04, 0xda, 0x9f, 0x58, 0x09);
          const putData = Uint8Array.of(0x05);
          const putMac = scriptCommandMac(version, icc.smi, putHeader, atcBytes, arqc, putData);
          // 72 (after it): PIN UNBLOCK, the command of the vectors' template 72.
          const unblockHeader = Uint8Array.of(0x84, 0x24, 0x00, 0x00, 0x08);
          const unblockMac = scriptCommandMac(version, icc.smi, unblockHeader, atcBytes, arqc);
          scripts.push(
            buildIssuerScript({
              template: '71',
              scriptId: Uint8Array.of(0, 0, 0, 1),
              commands: [concat(putHeader, putData, putMac)],
            }),
            buildIssuerScript({
              template: '72',
              scriptId: Uint8Array.of(0, 0, 0, 2),
              commands: [concat(unblockHeader, unblockMac)],
            }),
          );
        }
        if (options.pinChange !== undefined && approve) {
          // 72 (after the 2nd GENERATE AC): the card's offline PIN becomes the issuer's; Visa profiles
          // write a VIS PIN block, Mastercard ones ISO 9564-1 format 2 (emv-cryptogram-versions.ts).
          const command = pinChangeCommand(version, icc, { pin: options.pinChange, atc: atcBytes, arqc });
          scripts.push(
            buildIssuerScript({ template: '72', scriptId: Uint8Array.of(0, 0, 0, 3), commands: [command] }),
          );
        }
        return encodeIssuerResponse({ arc, issuerAuthData: auth, scripts });
      },
    },
  };
}

/** The issuer response of a decision made without a verified ARQC: 8A alone (no ARPC to give). */
export function arcOnly(arc: string): string {
  return encodeIssuerResponse({ arc });
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}
