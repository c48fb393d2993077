import type { EbtProgram, JournalOperation } from '../../../common/bridge/contract';
import { TransactionType } from '../../../gateway/contract/card-sale';
import { BridgeFailure } from '../../../common/bridge/failure';
import { toWire } from '../../util/money';
import { cashBackRefusal } from '../cash-back-limit';
import { cardFields, cardSummary } from '../card-fields';
import { requireOpenTill } from '../cash-drawer';
import { refusedTender } from '../chip-sale';
import { inquireSale } from '../../journal/lost-answer-inquiry';
import { amountFields } from '../tender-amounts';
import { applySale } from '../tender-result';
import { stoppedBy, type TenderFlow, type TenderOf } from './tender';

/**
 * PIN debit (with cash back) and EBT food or cash: the card is read, the customer enters the PIN on the
 * pad, and the KSN + PIN block go to the gateway (never the PIN).
 */
export const pinDebitTender: TenderFlow<TenderOf<'debit' | 'ebt'>> = async (tender, ctx) => {
  const { deps, view, split, prompt, amountCents: amount } = ctx;
  const entry = tender.entry ?? 'present';
  const cashBack = tender.kind === 'debit' ? (tender.cashBackCents ?? 0) : 0;
  const refusal = cashBackRefusal(tender.kind, cashBack);
  if (refusal !== undefined)
    throw new BridgeFailure('invalid', refusal.message, { messageId: refusal.messageId });
  if (cashBack > 0) await requireOpenTill(deps, 'pay cash back');
  if (!deps.connected('pinPad'))
    throw new BridgeFailure(
      'device',
      'The PIN pad is not connected: use credit or ask a tech to check the PIN pad.',
      { messageId: 'sale.noPinPad' },
    );
  const got = await ctx.acquire({ entry, amountCents: amount + cashBack, otherAmountCents: cashBack });
  if (got.kind !== 'card') return stoppedBy(view, got);
  const card = got.card;
  view.card = cardSummary(card, tender.kind === 'ebt' ? 'EBT' : undefined);
  const chip = ctx.chipSale(card);
  const pin = await ctx.pin(card, amount + cashBack);
  if (pin.kind !== 'pin') return stoppedBy(view, pin);
  prompt('authorizing', chip ? 'Authorizing… Do not remove the card' : 'Authorizing…');
  const program: EbtProgram | undefined = tender.kind === 'ebt' ? tender.program : undefined;
  const operation: JournalOperation =
    tender.kind === 'debit' ? 'debit' : program === 'cash' ? 'ebt-cash' : 'ebt-food';
  const fields = {
    ...(tender.kind === 'ebt' && program === 'food'
      ? { Amount: toWire(amount) } // EBT food: no tax, tip or cash back (gateway rule)
      : amountFields(split)),
    ...cardFields(card),
    KSN: pin.ksn,
    PinBlock: pin.pinBlock,
    ...(cashBack > 0 ? { CashBackAmount: toWire(cashBack) } : {}),
    ...(ctx.allowDuplicate ? { ForceDuplication: true } : {}),
  };
  view.cashBackCents = cashBack;
  const outcome = await ctx.journaled(
    {
      ...ctx.entry(operation, amount),
      cashBackCents: cashBack,
      last4: card.last4,
      cardType: view.card.cardType ?? card.brand,
      entryMode: card.entry,
    },
    (utn) =>
      tender.kind === 'debit'
        ? deps.gateway().saleDebit({
            ...fields,
            TransactionType: TransactionType.SaleDebit,
            UserTransactionNumber: utn,
          })
        : deps.gateway().ebtSale(program === 'cash' ? 'cash' : 'food', {
            ...fields,
            TransactionType: TransactionType.EBT,
            UserTransactionNumber: utn,
          }),
    { inquire: (utn) => inquireSale(deps.gateway(), utn) },
  );
  const verdict = chip ? await chip.afterAnswer(outcome.row, outcome.result) : undefined;
  if (verdict?.kind === 'refused') refusedTender(view, verdict.row, verdict.why);
  else await applySale(deps, view, outcome, split, verdict?.kind === 'confirmed' ? verdict.patch : {});
  if (card.source === 'emv') prompt('remove-card', 'Remove card');
};
