import { TransactionType } from '../../../gateway/contract/card-sale';
import type { AcquiredCard } from '../card-acquire';
import { cardSummary, giftFields, giftKeyed } from '../card-fields';
import { inquireSale } from '../../journal/lost-answer-inquiry';
import { amountFields } from '../tender-amounts';
import { applySale } from '../tender-result';
import { stoppedBy, type TenderFlow, type TenderOf } from './tender';

/** A gift card, swiped or keyed (its number only): no chip, no PIN. */
export const giftTender: TenderFlow<TenderOf<'gift'>> = async (tender, ctx) => {
  const { deps, view, split } = ctx;
  let card: AcquiredCard;
  if (tender.entry === 'keyed') card = giftKeyed(tender.keyed?.cardNumber);
  else {
    const got = await ctx.acquire({ entry: 'swipe', amountCents: ctx.amountCents, chip: 'none' });
    if (got.kind !== 'card') return stoppedBy(view, got);
    card = got.card;
  }
  view.card = { ...cardSummary(card, 'Gift'), maskedPan: card.maskedPan };
  ctx.prompt('authorizing', 'Authorizing…');
  const outcome = await ctx.journaled(
    {
      ...ctx.entry('gift-sale', ctx.amountCents),
      last4: card.last4,
      cardType: 'Gift',
      entryMode: card.entry,
    },
    (utn) =>
      deps.gateway().giftSale({
        ...amountFields(split),
        TransactionType: TransactionType.GIFTCARD,
        UserTransactionNumber: utn,
        ...giftFields(card),
        ...(ctx.allowDuplicate ? { ForceDuplication: true } : {}),
      }),
    { inquire: (utn) => inquireSale(deps.gateway(), utn) },
  );
  await applySale(deps, view, outcome, split);
};
