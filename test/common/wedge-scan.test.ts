import { describe, expect, it } from 'vitest';
import {
  classifyWedgeBurst,
  DEFAULT_WEDGE_SCAN_SETTINGS,
  WedgeScanDetector,
  wedgeScanSettings,
  type Keystroke,
} from '../../common/wedge-scan';
import {
  fastTypist,
  jitteryScanner,
  scanner,
  shiftedScanner,
  typistWithRolls,
  UPC_A_KEYS as UPC,
} from '../support/keystroke-recordings';

/** Keystrokes from key names and the times (ms) they went down. */
function keys(names: readonly string[], times: readonly number[]): Keystroke[] {
  expect(names).toHaveLength(times.length);
  return names.map((key, i) => ({ key, at: times[i] ?? 0 }));
}

describe('classifyWedgeBurst (recorded keystroke timings)', () => {
  const settings = DEFAULT_WEDGE_SCAN_SETTINGS;
  it('takes a scanner burst ending in Enter as a scan of the characters before it', () => {
    expect(classifyWedgeBurst(scanner, settings)).toEqual({ kind: 'scan', data: '036000241457' });
  });
  it('forgives a scanner its jitter: one 41 ms stall, the rest uneven but fast', () => {
    expect(classifyWedgeBurst(jitteryScanner, settings)).toEqual({ kind: 'scan', data: '036000241457' });
  });
  it('takes a fast typist for a person, though every character and the Enter are the same', () => {
    expect(classifyWedgeBurst(fastTypist, settings)).toMatchObject({ kind: 'typing' });
  });
  it('takes a typist quick rolls for a person: too short, and too slow on average', () => {
    expect(classifyWedgeBurst(typistWithRolls, settings)).toMatchObject({
      kind: 'typing',
      reason: 'too short',
    });
    expect(classifyWedgeBurst(typistWithRolls, { ...settings, minLength: 4 })).toMatchObject({
      kind: 'typing',
      reason: 'too slow for a scanner',
    });
  });
  it('skips Shift and other named keys a scanner sends for upper case', () => {
    expect(classifyWedgeBurst(shiftedScanner, settings)).toEqual({ kind: 'scan', data: 'ABC-123' });
  });
  it('needs the suffix: without the Enter it is not a scan (yet)', () => {
    expect(classifyWedgeBurst(scanner.slice(0, -1), settings)).toMatchObject({
      kind: 'typing',
      reason: 'no suffix',
    });
    const tab = keys(
      [...UPC, 'Tab'],
      scanner.map((k) => k.at),
    );
    expect(classifyWedgeBurst(tab, settings)).toMatchObject({ kind: 'typing' });
    expect(classifyWedgeBurst(tab, wedgeScanSettings({ suffix: 'Tab' }))).toMatchObject({ kind: 'scan' });
  });
  it('needs the prefix when one is set, and leaves it out of the data', () => {
    const prefixed = keys(['~', ...UPC, 'Enter'], [996, ...scanner.map((k) => k.at)]);
    const withPrefix = wedgeScanSettings({ prefix: '~' });
    expect(classifyWedgeBurst(prefixed, withPrefix)).toEqual({ kind: 'scan', data: '036000241457' });
    expect(classifyWedgeBurst(scanner, withPrefix)).toMatchObject({ kind: 'typing', reason: 'no prefix' });
  });
  it('lets a tech widen the pace for a scanner set to a slow inter-character delay', () => {
    const slow = keys(
      [...UPC, 'Enter'],
      UPC.concat('x').map((_, i) => 100 + i * 26),
    );
    expect(classifyWedgeBurst(slow, settings)).toMatchObject({ kind: 'typing' });
    expect(classifyWedgeBurst(slow, wedgeScanSettings({ maxMeanGapMs: 30 }))).toMatchObject({ kind: 'scan' });
  });
});

describe('WedgeScanDetector (one keydown at a time, as a screen feeds it)', () => {
  function feed(d: WedgeScanDetector, strokes: readonly Keystroke[]) {
    return strokes.map((k) => d.push(k.key, k.at));
  }
  it('answers the scan on the suffix key itself, with how many characters reached the field', () => {
    const d = new WedgeScanDetector();
    const steps = feed(d, scanner);
    expect(steps.slice(0, -1).every((s) => s.kind === 'key')).toBe(true);
    expect(steps.at(-1)).toEqual({ kind: 'scan', data: '036000241457', typedChars: 12 });
  });
  it('starts a new burst after a pause: the cashier typed 5, and a scan came two seconds later', () => {
    const d = new WedgeScanDetector();
    expect(d.push('5', 3000)).toEqual({ kind: 'key' });
    expect(d.heldChars).toBe(1);
    expect(
      feed(
        d,
        scanner.map((k) => ({ ...k, at: k.at + 4000 })),
      ).at(-1),
    ).toMatchObject({
      kind: 'scan',
      typedChars: 12,
    });
  });
  it('lets a fast typist Enter through as a key', () => {
    const d = new WedgeScanDetector();
    expect(feed(d, fastTypist).at(-1)).toEqual({ kind: 'key' });
  });
  it('says Shift is ignored, and keeps counting the scan around it', () => {
    const d = new WedgeScanDetector();
    const steps = feed(d, shiftedScanner);
    expect(steps[0]).toEqual({ kind: 'ignored' });
    expect(steps.at(-1)).toEqual({ kind: 'scan', data: 'ABC-123', typedChars: 7 });
  });
  it('reports capturing once a configured prefix was typed, so the screen can hold the keys back', () => {
    const d = new WedgeScanDetector({ prefix: '~' });
    expect(d.capturing).toBe(false);
    d.push('~', 0);
    expect(d.capturing).toBe(true);
    d.push('0', 3);
    expect(d.capturing).toBe(true);
    d.reset();
    d.push('0', 100);
    expect(d.capturing).toBe(false);
  });
  it('with no suffix, ends a scan by the pause after it (flush from a timer)', () => {
    const d = new WedgeScanDetector({ suffix: 'none' });
    feed(d, scanner.slice(0, -1));
    expect(d.flush(1044.2 + 10)).toEqual({ kind: 'key' });
    expect(d.flush(1044.2 + 51)).toEqual({ kind: 'scan', data: '036000241457', typedChars: 12 });
    expect(d.flush(2000)).toEqual({ kind: 'key' });
  });
});
