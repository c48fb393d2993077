import { EmvKeyError } from './emv-keys';
import {
  desCbcDecrypt,
  desCbcEncrypt,
  desEcbDecrypt,
  desEcbEncrypt,
  macIso9797Alg3Tdes,
  padIso9797Method2,
} from './iso9797-mac';

/**
 * Secure messaging of issuer scripts (EMV 4.4 Book 2 §9): the command MAC that proves a script command
 * comes from the issuer (§9.2, format 2, MAC algorithm 3 with padding method 2), the encipherment of
 * confidential command data such as a new offline PIN (§9.3), and the PIN blocks a PIN CHANGE/UNBLOCK
 * command carries — both ways: the issuer's encipherment and the card's decipherment and reading.
 * Pure; errors never echo keys or PINs.
 */

/** Command MAC (Book 2 §9.2.3): `length` bytes (4..8, default 8) of MAC algorithm 3 over `macData`. */
export function secureMessagingMac(sessionKeySmi: Uint8Array, macData: Uint8Array, length = 8): Uint8Array {
  if (sessionKeySmi.length !== 16)
    throw new EmvKeyError('the SM integrity key must be a double-length TDES key');
  return macIso9797Alg3Tdes(sessionKeySmi, macData, 2, length);
}

/**
 * How command data is padded and enciphered (Book 2 §9.3.1.2 and the schemes' variants, as pyemv names
 * them): `emv` always pads (method 2) and uses TDES-CBC with a zero IV; `mastercard` pads only data that
 * is not whole blocks; `visa` prefixes the data's length byte, pads (method 2) and uses TDES-ECB.
 */
export type CommandEncryption = 'emv' | 'mastercard' | 'visa';

export function encryptCommandData(
  sessionKeySmc: Uint8Array,
  commandData: Uint8Array,
  encryption: CommandEncryption,
): Uint8Array {
  if (sessionKeySmc.length !== 16)
    throw new EmvKeyError('the SM confidentiality key must be a double-length TDES key');
  switch (encryption) {
    case 'visa': {
      if (commandData.length > 255) throw new EmvKeyError('Visa command data is at most 255 bytes');
      const prefixed = new Uint8Array(commandData.length + 1);
      prefixed[0] = commandData.length;
      prefixed.set(commandData, 1);
      return desEcbEncrypt(sessionKeySmc, padIso9797Method2(prefixed));
    }
    case 'mastercard':
      return desCbcEncrypt(
        sessionKeySmc,
        commandData.length % 8 === 0 && commandData.length > 0 ? commandData : padIso9797Method2(commandData),
      );
    case 'emv':
      return desCbcEncrypt(sessionKeySmc, padIso9797Method2(commandData));
  }
}

/** The index of ISO/IEC 9797-1 method 2 padding (80 then zeros) at the end of `data`, or -1 without. */
function method2PaddingAt(data: Uint8Array): number {
  let i = data.length - 1;
  while (i >= 0 && data[i] === 0x00) i -= 1;
  return i >= 0 && data[i] === 0x80 && data.length - i <= 8 ? i : -1;
}

/**
 * The card's side of `encryptCommandData`: the command data deciphered under the SM confidentiality
 * session key, its padding removed as the variant put it there. Null when it cannot be command data of
 * that variant (not whole blocks; EMV or Visa padding, or Visa's length byte, that does not fit) — what a
 * wrong key or an altered command gives. Mastercard pads only a partial block, so its whole blocks come
 * back as deciphered: the reader of the data knows its length (an 8-byte PIN block).
 */
export function decryptCommandData(
  sessionKeySmc: Uint8Array,
  enciphered: Uint8Array,
  encryption: CommandEncryption,
): Uint8Array | null {
  if (sessionKeySmc.length !== 16)
    throw new EmvKeyError('the SM confidentiality key must be a double-length TDES key');
  if (enciphered.length === 0 || enciphered.length % 8 !== 0) return null;
  switch (encryption) {
    case 'visa': {
      const plain = desEcbDecrypt(sessionKeySmc, enciphered);
      const length = plain[0] ?? 0;
      const pad = method2PaddingAt(plain);
      return pad === 1 + length ? plain.slice(1, 1 + length) : null;
    }
    case 'mastercard':
      return desCbcDecrypt(sessionKeySmc, enciphered);
    case 'emv': {
      const plain = desCbcDecrypt(sessionKeySmc, enciphered);
      const pad = method2PaddingAt(plain);
      return pad < 0 ? null : plain.slice(0, pad);
    }
  }
}

