import { i18n, messageFor } from '../i18n/i18n';

/**
 * A card as a screen names it in the window's language: "Visa •••• 1111", never more than the last four.
 * A brand is a name and stays as the gateway wrote it; the types the gateway names in words ("Gift") and
 * the word for a card of no known type are the catalog's (`transactions:card`).
 */
export function cardWords(card: { cardType?: string; last4?: string } | undefined): string {
  if (!card) return '';
  const brand = card.cardType
    ? (messageFor(`transactions:card.brand.${card.cardType}`) ?? card.cardType)
    : i18n.t('transactions:card.any');
  return card.last4 ? i18n.t('transactions:card.ending', { brand, last4: card.last4 }) : brand;
}
