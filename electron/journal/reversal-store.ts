import type Database from 'better-sqlite3';
import type { JournalOperation, JournalState } from '../../common/bridge/contract';
import type { EntryPatch, JournalRow, SalesStore } from './sales-store';

export type ReversalRow = {
  utn: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  doneAt: number | null;
  operation: JournalOperation;
  amountCents: number;
};

/**
 * The `reversals` table: the lost answer's queue (reversal-worker.ts sends each). A reversal is queued in
 * the same transaction that marks its entry, so no unknown entry is left that nothing will reverse.
 */
export class ReversalStore {
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    private readonly sales: SalesStore,
  ) {
    this.stmt = {
      addReversal: db.prepare(
        `INSERT INTO reversals (utn, state, attempts, next_attempt_at, created_at) VALUES (?, 'pending', 0, ?, ?)
         ON CONFLICT (utn) DO UPDATE SET state = 'pending', next_attempt_at = excluded.next_attempt_at, done_at = NULL`,
      ),
      dueReversals: db.prepare<[number, number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'pending' AND r.next_attempt_at <= ? ORDER BY r.next_attempt_at LIMIT ?`,
      ),
      pendingReversals: db.prepare<[], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'pending' ORDER BY r.created_at`,
      ),
      failedReversals: db.prepare<[number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'failed' ORDER BY r.next_attempt_at DESC LIMIT ?`,
      ),
      allReversals: db.prepare<[number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         ORDER BY r.created_at DESC LIMIT ?`,
      ),
      reversalAttempt: db.prepare(
        'UPDATE reversals SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE utn = ?',
      ),
      reversalClose: db.prepare(
        'UPDATE reversals SET state = ?, done_at = ?, last_error = ?, attempts = attempts + 1 WHERE utn = ?',
      ),
      retryAll: db.prepare("UPDATE reversals SET next_attempt_at = ? WHERE state = 'pending'"),
    };
  }

  /** Queues (or re-queues) the reversal of `utn`, first tried at `firstAttemptAt`. */
  add(utn: string, firstAttemptAt: number, now: number): void {
    this.stmt.addReversal.run(utn, firstAttemptAt, now);
  }

  /**
   * No answer: the entry becomes `unknown` and a reversal is queued, in one transaction, so a crash
   * cannot leave an unknown entry that nothing will reverse.
   */
  markUnknown(utn: string, message: string, now: number, firstAttemptAt: number): JournalRow {
    return this.db.transaction(() => {
      const row = this.sales.update(utn, { state: 'unknown', message }, now);
      this.stmt.addReversal.run(utn, firstAttemptAt, now);
      return row;
    })();
  }

  /**
   * Queues a reversal for an entry whose outcome we decided to undo (abandoned ticket, orphan, an approval
   * the chip card refused); `patch` is recorded in the same transaction (what the card said).
   */
  queueReversal(
    utn: string,
    message: string,
    now: number,
    patch: Omit<EntryPatch, 'state' | 'message'> = {},
  ): JournalRow {
    return this.db.transaction(() => {
      const row = this.sales.update(utn, { ...patch, state: 'reversing', message }, now);
      this.stmt.addReversal.run(utn, now, now);
      return row;
    })();
  }

  dueReversals(now: number, limit: number): ReversalRow[] {
    return this.stmt.dueReversals.all(now, limit).map(toReversal);
  }

  pendingReversals(): ReversalRow[] {
    return this.stmt.pendingReversals.all().map(toReversal);
  }

  /** Reversals the gateway refused for good: a manager decides each (newest first, at most `limit`). */
  failedReversals(limit: number): ReversalRow[] {
    return this.stmt.failedReversals.all(limit).map(toReversal);
  }

  recentReversals(limit: number): ReversalRow[] {
    return this.stmt.allReversals.all(limit).map(toReversal);
  }

  reversalAttempt(utn: string, nextAttemptAt: number, error: string): void {
    this.stmt.reversalAttempt.run(nextAttemptAt, error, utn);
  }

  /** The gateway acknowledged the reversal: the entry's final state is recorded with it. */
  reversalDone(utn: string, finalState: JournalState, message: string, now: number): JournalRow {
    return this.db.transaction(() => {
      this.stmt.reversalClose.run('done', now, null, utn);
      return this.sales.update(utn, { state: finalState, message }, now);
    })();
  }

  /** The gateway refused the reversal for a reason retrying cannot fix: a person must look at it. */
  reversalFailed(utn: string, message: string, now: number): JournalRow {
    return this.db.transaction(() => {
      this.stmt.reversalClose.run('failed', now, message, utn);
      return this.sales.update(utn, { message }, now);
    })();
  }

  retryReversalsNow(now: number): void {
    this.stmt.retryAll.run(now);
  }
}

type SqlReversal = {
  utn: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
  operation: JournalOperation;
  amount_cents: number;
};

function toReversal(r: SqlReversal): ReversalRow {
  return {
    utn: r.utn,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    createdAt: r.created_at,
    doneAt: r.done_at,
    operation: r.operation,
    amountCents: r.amount_cents,
  };
}