export class PinChangeError extends RangeError {
  override readonly name = 'PinChangeError';
}

function checkPin(pin: string, what: string): void {
  if (!/^\d{4,12}$/.test(pin)) throw new PinChangeError(`${what} must be 4 to 12 digits`);
}

function pinField(pin: string): Uint8Array {
  return Uint8Array.from(Buffer.from(pin.padEnd(14, 'F'), 'hex'));
}

/** ISO 9564-1 format 2 (offline PIN, no PAN): 2N || PIN || F padding, 8 bytes. */
export function pinBlockIso9564Format2(pin: string): Uint8Array {
  checkPin(pin, 'the PIN');
  const out = new Uint8Array(8);
  out[0] = 0x20 | pin.length;
  out.set(pinField(pin), 1);
  return out;
}

/**
 * The VIS PIN block of a Visa PIN change (VIS 1.5 Annex C): (00000000 || bytes 5-8 of the ICC AC master
 * key) xor (PIN length || PIN || F padding), then xor the current PIN (zero-padded to 16 digits) when the
 * change is authenticated with it.
 */
export function visPinBlock(iccMasterKeyAc: Uint8Array, pin: string, currentPin?: string): Uint8Array {
  checkPin(pin, 'the new PIN');
  if (iccMasterKeyAc.length !== 16)
    throw new EmvKeyError('the ICC AC master key is a double-length TDES key');
  const block = new Uint8Array(8);
  block[0] = pin.length;
  block.set(pinField(pin), 1);
  for (let i = 4; i < 8; i += 1) block[i] = (block[i] ?? 0) ^ (iccMasterKeyAc[i] ?? 0);
  if (currentPin !== undefined) {
    checkPin(currentPin, 'the current PIN');
    const current = Buffer.from(currentPin.padEnd(16, '0'), 'hex');
    for (let i = 0; i < 8; i += 1) block[i] = (block[i] ?? 0) ^ (current[i] ?? 0);
  }
  return block;
}

/** PIN digits in nibbles 2.. of a block whose first byte gives their count (4..12), F fill after them. */
function pinFromNibbles(block: Uint8Array, length: number): string | null {
  if (length < 4 || length > 12) return null;
  const nibbles = Buffer.from(block.subarray(1, 8)).toString('hex').toUpperCase();
  const pin = nibbles.slice(0, length);
  return /^\d+$/.test(pin) && /^F*$/.test(nibbles.slice(length)) ? pin : null;
}

/** Reads an ISO 9564-1 format 2 block (control field 2, length, PIN, F fill); null when it is not one. */
export function readPinBlockIso9564Format2(block: Uint8Array): string | null {
  if (block.length !== 8 || (block[0] ?? 0) >> 4 !== 0x2) return null;
  return pinFromNibbles(block, (block[0] ?? 0) & 0x0f);
}

/**
 * Reads a VIS PIN block (`visPinBlock`): the masks taken off again — bytes 5-8 of the ICC AC master key,
 * and the current PIN when the change was authenticated with it — then length, PIN and F fill checked.
 * Null when it is not one (a wrong current PIN, a wrong key, an altered block).
 */
export function readVisPinBlock(
  iccMasterKeyAc: Uint8Array,
  block: Uint8Array,
  currentPin?: string,
): string | null {
  if (iccMasterKeyAc.length !== 16)
    throw new EmvKeyError('the ICC AC master key is a double-length TDES key');
  if (block.length !== 8) return null;
  const plain = Uint8Array.from(block);
  for (let i = 4; i < 8; i += 1) plain[i] = (plain[i] ?? 0) ^ (iccMasterKeyAc[i] ?? 0);
  if (currentPin !== undefined) {
    if (!/^\d{4,12}$/.test(currentPin)) return null;
    const current = Buffer.from(currentPin.padEnd(16, '0'), 'hex');
    for (let i = 0; i < 8; i += 1) plain[i] = (plain[i] ?? 0) ^ (current[i] ?? 0);
  }
  return pinFromNibbles(plain, plain[0] ?? 0);
}
