import type {
  BatchTotals,
  JournalState,
  ReconciliationRow,
  ReconciliationView,
  TotalsLine,
} from './bridge/contract';
import type { TransactionReportRecord } from '../gateway/contract/report';
import type { JournalRow, ReversalRow } from './journal/journal-store';
import { fromWire } from './util/money';

/**
 * The reconciliation view (issue 5): what the lane's journal says against what the gateway's reports say
 * for the open batch. Pure: the core fetches both sides and hands them in, so the rules are tested
 * without a gateway.
 */

const APPROVED_LOCAL: ReadonlySet<JournalState> = new Set(['approved', 'partial', 'refunded']);
const NOT_CHARGED_LOCAL: ReadonlySet<JournalState> = new Set(['declined', 'failed', 'reversed']);
const IN_FLIGHT: ReadonlySet<JournalState> = new Set(['sending', 'unknown', 'awaiting-card', 'reversing']);
/** Journal operations that never reach the gateway's card report. */
const LOCAL_OPS = new Set(['cash', 'check']);

export type ReconcileInput = {
  journal: readonly JournalRow[];
  /** GetReportByMerchant records whose UserTransactionNumber belongs to this lane. */
  gateway: readonly TransactionReportRecord[];
  /** UserReferenceNumbers of GetUnsettledTransactions (the open batch). */
  openBatch: ReadonlySet<string>;
  reversals: readonly ReversalRow[];
  /** Sales stored offline and not yet forwarded. */
  safQueued: number;
  now: number;
};

export function reconcile(input: ReconcileInput): ReconciliationView {
  const byUtn = new Map(input.gateway.map((g) => [g.UserTransactionNumber, g]));
  const failedReversal = new Set(input.reversals.filter((r) => r.state === 'failed').map((r) => r.utn));
  const rows: ReconciliationRow[] = [];
  const seen = new Set<string>();

  for (const j of input.journal) {
    seen.add(j.utn);
    const g = byUtn.get(j.utn);
    const row: ReconciliationRow = {
      userTransactionNumber: j.utn,
      journal: { state: j.state, amountCents: j.approvedCents || j.amountCents, operation: j.operation },
      verdict: 'match',
    };
    if (g) {
      row.gateway = {
        status: g.Status,
        amountCents: fromWire(g.TotalAmount),
        serviceReferenceNumber: g.ServiceReferenceNumber,
        inOpenBatch: input.openBatch.has(j.utn),
      };
    }
    const gApproved = g !== undefined && (g.Status === 'approved' || g.Status === 'refunded');
    if (LOCAL_OPS.has(j.operation) || j.state === 'stored') {
      row.verdict = 'local-only';
      if (j.state === 'stored') row.note = 'Stored offline, not forwarded yet';
      else if (j.operation === 'check' && j.state === 'unknown') {
        row.verdict = 'mismatch';
        row.note = 'Check with no answer: look it up in the check report';
      }
    } else if (IN_FLIGHT.has(j.state)) {
      if (failedReversal.has(j.utn)) {
        row.verdict = gApproved ? 'orphan' : 'mismatch';
        row.note = 'The reversal was refused: decide to keep or reverse it';
      } else {
        row.verdict = 'pending-reversal';
        row.note = gApproved ? 'Approved at the gateway; the reversal will void it' : 'Reversal pending';
      }
    } else if (APPROVED_LOCAL.has(j.state)) {
      if (!g) {
        row.verdict = j.operation === 'void' ? 'match' : 'mismatch';
        if (row.verdict === 'mismatch') row.note = 'Approved in the journal, missing at the gateway';
      } else if (!gApproved && j.operation !== 'void') {
        row.verdict = 'mismatch';
        row.note = `Approved in the journal, ${g.Status} at the gateway`;
      } else if (
        j.operation !== 'void' &&
        j.operation !== 'refund' &&
        fromWire(g.Amount) + fromWire(g.TipAmount) + fromWire(g.TaxAmount) !== j.approvedCents
      ) {
        row.verdict = 'mismatch';
        row.note = 'The amounts differ';
      }
    } else if (NOT_CHARGED_LOCAL.has(j.state)) {
      if (gApproved) {
        row.verdict = 'orphan';
        row.note = `Approved at the gateway but ${j.state} in the journal`;
      } else if (!g) row.verdict = j.state === 'reversed' ? 'match' : 'local-only';
    } else if (j.state === 'voided') {
      if (gApproved) {
        row.verdict = 'mismatch';
        row.note = 'Voided in the journal, still approved at the gateway';
      }
    }
    rows.push(row);
  }
  // Approved at the gateway under this lane's numbers but not in the journal at all.
  for (const g of input.gateway) {
    if (seen.has(g.UserTransactionNumber)) continue;
    if (g.Status !== 'approved') continue;
    rows.push({
      userTransactionNumber: g.UserTransactionNumber,
      gateway: {
        status: g.Status,
        amountCents: fromWire(g.TotalAmount),
        serviceReferenceNumber: g.ServiceReferenceNumber,
        inOpenBatch: input.openBatch.has(g.UserTransactionNumber),
      },
      verdict: 'orphan',
      note: "Approved at the gateway, not in this lane's journal",
    });
  }

  const count = (v: ReconciliationRow['verdict']) => rows.filter((r) => r.verdict === v).length;
  const orphans = count('orphan');
  const mismatches = count('mismatch');
  const pendingReversals = count('pending-reversal');
  const blockers: string[] = [];
  if (orphans > 0)
    blockers.push(
      `${orphans} transaction(s) approved at the gateway but not in the journal: keep or reverse each.`,
    );
  if (pendingReversals > 0)
    blockers.push(`${pendingReversals} reversal(s) not yet acknowledged by the gateway.`);
  if (input.safQueued > 0) blockers.push(`${input.safQueued} sale(s) stored offline are not forwarded yet.`);
  return {
    at: input.now,
    rows,
    orphans,
    mismatches,
    pendingReversals,
    canClose: blockers.length === 0,
    blockers,
  };
}

