import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSwipe, parseTrack1, parseTrack2 } from '../../../native/protocols/iso7813-track';
import { loadVector } from '../../support/vectors';

type TrackCase = {
  raw: string;
  pan: string;
  name: string;
  expiryYYMM: string;
  serviceCode: string;
  source: string;
};
const { cases } = loadVector<{ cases: TrackCase[] }>('iso7813-tracks/card-tracks.json');

// docs/devices.md §1: the example swipe exactly as a wedge types it.
const EXAMPLE_T1 = '%B4111111111111111^DOE/JOHN^2812101000000000000000000?';
const EXAMPLE_T2 = ';4111111111111111=28121010000000000000?';
const EXAMPLE_SWIPE = `${EXAMPLE_T1}${EXAMPLE_T2}\r`;

describe('ISO 7813 tracks: published cases', () => {
  it.each(cases)('parses the swipe from $source', (c) => {
    const r = parseSwipe(c.raw);
    expect(r).toMatchObject({
      ok: true,
      value: { pan: c.pan, name: c.name, expiryYYMM: c.expiryYYMM, serviceCode: c.serviceCode },
    });
  });

  it.each(cases)('parses each track of $source on its own', (c) => {
    const t1 = c.raw.slice(0, c.raw.indexOf('?') + 1);
    expect(parseTrack1(t1)).toMatchObject({
      ok: true,
      value: { pan: c.pan, name: c.name, expiryYYMM: c.expiryYYMM, serviceCode: c.serviceCode },
    });
  });

  it.each(cases.filter((c) => c.raw.includes(';')))('parses track 2 of $source on its own', (c) => {
    expect(parseTrack2(c.raw.slice(c.raw.indexOf(';')))).toMatchObject({
      ok: true,
      value: { pan: c.pan, expiryYYMM: c.expiryYYMM, serviceCode: c.serviceCode },
    });
  });
});

describe('ISO 7813 tracks: the reference example swipe (§1)', () => {
  it('has the lengths the reference computed', () => {
    expect(EXAMPLE_T1).toHaveLength(54);
    expect(EXAMPLE_T2).toHaveLength(39);
  });

  it('parses both tracks and the trailing CR', () => {
    const r = parseSwipe(EXAMPLE_SWIPE);
    expect(r).toEqual({
      ok: true,
      value: {
        pan: '4111111111111111',
        expiryYYMM: '2812',
        serviceCode: '101',
        name: 'DOE/JOHN',
        track1: {
          pan: '4111111111111111',
          name: 'DOE/JOHN',
          expiryYYMM: '2812',
          serviceCode: '101',
          discretionary: '000000000000000000',
          trackData: 'B4111111111111111^DOE/JOHN^2812101000000000000000000',
        },
        track2: {
          pan: '4111111111111111',
          expiryYYMM: '2812',
          serviceCode: '101',
          discretionary: '0000000000000',
          trackData: '4111111111111111=28121010000000000000',
        },
      },
    });
  });

  it('accepts tracks without sentinels, with an LRC character, and lower case from a Caps-Lock wedge', () => {
    expect(parseTrack2('4111111111111111=28121010000000000000')).toMatchObject({ ok: true });
    expect(parseTrack2(`${EXAMPLE_T2}5`)).toMatchObject({ ok: true, value: { expiryYYMM: '2812' } });
    expect(parseTrack1(`${EXAMPLE_T1}X`)).toMatchObject({ ok: true, value: { name: 'DOE/JOHN' } });
    expect(parseTrack1(EXAMPLE_T1.toLowerCase())).toMatchObject({ ok: true, value: { name: 'DOE/JOHN' } });
    expect(parseSwipe(`${EXAMPLE_T1}X${EXAMPLE_T2}5\r\n`)).toMatchObject({
      ok: true,
      value: { name: 'DOE/JOHN' },
    });
  });

  it('accepts one bare track, as gateway clients send a Track2 field', () => {
    expect(parseSwipe('4111111111111111=28121010000000000000')).toMatchObject({
      ok: true,
      value: { pan: '4111111111111111', expiryYYMM: '2812', serviceCode: '101' },
    });
    expect(parseSwipe(EXAMPLE_T1.slice(1, -1))).toMatchObject({ ok: true, value: { name: 'DOE/JOHN' } });
    expect(parseSwipe('4111111111111111=2812')).toEqual({ ok: false, error: 'format' });
    expect(parseSwipe('E')).toEqual({ ok: false, error: 'E' });
  });

  it('ignores a MagTek track 3 and takes track 2 when track 1 is absent', () => {
    expect(parseSwipe(`${EXAMPLE_T2};0123456789?\r`)).toMatchObject({
      ok: true,
      value: { pan: '4111111111111111' },
    });
    expect(parseSwipe(`${EXAMPLE_T1}${EXAMPLE_T2}+0123456789?\r`)).toMatchObject({ ok: true });
  });
});

