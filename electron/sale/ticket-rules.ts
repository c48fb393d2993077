import type {
  SaleOpenRequest,
  SalePayRequest,
  TenderRequest,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { changeDueCents, changeNeedsConfirmation, LARGEST_BILL_CENTS } from '../../common/cash-change';
import { taxCents } from '../../common/percent';
import { newId } from '../util/ids';
import { formatCents, isCents } from '../util/money';
import { checkReloadOpen, checkReloadTender } from './gift-reload-rules';
import { recompute } from './tender-amounts';

/** What a ticket may be opened with and what one payment on it may ask; bad input changes nothing. */

/** A new open ticket; its tax follows the lane's rate unless the request states it. */
export function newTicket(req: SaleOpenRequest, taxRatePercent: number, now: number): TicketView {
  if (!isCents(req.subtotalCents) || req.subtotalCents <= 0)
    throw new BridgeFailure('invalid', 'The amount must be a positive number of cents.', {
      messageId: 'till.amountPositive',
    });
  if (req.purpose !== undefined && req.purpose !== 'sale' && req.purpose !== 'gift-reload')
    throw new BridgeFailure('invalid', 'A ticket is for a sale or a gift card load.');
  const reload = req.purpose === 'gift-reload';
  if (reload) checkReloadOpen(req);
  // The same rule the screen previews with (common/percent.ts): half up on the exact product.
  const tax = reload ? 0 : (req.taxCents ?? taxCents(req.subtotalCents, taxRatePercent));
  const tip = req.tipCents ?? 0;
  if (!isCents(tax) || tax < 0 || !isCents(tip) || tip < 0)
    throw new BridgeFailure('invalid', 'Tax and tip must be zero or a positive number of cents.');
  if (
    req.invoiceNumber !== undefined &&
    (typeof req.invoiceNumber !== 'string' || req.invoiceNumber.length > 64)
  )
    throw new BridgeFailure('invalid', 'The invoice number is at most 64 characters.');
  return recompute({
    ticketId: newId('T'),
    status: 'open',
    subtotalCents: req.subtotalCents,
    taxCents: tax,
    tipCents: tip,
    totalCents: 0,
    paidCents: 0,
    remainingCents: 0,
    tenders: [],
    ...(req.invoiceNumber ? { invoiceNumber: req.invoiceNumber } : {}),
    ...(reload ? { purpose: 'gift-reload' as const } : {}),
    openedAt: now,
  });
}

/**
 * One payment on an open ticket: its tender, the tip it adds and the amount it asks (the rest of the
 * ticket unless stated; never more than remains, but for cash, which gives change).
 */
export function checkPayment(
  t: TicketView,
  req: SalePayRequest,
): { tender: TenderRequest; tip: number; amount: number } {
  const tender = req.tender as TenderRequest | undefined;
  if (!tender || typeof tender !== 'object' || typeof tender.kind !== 'string')
    throw new BridgeFailure('invalid', 'Choose a tender.', { messageId: 'sale.chooseTender' });
  if (req.tipCents !== undefined && (!isCents(req.tipCents) || req.tipCents < 0))
    throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.', {
      messageId: 'sale.tipNotNegative',
    });
  const tip = req.tipCents ?? 0;
  checkReloadTender(t, tender, tip);
  const remainingWithTip = t.remainingCents + tip;
  const amount = req.amountCents ?? remainingWithTip;
  if (!isCents(amount) || amount <= 0)
    throw new BridgeFailure('invalid', 'The amount must be a positive number of cents.', {
      messageId: 'till.amountPositive',
    });
  if (amount > remainingWithTip && tender.kind !== 'cash')
    throw new BridgeFailure('invalid', 'The amount is more than what remains on the ticket.', {
      messageId: 'sale.moreThanRemains',
    });
  if (tender.kind === 'cash' && isCents(tender.tenderedCents) && tender.confirmLargeChange !== true) {
    const due = Math.min(amount, remainingWithTip);
    if (changeNeedsConfirmation(due, tender.tenderedCents))
      throw new BridgeFailure(
        'invalid',
        `Change of ${formatCents(changeDueCents(due, tender.tenderedCents))} is more than a ${formatCents(LARGEST_BILL_CENTS)} bill over the ${formatCents(due)} due: check the cash handed over, or confirm it.`,
        {
          messageId: 'sale.largeChange',
          params: {
            changeCents: changeDueCents(due, tender.tenderedCents),
            billCents: LARGEST_BILL_CENTS,
            dueCents: due,
          },
        },
      );
  }
  return { tender, tip, amount };
}
