import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromCents } from '../../gateway/domain/money';
import {
  batchDetail,
  batchSummaryByEntity,
  batchSummaryByMerchant,
  cardSummary,
  depositsSummary,
} from '../../gateway/domain/reporting/index';
import { chargedCents } from '../../gateway/domain/rules/card-paid';
import {
  keyedSale,
  ManualClock,
  merchant1,
  startGateway,
  utn,
  type TestGateway,
} from '../support/gateway-harness';

/**
 * Issue 22: the Reporting group reads running totals written when batches settle and close
 * (domain/report-rollups.ts, migration 011), never the payments of settled batches. Property: after any
 * sequence of sales, refunds, voids, settlements and closes, every summary, GetBatchDetail page and deposit
 * list those totals give, over any window of settlement (or close) time, equals the one computed by
 * reading every payment, to the cent. Runs on SQLite and on PostgreSQL (both vitest projects).
 */

const CARDS = [
  { CardNumber: '4111111111111111', CVN: '123' },
  { CardNumber: '5555555555554444', CVN: '123' },
  { CardNumber: '378282246310005', CVN: '1234' },
  { CardNumber: '6011111111111117', CVN: '123' },
] as const;

/** A second cashier of merchant 1001 (the sandbox has one): the cashier groups need two. */
const OTHER_CID = 7;

type Op =
  | { kind: 'sale'; cents: number; tipCents: number; card: number; other: boolean }
  | { kind: 'refund'; of: number; cents: number }
  | { kind: 'void'; of: number }
  | { kind: 'settle' }
  | { kind: 'close' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      cents: fc.integer({ min: 1, max: 50_000 }),
      tipCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 })),
      card: fc.nat({ max: CARDS.length - 1 }),
      other: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      of: fc.nat(),
      cents: fc.integer({ min: 1, max: 20_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), of: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const) }) },
);

/** A window's end: an instant the history has (a settlement or close), a millisecond either side, or none. */
const end = fc.option(fc.record({ at: fc.nat(), shift: fc.constantFrom(-1, 0, 1) }), { nil: undefined });
const view = fc.record({
  from: end,
  to: end,
  pageIndex: fc.nat({ max: 3 }),
  pageSize: fc.integer({ min: 1, max: 4 }),
});

type Settled = {
  id: number;
  srn: string;
  batch_id: number;
  batch_number: string;
  settled_at: string;
  closed_at: string | null;
  batch_status: string;
  cid: number;
  card_type: string;
  operation: string;
  entry_mode: string;
  amount_cents: number;
  charged: number;
};

type Sums = { sale: number; ret: number; saleCount: number; returnCount: number; keyed: number; n: number };

function sumsOf(rows: Settled[]): Sums {
  const s: Sums = { sale: 0, ret: 0, saleCount: 0, returnCount: 0, keyed: 0, n: 0 };
  for (const r of rows) {
    if (r.operation === 'refund') {
      s.ret += r.amount_cents;
      s.returnCount += 1;
    } else {
      s.sale += r.charged;
      s.saleCount += 1;
    }
    if (r.entry_mode === 'KeyEntered' || r.entry_mode === 'ChipFallbackManual') s.keyed += 1;
    s.n += 1;
  }
  return s;
}

/** The figures of a batch-summary row (every one of the six sums shows in one of them). */
const batchFigures = (s: Sums) => ({
  SaleAmount: fromCents(s.sale),
  ReturnAmount: fromCents(s.ret),
  NetAmount: fromCents(s.sale - s.ret),
  TransactionCount: s.n,
  KeyedCount: s.keyed,
  AvgTrans: s.saleCount > 0 ? fromCents(Math.round(s.sale / s.saleCount)) : 0,
});
const cardFigures = (s: Sums) => ({
  SaleAmount: fromCents(s.sale),
  ReturnAmount: fromCents(s.ret),
  NetAmount: fromCents(s.sale - s.ret),
  SaleCount: s.saleCount,
  ReturnCount: s.returnCount,
});

function groupBy<K extends string | number>(rows: Settled[], key: (r: Settled) => K): Map<K, Settled[]> {
  const out = new Map<K, Settled[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

const pageOf = <T>(all: T[], index: number, size: number) => all.slice(index * size, index * size + size);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every approved payment of the merchant's settled and closed batches, read whole: the reference. */
async function settledPayments(gw: TestGateway): Promise<Settled[]> {
  const q = gw.gateway.storage.read;
  const rows = await q.all(
    q.qb
      .selectFrom('payments as p')
      .innerJoin('batches as b', 'b.id', 'p.batch_id')
      .selectAll('p')
      .select([
        'b.batch_number as batch_number',
        'b.settled_at as settled_at',
        'b.closed_at as closed_at',
        'b.status as batch_status',
      ])
      .where('p.mid', '=', merchant1.mid)
      .where('p.status', '=', 'approved')
      .where('b.status', 'in', ['settled', 'closed'])
      .orderBy('b.settled_at')
      .orderBy('b.id')
      .orderBy('p.id'),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    srn: r.srn,
    batch_id: Number(r.batch_id),
    batch_number: r.batch_number,
    settled_at: r.settled_at ?? '',
    closed_at: r.closed_at,
    batch_status: r.batch_status,
    cid: Number(r.cid),
    card_type: r.card_type,
    operation: r.operation,
    entry_mode: r.entry_mode,
    amount_cents: Number(r.amount_cents),
    charged: chargedCents({
      amount_cents: Number(r.amount_cents),
      tax_cents: Number(r.tax_cents),
      tip_cents: Number(r.tip_cents),
      surcharge_cents: Number(r.surcharge_cents),
      card_difference_cents: Number(r.card_difference_cents),
      cashback_cents: Number(r.cashback_cents),
    }),
  }));
}

