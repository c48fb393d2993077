import type { JournalOperation, TenderView, TicketView } from '../../common/bridge/contract';
import type { NewEntry } from '../journal/journal-store';
import { toWire } from '../util/money';

/** The parts of one tender's amount as the gateway wants them. */
export type Split = { baseCents: number; taxCents: number; tipCents: number };

/** A tender that took money (and counts towards what the ticket has been paid). */
export function isTaken(x: TenderView): boolean {
  return x.status === 'approved' || x.status === 'partial' || x.status === 'stored';
}

// rule: ticket-totals
/** Totals follow from the tenders; a ticket is paid once nothing remains and every signature is in. */
export function recompute(t: TicketView): TicketView {
  t.totalCents = t.subtotalCents + t.taxCents + t.tipCents;
  t.paidCents = t.tenders.filter(isTaken).reduce((s, x) => s + x.approvedCents, 0);
  t.remainingCents = Math.max(0, t.totalCents - t.paidCents);
  return t;
}

/**
 * How one tender's amount is split for the gateway. A tender that pays the whole ticket sends its tax and
 * tip as such; a part payment sends the tip first (it belongs to the card that added it) and the rest as
 * the base amount.
 */
export function splitTender(t: TicketView, amountCents: number): Split {
  const paid = t.paidCents;
  if (paid === 0 && amountCents === t.totalCents)
    return { baseCents: t.subtotalCents, taxCents: t.taxCents, tipCents: t.tipCents };
  const tipPaid = t.tenders
    .filter((x) => x.status === 'approved' || x.status === 'partial')
    .reduce((s, x) => s + x.tipCents, 0);
  const tip = Math.min(Math.max(0, t.tipCents - tipPaid), amountCents - 1);
  return { baseCents: amountCents - Math.max(0, tip), taxCents: 0, tipCents: Math.max(0, tip) };
}

export function amountFields(s: Split): { Amount: number; TaxAmount?: number; TipAmount?: number } {
  return {
    Amount: toWire(s.baseCents),
    ...(s.taxCents > 0 ? { TaxAmount: toWire(s.taxCents) } : {}),
    ...(s.tipCents > 0 ? { TipAmount: toWire(s.tipCents) } : {}),
  };
}

/** The journal row's fields every tender shares (the tip is journaled apart from the amount). */
export function tenderEntry(
  laneId: string,
  t: TicketView,
  view: TenderView,
  operation: JournalOperation,
  amount: number,
  s: Split,
): Omit<NewEntry, 'now'> {
  return {
    laneId,
    operation,
    amountCents: amount - s.tipCents,
    tipCents: s.tipCents,
    taxCents: s.taxCents,
    ticketId: t.ticketId,
    tenderId: view.tenderId,
  };
}
