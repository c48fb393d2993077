import { moneyFigures } from '../../common/money-figures';
import type {
  BatchTotals,
  OrphanResolution,
  ReconciliationView,
  ReportFigures,
  SettlementView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { GatewayClient } from '../gateway-client/client';
import type { GatewayFailure } from '../gateway-client/errors';
import type { Journal } from '../journal/journal';
import { LAST_CLOSE_SETTING } from '../journal/journal-store';
import { reconcile, type OpenBatchEntry } from './reconciliation';
import type { Clock } from '../util/clock';
import { fromWire } from '../util/money';

/**
 * The terminal's batch-close rule: the lane's open batch is everything since its last close — the
 * manager's from this terminal or the gateway's automatic one, whichever came last; it closes
 * (DoSettlement) only when the reconciliation of the journal against the gateway's open batch finds
 * nothing unresolved (orphans, pending reversals, sales still stored offline: batch-close-rule.ts).
 *
 * What it asks the gateway is bounded by the open batch (issue 22): GetUnsettledTransactions (the open
 * batch) and GetLastSettlementByMerchant (one record: when the batch last closed), never the merchant's
 * whole history. The screen's two reads on opening (totals, reconciliation) share one request.
 */
export type BatchClose = {
  /** When the open batch began (0: never closed): the later of this lane's last close and the gateway's. */
  openedAt: () => Promise<number>;
  /**
   * The last close this terminal has seen (its own, or the gateway's as last read by `openedAt`), from
   * the journal alone: what marks a payment settled on screens that must work offline.
   */
  lastCloseSeen: () => Promise<number>;
  /** The journal against the gateway's open batch. */
  reconciliation: () => Promise<ReconciliationView>;
  /** The lane's open batch from its journal (the money figures), and the gateway's open batch when reachable. */
  totals: () => Promise<BatchTotals>;
  /** The money figures of the lane's journal over a report's range. */
  figures: (from: number, to?: number) => Promise<ReportFigures>;
  /**
   * A manager's decision on an orphan (or a mismatch): `keep` adopts the gateway's approval in the
   * journal, `reverse` queues its reversal (only from the lane whose journal made it).
   */
  resolveOrphan: (utn: string, action: OrphanResolution['action']) => Promise<void>;
  /** Closes the batch (DoSettlement) when the reconciliation allows it; the next open batch starts now. */
  settle: () => Promise<SettlementView>;
};

const LAST_CLOSE = LAST_CLOSE_SETTING;

/** One request for callers that ask at once (the batch screen opens its totals and its reconciliation). */
function shared<T>(fn: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= fn().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

export function createBatchClose(deps: {
  client: GatewayClient;
  journal: Journal;
  clock: Clock;
  kickReversals: () => void;
  failureOf: (failure: GatewayFailure) => BridgeFailure;
}): BatchClose {
  const { client, journal, clock } = deps;

  const unsettled = shared(() => client.getUnsettledTransactions());
  const lastSettlement = shared(() => client.getLastSettlementByMerchant());

  const lastCloseSeen = async (): Promise<number> => Number((await journal.getSetting(LAST_CLOSE)) ?? '0');

  /**
   * The gateway closes the batch on its own schedule too (automatic close): its last settlement is where
   * the open batch begins. Unreachable, the last close this terminal saw stands (undefined here).
   */
  const gatewayLastClose = async (): Promise<number | undefined> => {
    const r = await lastSettlement();
    if (!r.ok) return undefined;
    const closes = (r.response.SettlementReports ?? [])
      .map((s) => Date.parse(s.CompletedOn))
      .filter((t) => Number.isFinite(t));
    return Math.max(0, ...closes);
  };

  const openedAt = async (): Promise<number> => {
    const local = await lastCloseSeen();
    const gateway = await gatewayLastClose();
    if (gateway === undefined) return local;
    if (gateway <= local) return local;
    await journal.setSetting(LAST_CLOSE, String(gateway), clock.now());
    return gateway;
  };

  /** Whether this journal numbered `utn` (`<lane>-<epoch>-<seq>`, under any lane id it has had). */
  const oursUnder =
    (epoch: string | undefined) =>
    (utn: string): boolean => {
      const cut = utn.lastIndexOf('-');
      return epoch !== undefined && cut > 0 && utn.slice(0, cut).endsWith(`-${epoch}`);
    };
  const ours = async (): Promise<(utn: string) => boolean> => oursUnder(await journal.epoch());

  const reconciliation = async (): Promise<ReconciliationView> => {
    const [u, gatewayClosedAt] = await Promise.all([unsettled(), gatewayLastClose()]);
    if (!u.ok) throw deps.failureOf(u.failure);
    // The journal's whole side in one request to its thread (rows since the open batch began, older
    // unresolved rows, reversals, epoch, offline queue): one read transaction, one round trip.
    const side = await journal.batchJournalSide(gatewayClosedAt, clock.now());
    const openBatch = new Map<string, OpenBatchEntry>(
      (u.response.UnsettledTransactions ?? []).map((x) => [
        x.UserReferenceNumber,
        {
          utn: x.UserReferenceNumber,
          serviceReferenceNumber: x.ServiceReferenceNumber,
          amountCents: fromWire(x.Amount),
        },
      ]),
    );
    return reconcile({
      journal: side.rows,
      openBatch,
      isOurs: oursUnder(side.epoch),
      reversals: side.reversals,
      safQueued: side.safQueued,
      now: clock.now(),
    });
  };

  const totals = async (): Promise<BatchTotals> => {
    const [since, u] = await Promise.all([openedAt(), unsettled()]);
    const result: BatchTotals = { since, figures: moneyFigures(await journal.figureGroups(since)) };
    if (u.ok) {
      const list = u.response.UnsettledTransactions ?? [];
      const isOurs = await ours();
      result.gateway = {
        laneCount: list.filter((x) => isOurs(x.UserReferenceNumber)).length,
        allLanesCount: list.length,
      };
    }
    return result;
  };

  const figures = async (from: number, to?: number): Promise<ReportFigures> => ({
    from,
    ...(to !== undefined ? { to } : {}),
    figures: moneyFigures(await journal.figureGroups(from, to)),
  });

  const resolveOrphan = async (utn: string, action: OrphanResolution['action']): Promise<void> => {
    const view = await reconciliation();
    const row = view.rows.find((r) => r.userTransactionNumber === utn);
    if (!row || (row.verdict !== 'orphan' && row.verdict !== 'mismatch'))
      throw new BridgeFailure('not-found', 'That transaction is not an orphan.', {
        messageId: 'batch.notOrphan',
      });
    const entry = await journal.get(utn);
    const now = clock.now();
    if (action === 'reverse') {
      if (!entry)
        throw new BridgeFailure(
          'conflict',
          "This number is not in this lane's journal: reverse it from the lane that made it.",
          { messageId: 'batch.reverseElsewhere' },
        );
      await journal.queueReversal(utn, 'Orphan: manager chose to reverse', now);
      deps.kickReversals();
    } else if (entry && row.gateway) {
      // The open batch lists the base amount only: the approval's whole amount is the transaction's own.
      const t = await client.getTransaction(utn);
      if (!t.ok) throw deps.failureOf(t.failure);
      await journal.update(
        utn,
        {
          state: 'approved',
          approvedCents:
            fromWire(t.response.Amount) + fromWire(t.response.TaxAmount) + fromWire(t.response.TipAmount),
          srn: row.gateway.serviceReferenceNumber,
          message: 'Orphan kept: approved at the gateway',
        },
        now,
      );
    }
  };

  const settle = async (): Promise<SettlementView> => {
    const view = await reconciliation();
    if (!view.canClose)
      throw new BridgeFailure('conflict', `The batch cannot close yet: ${view.blockers.join(' ')}`, {
        messageId: 'batch.cannotClose',
        problems: view.blockers,
        ...(view.blockerWords ? { problemWords: view.blockerWords } : {}),
      });
    const lane = moneyFigures(await journal.figureGroups(await openedAt()));
    const r = await client.doSettlement();
    if (!r.ok) throw deps.failureOf(r.failure);
    await journal.setSetting(LAST_CLOSE, String(clock.now()), clock.now());
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
      laneCardNetCents: lane.card.netCents,
    };
  };

  return { openedAt, lastCloseSeen, reconciliation, totals, figures, resolveOrphan, settle };
}
