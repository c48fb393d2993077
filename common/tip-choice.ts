import { isExactRate, percentOfCents } from './percent';

/**
 * The tip a customer chooses (on the customer display or, without one, the cashier's screen): the presets
 * as the amounts they add, and the bound on a custom tip. The percentages apply to the pre-tax subtotal
 * (a tip on the tax is a tip on the state's share), rounded half up by the one percent rule (percent.ts),
 * so the amount a button shows is the amount the core adds.
 *
 * The custom tip is bounded so a slip on the keypad (an extra zero) cannot become the largest line of
 * the bill: at most the subtotal itself, and never less than 20.00 may be allowed (a small coffee's tip
 * is not held to its price). Above it the core refuses the tip and changes nothing.
 */

/** A custom tip may always reach this much, whatever the subtotal. */
export const CUSTOM_TIP_FLOOR_CENTS = 2_000;

/** And up to this share of the pre-tax subtotal when that is more. */
export const CUSTOM_TIP_MAX_PERCENT = 100;

export type TipOption = { percent: number; tipCents: number };

/** Each preset percent with the amount it adds to `subtotalCents`; a rate the rule cannot apply is left out. */
export function tipOptions(subtotalCents: number, presetsPercent: readonly number[]): TipOption[] {
  if (!Number.isSafeInteger(subtotalCents) || subtotalCents < 0) return [];
  return presetsPercent
    .filter((p) => p > 0 && isExactRate(p))
    .map((percent) => ({ percent, tipCents: percentOfCents(subtotalCents, percent) }));
}

/** The largest custom tip on `subtotalCents`. */
export function maxCustomTipCents(subtotalCents: number): number {
  const share = percentOfCents(Math.max(0, subtotalCents), CUSTOM_TIP_MAX_PERCENT);
  return Math.max(CUSTOM_TIP_FLOOR_CENTS, share);
}

/** Why a custom tip cannot be taken, in the customer's words; undefined when it can. */
export function customTipProblem(tipCents: number, subtotalCents: number): string | undefined {
  if (!Number.isSafeInteger(tipCents) || tipCents < 0) return 'The tip must be zero or more.';
  if (tipCents > maxCustomTipCents(subtotalCents)) return 'That tip is more than this sale allows.';
  return undefined;
}
