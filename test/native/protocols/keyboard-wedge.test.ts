import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSwipe } from '../../../native/protocols/iso7813-track';
import {
  decodeBootKeyboardReport,
  hidUsageToChar,
  KeyboardWedgeDecoder,
  type WedgeEvent,
} from '../../../native/protocols/keyboard-wedge';

const SWIPE = '%B4111111111111111^DOE/JOHN^2812101000000000000000000?;4111111111111111=28121010000000000000?';

/** Feeds `text` one key every `gapMs`, starting at `t0`. */
function type(d: KeyboardWedgeDecoder, text: string, gapMs: number, t0 = 0): WedgeEvent[] {
  return Array.from(text).flatMap((c, i) => d.push(c, t0 + i * gapMs));
}

describe('keyboard-wedge decoder', () => {
  it('recognises a fast swipe ending in CR (docs/devices.md §2.4) and hands it to the track parser', () => {
    const d = new KeyboardWedgeDecoder();
    const events = type(d, `${SWIPE}\r`, 4);
    expect(events).toEqual([{ type: 'swipe', data: SWIPE }]);
    expect(parseSwipe(SWIPE)).toMatchObject({ ok: true });
    expect(d.pending).toBe(false);
  });

  it('passes human typing through, including a typed sentinel', () => {
    const d = new KeyboardWedgeDecoder();
    const events = type(d, 'ab;4111?\r', 180);
    expect(events.map((e) => (e.type === 'typed' ? e.text : `<${e.data}>`)).join('')).toBe('ab;4111?\r');
    expect(events.some((e) => e.type === 'swipe')).toBe(false);
  });

  it('releases a stalled candidate as typing on flush', () => {
    const d = new KeyboardWedgeDecoder({ maxGapMs: 30 });
    expect(type(d, '%B41', 5)).toEqual([]);
    expect(d.pending).toBe(true);
    expect(d.flush(20)).toEqual([]);
    expect(d.flush(100)).toEqual([{ type: 'typed', text: '%B41' }]);
    expect(d.pending).toBe(false);
  });

  it('emits an E track read as a swipe so the parser reports the read error', () => {
    const d = new KeyboardWedgeDecoder();
    expect(type(d, '%E?;E?\r', 3)).toEqual([{ type: 'swipe', data: '%E?;E?' }]);
    expect(parseSwipe('%E?;E?')).toEqual({ ok: false, error: 'E' });
  });

  it('treats fast input without an end sentinel as typing, and a new swipe after a pause', () => {
    const d = new KeyboardWedgeDecoder();
    expect(type(d, ';123\r', 2)).toEqual([{ type: 'typed', text: ';123\r' }]);
    const events = [...type(d, 'x', 1, 1000), ...type(d, `${SWIPE}\r`, 2, 2000)];
    expect(events).toEqual([
      { type: 'typed', text: 'x' },
      { type: 'swipe', data: SWIPE },
    ]);
  });

  it('honours a configurable gap and caps the candidate length', () => {
    const slow = new KeyboardWedgeDecoder({ maxGapMs: 200 });
    expect(type(slow, `${SWIPE}\r`, 150)).toEqual([{ type: 'swipe', data: SWIPE }]);
    const capped = new KeyboardWedgeDecoder({ maxLength: 10 });
    expect(type(capped, `${SWIPE}\r`, 1)[0]).toEqual({ type: 'typed', text: SWIPE.slice(0, 11) });
  });

  it('fuzz: every character comes back out exactly once, as typing or inside a swipe', () => {
    const keys = fc.array(
      fc.tuple(fc.constantFrom(...'%;?B41=^E\r a'.split('')), fc.integer({ min: 0, max: 120 })),
      { maxLength: 200 },
    );
    fc.assert(
      fc.property(keys, (presses) => {
        const d = new KeyboardWedgeDecoder();
        let t = 0;
        let input = '';
        const events: WedgeEvent[] = [];
        for (const [c, gap] of presses) {
          t += gap;
          input += c;
          events.push(...d.push(c, t));
        }
        events.push(...d.flush(t + 1000));
        expect(d.pending).toBe(false);
        // A swipe swallows its CR terminator; typing keeps every character.
        const out = events.map((e) => (e.type === 'typed' ? e.text : `${e.data}\r`)).join('');
        expect(out).toBe(input);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('Linux boot-keyboard reports', () => {
  it('maps usage IDs to what a reader types', () => {
    expect(hidUsageToChar(0x1e, false)).toBe('1');
    expect(hidUsageToChar(0x27, false)).toBe('0');
    expect(hidUsageToChar(0x28, false)).toBe('\r');
    expect(hidUsageToChar(0x22, true)).toBe('%');
    expect(hidUsageToChar(0x23, true)).toBe('^');
    expect(hidUsageToChar(0x33, false)).toBe(';');
    expect(hidUsageToChar(0x2e, false)).toBe('=');
    expect(hidUsageToChar(0x38, true)).toBe('?');
    expect(hidUsageToChar(0x38, false)).toBe('/');
    expect(hidUsageToChar(0x05, true)).toBe('B');
    expect(hidUsageToChar(0x2c, false)).toBe(' ');
    expect(hidUsageToChar(0x62, false)).toBe('0');
    expect(hidUsageToChar(0x29, false)).toBeUndefined();
  });

  it('types each newly pressed key once, with either shift', () => {
    const r = (mod: number, ...keys: number[]): Uint8Array =>
      Uint8Array.from([mod, 0, ...keys, 0, 0, 0, 0, 0, 0].slice(0, 8));
    expect(decodeBootKeyboardReport(r(0x02, 0x22))).toBe('%');
    expect(decodeBootKeyboardReport(r(0x20, 0x05))).toBe('B');
    expect(decodeBootKeyboardReport(r(0x00, 0x1e, 0x1f), r(0x00, 0x1e))).toBe('2');
    expect(decodeBootKeyboardReport(r(0x00, 0x28))).toBe('\r');
    expect(decodeBootKeyboardReport(r(0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01))).toBe('');
    expect(decodeBootKeyboardReport(new Uint8Array(2))).toBe('');
  });

  it('decodes a whole swipe typed as boot reports, key down then key up', () => {
    const usage = new Map<string, [number, boolean]>();
    for (let u = 0; u < 0x64; u += 1) {
      for (const shift of [false, true]) {
        const c = hidUsageToChar(u, shift);
        if (c !== undefined && !usage.has(c)) usage.set(c, [u, shift]);
      }
    }
    let prev = new Uint8Array(8);
    let typed = '';
    for (const c of `${SWIPE}\r`) {
      const [u, shift] = usage.get(c) ?? [0, false];
      const down = Uint8Array.from([shift ? 0x02 : 0, 0, u, 0, 0, 0, 0, 0]);
      typed += decodeBootKeyboardReport(down, prev);
      prev = new Uint8Array(8);
      typed += decodeBootKeyboardReport(prev, down);
    }
    expect(typed).toBe(`${SWIPE}\r`);
  });

  it('fuzz: random reports never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ maxLength: 16 }), (a, b) => {
        expect(typeof decodeBootKeyboardReport(a, b)).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});