/** Sales answer 0, refunds 200 (the interface's two success codes). */
const approved = (body: { ResponseCode?: unknown }) => body.ResponseCode === 0 || body.ResponseCode === 200;

async function play(gw: TestGateway, clock: ManualClock, ops: Op[]): Promise<void> {
  const done: string[] = [];
  for (const o of ops) {
    clock.advance(60_000);
    if (o.kind === 'sale') {
      const r = await gw.post(
        '/api/Transactions/Sale',
        keyedSale({
          ...CARDS[o.card],
          Amount: fromCents(o.cents),
          ...(o.tipCents > 0 ? { TipAmount: fromCents(o.tipCents) } : {}),
          ...(o.other ? { cid: OTHER_CID } : {}),
        }),
      );
      if (approved(r.body)) done.push(String(r.body.ServiceReferenceNumber));
    } else if (o.kind === 'refund' && done.length > 0) {
      const r = await gw.post('/api/Transactions/DoRefund', {
        ...merchant1,
        ServiceTransactionNumber: done[o.of % done.length],
        Amount: fromCents(o.cents),
        UserTransactionNumber: utn('refund'),
      });
      if (approved(r.body)) done.push(String(r.body.ServiceReferenceNumber));
    } else if (o.kind === 'void' && done.length > 0) {
      // Refused once its batch has settled: what the gateway decides is the history the reports read.
      await gw.post('/api/Transactions/DoVoid', {
        ...merchant1,
        ServiceTransactionNumber: done[o.of % done.length],
        UserTransactionNumber: utn('void'),
      });
    } else if (o.kind === 'settle') {
      await gw.post('/api/Transactions/DoSettlement', { ...merchant1 });
    } else if (o.kind === 'close') {
      await gw.post('/api/Transactions/DoCloseAllSettledTransaction', { ...merchant1 });
    }
  }
}

