import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalStore } from '../../../electron/journal/journal-store';

/**
 * The tills in the real SQLite journal (the store the journal's thread runs): every movement, the
 * expected-cash rule over what the journal recorded, the blind count, the sign-off and the Z — and, for
 * any sequence of what a day at a lane does, expected = float + in − out and over/short = counted −
 * expected to the cent, the day's Z the sum of its tills.
 */

let dir = '';
let store: JournalStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-till-'));
  store = JournalStore.open(join(dir, 'journal.sqlite'));
});

afterEach(() => {
  store.db.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = 1_790_000_000_000;
const day = { laneId: 'L1', timeZone: 'America/New_York' };

/** A cash tender as the sale engine journals it: approved as written, what the drawer kept. */
function cashSale(cents: number, now: number): string {
  return store.allocate({
    laneId: 'L1',
    operation: 'cash',
    amountCents: cents,
    state: 'approved',
    approvedCents: cents,
    now,
  }).utn;
}

/** A PIN debit with cash back, approved (or not) by the gateway. */
function debit(cents: number, cashBack: number, state: 'approved' | 'declined', now: number): void {
  const row = store.allocate({
    laneId: 'L1',
    operation: 'debit',
    amountCents: cents,
    cashBackCents: cashBack,
    now,
  });
  store.update(row.utn, { state, approvedCents: state === 'approved' ? cents : 0 }, now);
}

function card(cents: number, now: number): void {
  const row = store.allocate({ laneId: 'L1', operation: 'sale', amountCents: cents, cardType: 'Visa', now });
  store.update(row.utn, { state: 'approved', approvedCents: cents }, now);
}

const open = (employee: string, floatCents: number, now: number) =>
  store.tillOpen({ laneId: 'L1', employee, floatCents, floatDetail: null, now });

const count = (tillId: number, countedCents: number, now: number, toleranceCents = 500) =>
  store.tillCount({ tillId, countedCents, detail: null, employee: 'manager', toleranceCents, now });

describe('tills in the journal: every movement and the expected-cash rule', () => {
  it('a shift worked by hand: float, cash sales, cash back, a refund, paid in and out, a drop, a "No sale"', () => {
    const till = open('cashier', 10_000, T0);
    expect(till).toMatchObject({
      tillId: 1,
      state: 'open',
      employee: 'cashier',
      floatCents: 10_000,
      openedAt: T0,
    });
    const sale = cashSale(2340, T0 + 1);
    cashSale(1000, T0 + 2);
    debit(2099, 2000, 'approved', T0 + 3);
    debit(500, 4000, 'declined', T0 + 4);
    card(4567, T0 + 5);
    store.tillRefund({
      utn: sale,
      amountCents: 500,
      employee: 'cashier',
      approvedBy: 'manager',
      now: T0 + 6,
    });
    store.tillMove({
      kind: 'paid-out',
      amountCents: 1200,
      reason: 'Window cleaner',
      employee: 'cashier',
      approvedBy: null,
      now: T0 + 7,
    });
    store.tillMove({
      kind: 'paid-in',
      amountCents: 350,
      reason: 'Coffee fund',
      employee: 'cashier',
      approvedBy: null,
      now: T0 + 8,
    });
    store.tillMove({
      kind: 'safe-drop',
      amountCents: 2000,
      reason: 'Over $100 in twenties',
      employee: 'cashier',
      approvedBy: null,
      now: T0 + 9,
    });
    const noSale = store.tillMove({
      kind: 'no-sale',
      amountCents: 999,
      reason: 'Change for lane 2',
      employee: 'cashier',
      approvedBy: null,
      now: T0 + 10,
    });
    expect(noSale.amountCents).toBe(0);
    const x = store.tillReport(till.tillId, { ...day, now: T0 + 11 });
    const expected = 10_000 + 2340 + 1000 + 350 - 2000 - 500 - 1200 - 2000;
    expect(x.drawer).toMatchObject({
      float: { count: 1, cents: 10_000 },
      cashTaken: { count: 2, cents: 3340 },
      cashBackPaidCents: 2000,
      cashRefunds: { count: 1, cents: 500 },
      paidIn: { count: 1, cents: 350 },
      paidOut: { count: 1, cents: 1200 },
      safeDrops: { count: 1, cents: 2000 },
      noSales: 1,
      expectedCents: expected,
    });
    // The cash sale learned what was refunded; it still counts as the cash it took.
    expect(store.get(sale)).toMatchObject({ state: 'approved', approvedCents: 2340, refundedCents: 500 });
    // The blind count: 7.00 over, beyond the 5.00 tolerance — it waits for a sign-off.
    const counted = count(till.tillId, expected + 700, T0 + 12);
    expect(counted.state).toBe('counted');
    expect(counted.count).toMatchObject({
      countedCents: expected + 700,
      expectedCents: expected,
      overShortCents: 700,
      needsSignOff: true,
      countedBy: 'manager',
    });
    expect(counted.endedAt).toBe(T0 + 12);
    const signed = store.tillSignOff(till.tillId, 'manager', 'Customer left change', T0 + 13);
    expect(signed).toMatchObject({
      state: 'closed',
      count: { signedOffBy: 'manager', note: 'Customer left change' },
    });
  });

  it('refuses what a drawer cannot do: a second open till, movements with no till, a refund beyond the sale, a second count', () => {
    expect(() =>
      store.tillMove({
        kind: 'paid-out',
        amountCents: 100,
        reason: 'x',
        employee: 'cashier',
        approvedBy: null,
        now: T0,
      }),
    ).toThrow(/No till is open/);
    const sale = cashSale(1000, T0 + 1);
    expect(() =>
      store.tillRefund({ utn: sale, employee: 'cashier', approvedBy: 'manager', now: T0 + 2 }),
    ).toThrow(/No till is open/);
    const till = open('cashier', 5000, T0 + 3);
    expect(() => open('manager', 5000, T0 + 4)).toThrow(/Till 1 \(cashier\) is in the drawer/);
    expect(() =>
      store.tillRefund({
        utn: sale,
        amountCents: 1001,
        employee: 'cashier',
        approvedBy: 'manager',
        now: T0 + 5,
      }),
    ).toThrow(/At most 10\.00/);
    store.tillRefund({ utn: sale, employee: 'cashier', approvedBy: 'manager', now: T0 + 6 });
    expect(() =>
      store.tillRefund({
        utn: sale,
        amountCents: 1,
        employee: 'cashier',
        approvedBy: 'manager',
        now: T0 + 7,
      }),
    ).toThrow(/refunded in full/);
    card(900, T0 + 8);
    const cardRow = store.list({ limit: 1 })[0];
    expect(() =>
      store.tillRefund({ utn: cardRow?.utn ?? '', employee: 'cashier', approvedBy: 'manager', now: T0 + 9 }),
    ).toThrow(/No cash sale/);
    expect(() =>
      store.tillMove({
        kind: 'paid-in',
        amountCents: 0,
        reason: 'x',
        employee: 'cashier',
        approvedBy: null,
        now: T0 + 10,
      }),
    ).toThrow(/positive/);
    // The sale was rung before this till opened (the store alone lets it; the sale engine refuses cash
    // with no till): its refund comes out of this till, its cash went into none.
    expect(count(till.tillId, 5000 - 1000, T0 + 11)).toMatchObject({
      state: 'closed',
      count: { overShortCents: 0 },
    });
    expect(() => count(till.tillId, 1, T0 + 12)).toThrow(/counted already/);
    expect(() => store.tillSignOff(till.tillId, 'manager', null, T0 + 13)).toThrow(/nothing to sign off/);
    // Refused calls changed nothing: one movement each of what was allowed, nothing of the rest.
    expect(
      store
        .tillMovements(till.tillId, 50)
        .map((m) => m.kind)
        .sort(),
    ).toEqual(['float', 'refund']);
  });

  it('a hand-over ends the till’s time in the drawer: later cash belongs to the next till, the count is judged on its own', () => {
    const first = open('cashier', 10_000, T0);
    cashSale(2340, T0 + 10);
    const handed = store.tillHandOver('cashier', T0 + 20);
    expect(handed).toMatchObject({ state: 'handed-over', endedAt: T0 + 20, endedBy: 'cashier' });
    expect(handed.count).toBeUndefined();
    const second = open('manager', 15_000, T0 + 30);
    cashSale(1000, T0 + 40);
    expect(store.tillWaiting().map((t) => t.tillId)).toEqual([first.tillId]);
    const a = count(first.tillId, 12_340 - 125, T0 + 50);
    expect(a.count).toMatchObject({ expectedCents: 12_340, overShortCents: -125, needsSignOff: false });
    expect(a.state).toBe('closed');
    const b = count(second.tillId, 16_000, T0 + 60);
    expect(b.count).toMatchObject({ expectedCents: 16_000, overShortCents: 0 });
  });

  it('a till opened after a clock step back still starts where the last one ended: spans never overlap', () => {
    open('cashier', 0, T0 + 1000);
    store.tillHandOver('cashier', T0 + 2000);
    const next = open('manager', 0, T0 + 500);
    expect(next.openedAt).toBe(T0 + 2000);
  });

  it('the Z closes the day only when every till is closed; numbered, kept as closed, its tills marked', () => {
    const till = open('cashier', 10_000, T0);
    cashSale(2340, T0 + 1);
    card(4567, T0 + 2);
    const firstDayFrom = T0 - 3_600_000;
    expect(() => store.tillCloseDay({ ...day, now: T0 + 3, firstDayFrom, employee: 'manager' })).toThrow(
      /till 1 \(cashier\) is still in the drawer/,
    );
    count(till.tillId, 12_340 + 800, T0 + 4);
    expect(() => store.tillCloseDay({ ...day, now: T0 + 5, firstDayFrom, employee: 'manager' })).toThrow(
      /waits for a manager’s sign-off/,
    );
    store.tillSignOff(till.tillId, 'manager', null, T0 + 6);
    const z = store.tillCloseDay({ ...day, now: T0 + 7, firstDayFrom, employee: 'manager' });
    expect(z).toMatchObject({
      kind: 'z',
      zNumber: 1,
      from: firstDayFrom,
      until: T0 + 7,
      closedBy: 'manager',
    });
    expect(z.byTender).toEqual([
      { key: 'Credit', count: 1, amountCents: 4567 },
      { key: 'Cash', count: 1, amountCents: 2340 },
    ]);
    expect(z.card.netCents).toBe(4567);
    expect(z.counted).toEqual({ tills: 1, countedCents: 13_140, expectedCents: 12_340, overShortCents: 800 });
    expect(store.tillGet(till.tillId)?.zNumber).toBe(1);
    expect(store.tillZReport(1)).toEqual(z);
    // The next day starts where this one ended, numbered on.
    card(100, T0 + 8);
    const z2 = store.tillCloseDay({ ...day, now: T0 + 9, firstDayFrom, employee: 'manager' });
    expect(z2).toMatchObject({ zNumber: 2, from: T0 + 7, until: T0 + 9, tills: [] });
    expect(z2.outsideTills).toEqual({ count: 1, cents: 100 });
    expect(store.tillZList(undefined, 10).map((s) => s.zNumber)).toEqual([2, 1]);
    expect(store.tillZList(2, 10).map((s) => s.zNumber)).toEqual([1]);
  });

  it('property: any day of tills — each count is float + in − out, over/short counted − expected, the Z their sum', () => {
    type Step =
      | { op: 'cash'; cents: number }
      | { op: 'debit'; cents: number; cashBack: number; approved: boolean }
      | { op: 'card'; cents: number }
      | { op: 'move'; kind: 'paid-in' | 'paid-out' | 'safe-drop' | 'no-sale'; cents: number }
      | { op: 'refund'; cents: number }
      | { op: 'handover'; float: number; counted: number };
    const cents = fc.integer({ min: 1, max: 200_000 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('cash' as const), cents }),
      fc.record({
        op: fc.constant('debit' as const),
        cents,
        cashBack: fc.integer({ min: 0, max: 10_000 }),
        approved: fc.boolean(),
      }),
      fc.record({ op: fc.constant('card' as const), cents }),
      fc.record({
        op: fc.constant('move' as const),
        kind: fc.constantFrom(
          'paid-in' as const,
          'paid-out' as const,
          'safe-drop' as const,
          'no-sale' as const,
        ),
        cents,
      }),
      fc.record({ op: fc.constant('refund' as const), cents }),
      fc.record({
        op: fc.constant('handover' as const),
        float: fc.integer({ min: 0, max: 50_000 }),
        counted: fc.integer({ min: 0, max: 2_000_000 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(step, { maxLength: 40 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (float, steps, lastCounted) => {
          store.db.close();
          rmSync(dir, { recursive: true, force: true });
          dir = mkdtempSync(join(tmpdir(), 'tillpoint-till-'));
          store = JournalStore.open(join(dir, 'journal.sqlite'));
          let now = T0;
          const tick = () => (now += 1000);
          // The model: what each till's drawer must hold, kept apart from the store.
          let model = {
            tillId: open('cashier', float, tick()).tillId,
            expected: float,
            sales: [] as { utn: string; left: number }[],
          };
          const outcomes: { tillId: number; counted: number; expected: number }[] = [];
          for (const s of steps) {
            if (s.op === 'cash') {
              model.sales.push({ utn: cashSale(s.cents, tick()), left: s.cents });
              model.expected += s.cents;
            } else if (s.op === 'debit') {
              debit(s.cents, s.cashBack, s.approved ? 'approved' : 'declined', tick());
              if (s.approved) model.expected -= s.cashBack;
            } else if (s.op === 'card') card(s.cents, tick());
            else if (s.op === 'move') {
              store.tillMove({
                kind: s.kind,
                amountCents: s.cents,
                reason: 'r',
                employee: 'cashier',
                approvedBy: null,
                now: tick(),
              });
              if (s.kind === 'paid-in') model.expected += s.cents;
              if (s.kind === 'paid-out' || s.kind === 'safe-drop') model.expected -= s.cents;
            } else if (s.op === 'refund') {
              const sale = model.sales.find((x) => x.left > 0);
              if (!sale) continue;
              const amount = Math.min(sale.left, s.cents);
              store.tillRefund({
                utn: sale.utn,
                amountCents: amount,
                employee: 'cashier',
                approvedBy: 'manager',
                now: tick(),
              });
              sale.left -= amount;
              model.expected -= amount;
            } else {
              store.tillHandOver('cashier', tick());
              outcomes.push({ tillId: model.tillId, counted: s.counted, expected: model.expected });
              model = { tillId: open('manager', s.float, tick()).tillId, expected: s.float, sales: [] };
            }
          }
          outcomes.push({ tillId: model.tillId, counted: lastCounted, expected: model.expected });
          for (const o of outcomes) {
            const t = store.tillCount({
              tillId: o.tillId,
              countedCents: o.counted,
              detail: null,
              employee: 'manager',
              toleranceCents: 500,
              now: tick(),
            });
            expect(t.count?.expectedCents).toBe(o.expected);
            expect(t.count?.overShortCents).toBe(o.counted - o.expected);
            expect(t.state).toBe(Math.abs(o.counted - o.expected) > 500 ? 'counted' : 'closed');
            if (t.state === 'counted') store.tillSignOff(o.tillId, 'manager', null, tick());
          }
          const z = store.tillCloseDay({ ...day, now: tick(), firstDayFrom: T0, employee: 'manager' });
          const sum = (f: (o: (typeof outcomes)[number]) => number) => outcomes.reduce((a, o) => a + f(o), 0);
          expect(z.counted).toEqual({
            tills: outcomes.length,
            countedCents: sum((o) => o.counted),
            expectedCents: sum((o) => o.expected),
            overShortCents: sum((o) => o.counted - o.expected),
          });
          // The day's drawer is its tills' drawers together, and the day's cash tender line is its cash taken.
          expect(z.drawer.expectedCents).toBe(sum((o) => o.expected));
          expect(z.tills.reduce((a, t) => a + t.figures.expectedCents, 0)).toBe(z.drawer.expectedCents);
          const cashLine = z.byTender.find((l) => l.key === 'Cash');
          expect(cashLine?.amountCents ?? 0).toBe(z.drawer.cashTaken.cents);
        },
      ),
      { numRuns: 60 },
    );
  });
});
