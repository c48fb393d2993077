/**
 * What a return gives back, line by line, for a sold ticket (returns from a receipt use it; the rule
 * exists before their screen so the pricing it undoes is the one that sold). Each line paid
 * `totalCents` for `quantity` units — its amount after its line discount and its share of the ticket
 * discount, plus its share of its class's tax when that tax was added (ticket-pricing.ts) — of which
 * `taxCents` was tax. Returning units gives back their share of what the line paid, by a cumulative rule:
 *
 *   back(n units returned so far) = round_half_up(totalCents × n / quantity)
 *   a return of k units after r = back(r + k) − back(r)
 *
 * so returns in several parts add up to exactly what was paid once every unit is back (back(quantity) =
 * totalCents), never more, and each part is in proportion to its units; the tax in it follows the same
 * rule on `taxCents`. Integer (BigInt) arithmetic, no float. Returning more units than remain throws
 * RangeError: the caller refuses it first with the cashier's words.
 */

export type SoldLine = {
  /** Units sold on the line (0 for a voided line: nothing to return). */
  quantity: number;
  /** What the customer paid for the line, its added tax included. */
  totalCents: number;
  /** The tax in `totalCents` (added or included). */
  taxCents: number;
};

export type ReturnedLine = {
  quantity: number;
  /** Money back for these units. */
  totalCents: number;
  /** The tax in it. */
  taxCents: number;
  /** totalCents − taxCents. */
  netCents: number;
};

export type ProportionalReturn = {
  lines: ReturnedLine[];
  totalCents: number;
  taxCents: number;
  netCents: number;
};

function back(paidCents: number, units: number, quantity: number): number {
  if (quantity === 0) return 0;
  const n = 2n * BigInt(paidCents) * BigInt(units) + BigInt(quantity);
  return Number(n / (2n * BigInt(quantity)));
}

function whole(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} is a whole number, 0 or more`);
}

/**
 * The refund of `returning[i]` units of each line, after `returnedBefore[i]` units were already
 * returned (0 for a first return).
 */
export function proportionalReturn(
  sold: readonly SoldLine[],
  returnedBefore: readonly number[],
  returning: readonly number[],
): ProportionalReturn {
  if (returnedBefore.length !== sold.length || returning.length !== sold.length)
    throw new RangeError('one count per sold line');
  const lines = sold.map((line, i): ReturnedLine => {
    const before = returnedBefore[i] ?? 0;
    const now = returning[i] ?? 0;
    whole(line.quantity, 'a quantity');
    whole(line.totalCents, 'a line total');
    whole(line.taxCents, 'a line tax');
    whole(before, 'a returned quantity');
    whole(now, 'a returned quantity');
    if (line.taxCents > line.totalCents) throw new RangeError('a line holds more tax than it cost');
    if (before + now > line.quantity) throw new RangeError('more units returned than were sold');
    const total =
      back(line.totalCents, before + now, line.quantity) - back(line.totalCents, before, line.quantity);
    const tax = back(line.taxCents, before + now, line.quantity) - back(line.taxCents, before, line.quantity);
    return { quantity: now, totalCents: total, taxCents: tax, netCents: total - tax };
  });
  const sum = (f: (l: ReturnedLine) => number): number => lines.reduce((s, l) => s + f(l), 0);
  return {
    lines,
    totalCents: sum((l) => l.totalCents),
    taxCents: sum((l) => l.taxCents),
    netCents: sum((l) => l.netCents),
  };
}
