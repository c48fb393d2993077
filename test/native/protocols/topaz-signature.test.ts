import { describe, expect, it } from 'vitest';
import {
  StrokeAssembler,
  TOPAZ_MODELS,
  TopazDecoder,
  decodeTopazPacket,
  encodeStrokes,
  encodeTopazPacket,
  scaleTopazPoint,
  unscaleTopazPoint,
} from '../../../native/protocols/topaz-signature';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

describe('Topaz pen packets (reverse-engineered, docs/devices.md §5.1)', () => {
  it('[calc] pen-down, near, X=1000, Y=800 -> C1 68 07 20 06', () => {
    expect(hex(encodeTopazPacket({ x: 1000, y: 800, penDown: true }))).toBe('C168072006');
    expect(decodeTopazPacket(Uint8Array.of(0xc1, 0x68, 0x07, 0x20, 0x06))).toEqual({
      type: 'point',
      status: 0xc1,
      penDown: true,
      near: true,
      x: 1000,
      y: 800,
      ignore: false,
    });
  });
  it('type bits 4..2 classify packets; 0xFFF/0xFFF is ignored', () => {
    expect(decodeTopazPacket(encodeTopazPacket({ x: 1, y: 1, penDown: true, typeBits: 2 })).type).toBe(
      'info',
    );
    expect(decodeTopazPacket(encodeTopazPacket({ x: 1, y: 1, penDown: true, typeBits: 7 })).type).toBe(
      'pressure',
    );
    expect(decodeTopazPacket(encodeTopazPacket({ x: 1, y: 1, penDown: true, typeBits: 4 })).type).toBe(
      'point',
    );
    expect(decodeTopazPacket(encodeTopazPacket({ x: 1, y: 1, penDown: true, typeBits: 3 })).type).toBe(
      'other',
    );
    expect(decodeTopazPacket(encodeTopazPacket({ x: 0xfff, y: 0xfff, penDown: true })).ignore).toBe(true);
  });
  it('SigLite 1x5 scaling: (1000, 800) -> (500, 100), clamped at the edges, and inverse', () => {
    const m = TOPAZ_MODELS.SigLite1X5;
    expect(scaleTopazPoint(1000, 800, m)).toEqual({ x: 500, y: 100 });
    expect(scaleTopazPoint(0, 4095, m)).toEqual({ x: 0, y: 1400 });
    expect(unscaleTopazPoint(500, 100, m)).toEqual({ x: 1000, y: 800 });
  });
});

describe('TopazDecoder and StrokeAssembler', () => {
  it('resynchronises on the next status byte after a lost byte and noise', () => {
    const d = new TopazDecoder();
    const good = encodeTopazPacket({ x: 1000, y: 800, penDown: true });
    const packets = d.feed(
      Uint8Array.from([0x11, 0x22, ...good.subarray(0, 3), ...good, ...good.subarray(0, 2)]),
    );
    expect(packets).toHaveLength(1);
    expect(packets[0]?.x).toBe(1000);
    expect(d.droppedBytes).toBe(5);
    expect(d.hasPartial).toBe(true);
  });
  it('round-trips strokes through pen packets, split at every byte', () => {
    const strokes = [
      [
        { x: 100, y: 100 },
        { x: 200, y: 150 },
        { x: 300, y: 120 },
      ],
      [{ x: 1000, y: 700 }],
      [
        { x: 2150, y: 1400 },
        { x: 0, y: 0 },
      ],
    ];
    const bytes = encodeStrokes(strokes);
    const d = new TopazDecoder();
    const a = new StrokeAssembler(TOPAZ_MODELS.SigLite1X5);
    let t = 0;
    for (const b of bytes) d.push(Uint8Array.of(b), (p) => a.add(p, (t += 10)));
    expect(a.inStroke).toBe(false);
    expect(a.strokes.map((s) => s.map(({ x, y }) => ({ x, y })))).toEqual(strokes);
    expect(a.strokes[0]?.[1]?.t).toBeGreaterThan(a.strokes[0]?.[0]?.t ?? Infinity);
  });
  it('endStroke() closes a stroke left pen-down', () => {
    const a = new StrokeAssembler();
    a.add(decodeTopazPacket(encodeTopazPacket({ x: 1000, y: 800, penDown: true })));
    expect(a.inStroke).toBe(true);
    expect(a.endStroke()).toEqual([{ x: 500, y: 100, t: 0 }]);
    expect(a.endStroke()).toBeUndefined();
  });
});
