import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MOVEMENT_DIRECTION,
  TILL_MOVEMENT_KINDS,
  moneyFigures,
  needsSignOff,
  overShortCents,
  tenderLines,
  tillFigures,
  type FigureRow,
  type MovementRow,
  type TillMovementKind,
} from '../../common/money-figures';
import {
  USD_DENOMINATIONS,
  cashCountProblem,
  countTotalCents,
  denominationById,
} from '../../common/cash-count';

const sale = (operation: string, state: string, approvedCents: number, cashBackCents = 0): FigureRow => ({
  operation,
  state,
  approvedCents,
  cashBackCents,
  tipCents: 0,
  cardType: operation === 'cash' ? null : 'Visa',
});
const move = (kind: TillMovementKind, amountCents: number): MovementRow => ({ kind, amountCents });

/**
 * One cashier's shift, worked by hand: a 100.00 float, cash sales of 23.40 and 10.00, a debit with 20.00
 * cash back, a card sale (not the drawer's), a 5.00 cash refund, 12.00 paid out, 3.50 paid in, a 50.00
 * safe drop and a "No sale" (the drawer opened, nothing moved).
 */
const shiftSales: FigureRow[] = [
  sale('cash', 'approved', 2340),
  sale('cash', 'approved', 1000),
  sale('debit', 'approved', 2099, 2000),
  sale('sale', 'approved', 4567),
  // A cash tender given back when its ticket was abandoned is not cash taken.
  sale('cash', 'voided', 800),
];
const shiftMoves: MovementRow[] = [
  move('float', 10_000),
  move('refund', 500),
  move('paid-out', 1200),
  move('paid-in', 350),
  move('safe-drop', 5000),
  move('no-sale', 0),
];

