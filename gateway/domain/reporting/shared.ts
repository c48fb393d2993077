import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type {
  AuthorizationLogRow,
  BatchDetailRow,
  BatchSummaryByEntityRow,
  BatchSummaryByMerchantRow,
  CardSummaryRow,
  ChargebackRow,
  DepositRow,
  RetrievalRow,
} from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import type { PaymentsTable } from '../../storage/schema';
import type { DepositAccount } from '../issuer-port';
import { localParts } from '../local-time';
import { chargedCents } from '../rules/card-paid';
import { fromCents, type Cents } from '../money';
import { REPORT_SUMS, type ReportSums } from '../report-rollups';
import {
  groupPage,
  groupTotals,
  noSums,
  settledSpan,
  spanSums,
  type GroupKey,
  type Range,
  type Span,
} from '../report-windows';

/**
 * The Reporting group's figures, computed from what the gateway recorded: batches and their payments
 * (settled and closed batches only: a report shows what has been settled), closed batches as deposits,
 * and the dispute feed. Sales count what the card paid (base + tax + tip + surcharge + card difference +
 * cash back, as the settlement does); returns count the refunded amount; net = sales - returns.
 */

export type { Range };
export type Page = { index: number; size: number };
export type Paged<R> = { rows: R[]; total: R; count: number };

/** Keyed entry: the card was not at the counter (chip fallback to keyed included). */
const KEYED_MODES = ['KeyEntered', 'ChipFallbackManual'] as const;

const CARD_DESCRIPTIONS: Record<string, string> = {
  Visa: 'Visa',
  Mastercard: 'MasterCard',
  Amex: 'American Express',
  Discover: 'Discover',
  JCB: 'JCB',
  Diners: 'Diners Club',
  UnionPay: 'UnionPay',
  GiftCard: 'Gift Card',
  EBT: 'EBT',
  Unknown: 'Other',
};

export const cardDescription = (cardType: string) => CARD_DESCRIPTIONS[cardType] ?? cardType;

const ENTRY_MODES: Record<string, string> = {
  KeyEntered: 'Keyed',
  ChipFallbackManual: 'Keyed (chip fallback)',
  Swiped: 'Swiped',
  ChipFallbackSwipe: 'Swiped (chip fallback)',
  Chip: 'Chip',
  Contactless: 'Contactless',
  NetworkAContactless: 'Contactless',
  CredentialOnFile: 'Card on file',
  NetworkADigitalWallet: 'Digital wallet',
};

export function maskedCard(first6: string, last4: string): string {
  return first6 === '' && last4 === '' ? '' : `${first6}******${last4}`;
}

const money = (cents: Cents) => fromCents(cents);

/** The merchant's local date of an instant; '' while there is none (a batch not settled or closed yet). */
const localDate = (iso: string | null, zone: string) => (iso ? localParts(new Date(iso), zone).date : '');

// Fixed SQL text without values (the same in both dialects).
const ALL_COUNT = sql<number>`count(*)`;

/**
 * The selection every settled-batch summary groups by, over the batches' sums (`batch_totals`, written
 * when each batch settled: domain/batch-totals.ts): what `sums` reads.
 */
const AGGREGATE = [
  sql<number>`sum(t.sale_cents)`.as('sale_cents'),
  sql<number>`sum(t.return_cents)`.as('return_cents'),
  sql<number>`sum(t.sale_count)`.as('sale_count'),
  sql<number>`sum(t.return_count)`.as('return_count'),
  sql<number>`sum(t.keyed_count)`.as('keyed_count'),
  sql<number>`sum(t.n)`.as('n'),
] as const;

type Aggregate = {
  sale_cents: number | null;
  return_cents: number | null;
  sale_count: number | null;
  return_count: number | null;
  keyed_count: number | null;
  n: number | null;
};

type Sums = { sale: Cents; ret: Cents; saleCount: number; returnCount: number; keyed: number; n: number };

function sums(a: Aggregate): Sums {
  return {
    sale: Number(a.sale_cents ?? 0),
    ret: Number(a.return_cents ?? 0),
    saleCount: Number(a.sale_count ?? 0),
    returnCount: Number(a.return_count ?? 0),
    keyed: Number(a.keyed_count ?? 0),
    n: Number(a.n ?? 0),
  };
}

