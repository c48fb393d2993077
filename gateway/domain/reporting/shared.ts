import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Queryable } from '../../storage/queryable';
import { localParts } from '../local-time';
import { fromCents, type Cents } from '../money';
import { REPORT_SUMS, type ReportSums } from '../report-rollups';
import { groupPage, groupTotals, noSums, type GroupKey, type Range, type Span } from '../report-windows';

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
export const KEYED_MODES = ['KeyEntered', 'ChipFallbackManual'] as const;

export const CARD_DESCRIPTIONS: Record<string, string> = {
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

export const ENTRY_MODES: Record<string, string> = {
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

export const money = (cents: Cents) => fromCents(cents);

/** The merchant's local date of an instant; '' while there is none (a batch not settled or closed yet). */
export const localDate = (iso: string | null, zone: string) =>
  iso ? localParts(new Date(iso), zone).date : '';

// Fixed SQL text without values (the same in both dialects).
export const ALL_COUNT = sql<number>`count(*)`;

/**
 * The selection every settled-batch summary groups by, over the batches' sums (`batch_totals`, written
 * when each batch settled: domain/batch-totals.ts): what `sums` reads.
 */
export const AGGREGATE = [
  sql<number>`sum(t.sale_cents)`.as('sale_cents'),
  sql<number>`sum(t.return_cents)`.as('return_cents'),
  sql<number>`sum(t.sale_count)`.as('sale_count'),
  sql<number>`sum(t.return_count)`.as('return_count'),
  sql<number>`sum(t.keyed_count)`.as('keyed_count'),
  sql<number>`sum(t.n)`.as('n'),
] as const;

export type Aggregate = {
  sale_cents: number | null;
  return_cents: number | null;
  sale_count: number | null;
  return_count: number | null;
  keyed_count: number | null;
  n: number | null;
};

export type Sums = {
  sale: Cents;
  ret: Cents;
  saleCount: number;
  returnCount: number;
  keyed: number;
  n: number;
};

export function sums(a: Aggregate): Sums {
  return {
    sale: Number(a.sale_cents ?? 0),
    ret: Number(a.return_cents ?? 0),
    saleCount: Number(a.sale_count ?? 0),
    returnCount: Number(a.return_count ?? 0),
    keyed: Number(a.keyed_count ?? 0),
    n: Number(a.n ?? 0),
  };
}

export const zero: Sums = { sale: 0, ret: 0, saleCount: 0, returnCount: 0, keyed: 0, n: 0 };

/** A row's sums as numbers (PostgreSQL sends 64-bit integers as text). */
export function numbers(
  row: Record<ReportSums extends Record<infer K, number> ? K : never, unknown>,
): ReportSums {
  const out = noSums();
  for (const k of REPORT_SUMS) out[k] = Number(row[k]);
  return out;
}

/** A window's or a group's sums from the running totals (domain/report-windows.ts). */
export const rolled = (r: ReportSums): Sums => ({
  sale: r.sale_cents,
  ret: r.return_cents,
  saleCount: r.sale_count,
  returnCount: r.return_count,
  keyed: r.keyed_count,
  n: r.n,
});

/** One page of a window's cashiers or card types and their Total, from the running totals. */
export async function groupsOfWindow(
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
export const none: Aggregate = {
  sale_cents: null,
  return_cents: null,
  sale_count: null,
  return_count: null,
  keyed_count: null,
  n: null,
};

/** The batch metrics of a row; the Total row computes its average and percentage from its own sums. */
export function metrics(s: Sums) {
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

export function page<R>(all: R[], p: Page): R[] {
  return all.slice(p.index * p.size, p.index * p.size + p.size);
}

export type Totals = { n: number; amount: number | null };

/**
 * One page of a report's rows, paged in the database so that a long report is never read whole, and the
 * count and summed `amount` of every row of it (its Total).
 */
export async function pageWithTotals<DB, TB extends keyof DB, I, O>(
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
export function settledTotals(q: Queryable, mid: number, range: Range, batchNumber?: string, cid?: number) {
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

export const offsetOf = (p: Page) => p.index * p.size;

export type EntityView = { level: 0 | 1; onlyId?: string | undefined };

export type Entity = { EntityId: string; EntityName: string; EntityType: string; PlatformId: string };

export async function entities(
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
export function cidFilter(view: EntityView, mid: number): number | undefined | null {
  if (view.onlyId === undefined) return undefined;
  if (view.level === 0) return view.onlyId === String(mid) ? undefined : null;
  return /^\d{1,9}$/.test(view.onlyId) ? Number(view.onlyId) : null;
}
