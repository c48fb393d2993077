import { isExactRate, percentOfCents, taxCents } from '../../../common/percent';

/**
 * Money is integer cents everywhere in the terminal (bridge contract); it becomes text only here, at
 * display, and text becomes cents only through these parsers (never through a float).
 */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatCents(cents: number): string {
  // Dividing for Intl is display-only; every sum stays in integers before it gets here.
  return usd.format(cents / 100);
}

/** The cashier's keypad: digits shift in from the right, so "1", "2", "5", "0" reads 12.50. */
export const MAX_KEYPAD_DIGITS = 8;

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

export function formatTime(at: number): string {
  return new Date(at).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
