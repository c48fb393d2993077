import type { TenderView } from '../../../common/bridge/contract';

/**
 * What the cashier should try after a tender that did not go through. The core already says the reason
 * in plain words (`TenderView.message`); this adds the next step, keyed on the gateway's catalog
 * (docs/response-codes.md): a decline is ResponseCode 3 with its reason in `declineCode`; a suspected
 * duplicate payment is ResponseCode 410.
 */
export function nextStepFor(tender: TenderView): string {
  switch (tender.status) {
    case 'declined':
      if (tender.gatewayCode === 410)
        return 'If the customer really wants to pay again, choose “Charge again”.';
      switch (tender.declineCode) {
        case 101:
          return 'Ask for another card, or take part of it in cash.';
        case 102:
        case 109:
        case 114:
          return 'This card cannot be used. Ask for another card or tender.';
        case 103:
        case 112:
          return 'Key the card again with the right security code, or use another card.';
        case 105:
          return 'Let the customer try the PIN again.';
        case 110:
        case 111:
          return 'The address check failed. Ask for another card.';
        case 113:
          return 'This card is blocked for this store. Ask for another tender.';
        default:
          return 'Ask for another card or tender.';
      }
    case 'offline-refused':
      return 'Take cash or another tender, or try again when the gateway is back.';
    case 'cancelled':
      return 'Choose a tender to try again.';
    case 'unknown':
      // A check cannot be reversed (DoReversal covers card payments): its standing is settled by hand.
      return tender.kind === 'check'
        ? 'Do not run the check again. A manager confirms in Reconciliation whether it was charged.'
        : 'Do not run the card again. The customer will not be charged for this attempt.';
    case 'reversed':
      return tender.cardRefusal === 'declined-by-card'
        ? 'Ask for another card or tender.'
        : tender.cardRefusal
          ? 'Insert the card again and leave it in until “Remove card”, or use another tender.'
          : '';
    default:
      return '';
  }
}

export const UNKNOWN_HEADLINE = 'Do not retry — the terminal is reversing this sale';

/** A lost answer whose reversal the gateway acknowledged: the final state, and what to do now. */
export const REVERSED_HEADLINE = 'Reversed: the customer is not charged — take payment again';

/** The headline of a tender whose answer was lost: only card payments are reversed by the terminal. */
export function unknownHeadlineFor(tender: TenderView): string {
  return tender.kind === 'check' ? 'Do not retry — no answer for this check' : UNKNOWN_HEADLINE;
}
