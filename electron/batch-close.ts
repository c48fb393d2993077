import type { BatchTotals, OrphanResolution, ReconciliationView, SettlementView } from './bridge/contract';
import { BridgeFailure } from './bridge/failure';
import type { GatewayClient } from './gateway-client/client';
import type { GatewayFailure } from './gateway-client/errors';
import type { Journal } from './journal/journal';
import { batchTotals, reconcile } from './reconciliation';
import type { StoreAndForward } from './store-forward/saf';
import type { Clock } from './util/clock';
import { fromWire } from './util/money';

/**
 * The terminal's batch-close rule: the lane's open batch is everything since its last close; it closes
 * (DoSettlement) only when the reconciliation of the journal against the gateway's reports finds nothing
 * unresolved (orphans, mismatches, pending reversals, sales still stored offline).
 */
export type BatchClose = {
  /** When this lane last closed its batch (0: never): the open batch starts there. */
  lastSettledAt: () => Promise<number>;
  /** The journal against the gateway's reports for the open batch. */
  reconciliation: () => Promise<ReconciliationView>;
  /** The lane's open batch from its journal, and the merchant's open batch at the gateway when reachable. */
  totals: () => Promise<BatchTotals>;
  /**
   * A manager's decision on an orphan (or a mismatch): `keep` adopts the gateway's approval in the
   * journal, `reverse` queues its reversal (only from the lane whose journal made it).
   */
  resolveOrphan: (utn: string, action: OrphanResolution['action']) => Promise<void>;
  /** Closes the batch (DoSettlement) when the reconciliation allows it; the next open batch starts now. */
  settle: () => Promise<SettlementView>;
};

export function createBatchClose(deps: {
  client: GatewayClient;
  journal: Journal;
  saf: StoreAndForward;
  clock: Clock;
  kickReversals: () => void;
  failureOf: (failure: GatewayFailure) => BridgeFailure;
}): BatchClose {
  const { client, journal, saf, clock } = deps;

  const lastSettledAt = async (): Promise<number> =>
    Number((await journal.getSetting('lastSettledAt')) ?? '0');

  const reconciliation = async (): Promise<ReconciliationView> => {
    const [report, unsettled] = await Promise.all([
      client.getReportByMerchant(),
      client.getUnsettledTransactions(),
    ]);
    if (!report.ok) throw deps.failureOf(report.failure);
    if (!unsettled.ok) throw deps.failureOf(unsettled.failure);
    const since = await lastSettledAt();
    // Every row of this journal is this lane's, also those numbered under a lane id a tech has since
    // changed (one terminal per data folder): the open batch is all of them since the last close.
    const journalRows = await journal.list({ since, limit: 10_000 });
    // Older entries still unresolved belong in the view too: an unknown from before the last close.
    const unresolved = await journal.list({
      states: ['sending', 'unknown', 'awaiting-card', 'reversing'],
      limit: 10_000,
    });
    const all = new Map([...unresolved, ...journalRows].map((r) => [r.utn, r]));
    const utns = new Set(all.keys());
    // This journal's numbers only: a previous install of the same lane id has another epoch.
    const epoch = await journal.epoch();
    const prefixes = new Set([...all.values()].map((r) => `${r.laneId}-${epoch ?? ''}-`));
    const openBatch = new Set(
      (unsettled.response.UnsettledTransactions ?? []).map((u) => u.UserReferenceNumber),
    );
    const sinceIso = since > 0 ? new Date(since).toISOString() : '';
    const gatewayRows = (report.response.Transactions ?? []).filter(
      (g) =>
        utns.has(g.UserTransactionNumber) ||
        ([...prefixes].some((p) => g.UserTransactionNumber.startsWith(p)) &&
          (openBatch.has(g.UserTransactionNumber) || g.MadeOn >= sinceIso)),
    );
    const exposure = await saf.exposure();
    return reconcile({
      journal: [...all.values()],
      gateway: gatewayRows,
      openBatch,
      reversals: [
        ...(await journal.pendingReversals()),
        ...(await journal.recentReversals(500)).filter((r) => r.state === 'failed'),
      ],
      safQueued: exposure.count,
      now: clock.now(),
    });
  };

  const totals = async (): Promise<BatchTotals> => {
    const result = batchTotals(await journal.list({ since: await lastSettledAt(), limit: 10_000 }));
    const u = await client.getUnsettledTransactions();
    if (u.ok) {
      const list = u.response.UnsettledTransactions ?? [];
      result.gateway = {
        count: list.length,
        amountCents: list.reduce((sum, x) => sum + fromWire(x.Amount), 0),
      };
    }
    return result;
  };

  const resolveOrphan = async (utn: string, action: OrphanResolution['action']): Promise<void> => {
    const view = await reconciliation();
    const row = view.rows.find((r) => r.userTransactionNumber === utn);
    if (!row || (row.verdict !== 'orphan' && row.verdict !== 'mismatch'))
      throw new BridgeFailure('not-found', 'That transaction is not an orphan.');
    const entry = await journal.get(utn);
    const now = clock.now();
    if (action === 'reverse') {
      if (!entry)
        throw new BridgeFailure(
          'conflict',
          "This number is not in this lane's journal: reverse it from the lane that made it.",
        );
      await journal.queueReversal(utn, 'Orphan: manager chose to reverse', now);
      deps.kickReversals();
    } else {
      if (entry && row.gateway) {
        await journal.update(
          utn,
          {
            state: 'approved',
            approvedCents: row.gateway.amountCents,
            srn: row.gateway.serviceReferenceNumber,
            message: 'Orphan kept: approved at the gateway',
          },
          now,
        );
      }
    }
  };

  const settle = async (): Promise<SettlementView> => {
    const view = await reconciliation();
    if (!view.canClose)
      throw new BridgeFailure('conflict', `The batch cannot close yet: ${view.blockers.join(' ')}`);
    const r = await client.doSettlement();
    if (!r.ok) throw deps.failureOf(r.failure);
    await journal.setSetting('lastSettledAt', String(clock.now()), clock.now());
    return {
      amountSettledCents: fromWire(r.response.AmountSettled),
      batches: (r.response.Batches ?? []).map((b) => ({
        batchNumber: b.BatchNumber,
        count: b.TransactionCount,
        saleCents: fromWire(b.SaleAmount),
        returnCents: fromWire(b.ReturnAmount),
        netCents: fromWire(b.NetAmount),
      })),
      ...(r.response.CompletedOn ? { completedAt: r.response.CompletedOn } : {}),
    };
  };

  return { lastSettledAt, reconciliation, totals, resolveOrphan, settle };
}
