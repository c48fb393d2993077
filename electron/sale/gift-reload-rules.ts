import type { SaleOpenRequest, TenderRequest, TicketView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { JournalRow } from '../journal/journal-store';

/**
 * Gift card value is money the store owes: it is loaded only against a payment the store holds, or by a
 * manager's decision. A `gift-reload` ticket is that payment — a ticket line of the load's amount, no tax
 * (stored value is not a taxable sale), no tip, paid in full by a tender that moved money: not a
 * pre-authorization (a hold charges nothing and can lapse), not another gift card, not an offline
 * (store-and-forward) approval the issuer has not seen.
 */

/** Refuses what a gift-reload ticket cannot carry when it is opened. */
export function checkReloadOpen(req: SaleOpenRequest): void {
  if ((req.taxCents ?? 0) !== 0 || (req.tipCents ?? 0) !== 0)
    throw new BridgeFailure('invalid', 'A gift card load carries no tax and no tip.');
}

// rule: gift-reload-payment
/** Refuses a tender (or a tip) that cannot pay for a gift card load. */
export function checkReloadTender(t: TicketView, tender: TenderRequest, tipCents: number): void {
  if (t.purpose !== 'gift-reload') return;
  if (tipCents > 0) throw new BridgeFailure('invalid', 'A gift card load carries no tip.');
  if (tender.kind === 'preauth')
    throw new BridgeFailure(
      'invalid',
      'A pre-authorization holds money without taking it: it cannot pay a load.',
    );
  if (tender.kind === 'gift')
    throw new BridgeFailure('invalid', 'A gift card load is paid with money, not gift value.');
}

const FINISHED_UNLOADED = new Set<JournalRow['state']>(['declined', 'failed', 'reversed']);

/**
 * Whether `ticket` may pay for loading `amountCents` now. `attempts` are the journal's gift-reload rows of
 * this ticket (the journal, not the ticket, is the truth after a crash): any that loaded, or may have,
 * uses the ticket up.
 */
export function checkReloadTicket(
  ticket: TicketView,
  amountCents: number,
  attempts: readonly JournalRow[],
): void {
  if (ticket.purpose !== 'gift-reload')
    throw new BridgeFailure('conflict', 'This ticket was not opened for a gift card load.');
  if (ticket.status !== 'paid') throw new BridgeFailure('conflict', 'The load is not paid yet.');
  if (amountCents !== ticket.subtotalCents)
    throw new BridgeFailure(
      'invalid',
      `This ticket paid for a load of ${(ticket.subtotalCents / 100).toFixed(2)}.`,
    );
  const taken = ticket.tenders.filter(
    (x) => x.status === 'approved' || x.status === 'partial' || x.status === 'stored',
  );
  if (taken.some((x) => x.status === 'stored' || x.kind === 'preauth' || x.kind === 'gift'))
    throw new BridgeFailure('conflict', 'This ticket was not paid by a payment that can pay a load.');
  if (attempts.some((r) => !FINISHED_UNLOADED.has(r.state)))
    throw new BridgeFailure('conflict', 'This ticket’s load is already done (or is being reversed).');
}
