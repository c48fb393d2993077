import { arpcMethod1, arpcMethod2 } from './emv-arpc';
import { generateApplicationCryptogram } from './emv-cryptogram';
import {
  EmvKeyError,
  atcDiversification,
  atcUnDiversification,
  deriveCommonSessionKey,
  deriveIccMasterKey,
  deriveVisaSecureMessagingKey,
} from './emv-keys';
import {
  type CommandEncryption,
  decryptCommandData,
  encryptCommandData,
  pinBlockIso9564Format2,
  readPinBlockIso9564Format2,
  readVisPinBlock,
  secureMessagingMac,
  visPinBlock,
} from './emv-secure-messaging';

/**
 * Cryptogram versions (CVN): what each scheme's card profile fixes about its keys and cryptograms — ICC
 * master key option, AC session key, the data after Book 2 Table 26's elements, ARPC method and key,
 * secure-messaging session keys, MAC data and command-data encipherment. The profiles are those of the
 * published reference implementation the team's vectors come from (pyemv `cvn.py`): Visa CVN 10/18/22
 * (VIS 1.5/1.6), Mastercard CVN 16/17/20/21 (M/Chip 4 / Advance), Interac CVN 133. The simulated chip
 * card and the sandbox issuer both go through this file, so card and issuer agree by construction.
 */

export type CryptogramVersionId =
  | 'visa-10'
  | 'visa-18'
  | 'visa-22'
  | 'mastercard-16'
  | 'mastercard-17'
  | 'mastercard-20'
  | 'mastercard-21'
  | 'interac-133';

export type CryptogramVersion = {
  id: CryptogramVersionId;
  scheme: 'visa' | 'mastercard' | 'interac';
  cvn: number;
  iccMasterKeyOption: 'A' | 'B';
  /** `none`: the ICC AC master key itself; `common`: R = ATC || 0…0; `mastercard`: R = ATC || 0000 || UN. */
  acSessionKey: 'none' | 'common' | 'mastercard';
  acPadding: 1 | 2;
  /** What follows the ten Table 26 elements: the CVR, the whole 9F10, or the CVR and the counters. */
  acDataTail: 'cvr' | 'iad' | 'cvr-counters';
  arpcMethod: 1 | 2;
  /** Which key the ARPC is computed under. */
  arpcKey: 'icc-master-key' | 'ac-session-key';
  /** Secure-messaging session keys: Visa's (from the ATC) or the common method with R = ARQC. */
  smSessionKey: 'visa' | 'common';
  /** Whether the MAC covers ATC || ARQC between the command header and its data (format 2 "padded with transaction data"). */
  macTransactionData: boolean;
  encryption: CommandEncryption;
  /** PIN block of the PIN-change script without the current PIN. */
  pinChangeBlock: 'vis' | 'iso9564-2';
  /** Whether a PIN change can be authenticated with the current PIN (VIS PIN block with the current PIN). */
  currentPinChange: boolean;
};

const visa = (
  cvn: number,
  rest: Omit<CryptogramVersion, 'scheme' | 'cvn' | 'id' | 'encryption' | 'currentPinChange'>,
) =>
  ({
    id: `visa-${cvn}`,
    scheme: 'visa',
    cvn,
    encryption: 'visa',
    currentPinChange: true,
    ...rest,
  }) as CryptogramVersion;
const mastercard = (
  cvn: number,
  rest: Omit<
    CryptogramVersion,
    | 'scheme'
    | 'cvn'
    | 'id'
    | 'encryption'
    | 'currentPinChange'
    | 'pinChangeBlock'
    | 'macTransactionData'
    | 'smSessionKey'
    | 'iccMasterKeyOption'
    | 'acPadding'
    | 'arpcMethod'
  >,
) =>
  ({
    id: `mastercard-${cvn}`,
    scheme: 'mastercard',
    cvn,
    iccMasterKeyOption: 'A',
    acPadding: 2,
    arpcMethod: 1,
    smSessionKey: 'common',
    macTransactionData: true,
    encryption: 'mastercard',
    pinChangeBlock: 'iso9564-2',
    currentPinChange: false,
    ...rest,
  }) as CryptogramVersion;

