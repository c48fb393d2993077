import { sql } from 'kysely';
import type { Queryable } from '../storage/queryable';
import { REPORT_SUMS, type ReportSums } from './report-rollups';

/**
 * A Reporting window as a range of the merchant's settled batches, read from the running totals of
 * domain/report-rollups.ts: its first and last batch numbers found by one descent each of
 * `batch_rollups_by_settled` (or the primary key for an open end), and its sums as the difference of the
 * running totals at its two ends. Whatever the history, a window costs the same few index reads.
 */
export type Range = { fromIso?: string | undefined; toIso?: string | undefined };

/** Batches `lo`..`hi` (inclusive) of the merchant; `before` the running totals up to `lo - 1`. */
export type Span = { lo: number; hi: number; before: ReportSums; upTo: ReportSums };

export const noSums = (): ReportSums => ({
  sale_cents: 0,
  return_cents: 0,
  sale_count: 0,
  return_count: 0,
  keyed_count: 0,
  n: 0,
});

const running = (row: Partial<Record<string, unknown>> | undefined): ReportSums => {
  const out = noSums();
  for (const k of REPORT_SUMS) out[k] = Number(row?.[`cum_${k}`] ?? 0);
  return out;
};

export function difference(a: ReportSums, b: ReportSums): ReportSums {
  const out = noSums();
  for (const k of REPORT_SUMS) out[k] = a[k] - b[k];
  return out;
}

/** The settled batches a window selects (by settlement time, from inclusive, to exclusive), or null. */
export async function settledSpan(q: Queryable, mid: number, range: Range): Promise<Span | null> {
  const rollups = q.qb.selectFrom('batch_rollups').where('mid', '=', mid);
  const first = range.fromIso
    ? await q.first(
        rollups
          .select('seq')
          .where('settled_at', '>=', range.fromIso)
          .orderBy('settled_at')
          .orderBy('seq')
          .limit(1),
      )
    : { seq: 1 };
  const last = await q.first(
    (range.toIso ? rollups.where('settled_at', '<', range.toIso).orderBy('settled_at', 'desc') : rollups)
      .selectAll()
      .orderBy('seq', 'desc')
      .limit(1),
  );
  if (!first || !last) return null;
  const lo = Number(first.seq);
  const hi = Number(last.seq);
  if (lo > hi) return null;
  const prior =
    lo > 1
      ? await q.first(
          q.qb
            .selectFrom('batch_rollups')
            .selectAll()
            .where('mid', '=', mid)
            .where('seq', '=', lo - 1),
        )
      : undefined;
  return { lo, hi, before: running(prior), upTo: running(last) };
}

export const spanSums = (s: Span) => difference(s.upTo, s.before);

export type GroupKey = 'cid' | 'card_type';

const SUM_COLUMNS = sql.join(REPORT_SUMS.map((k) => sql`sum(d.${sql.ref(k)}) as ${sql.ref(k)}`));

/**
 * The window's sums of each cashier and card type (the difference of each group's running totals at the
 * window's ends), as `with e ...` and the derived table `d`: as many rows as the merchant has cashier-and-
 * card-type groups, whatever the number of batches. `e` finds each group's two ends (a descent of
 * `group_rollups_pk` each) and is MATERIALIZED so that the rows of the ends are then read by their full
 * key: flattened, SQLite read every running total of the merchant to find them.
 */
function groupsOf(mid: number, span: Span, cid: number | undefined) {
  const atOrBefore = (seq: number, strict: boolean) =>
    sql`(select max(x.seq) from group_rollups x where x.mid = g.mid and x.cid = g.cid
      and x.card_type = g.card_type and x.seq ${sql.raw(strict ? '<' : '<=')} ${seq})`;
  const diff = sql.join(
    REPORT_SUMS.map(
      (k) => sql`h.${sql.ref(`cum_${k}`)} - coalesce(l.${sql.ref(`cum_${k}`)}, 0) as ${sql.ref(k)}`,
    ),
  );
  return {
    ends: sql`with e as materialized (select g.mid, g.cid, g.card_type, ${atOrBefore(span.hi, false)} as hi_seq,
        ${atOrBefore(span.lo, true)} as lo_seq
      from rollup_groups g where g.mid = ${mid}${cid === undefined ? sql`` : sql` and g.cid = ${cid}`})`,
    d: sql`(select e.cid, e.card_type, ${diff} from e
      join group_rollups h on h.mid = e.mid and h.cid = e.cid and h.card_type = e.card_type and h.seq = e.hi_seq
      left join group_rollups l on l.mid = e.mid and l.cid = e.cid and l.card_type = e.card_type and l.seq = e.lo_seq) d`,
  };
}

export type GroupRow = ReportSums & { key: string | number };

/**
 * One page of the window's groups by `key` (cashier or card type), the groups with a payment in the
 * window only, in key order; grouped and paged in SQL over the groups' differences.
 */
export async function groupPage(
  q: Queryable,
  mid: number,
  span: Span,
  key: GroupKey,
  cid: number | undefined,
  page: { limit: number; offset: number },
): Promise<GroupRow[]> {
  const g = groupsOf(mid, span, cid);
  const rows = await q.all(
    sql<Record<string, unknown>>`${g.ends} select d.${sql.ref(key)} as group_key, ${SUM_COLUMNS}
      from ${g.d}
      group by d.${sql.ref(key)} having sum(d.n) > 0
      order by d.${sql.ref(key)} limit ${page.limit} offset ${page.offset}`.compile(q.qb),
  );
  return rows.map((r) => {
    const out: GroupRow = { ...noSums(), key: r.group_key as string | number };
    for (const k of REPORT_SUMS) out[k] = Number(r[k] ?? 0);
    return out;
  });
}

/** The window's sums over the groups (a cashier's, or every one) and how many keys had a payment. */
export async function groupTotals(
  q: Queryable,
  mid: number,
  span: Span,
  key: GroupKey,
  cid: number | undefined,
): Promise<{ sums: ReportSums; groups: number }> {
  const g = groupsOf(mid, span, cid);
  const r = await q.first(
    sql<Record<string, unknown>>`${g.ends} select ${SUM_COLUMNS},
        count(distinct case when d.n > 0 then d.${sql.ref(key)} end) as groups
      from ${g.d}`.compile(q.qb),
  );
  const sums = noSums();
  for (const k of REPORT_SUMS) sums[k] = Number(r?.[k] ?? 0);
  return { sums, groups: Number(r?.groups ?? 0) };
}
