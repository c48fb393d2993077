import { TransactionType } from '../../../gateway/contract/card-sale';
import { BridgeFailure } from '../../../common/bridge/failure';
import { inquireSale } from '../../journal/lost-answer-inquiry';
import { amountFields } from '../tender-amounts';
import { applySale } from '../tender-result';
import type { TenderFlow, TenderOf } from './tender';

/** A card on file: the gateway's vault token (SaleWithToken), no card present. */
export const tokenTender: TenderFlow<TenderOf<'token'>> = async (tender, ctx) => {
  const { deps, view, ticket: t, split } = ctx;
  if (typeof tender.token !== 'string' || tender.token.length === 0 || tender.token.length > 128)
    throw new BridgeFailure('invalid', 'Choose a card on file.');
  view.card = { cardType: 'Card on file' };
  ctx.prompt('authorizing', 'Authorizing…');
  const outcome = await ctx.journaled(
    ctx.entry('token-sale', ctx.amountCents),
    (utn) =>
      deps.gateway().saleWithToken({
        ...amountFields(split),
        TransactionType: TransactionType.CREDIT_WITH_TOKEN,
        UserTransactionNumber: utn,
        Token: tender.token,
        ...(ctx.allowDuplicate ? { ForceDuplication: true } : {}),
        ...(t.invoiceNumber ? { InvoiceNumber: t.invoiceNumber } : {}),
      }),
    { inquire: (utn) => inquireSale(deps.gateway(), utn) },
  );
  await applySale(deps, view, outcome, split);
};
