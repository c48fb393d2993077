import type { JournalOperation } from '../../../common/bridge/contract';
import { TransactionType } from '../../../gateway/contract/card-sale';
import { safEligibility } from '../../store-forward/offline-limits';
import { cardFields, cardSummary } from '../card-fields';
import { PIN_CARD_ON_HOLD, refusedTender } from '../chip-sale';
import { inquireSale } from '../../journal/lost-answer-inquiry';
import { amountFields } from '../tender-amounts';
import { applySale } from '../tender-result';
import { stopped, stoppedBy, type TenderFlow, type TenderOf } from './tender';

/**
 * A credit sale or a pre-authorization with a card swiped, keyed, inserted (chip) or tapped. A chip card
 * that asks for its PIN online pays as PIN debit; a chip card has the final say on the issuer's approval
 * (chip-sale.ts). Offline, a credit sale may be stored and forwarded (store-forward/saf.ts).
 */
export const cardTender: TenderFlow<TenderOf<'credit' | 'preauth'>> = async (tender, ctx) => {
  const { deps, view, ticket: t, split, prompt, amountCents: amount } = ctx;
  const got = await ctx.acquire({ entry: tender.entry, keyed: tender.keyed, amountCents: amount });
  if (got.kind !== 'card') return stoppedBy(view, got);
  const card = got.card;
  view.card = cardSummary(card);
  const chip = ctx.chipSale(card);
  // The chip's CVM (EMV Book 3 §10.5): a card that asks for its PIN online pays as PIN debit.
  let pinBlock: { ksn: string; pinBlock: string } | undefined;
  if (chip?.cvm === 'online-pin') {
    if (tender.kind === 'preauth') {
      view.status = 'declined';
      view.message = PIN_CARD_ON_HOLD;
      return;
    }
    if (!deps.connected('pinPad'))
      return stopped(view, 'failed', 'the card asks for its PIN and the PIN pad is not connected');
    const pin = await ctx.pin(card, amount);
    if (pin.kind !== 'pin') return stoppedBy(view, pin);
    pinBlock = { ksn: pin.ksn, pinBlock: pin.pinBlock };
  }
  prompt('authorizing', chip ? 'Authorizing… Do not remove the card' : 'Authorizing…');
  const operation: JournalOperation = tender.kind === 'preauth' ? 'preauth' : pinBlock ? 'debit' : 'sale';
  const fields = {
    ...amountFields(split),
    TransactionType:
      tender.kind === 'preauth'
        ? TransactionType.Pre_Authorization
        : pinBlock
          ? TransactionType.SaleDebit
          : TransactionType.CREDIT,
    ...cardFields(card),
    ...(pinBlock ? { KSN: pinBlock.ksn, PinBlock: pinBlock.pinBlock } : {}),
    ...(ctx.allowDuplicate ? { ForceDuplication: true } : {}),
    ...(t.invoiceNumber ? { InvoiceNumber: t.invoiceNumber } : {}),
  };
  const outcome = await ctx.journaled(
    { ...ctx.entry(operation, amount), last4: card.last4, cardType: card.brand, entryMode: card.entry },
    (utn) => {
      const body = { ...fields, UserTransactionNumber: utn };
      return tender.kind === 'preauth'
        ? deps.gateway().preAuthorization(body)
        : pinBlock
          ? deps.gateway().saleDebit(body)
          : deps.gateway().sale(body);
    },
    {
      inquire: (utn) => inquireSale(deps.gateway(), utn),
      offline: async (r) => {
        // A PIN block is never stored (store-and-forward is credit only).
        if (tender.kind !== 'credit' || pinBlock) return false;
        const exposure = await deps.saf.exposure();
        const ok = safEligibility(deps.settings().saf, exposure.exposureCents, {
          source: card.source,
          tender: 'credit',
          amountCents: amount,
        });
        if (!ok.ok) {
          view.message = `The gateway is unreachable (offline); nothing was charged. ${ok.reason}`;
          return false;
        }
        if (chip && !(await chip.approvesOffline())) {
          view.message =
            'The gateway is unreachable (offline) and the card declined offline; nothing was charged.';
          return false;
        }
        const stored = await deps.saf.store(
          r,
          { ...fields, UserTransactionNumber: r.utn },
          card.last4,
          card.brand,
        );
        view.userTransactionNumber = stored.utn;
        view.status = 'stored';
        view.approvedCents = amount;
        view.message = 'Approved offline (store-and-forward): forwarded when the gateway returns.';
        return true;
      },
    },
  );
  if (view.status !== 'stored') {
    const verdict = chip ? await chip.afterAnswer(outcome.row, outcome.result) : undefined;
    if (verdict?.kind === 'refused') refusedTender(view, verdict.row, verdict.why);
    else await applySale(deps, view, outcome, split, verdict?.kind === 'confirmed' ? verdict.patch : {});
  }
  if (card.source === 'emv') prompt('remove-card', 'Remove card');
  const floor = deps.settings().sale.signatureFloorCents;
  // A chip card says itself whether it wants a signature (its CVM); other cards follow the floor.
  const wantsSignature = chip ? chip.cvm === 'signature' : view.approvedCents >= floor;
  if ((view.status === 'approved' || view.status === 'partial' || view.status === 'stored') && wantsSignature)
    view.signature = { required: true, captured: false };
};