const zero: Sums = { sale: 0, ret: 0, saleCount: 0, returnCount: 0, keyed: 0, n: 0 };

/** A row's sums as numbers (PostgreSQL sends 64-bit integers as text). */
function numbers(row: Record<ReportSums extends Record<infer K, number> ? K : never, unknown>): ReportSums {
  const out = noSums();
  for (const k of REPORT_SUMS) out[k] = Number(row[k]);
  return out;
}

/** A window's or a group's sums from the running totals (domain/report-windows.ts). */
const rolled = (r: ReportSums): Sums => ({
  sale: r.sale_cents,
  ret: r.return_cents,
  saleCount: r.sale_count,
  returnCount: r.return_count,
  keyed: r.keyed_count,
  n: r.n,
});

/** One page of a window's cashiers or card types and their Total, from the running totals. */
async function groupsOfWindow(
  q: Queryable,
  mid: number,
  span: Span | null,
  key: GroupKey,
  cid: number | undefined,
  p: Page,
) {
  if (!span) return { rows: [], total: zero, count: 0 };
  const [rows, all] = await Promise.all([
    groupPage(q, mid, span, key, cid, { limit: p.size, offset: offsetOf(p) }),
    groupTotals(q, mid, span, key, cid),
  ]);
  return {
    rows: rows.map((r) => ({ key: r.key, sums: rolled(r) })),
    total: rolled(all.sums),
    count: all.groups,
  };
}

/** The sums of no row at all (an aggregate over an empty window). */
const none: Aggregate = {
  sale_cents: null,
  return_cents: null,
  sale_count: null,
  return_count: null,
  keyed_count: null,
  n: null,
};

/** The batch metrics of a row; the Total row computes its average and percentage from its own sums. */
function metrics(s: Sums) {
  return {
    AvgTrans: s.saleCount > 0 ? money(Math.round(s.sale / s.saleCount)) : 0,
    KeyedPercent: s.n > 0 ? Math.round((s.keyed * 10_000) / s.n) / 100 : 0,
    NetAmount: money(s.sale - s.ret),
    PrepaidDiscount: 0,
    ReturnAmount: money(s.ret),
    SaleAmount: money(s.sale),
    KeyedCount: s.keyed,
    TransactionCount: s.n,
  };
}

function page<R>(all: R[], p: Page): R[] {
  return all.slice(p.index * p.size, p.index * p.size + p.size);
}

type Totals = { n: number; amount: number | null };

/**
 * One page of a report's rows, paged in the database so that a long report is never read whole, and the
 * count and summed `amount` of every row of it (its Total).
 */
async function pageWithTotals<DB, TB extends keyof DB, I, O>(
  q: Queryable,
  report: SelectQueryBuilder<DB, TB, I>,
  rows: (report: SelectQueryBuilder<DB, TB, I>) => SelectQueryBuilder<DB, TB, O>,
  amount: RawBuilder<number>,
  p: Page,
): Promise<{ rows: O[]; count: number; amount: Cents }> {
  const [found, totals] = await Promise.all([
    q.all(
      rows(report)
        .limit(p.size)
        .offset(p.index * p.size),
    ),
    // Kysely cannot resolve a selection over a generic table set, so the row type is stated.
    q.first(report.select([ALL_COUNT.as('n'), amount.as('amount')]).$castTo<Totals>()),
  ]);
  return { rows: found, count: Number(totals?.n ?? 0), amount: Number(totals?.amount ?? 0) };
}

/**
 * The settled (and closed) batches of a window, by when they settled, joined to their sums: a few rows a
 * batch, read through `batches_by_settled`, never the batches' payments.
 */
function settledTotals(q: Queryable, mid: number, range: Range, batchNumber?: string, cid?: number) {
  let query = q.qb
    .selectFrom('batches as b')
    .innerJoin('batch_totals as t', 't.batch_id', 'b.id')
    .where('b.mid', '=', mid)
    // Implied by the join; stated so a plan that starts from the sums reads the merchant's only.
    .where('t.mid', '=', mid)
    .where('b.status', 'in', ['settled', 'closed']);
  if (range.fromIso) query = query.where('b.settled_at', '>=', range.fromIso);
  if (range.toIso) query = query.where('b.settled_at', '<', range.toIso);
  if (batchNumber !== undefined) query = query.where('b.batch_number', '=', batchNumber);
  if (cid !== undefined) query = query.where('t.cid', '=', cid);
  return query;
}

