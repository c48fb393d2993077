import type {
  JournalState,
  MessageWords,
  ReconciliationRow,
  ReconciliationView,
} from '../../common/bridge/contract';
import type { JournalRow, ReversalRow } from '../journal/journal-store';
import { batchCloseBlockers } from './batch-close-rule';

/**
 * The reconciliation view (issue 5): what the lane's journal says against what the gateway's open batch
 * holds. Pure: the core fetches both sides and hands them in, so the rules are tested without a gateway.
 * The gateway side is its open batch alone (GetUnsettledTransactions, issue 22): every payment in it is
 * approved, and a payment of this lane that is not in it was not approved, was voided, or was closed
 * into an earlier batch — which the journal's side excludes by starting at the last close.
 */

const APPROVED_LOCAL: ReadonlySet<JournalState> = new Set(['approved', 'partial', 'refunded']);
const NOT_CHARGED_LOCAL: ReadonlySet<JournalState> = new Set(['declined', 'failed', 'reversed']);
const IN_FLIGHT: ReadonlySet<JournalState> = new Set(['sending', 'unknown', 'awaiting-card', 'reversing']);
/** Journal operations that never reach the gateway's card batch. */
const LOCAL_OPS = new Set(['cash', 'check']);
/** Approved, yet never in a batch of their own: a hold, and a void (it takes its original out). */
const NEVER_BATCHED = new Set(['preauth', 'void']);
/** Operations whose base amount the journal knows as the gateway keeps it (approved − tax − tip). */
const BASE_CHECKED = new Set([
  'sale',
  'token-sale',
  'debit',
  'ebt-food',
  'ebt-cash',
  'gift-sale',
  'gift-reload',
]);

/** One payment of the gateway's open batch (GetUnsettledTransactions). */
export type OpenBatchEntry = {
  utn: string;
  serviceReferenceNumber: string;
  /** The base amount as the gateway keeps it (no tax, tip or cash back); a refund's refunded amount. */
  amountCents: number;
};

export type ReconcileInput = {
  journal: readonly JournalRow[];
  /** The gateway's open batch, by UserTransactionNumber. */
  openBatch: ReadonlyMap<string, OpenBatchEntry>;
  /** Whether this journal numbered `utn` (its epoch): an approval of ours it does not hold is an orphan. */
  isOurs: (utn: string) => boolean;
  reversals: readonly ReversalRow[];
  /** Sales stored offline and not yet forwarded. */
  safQueued: number;
  now: number;
};

/** What the journal expects the gateway to keep as this row's base amount, when it can say. */
function expectedBase(j: JournalRow): number | undefined {
  if (j.operation === 'refund') return j.approvedCents;
  if (!BASE_CHECKED.has(j.operation) || j.state === 'partial') return undefined;
  return j.approvedCents - j.taxCents - j.tipCents;
}

/** A row's note: the English words, and their id so a screen says them in its language. */
function note(
  row: ReconciliationRow,
  messageId: string,
  text: string,
  params?: MessageWords['params'],
): void {
  row.note = text;
  row.noteWords = { messageId, ...(params ? { params } : {}) };
}

// rule: reconciliation
export function reconcile(input: ReconcileInput): ReconciliationView {
  const failedReversal = new Set(input.reversals.filter((r) => r.state === 'failed').map((r) => r.utn));
  const rows: ReconciliationRow[] = [];
  const seen = new Set<string>();

  for (const j of input.journal) {
    seen.add(j.utn);
    const g = input.openBatch.get(j.utn);
    const row: ReconciliationRow = {
      userTransactionNumber: j.utn,
      journal: { state: j.state, amountCents: j.approvedCents || j.amountCents, operation: j.operation },
      verdict: 'match',
    };
    if (g) {
      row.gateway = {
        status: 'approved',
        amountCents: g.amountCents,
        serviceReferenceNumber: g.serviceReferenceNumber,
        inOpenBatch: true,
      };
    }
    if (LOCAL_OPS.has(j.operation) || j.state === 'stored') {
      row.verdict = 'local-only';
      if (j.state === 'stored') note(row, 'storedOffline', 'Stored offline, not forwarded yet');
      else if (j.operation === 'check' && j.state === 'unknown') {
        row.verdict = 'mismatch';
        note(row, 'checkNoAnswer', 'Check with no answer: look it up in the check report');
      }
    } else if (IN_FLIGHT.has(j.state)) {
      if (failedReversal.has(j.utn)) {
        row.verdict = g ? 'orphan' : 'mismatch';
        note(row, 'reversalRefused', 'The reversal was refused: decide to keep or reverse it');
      } else {
        row.verdict = 'pending-reversal';
        if (g) note(row, 'reversalWillVoid', 'Approved at the gateway; the reversal will void it');
        else note(row, 'reversalPending', 'Reversal pending');
      }
    } else if (APPROVED_LOCAL.has(j.state)) {
      if (NEVER_BATCHED.has(j.operation)) row.verdict = 'match';
      else if (!g) {
        row.verdict = 'mismatch';
        note(row, 'notInOpenBatch', "Approved in the journal, not in the gateway's open batch");
      } else {
        const base = expectedBase(j);
        if (base !== undefined && base !== g.amountCents) {
          row.verdict = 'mismatch';
          note(row, 'amountsDiffer', 'The amounts differ');
        }
      }
    } else if (NOT_CHARGED_LOCAL.has(j.state)) {
      if (g) {
        row.verdict = 'orphan';
        note(row, 'approvedButLocal', `Approved at the gateway but ${j.state} in the journal`, {
          state: j.state,
        });
      } else row.verdict = j.state === 'reversed' ? 'match' : 'local-only';
    } else if (j.state === 'voided') {
      if (g) {
        row.verdict = 'mismatch';
        note(row, 'voidedStillBatched', "Voided in the journal, still in the gateway's open batch");
      }
    }
    rows.push(row);
  }
  // In the gateway's open batch under this journal's numbers but not in the journal's view at all.
  for (const g of input.openBatch.values()) {
    if (seen.has(g.utn) || !input.isOurs(g.utn)) continue;
    rows.push({
      userTransactionNumber: g.utn,
      gateway: {
        status: 'approved',
        amountCents: g.amountCents,
        serviceReferenceNumber: g.serviceReferenceNumber,
        inOpenBatch: true,
      },
      verdict: 'orphan',
      note: "Approved at the gateway, not in this lane's journal",
      noteWords: { messageId: 'notInJournal' },
    });
  }
  const count = (v: ReconciliationRow['verdict']) => rows.filter((r) => r.verdict === v).length;
  const orphans = count('orphan');
  const mismatches = count('mismatch');
  const pendingReversals = count('pending-reversal');
  const closeBlockers = batchCloseBlockers({ orphans, pendingReversals, safQueued: input.safQueued });
  const blockers = closeBlockers.map((b) => b.text);
  const blockerWords: MessageWords[] = closeBlockers.map((b) => b.words);
  return {
    at: input.now,
    rows,
    orphans,
    mismatches,
    pendingReversals,
    canClose: blockers.length === 0,
    blockers,
    blockerWords,
  };
}