describe('ISO 7813 tracks: read errors and bad input', () => {
  it("reports MagTek's E track as a read error (§2.4)", () => {
    expect(parseTrack1('%E?')).toEqual({ ok: false, error: 'E' });
    expect(parseTrack2(';E?')).toEqual({ ok: false, error: 'E' });
    expect(parseSwipe('%E?;E?\r')).toEqual({ ok: false, error: 'E' });
    expect(parseSwipe(`%E?${EXAMPLE_T2}\r`)).toMatchObject({ ok: true, value: { pan: '4111111111111111' } });
    expect(parseSwipe(`${EXAMPLE_T1};E?\r`)).toMatchObject({ ok: true, value: { name: 'DOE/JOHN' } });
  });

  it('refuses malformed tracks', () => {
    expect(parseSwipe('')).toEqual({ ok: false, error: 'empty' });
    expect(parseSwipe('\r')).toEqual({ ok: false, error: 'empty' });
    expect(parseTrack2(';?')).toEqual({ ok: false, error: 'empty' });
    expect(parseTrack2(';4111111111111111=2812?')).toEqual({ ok: false, error: 'format' });
    expect(parseTrack2(';41111111111111111111=28121010000000000000?')).toEqual({
      ok: false,
      error: 'format',
    });
    expect(parseTrack2(`${EXAMPLE_T2}55`)).toEqual({ ok: false, error: 'format' });
    expect(parseTrack1('%A4111111111111111^DOE/JOHN^2812101?')).toEqual({ ok: false, error: 'format' });
    expect(parseTrack1(`%B4111111111111111^${'X'.repeat(27)}^2812101?`)).toEqual({
      ok: false,
      error: 'format',
    });
    expect(parseTrack1(`%B4111111111111111^DOE/JOHN^2812101${'0'.repeat(60)}?`)).toEqual({
      ok: false,
      error: 'format',
    });
    expect(parseSwipe('hello\r')).toEqual({ ok: false, error: 'format' });
    expect(parseSwipe(`${EXAMPLE_T1};4111111111111111=2812`)).toEqual({ ok: false, error: 'format' });
    expect(parseSwipe(`${EXAMPLE_T1};4111111111111111=2812xx?`)).toEqual({ ok: false, error: 'format' });
  });

  it('refuses a swipe whose tracks disagree', () => {
    expect(parseSwipe(`${EXAMPLE_T1};4111111111111111=29121010000000000000?`)).toEqual({
      ok: false,
      error: 'mismatch',
    });
  });

  it('fuzz: never throws, whatever the reader sends', () => {
    const trackish = fc.string({
      unit: fc.constantFrom(...'%;?^=+EB0123456789/ \r\nA'.split('')),
      maxLength: 120,
    });
    fc.assert(
      // A boolean predicate, not expect(): thousands of runs stay cheap on a shared two-core machine.
      fc.property(fc.oneof(trackish, fc.string({ unit: 'binary', maxLength: 600 })), (s) =>
        [parseSwipe(s), parseTrack1(s), parseTrack2(s)].every((r) => !r.ok || /^\d{8,19}$/.test(r.value.pan)),
      ),
      { numRuns: 2000 },
    );
  });
});
