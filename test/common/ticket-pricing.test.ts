import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { includedTaxCents, taxCents } from '../../common/percent';
import { priceTicket, type Discount, type PricingLine, type TaxClassRate } from '../../common/ticket-pricing';

const standard: TaxClassRate = { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' };
const reduced: TaxClassRate = { code: 'reduced', name: 'Reduced', ratePercent: 2.5, mode: 'exclusive' };
const exempt: TaxClassRate = { code: 'exempt', name: 'Exempt', ratePercent: 0, mode: 'exempt' };
const included: TaxClassRate = { code: 'incl', name: 'Tax included', ratePercent: 10, mode: 'inclusive' };

describe('the ticket pricing rule (common/ticket-pricing.ts)', () => {
  it('prices the worked example of docs/ticket-pricing.md to the cent', () => {
    const p = priceTicket(
      [
        // 2 × 12.99, 10 % off the line: 25.98 − 2.598 → 2.60 (half up) = 23.38
        { quantity: 2, unitPriceCents: 1299, taxClass: standard, discount: { kind: 'percent', percent: 10 } },
        { quantity: 3, unitPriceCents: 29, taxClass: exempt },
        { quantity: 1, unitPriceCents: 250, taxClass: included },
      ],
      { kind: 'amount', amountCents: 500 },
    );
    // 5.00 over 23.38, 0.87, 2.50 (26.75): 4.37009, 0.16261, 0.46728 → floors 437, 16, 46, the cent to .728
    expect(p.lines.map((l) => l.ticketDiscountCents)).toEqual([437, 16, 47]);
    expect(p.lines.map((l) => l.amountCents)).toEqual([1901, 71, 203]);
    // 19.01 at 8.25 % = 1.568325 → 1.57; 2.03 at 10 % included = 0.184545… → 0.18.
    expect(p.taxes).toEqual([
      { ...standard, taxableCents: 1901, taxCents: 157 },
      { ...exempt, taxableCents: 71, taxCents: 0 },
      { ...included, taxableCents: 203, taxCents: 18 },
    ]);
    expect(p.lines.map((l) => [l.taxCents, l.netCents, l.totalCents])).toEqual([
      [157, 1901, 2058],
      [0, 71, 71],
      [18, 185, 203],
    ]);
    expect(p).toMatchObject({
      itemsCents: 2598 + 87 + 250,
      lineDiscountCents: 260,
      ticketDiscountCents: 500,
      subtotalCents: 2175,
      addedTaxCents: 157,
      includedTaxCents: 18,
      taxCents: 175,
      totalCents: 2332,
      netCents: 2157,
    });
  });

  it('rounds tax once per class on its total, not line by line, and spreads it by the largest remainder', () => {
    const three = [1, 2, 3].map(() => ({ quantity: 1, unitPriceCents: 10, taxClass: standard }));
    const p = priceTicket(three);
    // 0.30 at 8.25 % = 2.475 cents → 2 (line by line it would be 0.825 → 1, three times: 3).
    expect(p.taxCents).toBe(2);
    expect(p.lines.map((l) => l.taxCents)).toEqual([1, 1, 0]);
    expect(p.totalCents).toBe(32);
  });

  it('keeps a voided line in its place with every figure zero, and leaves the others as they were', () => {
    const lines: PricingLine[] = [
      { quantity: 1, unitPriceCents: 1000, taxClass: standard },
      { quantity: 2, unitPriceCents: 500, taxClass: standard },
    ];
    const voided = priceTicket([lines[0] as PricingLine, { ...(lines[1] as PricingLine), voided: true }]);
    expect(voided.lines[1]).toEqual({
      grossCents: 0,
      lineDiscountCents: 0,
      ticketDiscountCents: 0,
      amountCents: 0,
      taxCents: 0,
      netCents: 0,
      totalCents: 0,
    });
    expect(voided.totalCents).toBe(priceTicket([lines[0] as PricingLine]).totalCents);
  });

  it('never takes a line below zero: an amount discount is capped at what it discounts', () => {
    const p = priceTicket(
      [
        {
          quantity: 1,
          unitPriceCents: 300,
          taxClass: standard,
          discount: { kind: 'amount', amountCents: 500 },
        },
      ],
      { kind: 'amount', amountCents: 100 },
    );
    expect(p.lines[0]).toMatchObject({ lineDiscountCents: 300, ticketDiscountCents: 0, amountCents: 0 });
    expect(p.totalCents).toBe(0);
    const all = priceTicket([{ quantity: 2, unitPriceCents: 300, taxClass: reduced }], {
      kind: 'percent',
      percent: 100,
    });
    expect(all.totalCents).toBe(0);
  });

  it('refuses what is not a price: a fraction of a unit, a negative price, an inexact rate or percent', () => {
    const line = { quantity: 1, unitPriceCents: 100, taxClass: standard };
    expect(() => priceTicket([{ ...line, quantity: 1.5 }])).toThrow(RangeError);
    expect(() => priceTicket([{ ...line, quantity: 0 }])).toThrow(RangeError);
    expect(() => priceTicket([{ ...line, unitPriceCents: -1 }])).toThrow(RangeError);
    expect(() => priceTicket([{ ...line, taxClass: { ...standard, ratePercent: 8.12345 } }])).toThrow(
      RangeError,
    );
    expect(() => priceTicket([{ ...line, discount: { kind: 'percent', percent: 101 } }])).toThrow(RangeError);
    expect(() => priceTicket([line], { kind: 'amount', amountCents: 0.5 })).toThrow(RangeError);
  });

  it('an empty ticket costs nothing', () => {
    expect(priceTicket([])).toMatchObject({ totalCents: 0, taxes: [], lines: [] });
  });
});

// --- properties

const classes = [standard, reduced, exempt, included, { ...standard, ratePercent: 9.875 }];

const discountArb: fc.Arbitrary<Discount | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 50_000 }).map((amountCents) => ({ kind: 'amount' as const, amountCents })),
  fc.integer({ min: 0, max: 1_000_000 }).map((u) => ({ kind: 'percent' as const, percent: u / 10_000 })),
);

