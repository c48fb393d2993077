import { sql } from 'kysely';
import type { CardSummaryRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import { settledSpan, type Range } from '../report-windows';
import {
  type Page,
  type Paged,
  cardDescription,
  money,
  AGGREGATE,
  type Sums,
  sums,
  zero,
  groupsOfWindow,
  none,
  settledTotals,
  offsetOf,
  type EntityView,
  cidFilter,
} from './shared';

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
