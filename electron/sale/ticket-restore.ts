import type { CardEntry, TenderView } from '../../common/bridge/contract';
import { UNKNOWN_MESSAGE, UNKNOWN_UNREVERSED_MESSAGE } from '../gateway-client/bridge-failure';
import type { JournalRow } from '../journal/journal-store';

function isEntry(e: string | null): e is CardEntry {
  return e === 'swipe' || e === 'chip' || e === 'contactless' || e === 'keyed' || e === 'present';
}

/** What the cashier reads on a tender the restart found approved at the gateway (crash-inquiry.ts). */
export const RECOVERED_APPROVAL =
  'The terminal restarted before the answer arrived; the gateway confirmed this payment. Do not charge again.';

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
  // The ticket was saved before the card was read: the journal row knows the card (last four only).
  if (!tender.card && row.last4)
    tender.card = {
      last4: row.last4,
      ...(row.cardType ? { cardType: row.cardType } : {}),
      ...(isEntry(row.entryMode) ? { entry: row.entryMode } : {}),
    };
  if (row.state === 'approved' || row.state === 'partial' || row.state === 'stored') {
    tender.status = row.state;
    tender.approvedCents = row.approvedCents;
    if (row.authCode) tender.authCode = row.authCode;
    if (row.srn) tender.serviceReferenceNumber = row.srn;
    if (row.message?.includes('confirmed by GetTransaction')) tender.message = RECOVERED_APPROVAL;
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