const ticketArb = fc.record({
  lines: fc.array(
    fc.record({
      quantity: fc.integer({ min: 1, max: 50 }),
      unitPriceCents: fc.integer({ min: 0, max: 200_000 }),
      discount: discountArb,
      taxClass: fc.constantFrom(...classes),
      voided: fc.boolean(),
    }),
    { maxLength: 25 },
  ),
  discount: discountArb,
});

describe('the ticket pricing rule holds for every ticket (properties)', () => {
  it('totals are the sum of their parts; no line, share or figure below zero', () => {
    fc.assert(
      fc.property(ticketArb, ({ lines, discount }) => {
        const p = priceTicket(lines, discount);
        const sum = (f: (l: (typeof p.lines)[number]) => number) => p.lines.reduce((s, l) => s + f(l), 0);
        expect(sum((l) => l.totalCents)).toBe(p.totalCents);
        expect(sum((l) => l.taxCents)).toBe(p.taxCents);
        expect(p.taxes.reduce((s, t) => s + t.taxCents, 0)).toBe(p.taxCents);
        expect(sum((l) => l.ticketDiscountCents)).toBe(p.ticketDiscountCents);
        expect(sum((l) => l.amountCents)).toBe(p.subtotalCents);
        expect(p.subtotalCents).toBe(p.itemsCents - p.lineDiscountCents - p.ticketDiscountCents);
        expect(p.totalCents).toBe(p.subtotalCents + p.addedTaxCents);
        expect(p.netCents + p.taxCents).toBe(p.totalCents);
        for (const l of p.lines) {
          expect(l.lineDiscountCents).toBeLessThanOrEqual(l.grossCents);
          expect(
            Math.min(l.amountCents, l.netCents, l.taxCents, l.totalCents, l.ticketDiscountCents),
          ).toBeGreaterThanOrEqual(0);
          expect(l.netCents + l.taxCents).toBe(l.totalCents);
        }
      }),
      { seed: 4242, numRuns: 1500 },
    );
  });

  it('each class is taxed once on its total by the percent rule; the ticket discount is spread exactly', () => {
    fc.assert(
      fc.property(ticketArb, ({ lines, discount }) => {
        const p = priceTicket(lines, discount);
        for (const t of p.taxes) {
          const rule =
            t.mode === 'exclusive'
              ? taxCents(t.taxableCents, t.ratePercent)
              : t.mode === 'inclusive'
                ? includedTaxCents(t.taxableCents, t.ratePercent)
                : 0;
          expect(t.taxCents).toBe(rule);
        }
        const live = lines.filter((l) => !l.voided);
        expect(p.taxes.reduce((s, t) => s + t.taxableCents, 0)).toBe(p.subtotalCents);
        expect(new Set(live.map((l) => `${l.taxClass.code}/${l.taxClass.ratePercent}`)).size).toBe(
          p.taxes.length,
        );
        lines.forEach((l, i) => {
          const priced = p.lines[i];
          expect(priced?.grossCents).toBe(l.voided ? 0 : l.quantity * l.unitPriceCents);
        });
      }),
      { seed: 2026, numRuns: 1000 },
    );
  });
});
