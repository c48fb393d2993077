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
export function batchCloseBlockers(open: OpenBatchUnresolved): string[] {
  const blockers: string[] = [];
  if (open.orphans > 0)
    blockers.push(
      `${open.orphans} transaction(s) approved at the gateway but not in the journal: keep or reverse each.`,
    );
  if (open.pendingReversals > 0)
    blockers.push(`${open.pendingReversals} reversal(s) not yet acknowledged by the gateway.`);
  if (open.safQueued > 0) blockers.push(`${open.safQueued} sale(s) stored offline are not forwarded yet.`);
  return blockers;
}
