import { formatMoney } from '../../../common/money-format';
import { isExactRate, percentOfCents, taxCents } from '../../../common/percent';
import { formatStoreDateTime, formatStoreStamp, formatStoreTime } from '../../../common/store-time';
import { displayFormat } from '../i18n/locale';

/**
 * Money is integer cents everywhere in the terminal (bridge contract); it becomes text only here, at
 * display, and text becomes cents only through these parsers (never through a float).
 *
 * Amounts and times are written in this window's locale and the store's currency (i18n/locale.ts
 * `displayFormat`: en-US and US dollars until the core says otherwise) by the one rules in common/. The
 * app re-renders when either changes (main.tsx), so a screen that calls these needs no hook.
 */

export function formatCents(cents: number): string {
  const { locale, currency } = displayFormat();
  return formatMoney(cents, locale, currency);
}

/** The cashier's keypad: digits shift in from the right, so "1", "2", "5", "0" reads 12.50. */
export const MAX_KEYPAD_DIGITS = 8;

/**
 * True when `digit` would not fit: the amount already has its eight digits. Nobody types a ninth digit
 * for an amount; a barcode scanner does (a UPC-A is twelve digits and Enter).
 */
export function keypadOverflows(cents: number, digit: string): boolean {
  return /^\d{1,2}$/.test(digit) && cents > 0 && String(cents).length + digit.length > MAX_KEYPAD_DIGITS;
}

export function pushDigit(cents: number, digit: string): number {
  if (!/^\d{1,2}$/.test(digit)) return cents;
  const next = `${cents === 0 ? '' : String(cents)}${digit}`.replace(/^0+/, '');
  if (next.length > MAX_KEYPAD_DIGITS) return cents;
  return next === '' ? 0 : Number(next);
}

export function popDigit(cents: number): number {
  return Math.floor(cents / 10);
}

/**
 * "12", "12.5", "12.50", "$1,234.56" → cents; undefined for anything else (three decimals, letters,
 * negative). Built from the digit strings so 0.1 + 0.2 never happens.
 */
export function parseMoney(text: string): number | undefined {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{0,9})(?:\.(\d{0,2}))?$/.exec(t);
  if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return undefined;
  const whole = Number(m[1] === '' ? '0' : m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  return whole * 100 + frac;
}

/**
 * The merchant's tax on a subtotal as the core charges it: the one rule in common/percent.ts (half up on
 * the exact product). A rate the core would refuse previews as no tax rather than a guess.
 */
export function taxOf(subtotalCents: number, ratePercent: number): number {
  return isExactRate(ratePercent) && Number.isSafeInteger(subtotalCents)
    ? taxCents(subtotalCents, ratePercent)
    : 0;
}

/** A tip preset applied to the pre-tax subtotal, by the same rule. */
export function tipOf(subtotalCents: number, percent: number): number {
  return isExactRate(percent) && Number.isSafeInteger(subtotalCents)
    ? percentOfCents(subtotalCents, percent)
    : 0;
}

/** The card as the screen shows it: "Visa •••• 1111"; never more than the last four. */
export function cardLabel(card: { cardType?: string; last4?: string } | undefined): string {
  if (!card) return '';
  const parts = [card.cardType ?? 'Card'];
  if (card.last4) parts.push(`•••• ${card.last4}`);
  return parts.join(' ');
}

/**
 * Times on screen are the store's (`zone`: the terminal's status, state/context.tsx's useStoreZone), by
 * the rule the receipts print with (common/store-time.ts).
 */
export function formatTime(at: number, zone: string): string {
  return formatStoreTime(at, zone, displayFormat().locale);
}

export function formatDateTime(at: number, zone: string): string {
  return formatStoreDateTime(at, zone, displayFormat().locale);
}

/** To the second (the audit log). */
export function formatStamp(at: number, zone: string): string {
  return formatStoreStamp(at, zone, displayFormat().locale);
}

/** A gateway's ISO date-time (reports, settlements) as the store reads it; the text itself if unreadable. */
export function formatIsoDateTime(iso: string, zone: string): string {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? formatStoreDateTime(at, zone, displayFormat().locale) : iso;
}
