/**
 * The store's locale and currency (a manager's setting): the language its receipts, reports and screens
 * start in, how figures and dates are written, and the currency money is shown in. A cashier's window and
 * the customer display may each choose another language (docs/screens.md "Languages"); the currency is
 * always the store's.
 */

/** The languages the terminal speaks: English and Spanish (the interface's own clients serve both). */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The store's locale: its language and region (the region writes dates: es-MX "27 nov, 9:05 a.m." on screen,
 * its zone as "GMT-5" on a receipt where es-US prints "EST").
 */
export const STORE_LOCALES = ['en-US', 'es-US', 'es-MX'] as const;
export type StoreLocaleTag = (typeof STORE_LOCALES)[number];

/**
 * The currencies a store may sell in. US dollars only: the gateway's sales carry no other CurrencyCode
 * from this terminal, and the drawer is counted in US bills and coins (common/cash-count.ts); a currency
 * joins this list with its denominations. Every currency here has two minor units (integer cents).
 */
export const CURRENCIES = ['USD'] as const;
export type CurrencyCode = (typeof CURRENCIES)[number];

export type StoreLocale = { locale: StoreLocaleTag; currency: CurrencyCode };

export const DEFAULT_STORE_LOCALE: StoreLocale = { locale: 'en-US', currency: 'USD' };

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

export function isStoreLocaleTag(value: unknown): value is StoreLocaleTag {
  return (STORE_LOCALES as readonly unknown[]).includes(value);
}

export function isCurrency(value: unknown): value is CurrencyCode {
  return (CURRENCIES as readonly unknown[]).includes(value);
}

/** The language a store locale speaks. */
export function languageOf(tag: StoreLocaleTag): Language {
  return tag.startsWith('es') ? 'es' : 'en';
}

/** Where a window chose a language other than the store's: the United States' way of writing it. */
const LANGUAGE_HOME: Readonly<Record<Language, StoreLocaleTag>> = { en: 'en-US', es: 'es-US' };

/**
 * The locale figures and dates are written in, in text of `language`: the store's own locale when the
 * text is in the store's language (a Mexican store's Spanish screens write es-MX), else that language's
 * United States locale (an English window in that store writes en-US), so a date never mixes the words
 * of one language into the sentences of another.
 */
export function formatLocale(language: Language, store: StoreLocaleTag): StoreLocaleTag {
  return languageOf(store) === language ? store : LANGUAGE_HOME[language];
}