function line(map: Map<string, TotalsLine>, key: string, cents: number): void {
  const l = map.get(key) ?? { key, count: 0, amountCents: 0 };
  l.count += 1;
  l.amountCents += cents;
  map.set(key, l);
}

const tenderOf: Record<string, string> = {
  sale: 'credit',
  preauth: 'credit',
  'preauth-complete': 'credit',
  'token-sale': 'card on file',
  debit: 'debit',
  'ebt-food': 'EBT food',
  'ebt-cash': 'EBT cash',
  'gift-sale': 'gift',
  'gift-reload': 'gift reload',
  check: 'check',
  cash: 'cash',
};

/** The open batch's totals from the journal rows since the last settlement. */
export function batchTotals(rows: readonly JournalRow[]): BatchTotals {
  const byCard = new Map<string, TotalsLine>();
  const byTender = new Map<string, TotalsLine>();
  let saleCount = 0;
  let saleCents = 0;
  let refundCount = 0;
  let refundCents = 0;
  let tipCents = 0;
  for (const r of rows) {
    if (r.operation === 'void' || r.operation === 'preauth') continue;
    if (r.operation === 'refund') {
      if (r.state === 'approved') {
        refundCount += 1;
        refundCents += r.approvedCents;
      }
      continue;
    }
    if (!(r.state === 'approved' || r.state === 'partial' || r.state === 'refunded' || r.state === 'stored'))
      continue;
    saleCount += 1;
    saleCents += r.approvedCents;
    tipCents += r.tipCents;
    line(byCard, r.cardType ?? (r.operation === 'cash' ? 'Cash' : 'Other'), r.approvedCents);
    line(byTender, tenderOf[r.operation] ?? r.operation, r.approvedCents);
  }
  return {
    saleCount,
    saleCents,
    refundCount,
    refundCents,
    netCents: saleCents - refundCents,
    tipCents,
    byCardType: [...byCard.values()].sort((a, b) => b.amountCents - a.amountCents),
    byTender: [...byTender.values()].sort((a, b) => b.amountCents - a.amountCents),
  };
}
