import type { ReconciliationView } from './bridge/contract';
import type { BridgeFailure } from './bridge/failure';
import type { GatewayClient } from './gateway-client/client';
import type { GatewayFailure } from './gateway-client/errors';
import type { Journal } from './journal/journal';
import { reconcile } from './reconciliation';
import type { StoreAndForward } from './store-forward/saf';
import type { Clock } from './util/clock';

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
};

export function createBatchClose(deps: {
  client: GatewayClient;
  journal: Journal;
  saf: StoreAndForward;
  clock: Clock;
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

  return { lastSettledAt, reconciliation };
}
