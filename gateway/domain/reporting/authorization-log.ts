import type { AuthorizationLogRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import type { Cents } from '../money';
import type { Range } from '../report-windows';
import {
  type Page,
  type Paged,
  money,
  page,
  type EntityView,
  type Entity,
  entities,
  cidFilter,
} from './shared';

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
