import { sql } from 'kysely';
import type { Storage, Queryable } from '../storage/queryable';
import { UniqueViolation } from '../storage/queryable';
import { addDays, localParts, safeZone, zonedInstant } from './local-time';
import { fromCents } from './money';
import type { DepositAccount } from './issuer-port';
import { cardDescription, depositsSummary } from './reporting/index';
import { chargedCentsSql } from './rules/card-paid';

/** The sections of a statement: GetMerchantStatementList lists them, GetMerchantStatement returns one. */
export const STATEMENT_ZONES = ['Summary', 'CardMix', 'Batches', 'Deposits', 'Disputes'] as const;
export type StatementZone = (typeof STATEMENT_ZONES)[number];

const SALE = sql<number>`sum(case when p.operation = 'refund' then 0 else ${chargedCentsSql('p')} end)`;
const RET = sql<number>`sum(case when p.operation = 'refund' then p.amount_cents else 0 end)`;
const SALES = sql<number>`sum(case when p.operation = 'refund' then 0 else 1 end)`;
const RETURNS = sql<number>`sum(case when p.operation = 'refund' then 1 else 0 end)`;

type Month = { period: string; first: string; last: string; fromIso: string; toIso: string };

function monthOf(period: string, zone: string): Month {
  const [y, m] = period.split('-').map(Number);
  const first = `${period}-01`;
  const nextYear = (m ?? 1) === 12 ? (y ?? 0) + 1 : (y ?? 0);
  const nextMonth = (m ?? 1) === 12 ? 1 : (m ?? 1) + 1;
  const next = `${String(nextYear).padStart(4, '0')}-${String(nextMonth).padStart(2, '0')}-01`;
  return {
    period,
    first,
    last: addDays(next, -1),
    fromIso: zonedInstant(first, '00:00', zone).toISOString(),
    toIso: zonedInstant(next, '00:00', zone).toISOString(),
  };
}

function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return (m ?? 1) === 12
    ? `${String((y ?? 0) + 1).padStart(4, '0')}-01`
    : `${String(y ?? 0).padStart(4, '0')}-${String((m ?? 1) + 1).padStart(2, '0')}`;
}

/** One month's statement from the recorded data, or null when the month had no activity at all. */
async function buildStatement(
  q: Queryable,
  mid: number,
  name: string,
  zone: string,
  month: Month,
  account: DepositAccount,
) {
  const approved = () =>
    q.qb
      .selectFrom('payments as p')
      .where('p.mid', '=', mid)
      .where('p.status', '=', 'approved')
      // Preauthorizations never move money; their completions do (and have a batch).
      .where('p.batch_id', 'is not', null)
      .where('p.created_at', '>=', month.fromIso)
      .where('p.created_at', '<', month.toIso);
  const [mix, batches, deposits, disputes] = await Promise.all([
    q.all(
      approved()
        .select([
          'p.card_type as card_type',
          SALE.as('sale'),
          RET.as('ret'),
          SALES.as('sales'),
          RETURNS.as('returns'),
        ])
        .groupBy('p.card_type')
        .orderBy('p.card_type'),
    ),
    q.all(
      q.qb
        .selectFrom('batches as b')
        .innerJoin('payments as p', (j) => j.onRef('p.batch_id', '=', 'b.id').on('p.status', '=', 'approved'))
        .where('b.mid', '=', mid)
        .where('b.settled_at', '>=', month.fromIso)
        .where('b.settled_at', '<', month.toIso)
        .select((eb) => [
          'b.batch_number as batch_number',
          'b.settled_at as settled_at',
          eb.fn.countAll<number>().as('n'),
          SALE.as('sale'),
          RET.as('ret'),
        ])
        .groupBy(['b.id', 'b.batch_number', 'b.settled_at'])
        .orderBy('b.id'),
    ),
    depositsSummary(
      q,
      mid,
      zone,
      { fromIso: month.fromIso, toIso: month.toIso },
      { index: 0, size: 10_000 },
      account,
    ),
    q.all(
      q.qb
        .selectFrom('disputes')
        .selectAll()
        .where('mid', '=', mid)
        .where('report_date', '>=', month.first)
        .where('report_date', '<=', month.last)
        .orderBy('report_date')
        .orderBy('record_id'),
    ),
  ]);
  if (mix.length === 0 && batches.length === 0 && deposits.count === 0 && disputes.length === 0) return null;
  const n = (v: number | null) => Number(v ?? 0);
  const sale = mix.reduce((s, m) => s + n(m.sale), 0);
  const ret = mix.reduce((s, m) => s + n(m.ret), 0);
  const chargebacks = disputes.filter((d) => d.kind === 'chargeback');
  const zones: Record<StatementZone, unknown> = {
    Summary: {
      SaleCount: mix.reduce((s, m) => s + n(m.sales), 0),
      SaleAmount: fromCents(sale),
      ReturnCount: mix.reduce((s, m) => s + n(m.returns), 0),
      ReturnAmount: fromCents(ret),
      NetAmount: fromCents(sale - ret),
      DepositAmount: deposits.total.DepositAmount,
      ChargebackCount: chargebacks.length,
      ChargebackAmount: fromCents(chargebacks.reduce((s, d) => s + d.amount_cents, 0)),
    },
    CardMix: mix.map((m) => ({
      CardType: m.card_type,
      CardDescription: cardDescription(m.card_type),
      SaleCount: n(m.sales),
      SaleAmount: fromCents(n(m.sale)),
      ReturnCount: n(m.returns),
      ReturnAmount: fromCents(n(m.ret)),
      NetAmount: fromCents(n(m.sale) - n(m.ret)),
    })),
    Batches: batches.map((b) => ({
      BatchNumber: b.batch_number,
      SettledOn: b.settled_at ? localParts(new Date(b.settled_at), zone).date : '',
      TransactionCount: n(b.n),
      SaleAmount: fromCents(n(b.sale)),
      ReturnAmount: fromCents(n(b.ret)),
      NetAmount: fromCents(n(b.sale) - n(b.ret)),
    })),
    Deposits: deposits.rows.map((d) => ({
      ReportDate: d.ReportDate,
      TraceNumber: d.TraceNumber,
      DepositAmount: d.DepositAmount,
    })),
    Disputes: disputes.map((d) => ({
      Kind: d.kind,
      CaseNumber: d.case_number,
      ReportDate: d.report_date,
      ReasonCode: d.reason_code,
      Amount: fromCents(d.amount_cents),
    })),
  };
  return {
    MerchantNumber: String(mid),
    MerchantName: name,
    Period: month.period,
    StatementDate: month.last,
    TimeZone: zone,
    Zones: zones,
  };
}

