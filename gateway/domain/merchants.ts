import type { Queryable } from '../storage/queryable';

/** Every merchant's id, in order: the background tasks that visit each merchant in turn. */
export async function merchantIds(q: Queryable): Promise<number[]> {
  const rows = await q.all(q.qb.selectFrom('merchants').select('mid').orderBy('mid'));
  return rows.map((r) => r.mid);
}