export const CRYPTOGRAM_VERSIONS: Readonly<Record<CryptogramVersionId, CryptogramVersion>> = {
  'visa-10': visa(10, {
    iccMasterKeyOption: 'A',
    acSessionKey: 'none',
    acPadding: 1,
    acDataTail: 'cvr',
    arpcMethod: 1,
    arpcKey: 'icc-master-key',
    smSessionKey: 'visa',
    macTransactionData: true,
    pinChangeBlock: 'vis',
  }),
  'visa-18': visa(18, {
    iccMasterKeyOption: 'B',
    acSessionKey: 'common',
    acPadding: 2,
    acDataTail: 'iad',
    arpcMethod: 2,
    arpcKey: 'ac-session-key',
    smSessionKey: 'visa',
    macTransactionData: true,
    pinChangeBlock: 'vis',
  }),
  'visa-22': visa(22, {
    iccMasterKeyOption: 'B',
    acSessionKey: 'common',
    acPadding: 2,
    acDataTail: 'iad',
    arpcMethod: 2,
    arpcKey: 'ac-session-key',
    smSessionKey: 'common',
    macTransactionData: true,
    pinChangeBlock: 'iso9564-2',
  }),
  'mastercard-16': mastercard(16, {
    acSessionKey: 'mastercard',
    acDataTail: 'cvr',
    arpcKey: 'icc-master-key',
  }),
  'mastercard-17': mastercard(17, {
    acSessionKey: 'mastercard',
    acDataTail: 'cvr-counters',
    arpcKey: 'icc-master-key',
  }),
  'mastercard-20': mastercard(20, { acSessionKey: 'common', acDataTail: 'cvr', arpcKey: 'ac-session-key' }),
  'mastercard-21': mastercard(21, {
    acSessionKey: 'common',
    acDataTail: 'cvr-counters',
    arpcKey: 'ac-session-key',
  }),
  'interac-133': {
    id: 'interac-133',
    scheme: 'interac',
    cvn: 133,
    iccMasterKeyOption: 'A',
    acSessionKey: 'mastercard',
    acPadding: 2,
    acDataTail: 'iad',
    arpcMethod: 1,
    arpcKey: 'ac-session-key',
    smSessionKey: 'common',
    macTransactionData: false,
    encryption: 'mastercard',
    pinChangeBlock: 'iso9564-2',
    currentPinChange: false,
  },
};

export function cryptogramVersion(
  scheme: CryptogramVersion['scheme'],
  cvn: number,
): CryptogramVersion | undefined {
  return Object.values(CRYPTOGRAM_VERSIONS).find((v) => v.scheme === scheme && v.cvn === cvn);
}

/** The issuer's three master keys of a card programme (Book 2 A1.4: MK_AC, MK_SMI, MK_SMC). */
export type MasterKeys = { ac: Uint8Array; smi: Uint8Array; smc: Uint8Array };

/** What a card is personalised with: its three ICC master keys, derived by the CVN's option. */
export function deriveIccMasterKeys(
  v: CryptogramVersion,
  issuer: MasterKeys,
  pan: string,
  psn = '00',
): MasterKeys {
  return {
    ac: deriveIccMasterKey(v.iccMasterKeyOption, issuer.ac, pan, psn),
    smi: deriveIccMasterKey(v.iccMasterKeyOption, issuer.smi, pan, psn),
    smc: deriveIccMasterKey(v.iccMasterKeyOption, issuer.smc, pan, psn),
  };
}

export function acSessionKey(
  v: CryptogramVersion,
  iccMasterKeyAc: Uint8Array,
  atc: Uint8Array,
  unpredictableNumber: Uint8Array,
): Uint8Array {
  switch (v.acSessionKey) {
    case 'none':
      return iccMasterKeyAc;
    case 'common':
      return deriveCommonSessionKey(iccMasterKeyAc, atcDiversification(atc));
    case 'mastercard':
      return deriveCommonSessionKey(iccMasterKeyAc, atcUnDiversification(atc, unpredictableNumber));
  }
}

/** The ten elements of Book 2 Table 26, by tag; the values the card's CDOL1 was filled with. */
export type AcTransactionData = Readonly<
  Record<'9F02' | '9F03' | '9F1A' | '95' | '5F2A' | '9A' | '9C' | '9F37' | '82' | '9F36', Uint8Array>
>;

const TABLE_26: readonly [keyof AcTransactionData, number][] = [
  ['9F02', 6],
  ['9F03', 6],
  ['9F1A', 2],
  ['95', 5],
  ['5F2A', 2],
  ['9A', 3],
  ['9C', 1],
  ['9F37', 4],
  ['82', 2],
  ['9F36', 2],
];

/** The card-specific data that ends the AC input, per the CVN's `acDataTail`. */
export type AcDataTail = { cvr?: Uint8Array; iad?: Uint8Array; counters?: Uint8Array };

/**
 * CVR (and counters) inside 9F10 for the versions that MAC only part of it: VIS format 0 (CVN 10)
 * `len | DKI | CVN | CVR(4)`; M/Chip `KDI | CVN | CVR(6) | DAC/IDN(2) | counters(8)`.
 */
