import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeTlv,
  decodeTlvHex,
  encodeTlv,
  encodeTlvHex,
  findTlv,
  flattenTlv,
  isConstructedTag,
  TlvError,
  type TlvNode,
} from '../../../native/protocols/ber-tlv';
import { bytesToHex, hexToBytes } from '../../../native/protocols/hex';
import { loadVector } from '../../support/vectors';
import { assertThrown } from '../../support/narrow';

type EmvVector = { hex: string; tlvCount: number; expect: Record<string, string> };
const v = loadVector<EmvVector>('emv/emv-tlv.json');

function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof TlvError) return e.code;
    throw e;
  }
  return 'no error';
}

/** Structure without raw constructed values, which re-encoding may legitimately normalise. */
type Shape = { tag: string; value?: string; children?: Shape[] };
const shape = (nodes: readonly TlvNode[]): Shape[] =>
  nodes.map((n) =>
    n.children ? { tag: n.tag, children: shape(n.children) } : { tag: n.tag, value: bytesToHex(n.value) },
  );

describe('BER-TLV: the published Visa ARQC record', () => {
  const nodes = decodeTlvHex(v.hex);

  it(`holds ${v.tlvCount} TLV objects`, () => {
    expect(nodes).toHaveLength(v.tlvCount);
    expect(flattenTlv(nodes)).toHaveLength(v.tlvCount);
  });

  it.each(Object.entries(v.expect))('tag %s has the published value', (tag, value) => {
    expect(bytesToHex(findTlv(nodes, tag)?.value ?? new Uint8Array())).toBe(value);
  });

  it('re-encodes byte for byte', () => {
    expect(encodeTlvHex(nodes)).toBe(v.hex.toUpperCase());
  });
});

