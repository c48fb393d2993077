/**
 * Money as a person reads it, from integer cents: the one rule every screen, the customer display, the
 * receipts and the till reports write amounts with. Intl does the writing in the locale of the text
 * (common/store-locale.ts `formatLocale`) and the store's currency; the amount reaches Intl as a decimal
 * string built from the cents' digits, never through a float.
 */

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/** "-1234.50" from -123450: the exact decimal of an amount of cents (two minor units). */
export function decimalOfCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError('an amount is a whole number of cents');
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Cast for Intl: its `format` takes a decimal string exactly (ECMA-402's Intl.NumberFormat v3), but the
 * TypeScript library of ES2023 still declares number | bigint only.
 */
function exact(cents: number): number {
  return decimalOfCents(cents) as unknown as number;
}

/**
 * "$1,234.50": an amount on a screen, in the locale's grouping, decimals and sign placement. The
 * currency is written with its narrow symbol in every locale: a store sells in its one currency (its
 * setting), so the code CLDR would put before a foreign currency ("USD 1,234.50" in es-MX) says nothing
 * the counter does not know, and costs the figure the width a 1024 px screen keeps for it.
 */
export function formatMoney(cents: number, locale: string, currency: string): string {
  return numberFormat(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(
    exact(cents),
  );
}

/**
 * "1234.50": an amount on paper (receipts, till reports), in the receipt's right-hand column. No
 * currency sign and no grouping, as receipts always printed them: the column is narrow, the printer's
 * code page has no narrow no-break space, and a sign only repeats what the store sells in. The decimal
 * separator is the locale's.
 */
export function formatMoneyOnPaper(cents: number, locale: string): string {
  return numberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(exact(cents));
}