export function acDataTailFromIad(v: CryptogramVersion, iad: Uint8Array): AcDataTail {
  if (v.acDataTail === 'iad') return { iad };
  if (v.scheme === 'visa') {
    if (iad.length < 7) throw new EmvKeyError('9F10 is too short for a VIS CVR');
    return { cvr: iad.slice(3, 7) };
  }
  if (iad.length < (v.acDataTail === 'cvr-counters' ? 18 : 8))
    throw new EmvKeyError('9F10 is too short for an M/Chip CVR and counters');
  const tail: AcDataTail = { cvr: iad.slice(2, 8) };
  if (v.acDataTail === 'cvr-counters') tail.counters = iad.slice(10, 18);
  return tail;
}

/** Table 26 data in order, then the CVN's tail; throws when an element has the wrong length. */
export function acInputData(v: CryptogramVersion, tags: AcTransactionData, tail: AcDataTail): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [tag, length] of TABLE_26) {
    const value = tags[tag];
    if (value.length !== length) throw new EmvKeyError(`${tag} must be ${length} bytes`);
    parts.push(value);
  }
  const need = (x: Uint8Array | undefined, what: string): Uint8Array => {
    if (!x) throw new EmvKeyError(`CVN ${v.cvn} needs the ${what}`);
    return x;
  };
  if (v.acDataTail === 'iad') parts.push(need(tail.iad, 'issuer application data (9F10)'));
  else {
    parts.push(need(tail.cvr, 'card verification results (CVR)'));
    if (v.acDataTail === 'cvr-counters') parts.push(need(tail.counters, 'counters'));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** An application cryptogram (ARQC/TC/AAC) as the card computes it and the issuer recomputes it. */
export function applicationCryptogram(
  v: CryptogramVersion,
  iccMasterKeyAc: Uint8Array,
  tags: AcTransactionData,
  tail: AcDataTail,
): Uint8Array {
  const key = acSessionKey(v, iccMasterKeyAc, tags['9F36'], tags['9F37']);
  return generateApplicationCryptogram(key, acInputData(v, tags, tail), v.acPadding);
}

export function arpcKeyFor(
  v: CryptogramVersion,
  iccMasterKeyAc: Uint8Array,
  atc: Uint8Array,
  unpredictableNumber: Uint8Array,
): Uint8Array {
  return v.arpcKey === 'icc-master-key'
    ? iccMasterKeyAc
    : acSessionKey(v, iccMasterKeyAc, atc, unpredictableNumber);
}

export type ArpcInput = {
  arqc: Uint8Array;
  atc: Uint8Array;
  unpredictableNumber: Uint8Array;
  /** Method 1: the ARPC response code (the 8A bytes). */
  arc?: Uint8Array;
  /** Method 2: card status update. */
  csu?: Uint8Array;
  proprietaryAuthData?: Uint8Array;
};

export function authorisationResponseCryptogram(
  v: CryptogramVersion,
  iccMasterKeyAc: Uint8Array,
  a: ArpcInput,
): Uint8Array {
  const key = arpcKeyFor(v, iccMasterKeyAc, a.atc, a.unpredictableNumber);
  if (v.arpcMethod === 1) {
    if (!a.arc) throw new EmvKeyError('ARPC method 1 needs the ARPC response code');
    return arpcMethod1(key, a.arqc, a.arc);
  }
  if (!a.csu) throw new EmvKeyError('ARPC method 2 needs the card status update');
  return arpcMethod2(key, a.arqc, a.csu, a.proprietaryAuthData);
}

/** Tag 91's value: ARPC || ARC (method 1) or ARPC || CSU || proprietary data (method 2). */
export function issuerAuthenticationData(
  v: CryptogramVersion,
  iccMasterKeyAc: Uint8Array,
  a: ArpcInput,
): Uint8Array {
  const arpc = authorisationResponseCryptogram(v, iccMasterKeyAc, a);
  const tail =
    v.arpcMethod === 1
      ? (a.arc ?? new Uint8Array(0))
      : concat(a.csu ?? new Uint8Array(0), a.proprietaryAuthData ?? new Uint8Array(0));
  return concat(arpc, tail);
}

export function secureMessagingSessionKey(
  v: CryptogramVersion,
  iccMasterKeySm: Uint8Array,
  atc: Uint8Array,
  arqc: Uint8Array,
): Uint8Array {
  return v.smSessionKey === 'visa'
    ? deriveVisaSecureMessagingKey(iccMasterKeySm, atc)
    : deriveCommonSessionKey(iccMasterKeySm, arqc);
}

/** The 8-byte MAC ending a script command: over header [|| ATC || ARQC] || data, per the CVN. */
export function scriptCommandMac(
  v: CryptogramVersion,
  iccMasterKeySmi: Uint8Array,
  header: Uint8Array,
  atc: Uint8Array,
  arqc: Uint8Array,
  commandData: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const key = secureMessagingSessionKey(v, iccMasterKeySmi, atc, arqc);
  const macData = v.macTransactionData ? concat(header, atc, arqc, commandData) : concat(header, commandData);
  return secureMessagingMac(key, macData);
}

/**
 * A PIN CHANGE/UNBLOCK script command (84 24 00 02, or 84 24 00 01 with the current PIN on Visa):
 * header || enciphered PIN block || MAC. Lc counts the enciphered data and the 8-byte MAC.
 */
export function pinChangeCommand(
  v: CryptogramVersion,
  icc: MasterKeys,
  a: { pin: string; atc: Uint8Array; arqc: Uint8Array; currentPin?: string },
): Uint8Array {
  if (a.currentPin !== undefined && !v.currentPinChange)
    throw new EmvKeyError(`CVN ${v.cvn} has no PIN change authenticated with the current PIN`);
  const block =
    a.currentPin !== undefined
      ? visPinBlock(icc.ac, a.pin, a.currentPin)
      : v.pinChangeBlock === 'vis'
        ? visPinBlock(icc.ac, a.pin)
        : pinBlockIso9564Format2(a.pin);
  const smc = secureMessagingSessionKey(v, icc.smc, a.atc, a.arqc);
  const enciphered = encryptCommandData(smc, block, v.encryption);
  const header = Uint8Array.of(
    0x84,
    0x24,
    0x00,
    a.currentPin !== undefined ? 0x01 : 0x02,
    enciphered.length + 8,
  );
  return concat(header, enciphered, scriptCommandMac(v, icc.smi, header, a.atc, a.arqc, enciphered));
}

/** What a card makes of a PIN CHANGE/UNBLOCK command with data (`readPinChangeCommand`). */
export type PinChangeReading =
  | { ok: true; pin: string }
  /**
   * `not-pin-change`: not 84 24 00 01/02 with a consistent Lc, data and an 8-byte MAC; `mac`: the MAC does
   * not verify (another transaction, another card, an altered command); `pin-block`: the MAC verifies but
   * the deciphered data is not the PIN block the version expects (or the current PIN does not unmask it).
   */
  | { ok: false; reason: 'not-pin-change' | 'mac' | 'pin-block' };

/**
 * The card's side of `pinChangeCommand` (Book 2 §9.2-9.3; Book 3 §10.10): the command's MAC is checked
 * under the SM integrity session key of this transaction (its ATC and ARQC), first, before anything is
 * deciphered; then the PIN block is deciphered under the confidentiality session key and read as the
 * version writes it (VIS, or ISO 9564-1 format 2). P2 = 01 says the new PIN is masked with the current
 * one, which the card passes as `currentPin`. The PIN never leaves in an error.
 */
export function readPinChangeCommand(
  v: CryptogramVersion,
  icc: MasterKeys,
  a: { command: Uint8Array; atc: Uint8Array; arqc: Uint8Array; currentPin?: string },
): PinChangeReading {
  const c = a.command;
  const p2 = c[3];
  if (
    c.length < 5 + 8 + 8 ||
    c[0] !== 0x84 ||
    c[1] !== 0x24 ||
    c[2] !== 0x00 ||
    (p2 !== 0x01 && p2 !== 0x02) ||
    c[4] !== c.length - 5
  )
    return { ok: false, reason: 'not-pin-change' };
  const header = c.subarray(0, 5);
  const enciphered = c.subarray(5, c.length - 8);
  const mac = scriptCommandMac(v, icc.smi, header, a.atc, a.arqc, enciphered);
  if (!Buffer.from(mac).equals(Buffer.from(c.subarray(c.length - 8)))) return { ok: false, reason: 'mac' };
  const smc = secureMessagingSessionKey(v, icc.smc, a.atc, a.arqc);
  // A PIN block is one 8-byte block, whatever padding the variant added around it.
  const block = decryptCommandData(smc, enciphered, v.encryption);
  let pin: string | null = null;
  if (block?.length === 8) {
    if (p2 === 0x01)
      pin =
        v.currentPinChange && a.currentPin !== undefined
          ? readVisPinBlock(icc.ac, block, a.currentPin)
          : null;
    else
      pin = v.pinChangeBlock === 'vis' ? readVisPinBlock(icc.ac, block) : readPinBlockIso9564Format2(block);
  }
  return pin === null ? { ok: false, reason: 'pin-block' } : { ok: true, pin };
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
