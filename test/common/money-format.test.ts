import { describe, expect, it } from 'vitest';
import { decimalOfCents, formatMoney, formatMoneyOnPaper } from '../../common/money-format';
import {
  DEFAULT_STORE_LOCALE,
  formatLocale,
  isCurrency,
  isLanguage,
  isStoreLocaleTag,
  languageOf,
} from '../../common/store-locale';

describe('money as people read it (common/money-format.ts)', () => {
  it('writes cents in the locale of the text and the store’s currency', () => {
    expect(formatMoney(123_450, 'en-US', 'USD')).toBe('$1,234.50');
    expect(formatMoney(-5, 'en-US', 'USD')).toBe('-$0.05');
    expect(formatMoney(123_450, 'es-US', 'USD')).toBe('$1,234.50');
    // The store's one currency by its narrow symbol, also where CLDR would name it (es-MX: "USD 1,234.50").
    expect(formatMoney(123_450, 'es-MX', 'USD')).toBe('$1,234.50');
    // The locale decides grouping, decimals and where the sign goes.
    expect(formatMoney(123_450, 'es', 'USD')).toMatch(/^1234,50\s\$$/);
  });

  it('is exact for every amount a till can hold: no float on the way', () => {
    // 2^53 − 1 cents: as a float divided by 100 the last digits would drift.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'en-US', 'USD')).toBe('$90,071,992,547,409.91');
    expect(decimalOfCents(-100_001)).toBe('-1000.01');
    expect(decimalOfCents(7)).toBe('0.07');
    expect(() => decimalOfCents(1.5)).toThrow(RangeError);
  });

  it('on paper: no currency sign, no grouping, the two decimals (the receipt’s right-hand column)', () => {
    expect(formatMoneyOnPaper(123_450, 'en-US')).toBe('1234.50');
    expect(formatMoneyOnPaper(-250, 'en-US')).toBe('-2.50');
    expect(formatMoneyOnPaper(123_450, 'es-US')).toBe('1234.50');
    expect(formatMoneyOnPaper(0, 'es-MX')).toBe('0.00');
  });
});

describe('the store’s locale (common/store-locale.ts)', () => {
  it('defaults to English (United States) and US dollars', () => {
    expect(DEFAULT_STORE_LOCALE).toEqual({ locale: 'en-US', currency: 'USD' });
  });

  it('text in the store’s language is written in the store’s locale; another language in its US locale', () => {
    expect(formatLocale('es', 'es-MX')).toBe('es-MX');
    expect(formatLocale('en', 'es-MX')).toBe('en-US');
    expect(formatLocale('es', 'en-US')).toBe('es-US');
    expect(formatLocale('en', 'en-US')).toBe('en-US');
    expect(languageOf('es-US')).toBe('es');
    expect(languageOf('en-US')).toBe('en');
  });

  it('knows its languages, locales and currencies and nothing else', () => {
    expect(isLanguage('es')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isStoreLocaleTag('es-MX')).toBe(true);
    expect(isStoreLocaleTag('es-ES')).toBe(false);
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('MXN')).toBe(false);
  });
});
