import { describe, expect, it } from 'vitest';
import { moneyFigures, type FigureRow } from '../../common/money-figures';

const row = (
  operation: string,
  state: string,
  approvedCents: number,
  extra: Partial<FigureRow> = {},
): FigureRow => ({
  operation,
  state,
  approvedCents,
  cashBackCents: 0,
  tipCents: 0,
  cardType: operation === 'cash' ? null : 'Visa',
  ...extra,
});

/**
 * The day, worked by hand: a card sale of 45.67 (2.00 of it tip), later refunded 10.00; cash 23.40
 * (30.00 handed over, 6.60 change); a debit purchase of 20.99 with 20.00 cash back; a partial approval of
 * 20.00 out of 30.00 asked, the rest in cash; a declined card, a voided sale and its void, a pre-authorization
 * hold and a sale stored offline.
 */
const day: FigureRow[] = [
  row('sale', 'approved', 4567, { tipCents: 200 }),
  row('refund', 'approved', 1000),
  row('cash', 'approved', 2340),
  row('debit', 'approved', 2099, { cashBackCents: 2000, cardType: 'Mastercard' }),
  row('sale', 'partial', 2000),
  row('cash', 'approved', 1000),
  row('sale', 'declined', 0),
  row('sale', 'voided', 1500),
  row('void', 'approved', 1500),
  row('preauth', 'approved', 5000),
  row('sale', 'stored', 700),
  row('refund', 'declined', 300),
];

describe('money figures: one definition for every screen', () => {
  it('the card batch counts what the cards were charged, approved not asked, cash back included; cash never enters it', () => {
    const f = moneyFigures(day);
    expect(f.card.sales).toEqual({ count: 3, cents: 4567 + 2099 + 2000 + 2000 });
    expect(f.card.refunds).toEqual({ count: 1, cents: 1000 });
    expect(f.card.netCents).toBe(10666 - 1000);
    expect(f.card.cashBackCents).toBe(2000);
    expect(f.card.tipCents).toBe(200);
    expect(f.card.storedOffline).toEqual({ count: 1, cents: 700 });
    expect(f.card.byCardType).toEqual([
      { key: 'Visa', count: 2, amountCents: 6567 },
      { key: 'Mastercard', count: 1, amountCents: 4099 },
    ]);
    expect(f.card.byTender.map((l) => l.key)).toEqual(['Credit', 'Debit']);
  });

  it('the drawer: cash taken, cash back paid out, expected cash', () => {
    const f = moneyFigures(day);
    expect(f.drawer.cashTaken).toEqual({ count: 2, cents: 3340 });
    expect(f.drawer.cashBackPaidCents).toBe(2000);
    expect(f.drawer.expectedCashCents).toBe(1340);
  });

  it('rows grouped by a query count as the rows they stand for', () => {
    const grouped = moneyFigures([
      row('sale', 'approved', 4567 + 2000, { count: 2, tipCents: 200 }),
      row('debit', 'approved', 2099, { cashBackCents: 2000, cardType: 'Mastercard' }),
      row('refund', 'approved', 1000),
      row('cash', 'approved', 3340, { count: 2 }),
    ]);
    const single = moneyFigures(
      day
        .filter((r) => r.state !== 'stored')
        .map((r) => (r.state === 'partial' ? { ...r, state: 'approved' } : r)),
    );
    expect(grouped.card.sales).toEqual(single.card.sales);
    expect(grouped.card.netCents).toBe(single.card.netCents);
    expect(grouped.drawer).toEqual(single.drawer);
  });

  it('an empty day is all zeros', () => {
    const f = moneyFigures([]);
    expect([f.card.sales.cents, f.card.refunds.cents, f.card.netCents, f.drawer.expectedCashCents]).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