describe('Reporting from running totals (issue 22)', () => {
  it('equals the sums of every payment, to the cent, for any history and window', async () => {
    const runs = Number(process.env.ROLLUP_RUNS ?? 8);
    let played = 0;
    let nonEmpty = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 4, maxLength: 30 }),
        fc.array(view, { minLength: 3, maxLength: 3 }),
        async (ops, views) => {
          const clock = new ManualClock(new Date('2026-03-02T14:00:00Z'));
          const gw = await startGateway({ clock, backgroundTasks: false });
          try {
            await gw.gateway.storage.write((tx) =>
              tx.run(
                tx.qb.insertInto('cashiers').values({
                  mid: merchant1.mid,
                  cid: OTHER_CID,
                  first_name: 'Other',
                  last_name: 'Cashier',
                  description: '',
                  is_enable: 1,
                  can_sale: 1,
                  created_at: clock.now().toISOString(),
                }),
              ),
            );
            await play(gw, clock, ops);
            // Then a funded batch and a settled one, so that every history has both to report.
            await play(gw, clock, [
              { kind: 'sale', cents: 1_234, tipCents: 0, card: 0, other: false },
              { kind: 'settle' },
              { kind: 'close' },
              { kind: 'sale', cents: 4_321, tipCents: 0, card: 1, other: false },
              { kind: 'settle' },
            ]);
            played += 1;
            const all = await settledPayments(gw);
            for (const r of all)
              seen.add(`${r.operation === 'refund' ? 'refund' : 'sale'} ${r.cid} ${r.batch_status}`);
            const q = gw.gateway.storage.read;
            const mid = merchant1.mid;
            const zone = 'America/New_York';
            const instants = [
              ...new Set(all.flatMap((r) => [r.settled_at, r.closed_at ?? r.settled_at])),
            ].sort(byText);
            const at = (e: { at: number; shift: number } | undefined) =>
              e === undefined
                ? undefined
                : new Date(Date.parse(instants[e.at % instants.length] as string) + e.shift).toISOString();
            for (const v of views) {
              const range = { fromIso: at(v.from), toIso: at(v.to) };
              const p = { index: v.pageIndex, size: v.pageSize };
              const inWindow = (t: string) =>
                (range.fromIso === undefined || t >= range.fromIso) &&
                (range.toIso === undefined || t < range.toIso);
              const rows = all.filter((r) => inWindow(r.settled_at));
              if (rows.length > 0) nonEmpty += 1;

              // GetBatchSummaryByMerchant: a row per batch in settlement order.
              const batches = [...groupBy(rows, (r) => r.batch_id).values()];
              const bm = await batchSummaryByMerchant(q, mid, zone, range, p);
              expect(bm.count).toBe(batches.length);
              expect(bm.total).toMatchObject(batchFigures(sumsOf(rows)));
              expect(bm.rows).toEqual(
                pageOf(batches, p.index, p.size).map((b): unknown =>
                  expect.objectContaining({ BatchNumber: b[0]?.batch_number, ...batchFigures(sumsOf(b)) }),
                ),
              );

              // GetBatchSummaryByEntity: the merchant (level 0), each cashier (level 1), one cashier.
              const e0 = await batchSummaryByEntity(q, mid, range, { level: 0 }, { index: 0, size: 10 });
              expect(e0.count).toBe(rows.length > 0 ? 1 : 0);
              expect(e0.total).toMatchObject(batchFigures(sumsOf(rows)));
              const cashiers = [...groupBy(rows, (r) => r.cid)].sort(([a], [b]) => a - b);
              const e1 = await batchSummaryByEntity(q, mid, range, { level: 1 }, p);
              expect(e1.count).toBe(cashiers.length);
              expect(e1.total).toMatchObject(batchFigures(sumsOf(rows)));
              expect(e1.rows).toEqual(
                pageOf(cashiers, p.index, p.size).map(([cid, r]): unknown =>
                  expect.objectContaining({ EntityId: String(cid), ...batchFigures(sumsOf(r)) }),
                ),
              );
              const other = rows.filter((r) => r.cid === OTHER_CID);
              const one = await batchSummaryByEntity(
                q,
                mid,
                range,
                { level: 1, onlyId: String(OTHER_CID) },
                { index: 0, size: 10 },
              );
              expect(one.count).toBe(other.length > 0 ? 1 : 0);
              expect(one.total).toMatchObject(batchFigures(sumsOf(other)));

              // GetCardSummary: every cashier's card mix, and one cashier's.
              for (const [cidView, subset] of [
                [{ level: 1 as const }, rows],
                [{ level: 1 as const, onlyId: String(OTHER_CID) }, other],
              ] as const) {
                const cards = [...groupBy(subset, (r) => r.card_type)].sort(([a], [b]) => byText(a, b));
                const cs = await cardSummary(q, mid, range, cidView, undefined, p);
                expect(cs.count).toBe(cards.length);
                expect(cs.total).toMatchObject(cardFigures(sumsOf(subset)));
                expect(cs.rows).toEqual(
                  pageOf(cards, p.index, p.size).map(([type, r]): unknown =>
                    expect.objectContaining({ CardType: type, ...cardFigures(sumsOf(r)) }),
                  ),
                );
              }

              // GetBatchDetail: the window's payments in batch order, any page; and one batch's.
              const detail = await batchDetail(q, mid, zone, { reportRange: range }, p);
              expect(detail.count).toBe(rows.length);
              expect(detail.total.TransactionAmount).toBe(fromCents(sumsOf(rows).sale - sumsOf(rows).ret));
              expect(detail.rows.map((r) => r.TransactionID)).toEqual(
                pageOf(rows, p.index, p.size).map((r) => r.srn),
              );
              // The history always has settled batches (the tail of every run): one of them by its number.
              const someBatch = all[v.pageIndex % all.length];
              if (!someBatch) throw new Error('no settled payment to pick a batch from');
              const ofBatch = rows.filter((r) => r.batch_number === someBatch.batch_number);
              const bd = await batchDetail(
                q,
                mid,
                zone,
                { reportRange: range, batchNumber: someBatch.batch_number },
                p,
              );
              expect(bd.count).toBe(ofBatch.length);
              expect(bd.rows.map((r) => r.TransactionID)).toEqual(
                pageOf(ofBatch, p.index, p.size).map((r) => r.srn),
              );

              // GetDepositsSummary: one deposit per close, by close time.
              const closes = [
                ...groupBy(
                  all.filter((r) => r.batch_status === 'closed' && inWindow(r.closed_at ?? '')),
                  (r) => r.closed_at ?? '',
                ),
              ].sort(([a], [b]) => byText(a, b));
              const net = (r: Settled[]) => sumsOf(r).sale - sumsOf(r).ret;
              const ds = await depositsSummary(q, mid, zone, range, p, {
                routing: '021000021',
                dda: '123456789',
              });
              expect(ds.count).toBe(closes.length);
              expect(ds.total.DepositAmount).toBe(fromCents(closes.reduce((s, [, r]) => s + net(r), 0)));
              expect(ds.rows.map((r) => r.DepositAmount)).toEqual(
                pageOf(closes, p.index, p.size).map(([, r]) => fromCents(net(r))),
              );
            }
          } finally {
            await gw.close();
          }
        },
      ),
      { numRuns: runs },
    );
    // No vacuous pass: every run played a history, and windows with payments in them were compared.
    expect(played).toBe(runs);
    expect(nonEmpty).toBeGreaterThan(0);
    // The histories had what the sums tell apart: refunds, both cashiers, batches settled and funded.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        `refund ${merchant1.cid} closed`,
        `sale ${OTHER_CID} closed`,
        `sale ${merchant1.cid} settled`,
      ]),
    );
  }, 600_000);
});
