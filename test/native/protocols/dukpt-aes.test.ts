import { describe, expect, it } from 'vitest';
import {
  AES_DUKPT_KEY_USAGE,
  decryptAesDukptPinBlock,
  deriveDerivationKeyAes,
  deriveInitialKeyAes,
  derivePinKeyAes,
  deriveWorkingKeyAes,
  DukptError,
  encryptAesDukptPinBlock,
  parseKsnAes,
} from '../../../native/protocols/dukpt-aes';
import { PinBlockError } from '../../../native/protocols/iso9564-pin-block';
import { loadVector } from '../../support/vectors';

type AesVectors = {
  bdk: string;
  initialKeyId: string;
  initialKey: string;
  firstKsn: string;
  counters: { counter: number; derivationKey: string; pinKey: string }[];
  pinBlockFormat4: { pinKey: string; pin: string; pan: string; randomPad: string; encrypted: string };
};

const v = loadVector<AesVectors>('ansi-x9.24-dukpt/dukpt-aes.json');
const ksnFor = (counter: number): string =>
  v.initialKeyId + counter.toString(16).toUpperCase().padStart(8, '0');

describe('ANSI X9.24-3 AES-128 DUKPT', () => {
  it('derives the initial key from the BDK and initial key ID', () => {
    expect(deriveInitialKeyAes(v.bdk, v.initialKeyId)).toBe(v.initialKey);
  });

  it('splits the 12-byte KSN into initial key ID and counter', () => {
    expect(parseKsnAes(v.firstKsn)).toEqual({ initialKeyId: v.initialKeyId, counter: 1 });
    expect(ksnFor(1)).toBe(v.firstKsn);
  });

  describe.each(v.counters)('counter $counter', ({ counter, derivationKey, pinKey }) => {
    it('derivation key', () => {
      expect(deriveDerivationKeyAes(v.initialKey, ksnFor(counter))).toBe(derivationKey);
    });
    it('PIN encryption key', () => {
      expect(deriveWorkingKeyAes(derivationKey, ksnFor(counter), AES_DUKPT_KEY_USAGE.pinEncryption)).toBe(
        pinKey,
      );
      expect(derivePinKeyAes(v.bdk, ksnFor(counter))).toBe(pinKey);
    });
  });

  it('enciphers the published format 4 PIN block under the first transaction PIN key', () => {
    const p = v.pinBlockFormat4;
    expect(derivePinKeyAes(v.bdk, v.firstKsn)).toBe(p.pinKey);
    expect(
      encryptAesDukptPinBlock({
        bdk: v.bdk,
        ksn: v.firstKsn,
        pin: p.pin,
        pan: p.pan,
        randomPad: p.randomPad,
      }),
    ).toBe(p.encrypted);
    expect(decryptAesDukptPinBlock({ bdk: v.bdk, ksn: v.firstKsn, pinBlock: p.encrypted, pan: p.pan })).toBe(
      p.pin,
    );
  });

  it('round-trips with a random pad at a later counter', () => {
    const ksn = ksnFor(8);
    const pinBlock = encryptAesDukptPinBlock({ bdk: v.bdk, ksn, pin: '987654', pan: '4111111111111111' });
    expect(decryptAesDukptPinBlock({ bdk: v.bdk, ksn, pinBlock, pan: '4111111111111111' })).toBe('987654');
    // Another counter's key must not open it.
    expect(() =>
      decryptAesDukptPinBlock({ bdk: v.bdk, ksn: ksnFor(7), pinBlock, pan: '4111111111111111' }),
    ).toThrow(PinBlockError);
  });

  it('refuses malformed inputs with typed errors', () => {
    expect(() => deriveInitialKeyAes('00', v.initialKeyId)).toThrow(DukptError);
    expect(() => deriveInitialKeyAes(v.bdk, '1234')).toThrow(DukptError);
    expect(() => parseKsnAes('FFFF9876543210E00001')).toThrow(DukptError);
    expect(() => deriveDerivationKeyAes(v.initialKey, ksnFor(0))).toThrow(DukptError);
    const p = v.pinBlockFormat4;
    expect(() =>
      decryptAesDukptPinBlock({ bdk: v.bdk, ksn: 'zz', pinBlock: p.encrypted, pan: p.pan }),
    ).toThrow(PinBlockError);
  });
});
