import { changeDueCents } from '../../../common/cash-change';
import { BridgeFailure } from '../../../common/bridge/failure';
import { isCents } from '../../util/money';
import { requireOpenTill } from '../cash-drawer';
import type { TenderFlow, TenderOf } from './tender';

/**
 * Cash is recorded locally (no gateway): the journal row is approved as it is written; change is given
 * (common/cash-change.ts, the rule the cash form previews; a change beyond its bound was confirmed).
 */
export const cashTender: TenderFlow<TenderOf<'cash'>> = async (tender, ctx) => {
  const { deps, view } = ctx;
  if (!isCents(tender.tenderedCents) || tender.tenderedCents <= 0)
    throw new BridgeFailure('invalid', 'Enter the cash the customer handed over.', {
      messageId: 'sale.enterCash',
    });
  await requireOpenTill(deps, 'take cash');
  const take = Math.min(tender.tenderedCents, view.requestedCents);
  const row = await deps.journal.allocate({
    ...ctx.entry('cash', take),
    state: 'approved',
    approvedCents: take,
    now: deps.clock.now(),
  });
  view.userTransactionNumber = row.utn;
  view.approvedCents = take;
  view.requestedCents = take;
  view.changeCents = changeDueCents(take, tender.tenderedCents);
  view.status = 'approved';
};