const offsetOf = (p: Page) => p.index * p.size;

export type EntityView = { level: 0 | 1; onlyId?: string | undefined };

type Entity = { EntityId: string; EntityName: string; EntityType: string; PlatformId: string };

async function entities(
  q: Queryable,
  mid: number,
): Promise<{ merchant: Entity; cashier: (cid: number) => Entity }> {
  const [m, cashiers] = await Promise.all([
    q.first(q.qb.selectFrom('merchants').select(['name', 'credit_processor']).where('mid', '=', mid)),
    q.all(q.qb.selectFrom('cashiers').select(['cid', 'first_name', 'last_name']).where('mid', '=', mid)),
  ]);
  const platform = m?.credit_processor ?? '';
  const merchant: Entity = {
    EntityId: String(mid),
    EntityName: m?.name ?? '',
    EntityType: 'Merchant',
    PlatformId: platform,
  };
  const byCid = new Map(
    cashiers.map((c) => [
      c.cid,
      {
        EntityId: String(c.cid),
        EntityName: `${c.first_name} ${c.last_name}`.trim(),
        EntityType: 'Cashier',
        PlatformId: platform,
      },
    ]),
  );
  return {
    merchant,
    // A cid missing from the cashier list still gets a row of its own: no payment drops out of the report.
    cashier: (cid) => byCid.get(cid) ?? { ...merchant, EntityId: String(cid), EntityType: 'Cashier' },
  };
}

/**
 * The cashier a view narrows the report to (undefined: every payment), or null when it names an entity
 * the merchant does not have, so the report is empty.
 */
function cidFilter(view: EntityView, mid: number): number | undefined | null {
  if (view.onlyId === undefined) return undefined;
  if (view.level === 0) return view.onlyId === String(mid) ? undefined : null;
  return /^\d{1,9}$/.test(view.onlyId) ? Number(view.onlyId) : null;
}

/**
 * GetBatchSummaryByEntity: one row for the merchant (level 0) or one per cashier (level 1), grouped and
 * paged in the database over the batches' sums.
 */
export async function batchSummaryByEntity(
  q: Queryable,
  mid: number,
  range: Range,
  view: EntityView,
  p: Page,
): Promise<Paged<BatchSummaryByEntityRow>> {
  const names = await entities(q, mid);
  const cid = cidFilter(view, mid);
  const empty = {
    rows: [],
    total: { ...names.merchant, EntityId: '', EntityName: 'Total', ...metrics(zero) },
    count: 0,
  };
  if (cid === null) return empty;
  const span = await settledSpan(q, mid, range);
  const totalOf = (s: Sums) => ({
    ...names.merchant,
    EntityId: '',
    EntityName: 'Total',
    EntityType: '',
    ...metrics(s),
  });
  if (view.level === 0) {
    // Level 0 narrows to the merchant itself or to nothing (cidFilter): the window's merchant sums.
    const s = rolled(span ? spanSums(span) : noSums());
    const count = s.n > 0 ? 1 : 0;
    return {
      rows: count > 0 && p.index === 0 ? [{ ...names.merchant, ...metrics(s) }] : [],
      total: totalOf(s),
      count,
    };
  }
  const found = await groupsOfWindow(q, mid, span, 'cid', cid, p);
  return {
    rows: found.rows.map((g) => ({ ...names.cashier(Number(g.key)), ...metrics(g.sums) })),
    total: totalOf(found.total),
    count: found.count,
  };
}

