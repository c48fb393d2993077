import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  VECTOR_MAX_GROUPS,
  decodeVectorSignature,
  encodeVectorSignature,
  strokesToPng,
  strokesToSvg,
} from '../../../native/protocols/signature-render';

const PLUS = [
  [
    { x: 130, y: 50 },
    { x: 170, y: 50 },
  ],
  [
    { x: 150, y: 30 },
    { x: 150, y: 70 },
  ],
];

describe('Worldnet/Payroc base-28 vector signature (docs/devices.md §5.2)', () => {
  it('decodes the published example 4i1m621m00005a125a2e to a "+" sign', () => {
    expect(decodeVectorSignature('4i1m621m00005a125a2e')).toEqual(PLUS);
  });
  it('encodes the "+" sign back to the same string', () => {
    expect(encodeVectorSignature(PLUS, { width: 300, height: 100 })).toBe('4i1m621m00005a125a2e');
  });
  it('fits a pad canvas into 300x100 and thins long signatures to 400 groups', () => {
    const long = [Array.from({ length: 2000 }, (_, i) => ({ x: i % 2150, y: (i * 7) % 1400 }))];
    const s = encodeVectorSignature(long, { width: 2150, height: 1400 });
    expect(s.length).toBeLessThanOrEqual(VECTOR_MAX_GROUPS * 4);
    const [stroke] = decodeVectorSignature(s);
    for (const p of stroke ?? []) {
      expect(p.x).toBeLessThan(300);
      expect(p.y).toBeLessThan(100);
    }
  });
  it('never encodes a point as the pen-up group', () => {
    expect(encodeVectorSignature([[{ x: 0, y: 0 }]], { width: 300, height: 100 })).toBe('0100');
  });
});

describe('SVG and PNG rendering', () => {
  it('SVG has one polyline per stroke and a dot for a lone point', () => {
    const svg = strokesToSvg([...PLUS, [{ x: 10, y: 10 }]], {
      source: { width: 300, height: 100 },
      width: 300,
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="300" height="100"/);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('points="130,50 170,50"');
    expect(svg).toContain('<circle cx="10" cy="10"');
  });
  it('PNG decodes to the requested size with ink on the strokes and white elsewhere', () => {
    const bytes = strokesToPng(PLUS, { source: { width: 300, height: 100 }, width: 300, strokeWidth: 3 });
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = PNG.sync.read(Buffer.from(bytes));
    expect([png.width, png.height]).toEqual([300, 100]);
    const px = (x: number, y: number): number => png.data[(y * 300 + x) * 4] ?? -1;
    expect(px(150, 50)).toBe(0);
    expect(px(140, 50)).toBe(0);
    expect(px(150, 35)).toBe(0);
    expect(px(10, 10)).toBe(255);
    expect(px(150, 80)).toBe(255);
  });
});
