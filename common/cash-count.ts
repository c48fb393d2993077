/**
 * A cash drawer counted by denomination: the opening float and the blind count at close are counted the
 * same way, by the one rule the count form previews and the core records. US currency: the bills and
 * coins in circulation ($2 bills and dollar coins included, since stores do get them) and the standard
 * bank rolls of coin (quarters $10, dimes $5, nickels $2, pennies 50¢), counted unopened.
 */

export type Denomination = {
  /** Stable id a count is keyed by (`bill-2000`, `coin-25`, `roll-25`). */
  id: string;
  /** What the count form says beside the field. */
  label: string;
  /** The value of one piece (one bill, one coin, one roll), in cents. */
  cents: number;
  kind: 'bill' | 'coin' | 'roll';
};

export const USD_DENOMINATIONS: readonly Denomination[] = [
  { id: 'bill-10000', label: '$100 bills', cents: 10_000, kind: 'bill' },
  { id: 'bill-5000', label: '$50 bills', cents: 5000, kind: 'bill' },
  { id: 'bill-2000', label: '$20 bills', cents: 2000, kind: 'bill' },
  { id: 'bill-1000', label: '$10 bills', cents: 1000, kind: 'bill' },
  { id: 'bill-500', label: '$5 bills', cents: 500, kind: 'bill' },
  { id: 'bill-200', label: '$2 bills', cents: 200, kind: 'bill' },
  { id: 'bill-100', label: '$1 bills', cents: 100, kind: 'bill' },
  { id: 'coin-100', label: 'Dollar coins', cents: 100, kind: 'coin' },
  { id: 'coin-50', label: 'Half dollars', cents: 50, kind: 'coin' },
  { id: 'coin-25', label: 'Quarters', cents: 25, kind: 'coin' },
  { id: 'coin-10', label: 'Dimes', cents: 10, kind: 'coin' },
  { id: 'coin-5', label: 'Nickels', cents: 5, kind: 'coin' },
  { id: 'coin-1', label: 'Pennies', cents: 1, kind: 'coin' },
  { id: 'roll-25', label: 'Rolls of quarters ($10)', cents: 1000, kind: 'roll' },
  { id: 'roll-10', label: 'Rolls of dimes ($5)', cents: 500, kind: 'roll' },
  { id: 'roll-5', label: 'Rolls of nickels ($2)', cents: 200, kind: 'roll' },
  { id: 'roll-1', label: 'Rolls of pennies (50¢)', cents: 50, kind: 'roll' },
];

const byId = new Map(USD_DENOMINATIONS.map((d) => [d.id, d]));

export function denominationById(id: string): Denomination | undefined {
  return byId.get(id);
}

/** More pieces of one denomination than any drawer or safe bag holds: a typing slip, not a count. */
export const MAX_PIECES = 99_999;

/** Pieces counted per denomination id. */
export type DenominationCounts = Readonly<Record<string, number>>;

/** Why `counts` is not a count, in the counter's words; undefined when it is one. */
export function cashCountProblem(counts: DenominationCounts): string | undefined {
  for (const [id, n] of Object.entries(counts)) {
    const d = byId.get(id);
    if (!d) return `${id} is not a US denomination.`;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      return `Count ${d.label.toLowerCase()} as a whole number of pieces.`;
    if (n > MAX_PIECES) return `Count at most ${MAX_PIECES} ${d.label.toLowerCase()}.`;
  }
  return undefined;
}

/** The count's value: Σ pieces × value, integer cents (a count with a problem is refused before this). */
export function countTotalCents(counts: DenominationCounts): number {
  let total = 0;
  for (const [id, n] of Object.entries(counts)) total += n * (byId.get(id)?.cents ?? 0);
  return total;
}
