import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '../../../native/protocols/luhn';
import { loadVector } from '../../support/vectors';

type CardVectors = { luhnValidTestCards: string[]; luhnInvalid: string[] };

describe('Luhn (ISO/IEC 7812-1)', () => {
  const v = loadVector<CardVectors>('iso7813-tracks/card-tracks.json');
  it.each(v.luhnValidTestCards)('accepts published test card %s', (pan) => {
    expect(isLuhnValid(pan)).toBe(true);
  });
  it.each(v.luhnInvalid)('rejects %s', (pan) => {
    expect(isLuhnValid(pan)).toBe(false);
  });
  it('rejects non-digits and empty input', () => {
    expect(isLuhnValid('4111 1111 1111 1111')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
  });
});
