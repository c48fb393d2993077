import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decryptTdesDukptPinBlock,
  deriveIpekTdes,
  derivePinKeyTdes,
  deriveTransactionKeyTdes,
  DukptError,
  encryptTdesDukptPinBlock,
  ksnCounterTdes,
  normalizeKsnTdes,
  PinBlockError,
  pinKeyFromTransactionKey,
} from '../../../native/protocols/dukpt-tdes';
import { encodePinBlockFormat0 } from '../../../native/protocols/iso9564-pin-block';
import { loadVector } from '../../support/vectors';

type Row = { ksn: string; transactionKey: string; pinKey: string; encryptedPinBlock: string };
type TdesVectors = {
  bdk: string;
  initialKsn: string;
  ipek: string;
  pin: string;
  pan: string;
  clearPinBlockFormat0: string;
  pinVariantMask: string;
  rows: Row[];
  wrongSingleDesResults: Record<string, string>;
};

const v = loadVector<TdesVectors>('ansi-x9.24-dukpt/dukpt-tdes.json');
const xorHex = (a: string, b: string): string =>
  (BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(16).toUpperCase().padStart(a.length, '0');

describe('ANSI X9.24-1 TDES DUKPT (Annex A.4 vectors)', () => {
  it('has the 38 published rows', () => {
    expect(v.rows).toHaveLength(38);
  });

  it('derives the IPEK from the BDK and initial KSN', () => {
    expect(deriveIpekTdes(v.bdk, v.initialKsn)).toBe(v.ipek);
    // Any KSN of the same device gives the same IPEK: the counter is cleared first.
    for (const row of v.rows) expect(deriveIpekTdes(v.bdk, row.ksn)).toBe(v.ipek);
  });

  it('builds the clear format 0 block the vectors encrypt', () => {
    expect(encodePinBlockFormat0(v.pin, v.pan)).toBe(v.clearPinBlockFormat0);
  });

  describe.each(v.rows)('KSN $ksn', (row) => {
    it('transaction key', () => {
      expect(deriveTransactionKeyTdes(v.ipek, row.ksn)).toBe(row.transactionKey);
    });
    it('PIN key (variant of the transaction key)', () => {
      expect(pinKeyFromTransactionKey(row.transactionKey)).toBe(row.pinKey);
      expect(xorHex(row.transactionKey, row.pinKey)).toBe(v.pinVariantMask);
      expect(derivePinKeyTdes(v.bdk, row.ksn)).toBe(row.pinKey);
    });
    it('encrypted PIN block, and back', () => {
      expect(encryptTdesDukptPinBlock({ bdk: v.bdk, ksn: row.ksn, pin: v.pin, pan: v.pan })).toBe(
        row.encryptedPinBlock,
      );
      expect(
        decryptTdesDukptPinBlock({ bdk: v.bdk, ksn: row.ksn, pinBlock: row.encryptedPinBlock, pan: v.pan }),
      ).toBe(v.pin);
    });
  });

  it('does not produce the legacy single-DES results the file warns about', () => {
    const wrong = Object.entries(v.wrongSingleDesResults).filter(([k]) => k !== 'note');
    expect(wrong.length).toBeGreaterThan(0);
    expect(v.wrongSingleDesResults.note).toMatch(/single-DES/);
    for (const [ksn, wrongBlock] of wrong) {
      const ours = encryptTdesDukptPinBlock({ bdk: v.bdk, ksn, pin: v.pin, pan: v.pan });
      expect(ours).not.toBe(wrongBlock);
      expect(ours).toBe(v.rows.find((r) => r.ksn === ksn)?.encryptedPinBlock);
    }
  });

  it('accepts the shortened KSN of a packet 73 (leading F dropped) and lower case', () => {
    // docs/devices.md §4.3 example: 73.00000 9876543210E00001 1B9C1845EB993A7A
    expect(normalizeKsnTdes('9876543210E00001')).toBe('FFFF9876543210E00001');
    expect(normalizeKsnTdes('fff9876543210e00001')).toBe('FFFF9876543210E00001');
    expect(
      decryptTdesDukptPinBlock({
        bdk: v.bdk,
        ksn: '9876543210E00001',
        pinBlock: '1B9C1845EB993A7A',
        pan: v.pan,
      }),
    ).toBe('1234');
    expect(encryptTdesDukptPinBlock({ bdk: v.bdk, ksn: '9876543210e00001', pin: '1234', pan: v.pan })).toBe(
      '1B9C1845EB993A7A',
    );
  });

  it('reads the 21-bit counter', () => {
    expect(ksnCounterTdes('FFFF9876543210E00001')).toBe(1);
    expect(ksnCounterTdes('FFFF9876543210EFF800')).toBe(0xff800);
    expect(ksnCounterTdes('FFFF9876543210F00000')).toBe(0x100000);
  });

  it('refuses malformed keys and KSNs with DukptError', () => {
    expect(() => deriveIpekTdes('0123', v.initialKsn)).toThrow(DukptError);
    expect(() => deriveIpekTdes(v.bdk, '123')).toThrow(DukptError);
    expect(() => deriveIpekTdes(v.bdk, 'FFFF9876543210E0000G')).toThrow(DukptError);
    expect(() => deriveTransactionKeyTdes(v.ipek, v.initialKsn)).toThrow(DukptError);
    expect(() => pinKeyFromTransactionKey('00')).toThrow(DukptError);
  });

  it('reports a wrong key or a tampered block as PinBlockError without secrets in the message', () => {
    const row = v.rows[0];
    if (!row) throw new Error('no rows');
    const otherBdk = 'FEDCBA98765432100123456789ABCDEF';
    const attempts = [
      { bdk: otherBdk, ksn: row.ksn, pinBlock: row.encryptedPinBlock, pan: v.pan },
      { bdk: v.bdk, ksn: row.ksn, pinBlock: row.encryptedPinBlock, pan: '4012345678901234' },
      { bdk: v.bdk, ksn: row.ksn, pinBlock: 'XYZ', pan: v.pan },
      { bdk: v.bdk, ksn: v.initialKsn, pinBlock: row.encryptedPinBlock, pan: v.pan },
      { bdk: v.bdk, ksn: 'nope', pinBlock: row.encryptedPinBlock, pan: v.pan },
    ];
    for (const a of attempts) {
      let caught: unknown;
      try {
        decryptTdesDukptPinBlock(a);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(PinBlockError);
      const msg = (caught as Error).message;
      for (const secret of [a.bdk, a.ksn, a.pinBlock, a.pan, v.pin, v.ipek])
        expect(msg).not.toContain(secret);
    }
    expect(() =>
      decryptTdesDukptPinBlock({ bdk: 'bad', ksn: row.ksn, pinBlock: row.encryptedPinBlock, pan: v.pan }),
    ).toThrow(DukptError);
  });

  it('fuzz: random PIN blocks and KSNs only ever throw the typed errors', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.stringMatching(/^[0-9A-F]{16}$/), fc.string({ maxLength: 20 })),
        fc.oneof(fc.stringMatching(/^[0-9A-F]{10,20}$/), fc.string({ maxLength: 24 })),
        (pinBlock, ksn) => {
          try {
            decryptTdesDukptPinBlock({ bdk: v.bdk, ksn, pinBlock, pan: v.pan });
          } catch (e) {
            // A typed refusal passes the property; anything else fails it.
            if (!(e instanceof PinBlockError)) throw e;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
