import type { DepositRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import type { DepositAccount } from '../issuer-port';
import type { Range } from '../report-windows';
import { type Page, type Paged, money, localDate, offsetOf } from './shared';

/**
 * GetDepositsSummary: DoCloseAllSettledTransaction funds every settled batch at once; one close is one
 * deposit (an ACH credit of the batches' net, or a debit when returns outweigh sales) to the merchant's
 * account. The trace number follows NACHA: the originating bank's routing prefix and a sequence.
 */
export async function depositsSummary(
  q: Queryable,
  mid: number,
  zone: string,
  range: Range,
  p: Page,
  account: DepositAccount,
): Promise<Paged<DepositRow>> {
  // The window's deposits are a run of their numbers (deposit_rollups, report-rollups.ts): its ends by
  // one descent each of deposit_rollups_by_closed, its Total the running net's difference, its page a
  // range of numbers.
  const deposits = q.qb.selectFrom('deposit_rollups').where('mid', '=', mid);
  const [first, last] = await Promise.all([
    range.fromIso
      ? q.first(
          deposits
            .select('seq')
            .where('closed_at', '>=', range.fromIso)
            .orderBy('closed_at')
            .orderBy('seq')
            .limit(1),
        )
      : Promise.resolve({ seq: 1 }),
    q.first(
      (range.toIso ? deposits.where('closed_at', '<', range.toIso).orderBy('closed_at', 'desc') : deposits)
        .select(['seq', 'cum_net_cents'])
        .orderBy('seq', 'desc')
        .limit(1),
    ),
  ]);
  // No deposit at or after the window's start, or none before its end: no deposit in it.
  const lo = first ? Number(first.seq) : Infinity;
  const hi = last ? Number(last.seq) : 0;
  const pageFrom = lo + offsetOf(p);
  const pageTo = Math.min(hi, pageFrom + p.size - 1);
  const [groups, prior] =
    lo <= hi
      ? await Promise.all([
          pageFrom <= pageTo
            ? q.all(
                q.qb
                  .selectFrom('deposit_rollups')
                  .select(['closed_at', 'first_batch', 'net_cents'])
                  .where('mid', '=', mid)
                  .where('seq', '>=', pageFrom)
                  .where('seq', '<=', pageTo)
                  .orderBy('seq')
                  .limit(p.size),
              )
            : Promise.resolve([]),
          lo > 1
            ? q.first(
                q.qb
                  .selectFrom('deposit_rollups')
                  .select('cum_net_cents')
                  .where('mid', '=', mid)
                  .where('seq', '=', lo - 1),
              )
            : Promise.resolve(undefined),
        ])
      : [[], undefined];
  const totalNet = lo <= hi ? Number(last?.cum_net_cents ?? 0) - Number(prior?.cum_net_cents ?? 0) : 0;
  const lines = groups.map((g) => ({
    closedAt: g.closed_at,
    first: Number(g.first_batch),
    net: Number(g.net_cents),
  }));
  const dda = `********${account.dda.slice(-4)}`;
  const routing = `*****${account.routing.slice(-4)}`;
  const row = (l: (typeof lines)[number]): DepositRow => {
    const credit = l.net >= 0;
    const date = localDate(l.closedAt, zone);
    return {
      DDANumber: dda,
      ReportDate: date,
      RoutingNumber: routing,
      TraceNumber: account.routing.slice(0, 8) + String(l.first).padStart(7, '0'),
      TransactionCode: credit ? '22' : '27',
      TransactionCodeDescription: credit
        ? 'Automated deposit (checking credit)'
        : 'Automated payment (checking debit)',
      TransactionType: credit ? 'C' : 'D',
      TransactionTypeDescription: credit ? 'Credit' : 'Debit',
      TransmissionDate: date,
      DepositAmount: money(l.net),
    };
  };
  return {
    rows: lines.map(row),
    total: {
      DDANumber: '',
      ReportDate: '',
      RoutingNumber: '',
      TraceNumber: '',
      TransactionCode: '',
      TransactionCodeDescription: '',
      TransactionType: '',
      TransactionTypeDescription: 'Total',
      TransmissionDate: '',
      DepositAmount: money(totalNet),
    },
    count: Math.max(0, hi - lo + 1),
  };
}
