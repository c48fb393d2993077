import type { BatchSummaryByMerchantRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import { REPORT_SUMS } from '../report-rollups';
import { noSums, settledSpan, spanSums, type Range } from '../report-windows';
import { type Page, type Paged, localDate, numbers, rolled, metrics, offsetOf } from './shared';

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