describe('BER-TLV structure', () => {
  it('decodes multi-byte tags, long-form lengths and nested constructed tags', () => {
    const long = 'AB'.repeat(200);
    // 70 { 9F02 n12, BF0C { DF8101 (3-byte tag) with a 0x81 length, 5F2A } } then 9F1A with a 0x82 length
    const inner = `DF8101${'8181'}${'CD'.repeat(0x81)}5F2A020840`;
    const bf0c = `BF0C81${(inner.length / 2).toString(16).toUpperCase()}${inner}`;
    const outerValue = `9F0206000000010000${bf0c}`;
    const hex = `7081${(outerValue.length / 2).toString(16).toUpperCase()}${outerValue}9F1A81C8${long}`;
    const nodes = decodeTlvHex(hex);
    expect(nodes.map((n) => n.tag)).toEqual(['70', '9F1A']);
    expect(nodes[0]?.children?.map((n) => n.tag)).toEqual(['9F02', 'BF0C']);
    expect(findTlv(nodes, 'df8101')?.value).toHaveLength(0x81);
    expect(bytesToHex(findTlv(nodes, '5F2A')?.value ?? new Uint8Array())).toBe('0840');
    expect(findTlv(nodes, '9F1A')?.value).toHaveLength(200);
    expect(encodeTlvHex(nodes)).toBe(hex);
  });

  it('skips 00/FF padding between objects (EMV Book 3 Annex B)', () => {
    expect(shape(decodeTlvHex('00009F270180FF00820200 00'.replace(/ /g, '')))).toEqual([
      { tag: '9F27', value: '80' },
      { tag: '82', value: '0000' },
    ]);
  });

  it('tells constructed tags from primitive ones', () => {
    expect(isConstructedTag('70')).toBe(true);
    expect(isConstructedTag('BF0C')).toBe(true);
    expect(isConstructedTag('9F02')).toBe(false);
    expect(isConstructedTag('5A')).toBe(false);
  });

  it('builds constructed values from children and writes minimal lengths', () => {
    const bytes = encodeTlv([
      { tag: '70', value: new Uint8Array(), children: [{ tag: '5F2A', value: hexToBytes('0840') }] },
      { tag: '9F10', value: new Uint8Array(128) },
      { tag: '91', value: new Uint8Array(256) },
    ]);
    const hex = bytesToHex(bytes);
    expect(hex.startsWith('70055F2A0208409F108180')).toBe(true);
    expect(hex.slice(14 + 8 + 256, 14 + 8 + 256 + 8)).toBe('91820100');
  });

  it('refuses malformed input with typed errors that hold no data', () => {
    expect(errorCode(() => decodeTlvHex('5A08476173900101'))).toBe('truncated');
    expect(errorCode(() => decodeTlvHex('9F'))).toBe('truncated');
    expect(errorCode(() => decodeTlvHex('9F02'))).toBe('truncated');
    expect(errorCode(() => decodeTlvHex('9F0282'))).toBe('truncated');
    expect(errorCode(() => decodeTlvHex('9F0280'))).toBe('length');
    expect(errorCode(() => decodeTlvHex('9F02850000000001'))).toBe('length');
    expect(errorCode(() => decodeTlvHex('9F818181810100'))).toBe('tag');
    expect(errorCode(() => decodeTlvHex('5A0'))).toBe('hex');
    expect(errorCode(() => decodeTlvHex('zz'))).toBe('hex');
    expect(errorCode(() => decodeTlvHex('70 04 5A 08 47 61'))).toBe('truncated');
    const e = assertThrown(() => decodeTlvHex('5A084761739001010010570A4761739001'));
    expect(e).toBeInstanceOf(TlvError);
    expect((e as TlvError).message).not.toMatch(/4761/);
    expect((e as TlvError).offset).toBe(10);
  });

  it('bounds nesting depth instead of overflowing the stack', () => {
    const deep = new Uint8Array(2 * 40);
    for (let i = 0; i < 40; i += 1) {
      deep[2 * i] = 0xe1;
      deep[2 * i + 1] = 2 * (40 - i - 1);
    }
    expect(errorCode(() => decodeTlv(deep))).toBe('depth');
  });

  it('refuses tags that are not well-formed when encoding', () => {
    const value = new Uint8Array(1);
    expect(errorCode(() => encodeTlv([{ tag: '9F', value }]))).toBe('tag');
    expect(errorCode(() => encodeTlv([{ tag: '5A02', value }]))).toBe('tag');
    expect(errorCode(() => encodeTlv([{ tag: '9F8102', value }]))).toBe('no error');
    expect(errorCode(() => encodeTlv([{ tag: '9F8182', value }]))).toBe('tag');
    expect(errorCode(() => encodeTlv([{ tag: 'XYZ', value }]))).toBe('tag');
    expect(errorCode(() => encodeTlv([{ tag: '5A', value, children: [] }]))).toBe('children');
  });

  // A tag of either kind: one byte, or a 0x1F-numbered first byte plus one more. 00 and FF are padding.
  const tagArb = (constructed: boolean): fc.Arbitrary<string> =>
    fc
      .tuple(fc.integer({ min: 0, max: 0xff }), fc.boolean(), fc.integer({ min: 0, max: 0x7f }))
      .map(([b, multi, next]) => {
        const first = (constructed ? b | 0x20 : b & ~0x20) & 0xff;
        return multi
          ? bytesToHex(Uint8Array.of(first | 0x1f, next))
          : bytesToHex(Uint8Array.of((first & 0x1f) === 0x1f ? first & ~0x01 : first));
      })
      .filter((tag) => !tag.startsWith('00') && !tag.startsWith('FF'));
  const tlvTree = fc.letrec<{ tree: TlvNode; forest: TlvNode[] }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ tag: tagArb(false), value: fc.uint8Array({ maxLength: 300 }) }),
      fc
        .tuple(tagArb(true), tie('forest'))
        .map(([tag, children]): TlvNode => ({ tag, value: encodeTlv(children), children })),
    ),
    forest: fc.array(tie('tree'), { maxLength: 4 }),
  }));

  it('round-trips generated TLV trees (property)', () => {
    fc.assert(
      fc.property(tlvTree.forest, (nodes) => {
        expect(shape(decodeTlv(encodeTlv(nodes)))).toEqual(shape(nodes));
      }),
      { numRuns: 300 },
    );
  });

  it('fuzz: random bytes decode or throw TlvError, never hang', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        let nodes: ReturnType<typeof decodeTlv>;
        try {
          nodes = decodeTlv(bytes);
        } catch (e) {
          // Refusing is allowed; any other failure than the codec's own error is not.
          if (e instanceof TlvError) return;
          throw e;
        }
        expect(shape(decodeTlv(encodeTlv(nodes)))).toEqual(shape(nodes));
      }),
      { numRuns: 3000 },
    );
  });
});
