import type { CardSummary } from '../../common/bridge/contract';
import type { CardSaleRequest } from '../../gateway/contract/card-sale';
import { lastFour, maskPan } from '../../native/protocols/pan-mask';
import { BridgeFailure } from '../../common/bridge/failure';
import { centsFromText } from '../util/money';
import type { AcquiredCard } from './card-acquire';

export type CardFields = Partial<
  Pick<
    CardSaleRequest,
    | 'Track2'
    | 'EmvData'
    | 'CardNumber'
    | 'ExpDate'
    | 'CVN'
    | 'ZipCode'
    | 'Street'
    | 'PosEntryMode'
    | 'PosCode'
  >
>;

/** The card fields of a request, by how the card was read. */
export function cardFields(card: AcquiredCard): CardFields {
  switch (card.source) {
    case 'swipe':
      return {
        Track2: card.track2,
        PosEntryMode: card.fallback ? 'ChipFallbackSwipe' : 'Swiped',
        PosCode: 'Retail',
      };
    case 'emv':
      return {
        EmvData: card.emvHex,
        PosEntryMode: card.entry === 'contactless' ? 'Contactless' : 'Chip',
        PosCode: 'Retail',
      };
    case 'keyed':
      return {
        CardNumber: card.pan,
        ExpDate: card.expiry,
        ...(card.cvn ? { CVN: card.cvn } : {}),
        ...(card.zip ? { ZipCode: card.zip } : {}),
        ...(card.street ? { Street: card.street } : {}),
        PosEntryMode: 'KeyEntered',
        PosCode: 'Retail',
      };
  }
}

/** A gift card's fields: a keyed gift card has no expiry to key, only its number. */
export function giftFields(card: AcquiredCard): CardFields {
  return card.source === 'keyed'
    ? { CardNumber: card.pan, PosEntryMode: 'KeyEntered', PosCode: 'Retail' }
    : cardFields(card);
}

/** A keyed gift card number, checked. */
export function giftKeyed(cardNumber: string | undefined): AcquiredCard {
  const pan = (cardNumber ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(pan))
    throw new BridgeFailure('invalid', 'The gift card number is 12 to 19 digits.', {
      messageId: 'sale.giftNumber',
    });
  return {
    source: 'keyed',
    pan,
    expiry: '',
    maskedPan: maskPan(pan),
    last4: lastFour(pan),
    brand: 'Gift',
    entry: 'keyed',
  };
}

/** The card as the tender shows it (masked; a swiped card's name from its track). */
export function cardSummary(card: AcquiredCard, cardType?: string): CardSummary {
  return {
    maskedPan: card.maskedPan,
    last4: card.last4,
    cardType: cardType ?? card.brand,
    entry: card.entry,
    ...(card.source === 'swipe' && card.name ? { cardholderName: card.name } : {}),
  };
}

/** The gateway's balance text ("1,234.56") in cents; undefined when absent or unreadable. */
export function balanceCents(value: string | undefined): number | undefined {
  return centsFromText(value);
}
