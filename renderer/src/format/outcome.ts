import type { TenderView } from '../../../common/bridge/contract';
import { i18n } from '../i18n/i18n';

/**
 * What the cashier should try after a tender that did not go through, in the window's language (the `sale`
 * catalog's `next`). The core already says the reason in plain words (`TenderView.message`); this adds the next step, keyed on the gateway's catalog
 * (docs/response-codes.md): a decline is ResponseCode 3 with its reason in `declineCode`; a suspected
 * duplicate payment is ResponseCode 410.
 */
export function nextStepFor(tender: TenderView): string {
  switch (tender.status) {
    case 'declined':
      if (tender.gatewayCode === 410) return i18n.t('sale:next.duplicate');
      switch (tender.declineCode) {
        case 101:
          return i18n.t('sale:next.lowFunds');
        case 102:
        case 109:
        case 114:
          return i18n.t('sale:next.cardUnusable');
        case 103:
        case 112:
          return i18n.t('sale:next.badCvn');
        case 105:
          return i18n.t('sale:next.pinAgain');
        case 110:
        case 111:
          return i18n.t('sale:next.avs');
        case 113:
          return i18n.t('sale:next.blocked');
        default:
          return i18n.t('sale:next.another');
      }
    case 'offline-refused':
      return i18n.t('sale:next.offline');
    case 'cancelled':
      return i18n.t('sale:next.cancelled');
    case 'unknown':
      // A check cannot be reversed (DoReversal covers card payments): its standing is settled by hand.
      return tender.kind === 'check' ? i18n.t('sale:next.unknownCheck') : i18n.t('sale:next.unknownCard');
    case 'reversed':
      return tender.cardRefusal === 'declined-by-card'
        ? i18n.t('sale:next.another')
        : tender.cardRefusal
          ? i18n.t('sale:next.insertAgain')
          : '';
    default:
      return '';
  }
}

/** A lost answer whose reversal the gateway acknowledged: the final state, and what to do now. */
export function reversedHeadline(): string {
  return i18n.t('sale:outcome.reversedHeadline');
}

/** The headline of a tender whose answer was lost: only card payments are reversed by the terminal. */
export function unknownHeadlineFor(tender: TenderView): string {
  return tender.kind === 'check' ? i18n.t('sale:outcome.unknownCheck') : i18n.t('sale:outcome.unknownCard');
}
