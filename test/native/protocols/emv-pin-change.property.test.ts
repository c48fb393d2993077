import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CryptogramVersionId,
  CRYPTOGRAM_VERSIONS,
  deriveIccMasterKeys,
  pinChangeCommand,
  readPinChangeCommand,
} from '../../../native/protocols/emv-cryptogram-versions';
import { assertProperty, propertyRun } from '../../support/property-run';

/**
 * PIN change scripts round-trip for every cryptogram version: what the issuer builds (the PIN block
 * enciphered under the SM confidentiality session key, the command MACed under the integrity key) the
 * card verifies and deciphers back to the same PIN — for any issuer keys, card (PAN of 12 to 19 digits:
 * Option A and B), transaction (ATC, ARQC), PIN, and current PIN where the version takes one. And a
 * command altered in any one byte, or replayed into another transaction, is refused.
 */
const versions: CryptogramVersionId[] = [
  'visa-10',
  'visa-18',
  'visa-22',
  'mastercard-16',
  'mastercard-17',
  'mastercard-20',
  'mastercard-21',
  'interac-133',
];

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));

const cases = fc.record({
  id: fc.constantFrom(...versions),
  issuer: fc.record({ ac: bytes(16), smi: bytes(16), smc: bytes(16) }),
  pan: digits(12, 19),
  psn: digits(2, 2),
  atc: bytes(2),
  arqc: bytes(8),
  pin: digits(4, 12),
  currentPin: fc.option(digits(4, 12), { nil: undefined }),
  flip: fc.record({ at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
});

describe('PIN change scripts round-trip (property)', () => {
  it('the card reads back the PIN the issuer sent, and refuses any altered or replayed command', async () => {
    const seen = new Set<string>();
    await assertProperty(
      'PIN change round trip',
      fc.property(cases, (c) => {
        const v = CRYPTOGRAM_VERSIONS[c.id];
        const icc = deriveIccMasterKeys(v, c.issuer, c.pan, c.psn);
        const currentPin = v.currentPinChange ? c.currentPin : undefined;
        const tx = { atc: c.atc, arqc: c.arqc };
        const command = pinChangeCommand(v, icc, {
          pin: c.pin,
          ...tx,
          ...(currentPin !== undefined ? { currentPin } : {}),
        });
        seen.add(c.id);
        const read = readPinChangeCommand(v, icc, {
          command,
          ...tx,
          ...(currentPin !== undefined ? { currentPin } : {}),
        });
        if (read.ok !== true || read.pin !== c.pin) return false;
        const altered = Uint8Array.from(command);
        const at = c.flip.at % altered.length;
        altered[at] = (altered[at] ?? 0) ^ c.flip.mask;
        const alteredRead = readPinChangeCommand(v, icc, {
          command: altered,
          ...tx,
          ...(currentPin !== undefined ? { currentPin } : {}),
        });
        const replayArqc = Uint8Array.from(c.arqc);
        replayArqc[0] = (replayArqc[0] ?? 0) ^ 0x01;
        const replayed = readPinChangeCommand(v, icc, { command, atc: c.atc, arqc: replayArqc });
        return alteredRead.ok === false && replayed.ok === false && replayed.reason === 'mac';
      }),
      propertyRun({ seed: 20_261_128, numRuns: 400, timeMs: 10_000 }),
    );
    // Every version was exercised, or the property says less than its name.
    expect([...seen].sort()).toEqual([...versions].sort());
  });
});
