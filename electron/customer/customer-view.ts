import type {
  CustomerOutcomeView,
  CustomerPromptView,
  CustomerTicketView,
  SaleProgress,
  TenderView,
  TicketView,
} from '../../common/bridge/contract';
import { customerLinesOf } from './ticket-lines';

/**
 * What of the lane's state the customer may read, built field by field (never a copy of the cashier's view
 * with parts removed, so a field the cashier's view gains later stays the cashier's): the ticket's lines
 * and sums, the tender's step, its outcome with the card's brand and last four at most.
 */

export function customerTicketOf(t: TicketView): CustomerTicketView {
  return {
    ticketId: t.ticketId,
    status: t.status,
    lines: customerLinesOf(t),
    subtotalCents: t.subtotalCents,
    taxCents: t.taxCents,
    tipCents: t.tipCents,
    totalCents: t.totalCents,
    paidCents: t.paidCents,
    remainingCents: t.remainingCents,
  };
}

/**
 * The tender's step for the customer. The card wait and the read carry the reader's own words (they are
 * addressed to the cardholder: "Insert card", "Chip could not be read — swipe the card"); every other step
 * is a code the display words itself — the cashier's prompts ("Customer entering PIN", "No answer yet —
 * asking the gateway…") are not the customer's.
 */
export function customerPromptOf(p: SaleProgress): CustomerPromptView | undefined {
  switch (p.step) {
    case 'waiting-for-card':
      return { step: 'present-card', device: p.prompt };
    case 'reading-card':
      return { step: 'reading-card', device: p.prompt };
    case 'pin-entry':
      return { step: 'pin' };
    case 'authorizing':
    case 'printing':
    case 'reversing':
      return { step: 'wait' };
    case 'remove-card':
      return { step: 'remove-card' };
    case 'signature':
      return { step: 'sign' };
    case 'done':
      return undefined;
  }
}

/** A finished tender's outcome for the customer; undefined while it runs. */
export function customerOutcomeOf(tender: TenderView): CustomerOutcomeView | undefined {
  const card = tender.card
    ? {
        ...(tender.card.cardType ? { cardType: tender.card.cardType } : {}),
        ...(tender.card.last4 ? { last4: tender.card.last4 } : {}),
      }
    : undefined;
  const base = { amountCents: tender.approvedCents || tender.requestedCents, ...(card ? { card } : {}) };
  switch (tender.status) {
    case 'in-progress':
      return undefined;
    case 'approved':
    case 'stored':
      if (tender.kind === 'cash')
        return { kind: 'cash', amountCents: tender.approvedCents, changeCents: tender.changeCents ?? 0 };
      return { ...base, kind: 'approved' };
    case 'partial':
      return { ...base, kind: 'partial', amountCents: tender.approvedCents };
    case 'declined':
      return { ...base, kind: 'declined' };
    case 'cancelled':
      return { ...base, kind: 'cancelled' };
    case 'offline-refused':
      return { ...base, kind: 'offline' };
    case 'unknown':
      return { ...base, kind: 'wait' };
    case 'reversed':
    case 'voided':
      return { ...base, kind: 'reversed' };
  }
}
