import { lastFour } from '../../../native/protocols/pan-mask';
import { BridgeFailure } from '../../../common/bridge/failure';
import { applyResult } from '../tender-result';
import type { TenderFlow, TenderOf } from './tender';

/** A check (Checks group ProcessCheck): routing, account and check number, amount as text. */
export const checkTender: TenderFlow<TenderOf<'check'>> = async (tender, ctx) => {
  const { deps, view, amountCents: amount } = ctx;
  const c = tender.check;
  if (
    !c ||
    !/^\d{9}$/.test(c.routingNumber ?? '') ||
    !/^\d{4,17}$/.test(c.accountNumber ?? '') ||
    !/^\d{1,10}$/.test(c.checkNumber ?? '')
  )
    throw new BridgeFailure(
      'invalid',
      'Enter the routing number (9 digits), account number and check number.',
      { messageId: 'sale.checkFields' },
    );
  const fields = {
    ROUTING_NUMBER: c.routingNumber,
    ACCOUNT_NUMBER: c.accountNumber,
    CHECK_NUMBER: c.checkNumber,
    CHECK_AMOUNT: (amount / 100).toFixed(2),
    ACCOUNT_TYPE: c.accountType === 'SAVING' ? ('SAVING' as const) : ('CHECKING' as const),
    PacketIdentifier: 'A' as const,
    ...(c.firstName ? { FIRST_NAME: c.firstName } : {}),
    ...(c.lastName ? { LAST_NAME: c.lastName } : {}),
    ...(c.dlNumber ? { DL_NUMBER: c.dlNumber } : {}),
    ...(c.dlState ? { DL_STATE: c.dlState } : {}),
    ...(c.phone ? { PHONE_NUMBER: c.phone } : {}),
  };
  view.card = { last4: lastFour(c.accountNumber), cardType: 'Check' };
  ctx.prompt('authorizing', 'Authorizing check…');
  // A check has no UserTransactionNumber at the gateway, so DoReversal cannot undo it: an unknown
  // outcome is left for the reconciliation view instead of a reversal.
  const outcome = await ctx.journaled(
    { ...ctx.entry('check', amount), last4: view.card.last4 ?? null, cardType: 'Check' },
    () => deps.gateway().processCheck(fields),
    { reversible: false },
  );
  await applyResult(deps, view, outcome, {}, (r) => ({
    approvedCents: amount,
    srn: r.TransactionInfo?.ServiceTransactionNumber,
  }));
};
