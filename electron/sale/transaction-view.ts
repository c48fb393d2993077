import type { TransactionView } from '../../common/bridge/contract';
import type { JournalRow } from '../journal/journal-store';

/**
 * A journal row as the bridge shows it (no card data: the journal holds none). `settledBefore`: when this
 * lane last closed its batch — a payment made before it is settled (refunded, no longer voided); `names`
 * tells the employees' names for the ids the row carries.
 */
export function toTransactionView(
  r: JournalRow,
  settledBefore = 0,
  names: (id: number | null) => string | undefined = () => undefined,
): TransactionView {
  const employeeName = names(r.employeeId);
  const approvedByName = names(r.approvedById);
  return {
    userTransactionNumber: r.utn,
    ...(r.ticketId ? { ticketId: r.ticketId } : {}),
    operation: r.operation,
    state: r.state,
    amountCents: r.amountCents,
    tipCents: r.tipCents,
    cashBackCents: r.cashBackCents,
    approvedCents: r.approvedCents,
    ...(r.createdAt < settledBefore ? { settled: true } : {}),
    ...(r.last4 ? { last4: r.last4 } : {}),
    ...(r.cardType ? { cardType: r.cardType } : {}),
    ...(r.authCode ? { authCode: r.authCode } : {}),
    ...(r.srn ? { serviceReferenceNumber: r.srn } : {}),
    ...(r.originalSrn ? { originalServiceReferenceNumber: r.originalSrn } : {}),
    refundedCents: r.refundedCents,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.message ? { message: r.message } : {}),
    ...(r.cardDecision ? { cardDecision: r.cardDecision } : {}),
    ...(r.scriptResults ? { scriptResults: r.scriptResults } : {}),
    ...(r.employeeId !== null ? { employeeId: r.employeeId } : {}),
    ...(employeeName !== undefined ? { employeeName } : {}),
    ...(r.approvedById !== null ? { approvedById: r.approvedById } : {}),
    ...(approvedByName !== undefined ? { approvedByName } : {}),
  };
}
