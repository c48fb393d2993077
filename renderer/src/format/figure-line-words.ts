import { voidedTenderOf } from '../../../common/figure-labels';
import { i18n, messageFor } from '../i18n/i18n';

/**
 * A line of a money breakdown (by tender, by card type, the returns by where their money went) in the
 * window's language: a tender's name and a card type the gateway names in words ("Gift") from the
 * catalogs, a voided tender as common/figure-labels.ts says it, a brand (Visa) as it is.
 */
export function figureLineWords(key: string): string {
  const voided = voidedTenderOf(key);
  if (voided !== undefined) return i18n.t('figures:voidedTender', { tender: figureLineWords(voided) });
  return messageFor(`figures:tenders.${key}`) ?? messageFor(`transactions:card.brand.${key}`) ?? key;
}
