import { describe, expect, it } from 'vitest';
import { detectBrand, type CardBrand } from '../../../native/protocols/card-brand';
import { loadVector } from '../../support/vectors';

const { luhnValidTestCards } = loadVector<{ luhnValidTestCards: string[] }>(
  'iso7813-tracks/card-tracks.json',
);

// The brand of each published test card, in the order of card-tracks.json (the PANs stay in the vector file).
const EXPECTED_BRANDS: CardBrand[] = [
  'Visa',
  'Visa',
  'Mastercard',
  'Mastercard',
  'Mastercard',
  'Mastercard',
  'Amex',
  'Amex',
  'Discover',
  'Discover',
  'Discover',
  'Diners',
  'Diners',
  'JCB',
  'UnionPay',
  'UnionPay',
  'UnionPay',
];

describe('card brand by BIN range', () => {
  it('names the brand of every published test card', () => {
    expect(luhnValidTestCards.map(detectBrand)).toEqual(EXPECTED_BRANDS);
  });

  it.each<[string, CardBrand]>([
    ['2220999999999999', 'Unknown'],
    ['2221000000000009', 'Mastercard'],
    ['2720999999999999', 'Mastercard'],
    ['2721000000000000', 'Unknown'],
    ['5000000000000000', 'Unknown'],
    ['5100000000000000', 'Mastercard'],
    ['5599999999999999', 'Mastercard'],
    ['5600000000000000', 'Unknown'],
    ['6221250000000000', 'UnionPay'],
    ['6221260000000000', 'Discover'],
    ['6229250000000000', 'Discover'],
    ['6229260000000000', 'UnionPay'],
    ['6011000000000000', 'Discover'],
    ['6012000000000000', 'Unknown'],
    ['6430000000000000', 'Unknown'],
    ['6440000000000000', 'Discover'],
    ['6490000000000000', 'Discover'],
    ['6500000000000000', 'Discover'],
    ['3000000000000000', 'Diners'],
    ['3050000000000000', 'Diners'],
    ['3060000000000000', 'Unknown'],
    ['3600000000000000', 'Diners'],
    ['3800000000000000', 'Diners'],
    ['3900000000000000', 'Diners'],
    ['3527000000000000', 'Unknown'],
    ['3528000000000000', 'JCB'],
    ['3589000000000000', 'JCB'],
    ['3590000000000000', 'Unknown'],
    ['340000000000000', 'Amex'],
    ['370000000000000', 'Amex'],
    ['350000000000000', 'Unknown'],
    ['4111111111111111', 'Visa'],
  ])('%s → %s', (pan, brand) => {
    expect(detectBrand(pan)).toBe(brand);
  });

  it('works on partial and formatted input', () => {
    expect(detectBrand('4')).toBe('Visa');
    expect(detectBrand('37')).toBe('Amex');
    expect(detectBrand('3')).toBe('Unknown');
    expect(detectBrand('4111 1111 1111 1111')).toBe('Visa');
    expect(detectBrand('5555-5555-5555-4444')).toBe('Mastercard');
    expect(detectBrand('')).toBe('Unknown');
    expect(detectBrand('4111x')).toBe('Unknown');
  });
});
