import type { TenderView } from '../bridge/contract';
import { UNKNOWN_MESSAGE, UNKNOWN_UNREVERSED_MESSAGE } from '../gateway-client/bridge-failure';
import type { JournalRow } from '../journal/journal-store';

/**
 * A tender in progress when the terminal stopped takes its outcome from the journal, which is the truth:
 * approved if the answer was committed, otherwise unknown (and being reversed). `row` is its journal row,
 * undefined when the terminal stopped before it was sent.
 */
export function restoreTender(tender: TenderView, row: JournalRow | undefined): void {
  if (!row) {
    tender.status = 'cancelled';
    tender.message = 'The terminal stopped before this tender was sent.';
    return;
  }
  tender.userTransactionNumber = row.utn;
  if (row.state === 'approved' || row.state === 'partial' || row.state === 'stored') {
    tender.status = row.state;
    tender.approvedCents = row.approvedCents;
    if (row.authCode) tender.authCode = row.authCode;
    if (row.srn) tender.serviceReferenceNumber = row.srn;
  } else if (row.state === 'declined' || row.state === 'failed') {
    tender.status = 'declined';
    tender.message = row.message ?? 'Declined.';
  } else if (row.state === 'reversed') {
    tender.status = 'reversed';
  } else if (row.state === 'reversing' && row.message) {
    // Reversed by decision (an approval the chip card never confirmed): the journal says why.
    tender.status = 'reversed';
    tender.message = row.message;
  } else {
    tender.status = 'unknown';
    // A check is not reversed (no UserTransactionNumber at the gateway): it waits in the reconciliation view.
    tender.message = row.operation === 'check' ? UNKNOWN_UNREVERSED_MESSAGE : UNKNOWN_MESSAGE;
  }
}