/** GetAuthorizationLogSummary: every authorization attempt (approved or not), by when it was made. */
export async function authorizationLog(
  q: Queryable,
  mid: number,
  range: Range,
  view: EntityView,
  p: Page,
): Promise<Paged<AuthorizationLogRow>> {
  const names = await entities(q, mid);
  const cid = cidFilter(view, mid);
  const emptyTotal = {
    ...names.merchant,
    EntityId: '',
    EntityName: 'Total',
    EntityType: '',
    AuthorizationAmount: 0,
    AuthorizationCount: 0,
  };
  if (cid === null) return { rows: [], total: emptyTotal, count: 0 };
  let query = q.qb
    .selectFrom('payments as p')
    .where('p.mid', '=', mid)
    .where('p.operation', '!=', 'refund')
    .where('p.status', '!=', 'pending');
  if (range.fromIso) query = query.where('p.created_at', '>=', range.fromIso);
  if (range.toIso) query = query.where('p.created_at', '<', range.toIso);
  if (cid !== undefined) query = query.where('p.cid', '=', cid);
  const groups = await q.all(
    query
      .select((eb) => [
        'p.cid as cid',
        eb.fn.sum<number>('p.requested_cents').as('amount'),
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy('p.cid')
      .orderBy('p.cid'),
  );
  type Line = { entity: Entity; amount: Cents; n: number };
  let all: Line[];
  if (view.level === 0) {
    const n = groups.reduce((s, g) => s + Number(g.n), 0);
    all =
      n > 0
        ? [{ entity: names.merchant, amount: groups.reduce((s, g) => s + Number(g.amount ?? 0), 0), n }]
        : [];
  } else {
    all = groups.map((g) => ({
      entity: names.cashier(g.cid),
      amount: Number(g.amount ?? 0),
      n: Number(g.n),
    }));
  }
  return {
    rows: page(all, p).map((l) => ({
      ...l.entity,
      AuthorizationAmount: money(l.amount),
      AuthorizationCount: l.n,
    })),
    total: {
      ...emptyTotal,
      AuthorizationAmount: money(all.reduce((s, l) => s + l.amount, 0)),
      AuthorizationCount: all.reduce((s, l) => s + l.n, 0),
    },
    count: all.length,
  };
}

/** GetBatchSummaryByMerchant: one row per settled batch, oldest first, paged in the database. */
export async function batchSummaryByMerchant(
  q: Queryable,
  mid: number,
  zone: string,
  range: Range,
  p: Page,
): Promise<Paged<BatchSummaryByMerchantRow>> {
  const span = await settledSpan(q, mid, range);
  const first = span ? span.lo + offsetOf(p) : 0;
  const last = span ? Math.min(span.hi, first + p.size - 1) : -1;
  // The page is a range of the batches' numbers (batch_rollups_pk): no OFFSET, no count of batches.
  const rollups =
    span && first <= last
      ? await q.all(
          q.qb
            .selectFrom('batch_rollups')
            .select(['batch_id', ...REPORT_SUMS])
            .where('mid', '=', mid)
            .where('seq', '>=', first)
            .where('seq', '<=', last)
            .orderBy('seq')
            .limit(p.size),
        )
      : [];
  // The page's batches by their keys (a join let a planner read every batch for a page of them).
  const named = new Map(
    (rollups.length > 0
      ? await q.all(
          q.qb
            .selectFrom('batches')
            .select(['id', 'batch_number', 'settled_at'])
            .where(
              'id',
              'in',
              rollups.map((r) => r.batch_id),
            ),
        )
      : []
    ).map((b) => [Number(b.id), b]),
  );
  const groups = rollups.map((r) => {
    const b = named.get(Number(r.batch_id));
    return { ...r, batch_number: b?.batch_number ?? '', settled_at: b?.settled_at ?? null };
  });
  return {
    rows: groups.map((g) => ({
      BatchNumber: g.batch_number,
      FileSource: 'Gateway',
      ReportDate: localDate(g.settled_at, zone),
      TerminalNumber: String(mid),
      ...metrics(rolled(numbers(g))),
    })),
    total: {
      BatchNumber: '',
      FileSource: '',
      ReportDate: '',
      TerminalNumber: '',
      ...metrics(rolled(span ? spanSums(span) : noSums())),
    },
    count: span ? span.hi - span.lo + 1 : 0,
  };
}

/** GetCardSummary: the card mix of the settled batches, grouped and paged in the database. */
export async function cardSummary(
  q: Queryable,
  mid: number,
  range: Range,
  view: EntityView,
  batchNumber: string | undefined,
  p: Page,
): Promise<Paged<CardSummaryRow>> {
  const cid = cidFilter(view, mid);
  const totalRow = (s: Sums) => ({
    CardDescription: 'Total',
    CardType: '',
    NetAmount: money(s.sale - s.ret),
    ReturnAmount: money(s.ret),
    SaleAmount: money(s.sale),
    ReturnCount: s.returnCount,
    SaleCount: s.saleCount,
  });
  if (cid === null) return { rows: [], total: totalRow(zero), count: 0 };
  if (batchNumber === undefined) {
    const found = await groupsOfWindow(q, mid, await settledSpan(q, mid, range), 'card_type', cid, p);
    return {
      rows: found.rows.map((g) => ({
        ...totalRow(g.sums),
        CardDescription: cardDescription(String(g.key)),
        CardType: String(g.key),
      })),
      total: totalRow(found.total),
      count: found.count,
    };
  }
  // One batch number: that batch's (or those few batches') sums, whatever the history.
  const report = settledTotals(q, mid, range, batchNumber, cid);
  const [groups, all] = await Promise.all([
    q.all(
      report
        .select(['t.card_type as card_type', ...AGGREGATE])
        .groupBy('t.card_type')
        .orderBy('t.card_type')
        .limit(p.size)
        .offset(offsetOf(p)),
    ),
    q.first(report.select([...AGGREGATE, sql<number>`count(distinct t.card_type)`.as('groups')])),
  ]);
  return {
    rows: groups.map((g) => {
      const s = sums(g);
      return { ...totalRow(s), CardDescription: cardDescription(g.card_type), CardType: g.card_type };
    }),
    total: totalRow(sums(all ?? none)),
    count: Number(all?.groups ?? 0),
  };
}

function description(operation: string, transactionType: number): string {
  if (operation === 'refund') {
    return transactionType === 7 ? 'Gift card return' : transactionType === 6 ? 'EBT food return' : 'Return';
  }
  const names: Record<string, string> = {
    sale: 'Credit sale',
    completion: 'Preauthorization completion',
    debit: 'PIN debit sale',
    token_sale: 'Token sale',
    wallet_a: 'Device wallet sale',
    wallet_b: 'Device wallet sale',
    force: 'Force sale',
    gift_sale: 'Gift card sale',
    gift_reload: 'Gift card reload',
    gift_activate: 'Gift card activation',
    ebt_food_sale: 'EBT food sale',
    ebt_cash_sale: 'EBT cash sale',
    ebt_cash_withdrawal: 'EBT cash withdrawal',
  };
  return names[operation] ?? operation;
}

type DetailRow = Pick<
  PaymentsTable,
  | 'srn'
  | 'auth_code'
  | 'card_type'
  | 'first6'
  | 'last4'
  | 'entry_mode'
  | 'invoice'
  | 'operation'
  | 'transaction_type'
  | 'created_at'
  | 'amount_cents'
  | 'tax_cents'
  | 'tip_cents'
  | 'surcharge_cents'
  | 'card_difference_cents'
  | 'cashback_cents'
> & { settled_at: string | null };

/** GetBatchDetail's columns of a payment. */
const DETAIL_COLUMNS = [
  'p.srn',
  'p.auth_code',
  'p.card_type',
  'p.first6',
  'p.last4',
  'p.entry_mode',
  'p.invoice',
  'p.operation',
  'p.transaction_type',
  'p.created_at',
  'p.amount_cents',
  'p.tax_cents',
  'p.tip_cents',
  'p.surcharge_cents',
  'p.card_difference_cents',
  'p.cashback_cents',
] as const;

/** Numbers `from`..`to` (inclusive) of the merchant's settled approved payments (batch_detail_rows). */
type Positions = { from: number; to: number };

/**
 * The page of GetBatchDetail. The window's settled approved payments are a run of the numbers
 * batch_detail_rows gives them in the report's order (report-rollups.ts), from the running count before the
 * window's first batch to the one at its last: a page is a range of those numbers read through the
 * primary key, as cheap for the last page of ten years as for the first of a week (no OFFSET). The count
 * and Total are the running totals' difference. A batch number selects its batch's run (or those of the
 * few batches that share it).
 */
async function batchDetailPage(
  q: Queryable,
  mid: number,
  filter: { batchNumber?: string | undefined; reportRange: Range },
  p: Page,
) {
  let runs: Positions[];
  let count: number;
  let amount: Cents;
  if (filter.batchNumber === undefined) {
    const span = await settledSpan(q, mid, filter.reportRange);
    if (!span) return { rows: [], count: 0, amount: 0 };
    const s = spanSums(span);
    runs = [{ from: span.before.n + 1, to: span.upTo.n }];
    count = s.n;
    amount = s.sale_cents - s.return_cents;
  } else {
    let query = q.qb
      .selectFrom('batches as b')
      .innerJoin('batch_rollups as r', 'r.batch_id', 'b.id')
      .select(['r.n as n', 'r.cum_n as cum_n', 'r.sale_cents as sale', 'r.return_cents as ret'])
      .where('b.mid', '=', mid)
      .where('b.batch_number', '=', filter.batchNumber)
      .where('r.mid', '=', mid);
    const range = filter.reportRange;
    if (range.fromIso) query = query.where('r.settled_at', '>=', range.fromIso);
    if (range.toIso) query = query.where('r.settled_at', '<', range.toIso);
    const batches = await q.all(query.orderBy('r.seq'));
    runs = batches.map((b) => ({ from: Number(b.cum_n) - Number(b.n) + 1, to: Number(b.cum_n) }));
    count = batches.reduce((sum, b) => sum + Number(b.n), 0);
    amount = batches.reduce((sum, b) => sum + Number(b.sale) - Number(b.ret), 0);
  }
  let skip = offsetOf(p);
  const rows: (Omit<DetailRow, 'settled_at'> & { batch_id: number | null })[] = [];
  for (const run of runs) {
    if (rows.length >= p.size) break;
    const length = run.to - run.from + 1;
    if (skip >= length) {
      skip -= length;
      continue;
    }
    const from = run.from + skip;
    const to = Math.min(run.to, from + (p.size - rows.length) - 1);
    skip = 0;
    const slice = await q.all(
      q.qb
        .selectFrom('batch_detail_rows as d')
        .innerJoin('payments as p', 'p.id', 'd.payment_id')
        .select([...DETAIL_COLUMNS, 'p.batch_id as batch_id'])
        .where('d.mid', '=', mid)
        .where('d.pos', '>=', from)
        .where('d.pos', '<=', to)
        .orderBy('d.pos')
        .limit(to - from + 1),
    );
    rows.push(...slice);
  }
  // The page's batches by their keys: joined, a planner with years of batches could hash them all.
  const ids = [...new Set(rows.map((r) => Number(r.batch_id)))];
  const settled = new Map(
    (ids.length > 0
      ? await q.all(q.qb.selectFrom('batches').select(['id', 'settled_at']).where('id', 'in', ids))
      : []
    ).map((b) => [Number(b.id), b.settled_at]),
  );
  return {
    rows: rows.map((r) => ({ ...r, settled_at: settled.get(Number(r.batch_id)) ?? null })),
    count,
    amount,
  };
}

/** GetBatchDetail: the payments of the settled batches, paged in the database; Total over all of them. */
export async function batchDetail(
  q: Queryable,
  mid: number,
  zone: string,
  filter: { batchNumber?: string | undefined; reportRange: Range },
  p: Page,
): Promise<Paged<BatchDetailRow>> {
  const found = await batchDetailPage(q, mid, filter, p);
  return {
    rows: found.rows.map((r) => {
      const keyed = (KEYED_MODES as readonly string[]).includes(r.entry_mode);
      const total = chargedCents(r);
      const pin = r.transaction_type === 5 || r.transaction_type === 6;
      return {
        AuthorizationNumber: r.auth_code,
        CardDescription: cardDescription(r.card_type),
        CardNumber: maskedCard(r.first6, r.last4),
        CardType: r.card_type,
        EntryModeDescription: ENTRY_MODES[r.entry_mode] ?? r.entry_mode,
        InvoiceNumber: r.invoice ?? '',
        Keyed: keyed ? 'Y' : 'N',
        RegulatedIDDescription: 'Not regulated',
        ReportDate: localDate(r.settled_at, zone),
        TransactionCode: r.operation === 'refund' ? 'R' : 'S',
        TransactionDate: r.created_at,
        TransactionDescription: description(r.operation, r.transaction_type),
        TransactionID: r.srn,
        DebitRoutingMethodID: pin ? 1 : 0,
        RegulatedID: 0,
        TransactionAmount: money(r.operation === 'refund' ? -r.amount_cents : total),
      };
    }),
    total: {
      AuthorizationNumber: '',
      CardDescription: 'Total',
      CardNumber: '',
      CardType: '',
      EntryModeDescription: '',
      InvoiceNumber: '',
      Keyed: '',
      RegulatedIDDescription: '',
      ReportDate: '',
      TransactionCode: '',
      TransactionDate: '',
      TransactionDescription: '',
      TransactionID: '',
      DebitRoutingMethodID: 0,
      RegulatedID: 0,
      TransactionAmount: money(found.amount),
    },
    count: found.count,
  };
}

/**
 * GetDepositsSummary: DoCloseAllSettledTransaction funds every settled batch at once; one close is one
 * deposit (an ACH credit of the batches' net, or a debit when returns outweigh sales) to the merchant's
 * account. The trace number follows NACHA: the originating bank's routing prefix and a sequence.
 */
export async function depositsSummary(
  q: Queryable,
  mid: number,
  zone: string,
  range: Range,
  p: Page,
  account: DepositAccount,
): Promise<Paged<DepositRow>> {
  // The window's deposits are a run of their numbers (deposit_rollups, report-rollups.ts): its ends by
  // one descent each of deposit_rollups_by_closed, its Total the running net's difference, its page a
  // range of numbers.
  const deposits = q.qb.selectFrom('deposit_rollups').where('mid', '=', mid);
  const [first, last] = await Promise.all([
    range.fromIso
      ? q.first(
          deposits
            .select('seq')
            .where('closed_at', '>=', range.fromIso)
            .orderBy('closed_at')
            .orderBy('seq')
            .limit(1),
        )
      : Promise.resolve({ seq: 1 }),
    q.first(
      (range.toIso ? deposits.where('closed_at', '<', range.toIso).orderBy('closed_at', 'desc') : deposits)
        .select(['seq', 'cum_net_cents'])
        .orderBy('seq', 'desc')
        .limit(1),
    ),
  ]);
  // No deposit at or after the window's start, or none before its end: no deposit in it.
  const lo = first ? Number(first.seq) : Infinity;
  const hi = last ? Number(last.seq) : 0;
  const pageFrom = lo + offsetOf(p);
  const pageTo = Math.min(hi, pageFrom + p.size - 1);
  const [groups, prior] =
    lo <= hi
      ? await Promise.all([
          pageFrom <= pageTo
            ? q.all(
                q.qb
                  .selectFrom('deposit_rollups')
                  .select(['closed_at', 'first_batch', 'net_cents'])
                  .where('mid', '=', mid)
                  .where('seq', '>=', pageFrom)
                  .where('seq', '<=', pageTo)
                  .orderBy('seq')
                  .limit(p.size),
              )
            : Promise.resolve([]),
          lo > 1
            ? q.first(
                q.qb
                  .selectFrom('deposit_rollups')
                  .select('cum_net_cents')
                  .where('mid', '=', mid)
                  .where('seq', '=', lo - 1),
              )
            : Promise.resolve(undefined),
        ])
      : [[], undefined];
  const totalNet = lo <= hi ? Number(last?.cum_net_cents ?? 0) - Number(prior?.cum_net_cents ?? 0) : 0;
  const lines = groups.map((g) => ({
    closedAt: g.closed_at,
    first: Number(g.first_batch),
    net: Number(g.net_cents),
  }));
  const dda = `********${account.dda.slice(-4)}`;
  const routing = `*****${account.routing.slice(-4)}`;
  const row = (l: (typeof lines)[number]): DepositRow => {
    const credit = l.net >= 0;
    const date = localDate(l.closedAt, zone);
    return {
      DDANumber: dda,
      ReportDate: date,
      RoutingNumber: routing,
      TraceNumber: account.routing.slice(0, 8) + String(l.first).padStart(7, '0'),
      TransactionCode: credit ? '22' : '27',
      TransactionCodeDescription: credit
        ? 'Automated deposit (checking credit)'
        : 'Automated payment (checking debit)',
      TransactionType: credit ? 'C' : 'D',
      TransactionTypeDescription: credit ? 'Credit' : 'Debit',
      TransmissionDate: date,
      DepositAmount: money(l.net),
    };
  };
  return {
    rows: lines.map(row),
    total: {
      DDANumber: '',
      ReportDate: '',
      RoutingNumber: '',
      TraceNumber: '',
      TransactionCode: '',
      TransactionCodeDescription: '',
      TransactionType: '',
      TransactionTypeDescription: 'Total',
      TransmissionDate: '',
      DepositAmount: money(totalNet),
    },
    count: Math.max(0, hi - lo + 1),
  };
}

type DateRange = { from?: string | undefined; to?: string | undefined };

function disputes(q: Queryable, mid: number, kind: 'chargeback' | 'retrieval', dates: DateRange) {
  let query = q.qb.selectFrom('disputes as d').where('d.mid', '=', mid).where('d.kind', '=', kind);
  if (dates.from) query = query.where('d.report_date', '>=', dates.from);
  if (dates.to) query = query.where('d.report_date', '<=', dates.to);
  return query;
}

const DISPUTE_AMOUNT = sql<number>`sum(d.amount_cents)`;

const byReportDate = (report: ReturnType<typeof disputes>) =>
  report.selectAll('d').orderBy('d.report_date').orderBy('d.record_id');

/** GetChargebacksDetail (every record) and GetChargebacksSummary (each case's latest record). */
export async function chargebacks(
  q: Queryable,
  mid: number,
  dates: DateRange,
  latestOnly: boolean,
  p: Page,
): Promise<Paged<ChargebackRow>> {
  const all = disputes(q, mid, 'chargeback', dates);
  const report = latestOnly
    ? all.where('d.record_id', '=', (eb) =>
        eb
          .selectFrom('disputes as later')
          .select((e) => e.fn.max('later.record_id').as('m'))
          .whereRef('later.mid', '=', 'd.mid')
          .whereRef('later.kind', '=', 'd.kind')
          .whereRef('later.case_number', '=', 'd.case_number'),
      )
    : all;
  const found = await pageWithTotals(q, report, byReportDate, DISPUTE_AMOUNT, p);
  return {
    rows: found.rows.map((d) => ({
      AuthorizationCode: d.authorization_code,
      CBType: d.cb_type,
      CBTypeDescription: d.cb_type_description,
      CardNumber: maskedCard(d.card_first6, d.card_last4),
      CardType: d.card_type,
      CardTypeDescription: cardDescription(d.card_type),
      CaseNumber: d.case_number,
      Disposition: d.disposition,
      PreDispute: d.pre_dispute,
      ReasonCode: d.reason_code,
      ReasonCodeDescription: d.reason_code_description,
      ReasonText: d.reason_text,
      ReferenceNumber: d.reference_number,
      ReportDate: d.report_date,
      RecordID: d.record_id,
      RepresentedCBAmount: money(d.amount_cents),
    })),
    total: {
      AuthorizationCode: '',
      CBType: '',
      CBTypeDescription: '',
      CardNumber: '',
      CardType: '',
      CardTypeDescription: '',
      CaseNumber: 'Total',
      Disposition: '',
      PreDispute: '',
      ReasonCode: '',
      ReasonCodeDescription: '',
      ReasonText: '',
      ReferenceNumber: '',
      ReportDate: '',
      RecordID: 0,
      RepresentedCBAmount: money(found.amount),
    },
    count: found.count,
  };
}

export async function retrievals(
  q: Queryable,
  mid: number,
  dates: DateRange,
  p: Page,
): Promise<Paged<RetrievalRow>> {
  const found = await pageWithTotals(
    q,
    disputes(q, mid, 'retrieval', dates),
    byReportDate,
    DISPUTE_AMOUNT,
    p,
  );
  return {
    rows: found.rows.map((d) => ({
      CardNumber: maskedCard(d.card_first6, d.card_last4),
      CardType: d.card_type,
      CardTypeDescription: cardDescription(d.card_type),
      DateReceived: d.date_received,
      DueDate: d.due_date,
      ReasonCode: d.reason_code,
      ReasonCodeDescription: d.reason_code_description,
      ReferenceNumber: d.reference_number,
      ReportDate: d.report_date,
      RequestType: d.request_type,
      TransactionDate: d.transaction_date,
      TransactionAmount: money(d.amount_cents),
    })),
    total: {
      CardNumber: '',
      CardType: '',
      CardTypeDescription: '',
      DateReceived: '',
      DueDate: '',
      ReasonCode: '',
      ReasonCodeDescription: 'Total',
      ReferenceNumber: '',
      ReportDate: '',
      RequestType: '',
      TransactionDate: '',
      TransactionAmount: money(found.amount),
    },
    count: found.count,
  };
}
