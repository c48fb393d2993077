import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { proportionalReturn, type SoldLine } from '../../common/proportional-return';
import { priceTicket, type Discount, type TaxClassRate } from '../../common/ticket-pricing';

const standard: TaxClassRate = { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' };
const exempt: TaxClassRate = { code: 'exempt', name: 'Exempt', ratePercent: 0, mode: 'exempt' };
const included: TaxClassRate = { code: 'incl', name: 'Tax included', ratePercent: 10, mode: 'inclusive' };

describe('a return gives back each line’s share of what was paid (common/proportional-return.ts)', () => {
  it('returns one of three units: a third of the line with its discount share and tax, rounded half up', () => {
    // 3 × 10.00 at 8.25 %, a 1.00 ticket discount: amount 29.00, tax 2.3925 → 2.39, paid 31.39.
    const p = priceTicket([{ quantity: 3, unitPriceCents: 1000, taxClass: standard }], {
      kind: 'amount',
      amountCents: 100,
    });
    const sold: SoldLine[] = [{ quantity: 3, totalCents: p.lines[0]?.totalCents ?? 0, taxCents: p.taxCents }];
    expect(sold[0]).toEqual({ quantity: 3, totalCents: 3139, taxCents: 239 });
    const first = proportionalReturn(sold, [0], [1]); // 3139 / 3 = 1046.33 → 1046; tax 79.67 → 80
    expect(first).toEqual({
      lines: [{ quantity: 1, totalCents: 1046, taxCents: 80, netCents: 966 }],
      totalCents: 1046,
      taxCents: 80,
      netCents: 966,
    });
    const second = proportionalReturn(sold, [1], [1]); // back(2) − back(1) = 2093 − 1046 = 1047
    expect(second.totalCents).toBe(1047);
    const last = proportionalReturn(sold, [2], [1]); // 3139 − 2093
    expect(last.totalCents).toBe(1046);
    expect(first.totalCents + second.totalCents + last.totalCents).toBe(3139);
    expect(first.taxCents + second.taxCents + last.taxCents).toBe(239);
  });

  it('refuses more units than remain, and counts that do not match the lines', () => {
    const sold: SoldLine[] = [{ quantity: 2, totalCents: 200, taxCents: 0 }];
    expect(() => proportionalReturn(sold, [1], [2])).toThrow(RangeError);
    expect(() => proportionalReturn(sold, [0], [-1])).toThrow(RangeError);
    expect(() => proportionalReturn(sold, [0], [0.5])).toThrow(RangeError);
    expect(() => proportionalReturn(sold, [], [1])).toThrow(RangeError);
    expect(proportionalReturn([{ quantity: 0, totalCents: 0, taxCents: 0 }], [0], [0]).totalCents).toBe(0);
  });
});

const classes = [standard, exempt, included, { ...standard, code: 'reduced', ratePercent: 2.5 }];
const discountArb: fc.Arbitrary<Discount | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 20_000 }).map((amountCents) => ({ kind: 'amount' as const, amountCents })),
  fc.integer({ min: 0, max: 1_000_000 }).map((u) => ({ kind: 'percent' as const, percent: u / 10_000 })),
);

describe('returns, whole or in parts, give back exactly what was paid and never more (property)', () => {
  it('every unit returned over several partial returns gives back the ticket’s total and tax exactly', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: fc.integer({ min: 1, max: 12 }),
            unitPriceCents: fc.integer({ min: 0, max: 100_000 }),
            discount: discountArb,
            taxClass: fc.constantFrom(...classes),
            voided: fc.boolean(),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        discountArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (drawn, discount, choices) => {
          const lines = drawn.map((l, i) => (i === 0 ? { ...l, voided: false } : l));
          const p = priceTicket(lines, discount);
          const sold: SoldLine[] = lines.map((l, i) => ({
            quantity: l.voided ? 0 : l.quantity,
            totalCents: p.lines[i]?.totalCents ?? 0,
            taxCents: p.lines[i]?.taxCents ?? 0,
          }));
          const returned = sold.map(() => 0);
          let total = 0;
          let tax = 0;
          // Partial returns in an order the choices pick, then whatever is left in one last return.
          const step = (counts: number[]) => {
            const r = proportionalReturn(sold, returned, counts);
            for (const l of r.lines) expect(l.totalCents).toBeGreaterThanOrEqual(0);
            counts.forEach((c, i) => (returned[i] = (returned[i] ?? 0) + c));
            total += r.totalCents;
            tax += r.taxCents;
            // At no point is more given back than was paid.
            expect(total).toBeLessThanOrEqual(p.totalCents);
          };
          for (const c of choices) {
            const counts = sold.map((s, i) => {
              const left = s.quantity - (returned[i] ?? 0);
              return left === 0 ? 0 : (c + i) % (left + 1);
            });
            step(counts);
          }
          step(sold.map((s, i) => s.quantity - (returned[i] ?? 0)));
          expect(total).toBe(p.totalCents);
          expect(tax).toBe(p.taxCents);
          // And not one unit more: the first line (never voided here) has nothing left to return.
          expect(() => proportionalReturn(sold, returned, [1, ...sold.slice(1).map(() => 0)])).toThrow(
            RangeError,
          );
        },
      ),
      { seed: 1919, numRuns: 800 },
    );
  });
});