export const statementIdOf = (mid: number, period: string) => `ST-${mid}-${period.replace('-', '')}`;

/**
 * Issues the statements of every completed month (merchant's zone) with activity that has none yet. A
 * statement is generated once and then never changes, as a mailed statement would not; later voids or
 * disputes show on the month they happen in.
 */
export async function ensureStatements(
  storage: Storage,
  mid: number,
  now: Date,
  account: DepositAccount,
): Promise<void> {
  const q = storage.read;
  const merchant = await q.first(
    q.qb.selectFrom('merchants').select(['name', 'time_zone']).where('mid', '=', mid),
  );
  if (!merchant) return;
  const zone = safeZone(merchant.time_zone);
  const [firstPayment, firstDispute, issued] = await Promise.all([
    q.first(
      q.qb
        .selectFrom('payments')
        .select((eb) => eb.fn.min('created_at').as('at'))
        .where('mid', '=', mid),
    ),
    q.first(
      q.qb
        .selectFrom('disputes')
        .select((eb) => eb.fn.min('report_date').as('at'))
        .where('mid', '=', mid),
    ),
    q.all(q.qb.selectFrom('merchant_statements').select('period').where('mid', '=', mid)),
  ]);
  const starts: string[] = [];
  if (firstPayment?.at) starts.push(localParts(new Date(firstPayment.at), zone).date.slice(0, 7));
  if (firstDispute?.at) starts.push(firstDispute.at.slice(0, 7));
  if (starts.length === 0) return;
  const current = localParts(now, zone).date.slice(0, 7);
  const have = new Set(issued.map((r) => r.period));
  const iso = now.toISOString();
  // Bounded: a statement per month, at most ten years back.
  let period = starts.sort()[0] ?? current;
  for (let i = 0; period < current && i < 120; i += 1, period = nextPeriod(period)) {
    if (have.has(period)) continue;
    const month = monthOf(period, zone);
    const data = await buildStatement(q, mid, merchant.name, zone, month, account);
    if (!data) continue;
    try {
      await storage.write((tx) =>
        tx.run(
          tx.qb.insertInto('merchant_statements').values({
            mid,
            period,
            statement_id: statementIdOf(mid, period),
            statement_date: month.last,
            data: JSON.stringify(data),
            generated_at: iso,
          }),
        ),
      );
    } catch (error) {
      // Another request issued it first: the statement exists, which is all we wanted.
      if (!(error instanceof UniqueViolation)) throw error;
    }
  }
}

/** The merchant's issued statements, oldest first (GetMerchantStatementList): one row a month. */
export function issuedStatementList(q: Queryable, mid: number) {
  return q.all(
    q.qb
      .selectFrom('merchant_statements')
      .select(['statement_id', 'statement_date'])
      .where('mid', '=', mid)
      .orderBy('period'),
  );
}

/** One issued statement of the merchant (GetMerchantStatement); another merchant's id finds none. */
export function issuedStatement(q: Queryable, mid: number, statementId: string) {
  return q.first(
    q.qb
      .selectFrom('merchant_statements')
      .select(['statement_id', 'data'])
      .where('mid', '=', mid)
      .where('statement_id', '=', statementId),
  );
}
