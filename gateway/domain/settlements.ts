import type { Selectable } from 'kysely';
import type { Queryable } from '../storage/queryable';
import type { SettlementsTable } from '../storage/schema';

export type SettlementRow = Selectable<SettlementsTable>;

/** The merchant's latest settlement, as a list of none or one. */
export function lastSettlement(q: Queryable, mid: number): Promise<SettlementRow[]> {
  return q.all(
    q.qb
      .selectFrom('settlements')
      .selectAll()
      .where('mid', '=', mid)
      // Settlements complete one after another: the latest is the last of settlements_by_mid.
      .orderBy('completed_on', 'desc')
      .orderBy('id', 'desc')
      .limit(1),
  );
}

/** The merchant's settlements completed in the window (either end optional), in completion order. */
export function settlementsBetween(
  q: Queryable,
  mid: number,
  window: { start?: string | undefined; end?: string | undefined },
): Promise<SettlementRow[]> {
  let query = q.qb.selectFrom('settlements').selectAll().where('mid', '=', mid);
  if (window.start) query = query.where('completed_on', '>=', new Date(window.start).toISOString());
  if (window.end) query = query.where('completed_on', '<=', new Date(window.end).toISOString());
  return q.all(query.orderBy('completed_on').orderBy('id'));
}