describe('till figures: the drawer of a till, one rule', () => {
  it('the shift worked by hand: expected = float + cash taken + paid in − cash back − refunds − paid out − drops', () => {
    const t = tillFigures(shiftSales, shiftMoves);
    expect(t.float).toEqual({ count: 1, cents: 10_000 });
    expect(t.cashTaken).toEqual({ count: 2, cents: 3340 });
    expect(t.cashBackPaidCents).toBe(2000);
    expect(t.cashRefunds).toEqual({ count: 1, cents: 500 });
    expect(t.paidIn).toEqual({ count: 1, cents: 350 });
    expect(t.paidOut).toEqual({ count: 1, cents: 1200 });
    expect(t.safeDrops).toEqual({ count: 1, cents: 5000 });
    expect(t.noSales).toBe(1);
    expect(t.expectedCents).toBe(10_000 + 3340 + 350 - 2000 - 500 - 1200 - 5000);
    expect(t.expectedCents).toBe(4990);
  });

  it('the sales half is the money figures’ drawer: the batch screen and the till read one definition', () => {
    const t = tillFigures(shiftSales, []);
    const d = moneyFigures(shiftSales).drawer;
    expect(t.cashTaken).toEqual(d.cashTaken);
    expect(t.cashBackPaidCents).toBe(d.cashBackPaidCents);
    expect(t.checks).toEqual(d.checks);
    expect(t.expectedCents).toBe(d.expectedCashCents);
  });

  it('groups count as their rows: a query’s sums give the figures of the rows they stand for', () => {
    const grouped = tillFigures(
      [{ ...sale('cash', 'approved', 3340), count: 2 }],
      [
        { kind: 'paid-out', amountCents: 1700, count: 2 },
        { kind: 'float', amountCents: 10_000, count: 1 },
      ],
    );
    expect(grouped.cashTaken).toEqual({ count: 2, cents: 3340 });
    expect(grouped.paidOut).toEqual({ count: 2, cents: 1700 });
    expect(grouped.expectedCents).toBe(10_000 + 3340 - 1700);
  });

  it('over/short is counted − expected; a sign-off is needed only beyond the tolerance, either way', () => {
    expect(overShortCents(4990 + 700, 4990)).toBe(700);
    expect(overShortCents(4990 - 125, 4990)).toBe(-125);
    expect(needsSignOff(700, 500)).toBe(true);
    expect(needsSignOff(-700, 500)).toBe(true);
    expect(needsSignOff(500, 500)).toBe(false);
    expect(needsSignOff(-500, 500)).toBe(false);
    expect(needsSignOff(-125, 500)).toBe(false);
    expect(needsSignOff(1, 0)).toBe(true);
  });

  it('property: any sequence of movements — expected = float + in − out, over/short = counted − expected, to the cent', () => {
    const cents = fc.integer({ min: 0, max: 5_000_000 });
    const movement = fc.record({ kind: fc.constantFrom(...TILL_MOVEMENT_KINDS), amountCents: cents });
    const cashSale = fc.record({
      approvedCents: cents,
      state: fc.constantFrom('approved', 'voided', 'declined'),
    });
    const debit = fc.record({
      approvedCents: cents,
      cashBackCents: cents,
      state: fc.constantFrom('approved', 'partial', 'reversed', 'declined'),
    });
    fc.assert(
      fc.property(
        fc.array(movement, { maxLength: 40 }),
        fc.array(cashSale, { maxLength: 20 }),
        fc.array(debit, { maxLength: 10 }),
        cents,
        (moves, cash, debits, counted) => {
          const rows = [
            ...cash.map((c) => sale('cash', c.state, c.approvedCents)),
            ...debits.map((d) => sale('debit', d.state, d.approvedCents, d.cashBackCents)),
          ];
          // No-sale movements carry no amount (the store refuses one with an amount).
          const ms = moves.map((m) => (m.kind === 'no-sale' ? { ...m, amountCents: 0 } : m));
          const t = tillFigures(rows, ms);
          const sum = (k: TillMovementKind) =>
            ms.filter((m) => m.kind === k).reduce((s, m) => s + m.amountCents, 0);
          const cashIn = cash.filter((c) => c.state === 'approved').reduce((s, c) => s + c.approvedCents, 0);
          const cashBack = debits
            .filter((d) => d.state === 'approved' || d.state === 'partial')
            .reduce((s, d) => s + d.cashBackCents, 0);
          const into = sum('float') + cashIn + sum('paid-in');
          const out = cashBack + sum('refund') + sum('paid-out') + sum('safe-drop');
          expect(t.expectedCents).toBe(into - out);
          expect(Number.isSafeInteger(t.expectedCents)).toBe(true);
          expect(overShortCents(counted, t.expectedCents)).toBe(counted - (into - out));
          // Every figure is a sum: the figures of two halves add up to the figures of the whole.
          const cut = Math.floor(ms.length / 2);
          const a = tillFigures(rows, ms.slice(0, cut));
          const b = tillFigures([], ms.slice(cut));
          expect(a.expectedCents + b.expectedCents).toBe(t.expectedCents);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every movement kind moves the drawer one way: in, out, or not at all (a "No sale")', () => {
    expect(MOVEMENT_DIRECTION).toEqual({
      float: 1,
      'paid-in': 1,
      'paid-out': -1,
      'safe-drop': -1,
      refund: -1,
      'no-sale': 0,
    });
  });

  it('sales by tender: every tender on one list — the card lines as charged, cash as kept, checks', () => {
    const lines = tenderLines(moneyFigures([...shiftSales, sale('check', 'approved', 1234)]));
    expect(lines).toEqual([
      { key: 'Credit', count: 1, amountCents: 4567 },
      { key: 'Debit', count: 1, amountCents: 4099 },
      { key: 'Cash', count: 2, amountCents: 3340 },
      { key: 'Check', count: 1, amountCents: 1234 },
    ]);
  });
});

describe('sales by tender: what paid, not what was sold', () => {
  it('a gift card load paid in cash is one sale, in cash: the load is what was bought, not a tender', () => {
    const f = moneyFigures([sale('cash', 'approved', 2500), sale('gift-reload', 'approved', 2500)]);
    // The gateway settles the load as a card sale: the card batch counts it…
    expect(f.card.sales).toEqual({ count: 1, cents: 2500 });
    // …but the customer paid once, in cash.
    expect(tenderLines(f)).toEqual([{ key: 'Cash', count: 1, amountCents: 2500 }]);
  });
});

describe('cash count: a drawer counted by denomination (USD) or as a total', () => {
  it('the denominations of a US drawer: bills, coins and rolls, each its exact value in cents', () => {
    expect(USD_DENOMINATIONS.map((d) => d.cents)).toEqual([
      10_000, 5000, 2000, 1000, 500, 200, 100, 100, 50, 25, 10, 5, 1, 1000, 500, 200, 50,
    ]);
    expect(new Set(USD_DENOMINATIONS.map((d) => d.id)).size).toBe(USD_DENOMINATIONS.length);
    expect(denominationById('roll-25')?.cents).toBe(1000);
  });

  it('a count is Σ pieces × value, in integer cents', () => {
    expect(
      countTotalCents({
        'bill-2000': 2,
        'bill-1000': 4,
        'bill-500': 3,
        'bill-100': 5,
        'coin-25': 7,
        'coin-1': 3,
      }),
    ).toBe(4000 + 4000 + 1500 + 500 + 175 + 3);
    expect(countTotalCents({})).toBe(0);
  });

  it('refuses what is not a count: unknown denominations, negative or fractional pieces, absurd piles', () => {
    expect(cashCountProblem({ 'bill-300': 1 })).toMatch(/not a US denomination/);
    expect(cashCountProblem({ 'bill-2000': -1 })).toMatch(/whole number/);
    expect(cashCountProblem({ 'bill-2000': 1.5 })).toMatch(/whole number/);
    expect(cashCountProblem({ 'coin-1': 1_000_000 })).toMatch(/at most/);
    expect(cashCountProblem({ 'bill-2000': 3 })).toBeUndefined();
  });

  it('property: the total of a count is the sum of its lines, whatever the order', () => {
    const ids = USD_DENOMINATIONS.map((d) => d.id);
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...ids), fc.integer({ min: 0, max: 10_000 })), (counts) => {
        const total = Object.entries(counts).reduce(
          (s, [id, n]) => s + n * (denominationById(id)?.cents ?? Number.NaN),
          0,
        );
        expect(countTotalCents(counts)).toBe(total);
        expect(countTotalCents(Object.fromEntries(Object.entries(counts).reverse()))).toBe(total);
      }),
    );
  });
});
