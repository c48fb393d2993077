import type { BatchSummaryByEntityRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import { noSums, settledSpan, spanSums, type Range } from '../report-windows';
import {
  type Page,
  type Paged,
  type Sums,
  zero,
  rolled,
  groupsOfWindow,
  metrics,
  type EntityView,
  entities,
  cidFilter,
} from './shared';

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
