import { allocateCents } from './largest-remainder';
import { includedTaxCents, isExactRate, percentOfCents, rateUnits, taxCents } from './percent';

/**
 * The price of a ticket of lines, in integer cents: the one rule the ticket screen shows, the core
 * charges and the receipt prints (docs/ticket-pricing.md has the rule in words and a worked example).
 *
 * 1. A line is `quantity` × `unitPriceCents` (its gross). A weighed item (a price-embedded label) is one
 *    unit at the label's price.
 * 2. Its line discount: an amount (never more than the gross), or a percent of the gross (half up).
 * 3. The ticket discount: an amount (never more than what the lines come to after their own discounts),
 *    or a percent of that (half up); it is spread over the lines in proportion to what each comes to, by
 *    the largest remainder (largest-remainder.ts: exact, deterministic, ties to the earlier line).
 * 4. Tax per tax class on the class's total of the discounted line amounts, rounded once per class, half
 *    up (percent.ts): exclusive classes add it, inclusive classes hold it inside their prices
 *    (`includedTaxCents`), exempt classes have none. US receipts print one tax line per rate on the
 *    taxable total (invoice basis), which Streamlined Sales and Use Tax Agreement §324 allows and most
 *    states expect: rounding each line instead over-collects up to half a cent per line (three 0.10 items
 *    at 8.25 % are 0.03 of tax line by line, 0.02 on their total). A class's tax is then spread over its
 *    lines by the largest remainder, so every line knows its share (what a return gives back).
 * 5. Totals: subtotal = Σ line amounts after every discount (as marked, tax-inclusive prices included);
 *    total = subtotal + added tax; net = total − all tax.
 *
 * A voided line stays in its place with every figure zero. Bad input (a fraction of a unit, a negative
 * price, a rate with more than four decimals, a percent over 100) throws RangeError: the core refuses it
 * before it gets here, with the cashier's words.
 */

export type TaxMode = 'exclusive' | 'inclusive' | 'exempt';

/** A tax class as a line carries it: its rate is copied onto the line when the line is added. */
export type TaxClassRate = { code: string; name: string; ratePercent: number; mode: TaxMode };

export type Discount = { kind: 'amount'; amountCents: number } | { kind: 'percent'; percent: number };

export type PricingLine = {
  quantity: number;
  unitPriceCents: number;
  discount?: Discount | undefined;
  taxClass: TaxClassRate;
  voided?: boolean | undefined;
};

export type PricedLine = {
  /** quantity × unit price. */
  grossCents: number;
  lineDiscountCents: number;
  /** This line's share of the ticket discount. */
  ticketDiscountCents: number;
  /** gross − both discounts: what the line costs as marked (a tax-inclusive price holds its tax). */
  amountCents: number;
  /** This line's share of its class's tax: added to the amount (exclusive) or inside it (inclusive). */
  taxCents: number;
  /** The amount without tax. */
  netCents: number;
  /** What the customer pays for this line: the amount, plus the tax when it is added. */
  totalCents: number;
};

export type TaxLine = TaxClassRate & {
  /** Σ the class's line amounts (tax-inclusive for an inclusive class). */
  taxableCents: number;
  taxCents: number;
};

export type TicketPricing = {
  lines: PricedLine[];
  /** Σ gross. */
  itemsCents: number;
  lineDiscountCents: number;
  ticketDiscountCents: number;
  /** Σ line amounts, after every discount. */
  subtotalCents: number;
  /** One per tax class on the ticket (exempt ones too, with no tax), in the order the lines bring them. */
  taxes: TaxLine[];
  /** Tax added to exclusive prices. */
  addedTaxCents: number;
  /** Tax inside inclusive prices. */
  includedTaxCents: number;
  /** All tax: added + included. */
  taxCents: number;
  /** total − all tax. */
  netCents: number;
  /** subtotal + added tax. */
  totalCents: number;
};

const ZERO_LINE: PricedLine = {
  grossCents: 0,
  lineDiscountCents: 0,
  ticketDiscountCents: 0,
  amountCents: 0,
  taxCents: 0,
  netCents: 0,
  totalCents: 0,
};

function checkCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} is zero or more cents`);
}

function checkPercent(percent: number, what: string): void {
  if (!isExactRate(percent) || percent > 100)
    throw new RangeError(`${what} is 0 to 100 %, with at most four decimals`);
}

/** What a discount takes off `baseCents`: never more than the base. */
export function discountCents(discount: Discount | undefined, baseCents: number): number {
  if (!discount) return 0;
  if (discount.kind === 'amount') {
    checkCents(discount.amountCents, 'a discount');
    return Math.min(discount.amountCents, baseCents);
  }
  if (discount.kind === 'percent') {
    checkPercent(discount.percent, 'a discount');
    return percentOfCents(baseCents, discount.percent);
  }
  throw new RangeError('a discount is an amount or a percent');
}

function taxOfClass(taxClass: TaxClassRate, taxableCents: number): number {
  if (taxClass.mode === 'exempt') return 0;
  if (taxClass.mode === 'exclusive') return taxCents(taxableCents, taxClass.ratePercent);
  if (taxClass.mode === 'inclusive') return includedTaxCents(taxableCents, taxClass.ratePercent);
  throw new RangeError('a tax class is exclusive, inclusive or exempt');
}

/** Lines of one class at one rate are taxed together (a rate changed mid-ticket makes a second group). */
function classKey(c: TaxClassRate): string {
  if (c.mode === 'exempt') return `exempt\u0000${c.code}`;
  const units = rateUnits(c.ratePercent);
  if (units === undefined) throw new RangeError('a tax rate is a percent with at most four decimals');
  return `${c.mode}\u0000${c.code}\u0000${units}`;
}

export function priceTicket(lines: readonly PricingLine[], ticketDiscount?: Discount): TicketPricing {
  // 1-2. Each line's gross and its own discount.
  const firstPass = lines.map((line) => {
    if (line.voided) return { gross: 0, lineDiscount: 0 };
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
      throw new RangeError('a quantity is a whole number of units, at least 1');
    checkCents(line.unitPriceCents, 'a unit price');
    const gross = line.quantity * line.unitPriceCents;
    if (!Number.isSafeInteger(gross)) throw new RangeError('the line is too large');
    return { gross, lineDiscount: discountCents(line.discount, gross) };
  });
  const afterLine = firstPass.map((p) => p.gross - p.lineDiscount);
  const base = afterLine.reduce((s, x) => s + x, 0);

  // 3. The ticket discount, spread over the lines in proportion.
  const ticketDiscountTotal = discountCents(ticketDiscount, base);
  const shares = allocateCents(ticketDiscountTotal, afterLine);
  const amounts = afterLine.map((x, i) => x - (shares[i] ?? 0));

  // 4. Tax per class on the class total, then each line's share of it.
  const groups = new Map<string, { taxClass: TaxClassRate; members: number[] }>();
  lines.forEach((line, i) => {
    if (line.voided) return;
    const key = classKey(line.taxClass);
    const group = groups.get(key) ?? { taxClass: line.taxClass, members: [] };
    group.members.push(i);
    groups.set(key, group);
  });
  const lineTax = lines.map(() => 0);
  const taxes: TaxLine[] = [];
  for (const { taxClass, members } of groups.values()) {
    const weights = members.map((i) => amounts[i] ?? 0);
    const taxable = weights.reduce((s, x) => s + x, 0);
    const tax = taxOfClass(taxClass, taxable);
    const split = allocateCents(tax, weights);
    members.forEach((i, k) => (lineTax[i] = split[k] ?? 0));
    taxes.push({
      code: taxClass.code,
      name: taxClass.name,
      ratePercent: taxClass.mode === 'exempt' ? 0 : taxClass.ratePercent,
      mode: taxClass.mode,
      taxableCents: taxable,
      taxCents: tax,
    });
  }

  // 5. Lines and totals.
  const priced = lines.map((line, i): PricedLine => {
    if (line.voided) return { ...ZERO_LINE };
    const amount = amounts[i] ?? 0;
    const tax = lineTax[i] ?? 0;
    const inclusive = line.taxClass.mode === 'inclusive';
    return {
      grossCents: firstPass[i]?.gross ?? 0,
      lineDiscountCents: firstPass[i]?.lineDiscount ?? 0,
      ticketDiscountCents: shares[i] ?? 0,
      amountCents: amount,
      taxCents: tax,
      netCents: inclusive ? amount - tax : amount,
      totalCents: line.taxClass.mode === 'exclusive' ? amount + tax : amount,
    };
  });
  const sum = (f: (l: PricedLine) => number): number => priced.reduce((s, l) => s + f(l), 0);
  const added = taxes.filter((t) => t.mode === 'exclusive').reduce((s, t) => s + t.taxCents, 0);
  const included = taxes.filter((t) => t.mode === 'inclusive').reduce((s, t) => s + t.taxCents, 0);
  const subtotal = sum((l) => l.amountCents);
  const total = subtotal + added;
  return {
    lines: priced,
    itemsCents: sum((l) => l.grossCents),
    lineDiscountCents: sum((l) => l.lineDiscountCents),
    ticketDiscountCents: ticketDiscountTotal,
    subtotalCents: subtotal,
    taxes,
    addedTaxCents: added,
    includedTaxCents: included,
    taxCents: added + included,
    netCents: total - added - included,
    totalCents: total,
  };
}
