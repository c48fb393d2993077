import type { MessageWords } from '../../common/bridge/contract';

/** What is still unresolved in the lane's open batch, as the reconciliation counts it. */
export type OpenBatchUnresolved = {
  /** Approved at the gateway, not (or not so) in the journal: a manager keeps or reverses each. */
  orphans: number;
  /** Reversals the gateway has not acknowledged yet. */
  pendingReversals: number;
  /** Sales stored offline and not forwarded yet. */
  safQueued: number;
};

// rule: terminal-batch-close
/**
 * When the lane's batch may close (DoSettlement): only when nothing in it is unresolved. A settled batch
 * never reopens at the gateway, so an orphan, an unacknowledged reversal or a sale still stored offline
 * closed into it could no longer be matched, reversed or forwarded into the batch it belongs to.
 * Mismatches are shown, not blocking: the gateway's open batch is what settles. Answers the reasons it
 * may not close, in the words the batch screen shows; none means it may.
 */
/** One reason the batch may not close: the core's words and their catalog id with the count. */
export type BatchCloseBlocker = { text: string; words: MessageWords };

export function batchCloseBlockers(open: OpenBatchUnresolved): BatchCloseBlocker[] {
  const blockers: BatchCloseBlocker[] = [];
  const block = (text: string, messageId: string, count: number) =>
    blockers.push({ text, words: { messageId, params: { count } } });
  if (open.orphans > 0)
    block(
      `${open.orphans} transaction(s) approved at the gateway but not in the journal: keep or reverse each.`,
      'batch.blockers.orphans',
      open.orphans,
    );
  if (open.pendingReversals > 0)
    block(
      `${open.pendingReversals} reversal(s) not yet acknowledged by the gateway.`,
      'batch.blockers.reversals',
      open.pendingReversals,
    );
  if (open.safQueued > 0)
    block(
      `${open.safQueued} sale(s) stored offline are not forwarded yet.`,
      'batch.blockers.stored',
      open.safQueued,
    );
  return blockers;
}
