import type { Queryable } from '../storage/queryable';

/** Every merchant's id, in order: the background tasks that visit each merchant in turn. */
export async function merchantIds(q: Queryable): Promise<number[]> {
  const rows = await q.all(q.qb.selectFrom('merchants').select('mid').orderBy('mid'));
  return rows.map((r) => r.mid);
}

/** The merchant's name, or undefined when there is no such merchant. */
export async function merchantName(q: Queryable, mid: number): Promise<string | undefined> {
  const m = await q.first(q.qb.selectFrom('merchants').select('name').where('mid', '=', mid));
  return m?.name;
}
