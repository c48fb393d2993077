import type { BalanceView, EbtProgram, TicketView, TransactionView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { TransactionType } from '../../gateway/contract/card-sale';
import { bridgeFailureOf, failureMessage } from '../gateway-client/bridge-failure';
import { toWire } from '../util/money';
import { acquireCard, type AcquiredCard, type Prompt } from './card-acquire';
import { balanceCents, cardFields, giftFields, giftKeyed } from './card-fields';
import { checkReloadTicket } from './gift-reload-rules';
import type { JournaledSend } from '../journal/journaled-call';
import { requestPin } from './pin-entry';
import type { SaleEngineDeps } from './sale-deps';
import { toTransactionView } from './transaction-view';

/**
 * Card operations outside a tender: gift card balance and load, EBT balance. The engine runs each alone
 * (no tender in progress) and hands it the signal that cancels its card wait.
 */
export type CardServiceContext = {
  deps: SaleEngineDeps;
  journaled: JournaledSend;
  signal: AbortSignal;
  prompt: Prompt;
};

type Keyed = { cardNumber: string } | undefined;

async function giftCard(
  ctx: CardServiceContext,
  entry: 'swipe' | 'keyed' | undefined,
  keyed: Keyed,
): Promise<AcquiredCard> {
  if (entry === 'keyed') return giftKeyed(keyed?.cardNumber);
  const got = await acquireCard({
    devices: ctx.deps.devices(),
    entry: 'swipe',
    amountCents: 0,
    timeoutMs: ctx.deps.settings().sale.cardWaitMs,
    signal: ctx.signal,
    prompt: ctx.prompt,
    connected: (r) => ctx.deps.connected(r),
    chip: 'none',
  });
  if (got.kind !== 'card')
    throw new BridgeFailure('device', got.kind === 'cancelled' ? 'Cancelled.' : 'No card in time.', {
      messageId: got.kind === 'cancelled' ? 'cards.cancelled' : 'cards.noCardInTime',
    });
  return got.card;
}

export async function giftBalance(
  ctx: CardServiceContext,
  entry: 'swipe' | 'keyed' | undefined,
  keyed: Keyed,
): Promise<BalanceView> {
  const card = await giftCard(ctx, entry, keyed);
  const result = await ctx.deps
    .gateway()
    .giftBalance({ ...giftFields(card), TransactionType: TransactionType.GIFTCARD });
  if (!result.ok) throw bridgeFailureOf(result.failure);
  return {
    kind: 'gift',
    balanceCents: balanceCents(result.response.Balance) ?? 0,
    card: { maskedPan: card.maskedPan, last4: card.last4, cardType: 'Gift', entry: card.entry },
  };
}

/**
 * Loads a gift card. With `ticket`, the load that `gift-reload` ticket paid for (checked against the
 * journal's earlier attempts of that ticket, and its outcome saved on the ticket); without, the caller has
 * a manager's approval.
 */
export async function giftReload(
  ctx: CardServiceContext,
  amountCents: number,
  entry: 'swipe' | 'keyed' | undefined,
  keyed: Keyed,
  ticket?: { view: TicketView; save: (t: TicketView) => Promise<void> },
): Promise<TransactionView> {
  const { deps } = ctx;
  const ticketId = ticket?.view.ticketId;
  if (ticket) {
    const attempts = await deps.journal.byTicket(ticket.view.ticketId, 'gift-reload');
    checkReloadTicket(ticket.view, amountCents, attempts);
  }
  const card = await giftCard(ctx, entry, keyed);
  const { row, result, after } = await ctx.journaled(
    {
      laneId: deps.settings().laneId,
      operation: 'gift-reload',
      amountCents,
      last4: card.last4,
      cardType: 'Gift',
      entryMode: card.entry,
      ...(ticketId !== undefined ? { ticketId } : {}),
    },
    (utn) =>
      deps.gateway().giftReload({
        ...giftFields(card),
        Amount: toWire(amountCents),
        TransactionType: TransactionType.GIFTCARD,
        UserTransactionNumber: utn,
      }),
  );
  if (ticket) {
    ticket.view.giftReload = {
      state: result.ok ? 'loaded' : result.failure.kind === 'unknown-outcome' ? 'unknown' : 'failed',
      amountCents,
      userTransactionNumber: row.utn,
      last4: card.last4,
      ...(result.ok ? {} : { message: failureMessage(result.failure, after) }),
    };
    await ticket.save(ticket.view);
  }
  if (!result.ok) throw bridgeFailureOf(result.failure, after);
  const done = await deps.journal.update(
    row.utn,
    {
      state: 'approved',
      approvedCents: amountCents,
      authCode: result.response.AuthorizationNumber ?? null,
      srn: result.response.ServiceReferenceNumber ?? null,
      gatewayCode: result.code,
      message: `Reloaded; balance ${result.response.Balance ?? 'unknown'}`,
    },
    deps.clock.now(),
  );
  return toTransactionView(done);
}

/**
 * A return credited to a gift card (GiftCard/Refund). The gateway records it as a refund, so the batch
 * nets it; the journal does too (operation `refund`, card type Gift).
 */
export async function giftRefund(
  ctx: CardServiceContext,
  amountCents: number,
  entry: 'swipe' | 'keyed' | undefined,
  keyed: Keyed,
): Promise<TransactionView> {
  const { deps } = ctx;
  const card = await giftCard(ctx, entry, keyed);
  const { row, result, after } = await ctx.journaled(
    {
      laneId: deps.settings().laneId,
      operation: 'refund',
      amountCents,
      last4: card.last4,
      cardType: 'Gift',
      entryMode: card.entry,
    },
    (utn) =>
      deps.gateway().giftRefund({
        ...giftFields(card),
        Amount: toWire(amountCents),
        TransactionType: TransactionType.GIFTCARD,
        UserTransactionNumber: utn,
      }),
  );
  if (!result.ok) throw bridgeFailureOf(result.failure, after);
  const done = await deps.journal.update(
    row.utn,
    {
      state: 'approved',
      approvedCents: amountCents,
      authCode: result.response.AuthorizationNumber ?? null,
      srn: result.response.ServiceReferenceNumber ?? null,
      gatewayCode: result.code,
      message: `Credited to the gift card; balance ${result.response.Balance ?? 'unknown'}`,
    },
    deps.clock.now(),
  );
  return toTransactionView(done);
}

export async function ebtBalance(ctx: CardServiceContext, program: EbtProgram): Promise<BalanceView> {
  const { deps, prompt } = ctx;
  if (!deps.connected('pinPad'))
    throw new BridgeFailure('device', 'The PIN pad is not connected.', { messageId: 'cards.noPinPad' });
  const got = await acquireCard({
    devices: deps.devices(),
    entry: 'present',
    amountCents: 0,
    timeoutMs: deps.settings().sale.cardWaitMs,
    signal: ctx.signal,
    prompt,
    connected: (r) => deps.connected(r),
    // A balance inquiry has no issuer answer to hand a chip: the card is swiped or tapped.
    chip: 'none',
  });
  if (got.kind !== 'card')
    throw new BridgeFailure('device', got.kind === 'cancelled' ? 'Cancelled.' : 'No card in time.', {
      messageId: got.kind === 'cancelled' ? 'cards.cancelled' : 'cards.noCardInTime',
    });
  const pin = await requestPin(deps, got.card, 0, ctx.signal, prompt);
  if (pin.kind !== 'pin')
    throw new BridgeFailure(
      'device',
      pin.kind === 'failed' ? pin.reason : pin.kind === 'cancelled' ? 'Cancelled.' : 'No PIN entered.',
      pin.kind === 'failed'
        ? {}
        : { messageId: pin.kind === 'cancelled' ? 'cards.cancelled' : 'cards.noPin' },
    );
  prompt('authorizing', 'Checking balance…');
  const result = await deps.gateway().ebtBalance(program, {
    ...cardFields(got.card),
    KSN: pin.ksn,
    PinBlock: pin.pinBlock,
    TransactionType: TransactionType.EBT,
  });
  if (!result.ok) throw bridgeFailureOf(result.failure);
  const r = result.response;
  const b = balanceCents(
    program === 'food' ? (r.FoodStampBalance ?? r.Balance) : (r.CashBenefitsBalance ?? r.Balance),
  );
  prompt('done', 'Done');
  return {
    kind: program === 'food' ? 'ebt-food' : 'ebt-cash',
    balanceCents: b ?? 0,
    card: { maskedPan: got.card.maskedPan, last4: got.card.last4, cardType: 'EBT', entry: got.card.entry },
  };
}
