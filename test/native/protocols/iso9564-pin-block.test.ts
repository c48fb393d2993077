import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodePinBlockFormat0,
  decodePinBlockFormat4,
  encodePinBlockFormat0,
  encodePinBlockFormat4,
  PinBlockError,
} from '../../../native/protocols/iso9564-pin-block';
import { loadVector } from '../../support/vectors';
import { assertThrown } from '../../support/narrow';

type Iso0Vectors = { note: string; cases: { pin: string; pan: string; block: string }[] };
type AesVectors = {
  pinBlockFormat4: { pinKey: string; pin: string; pan: string; randomPad: string; encrypted: string };
};

const iso0 = loadVector<Iso0Vectors>('iso9564-pin-blocks/pinblock-iso0.json');
const f4 = loadVector<AesVectors>('ansi-x9.24-dukpt/dukpt-aes.json').pinBlockFormat4;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof PinBlockError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('ISO 9564 format 0', () => {
  it.each(iso0.cases)('encodes PIN $pin for PAN $pan', ({ pin, pan, block }) => {
    expect(encodePinBlockFormat0(pin, pan)).toBe(block);
  });

  it.each(iso0.cases)('decodes block $block', ({ pin, pan, block }) => {
    expect(decodePinBlockFormat0(block, pan)).toBe(pin);
    expect(decodePinBlockFormat0(block.toLowerCase(), pan)).toBe(pin);
  });

  it('does not Luhn-validate the PAN (the vectors say some fail Luhn)', () => {
    expect(iso0.note).toMatch(/Luhn/);
    // A PAN that fails Luhn still encodes: the block binds the digits as given.
    expect(encodePinBlockFormat0('1234', '4111111111111112')).toMatch(/^[0-9A-F]{16}$/);
  });

  it('refuses malformed input with typed codes', () => {
    const pan = '4012345678909';
    expect(codeOf(() => encodePinBlockFormat0('123', pan))).toBe('pin');
    expect(codeOf(() => encodePinBlockFormat0('1234567890123', pan))).toBe('pin');
    expect(codeOf(() => encodePinBlockFormat0('12a4', pan))).toBe('pin');
    expect(codeOf(() => encodePinBlockFormat0('1234', '1234567'))).toBe('pan');
    expect(codeOf(() => encodePinBlockFormat0('1234', '4012 3456 7890 9'))).toBe('pan');
    expect(codeOf(() => decodePinBlockFormat0('041274EDCBA9876', pan))).toBe('block');
    expect(codeOf(() => decodePinBlockFormat0('041274EDCBA9876G', pan))).toBe('block');
  });

  it('rejects blocks that XOR to a malformed PIN field', () => {
    // PAN field 0000 4012 3456 7890 for this PAN; each block below is that XOR a bad clear field.
    const pan = '4012345678909';
    const withField = (clear: string): string => {
      const panField = BigInt('0x0000401234567890');
      return (BigInt(`0x${clear}`) ^ panField).toString(16).padStart(16, '0').toUpperCase();
    };
    expect(codeOf(() => decodePinBlockFormat0(withField('141234FFFFFFFFFF'), pan))).toBe('format');
    expect(codeOf(() => decodePinBlockFormat0(withField('031234FFFFFFFFFF'), pan))).toBe('length');
    expect(codeOf(() => decodePinBlockFormat0(withField('0D1234FFFFFFFFFF'), pan))).toBe('length');
    expect(codeOf(() => decodePinBlockFormat0(withField('04123AFFFFFFFFFF'), pan))).toBe('digit');
    expect(codeOf(() => decodePinBlockFormat0(withField('041234FFFFFFFFFE'), pan))).toBe('fill');
  });

  it('keeps PIN, PAN and block out of error messages', () => {
    const pan = '4012345678909';
    const block = '141274EDCBA9876F';
    const e = assertThrown(() => decodePinBlockFormat0(block, pan));
    expect(e).toBeInstanceOf(PinBlockError);
    const msg = String((e as Error).message);
    expect(msg).not.toContain(pan);
    expect(msg).not.toContain(block);
    expect(msg).not.toContain('1234');
  });

  it('round-trips any PIN and PAN (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4,12}$/), fc.stringMatching(/^\d{8,19}$/), (pin, pan) => {
        expect(decodePinBlockFormat0(encodePinBlockFormat0(pin, pan), pan)).toBe(pin);
      }),
      { numRuns: 300 },
    );
  });

  it('fuzz: decoding random input only ever throws PinBlockError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9A-F]{16}$/), fc.string()), fc.string(), (block, pan) => {
        let pin: string;
        try {
          pin = decodePinBlockFormat0(block, pan);
        } catch (e) {
          if (e instanceof PinBlockError) return;
          throw e;
        }
        expect(pin).toMatch(/^\d{4,12}$/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('ISO 9564 format 4 (AES)', () => {
  it('matches the published format 4 block', () => {
    expect(encodePinBlockFormat4({ pin: f4.pin, pan: f4.pan, key: f4.pinKey, randomPad: f4.randomPad })).toBe(
      f4.encrypted,
    );
    expect(decodePinBlockFormat4({ pinBlock: f4.encrypted, pan: f4.pan, key: f4.pinKey })).toBe(f4.pin);
  });

  it('uses a fresh random pad when none is given', () => {
    const a = encodePinBlockFormat4({ pin: f4.pin, pan: f4.pan, key: f4.pinKey });
    const b = encodePinBlockFormat4({ pin: f4.pin, pan: f4.pan, key: f4.pinKey });
    expect(a).not.toBe(b);
    expect(decodePinBlockFormat4({ pinBlock: a, pan: f4.pan, key: f4.pinKey })).toBe(f4.pin);
  });

  it('binds the PAN: another PAN does not decode', () => {
    expect(
      codeOf(() =>
        decodePinBlockFormat4({ pinBlock: f4.encrypted, pan: '4111111111111129', key: f4.pinKey }),
      ),
    ).not.toBe('no error');
  });

  it('refuses bad keys, blocks and pads with typed codes', () => {
    const base = { pin: f4.pin, pan: f4.pan, key: f4.pinKey };
    expect(codeOf(() => encodePinBlockFormat4({ ...base, key: 'ABCD' }))).toBe('key');
    expect(codeOf(() => encodePinBlockFormat4({ ...base, randomPad: '00' }))).toBe('fill');
    expect(
      codeOf(() => decodePinBlockFormat4({ pinBlock: f4.encrypted.slice(2), pan: f4.pan, key: f4.pinKey })),
    ).toBe('block');
  });

  it('round-trips short and long PANs (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4,12}$/), fc.stringMatching(/^\d{8,19}$/), (pin, pan) => {
        const pinBlock = encodePinBlockFormat4({ pin, pan, key: f4.pinKey });
        expect(decodePinBlockFormat4({ pinBlock, pan, key: f4.pinKey })).toBe(pin);
      }),
      { numRuns: 200 },
    );
  });

  it('fuzz: decoding random blocks only ever throws PinBlockError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9A-F]{32}$/), fc.string()), (pinBlock) => {
        try {
          decodePinBlockFormat4({ pinBlock, pan: f4.pan, key: f4.pinKey });
        } catch (e) {
          if (!(e instanceof PinBlockError)) throw e;
        }
      }),
      { numRuns: 500 },
    );
  });
});
