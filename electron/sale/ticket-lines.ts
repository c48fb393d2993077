import type {
  ItemizedTicketView,
  TicketDiscount,
  TicketLineView,
  TicketTaxClass,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { isExactRate } from '../../common/percent';
import { priceTicket } from '../../common/ticket-pricing';
import { newId } from '../util/ids';
import { recompute } from './tender-amounts';

/**
 * A ticket of lines, as the core keeps it: each change makes a new set of lines, priced again by the one
 * rule the screen and the receipt use (common/ticket-pricing.ts), and the ticket's subtotal and tax follow
 * from it (subtotal = the pricing's net, tax = every class's tax, so subtotal + tax = its total). Bad
 * input is refused here in the cashier's words before the pricing rule sees it.
 */

export const MAX_LINES = 500;

export type NewLine = Omit<TicketLineView, 'lineId' | 'priced'>;

const ZERO = {
  itemsCents: 0,
  lineDiscountCents: 0,
  ticketDiscountCents: 0,
  subtotalCents: 0,
  taxes: [],
  addedTaxCents: 0,
  includedTaxCents: 0,
  taxCents: 0,
  netCents: 0,
  totalCents: 0,
};

/** An open ticket with no lines yet. */
export function newItemizedTicket(now: number): TicketView {
  return recompute({
    ticketId: newId('T'),
    status: 'open',
    subtotalCents: 0,
    taxCents: 0,
    tipCents: 0,
    totalCents: 0,
    paidCents: 0,
    remainingCents: 0,
    tenders: [],
    itemized: { lines: [], pricing: { ...ZERO } },
    openedAt: now,
  });
}

/** Prices the lines by the rule and writes every line's figures and the ticket's. */
export function reprice(t: ItemizedTicketView): ItemizedTicketView {
  try {
    const { lines, ...pricing } = priceTicket(t.lines, t.discount);
    t.lines.forEach((l, i) => {
      const priced = lines[i];
      if (priced) l.priced = priced;
    });
    t.pricing = pricing;
    return t;
  } catch (error) {
    if (error instanceof RangeError)
      throw new BridgeFailure('invalid', 'That price cannot be worked out.', {
        messageId: 'sale.priceUnworkable',
      });
    throw error;
  }
}

/** The ticket's subtotal and tax from its lines; the tip and tenders as they are. */
export function applyLines(t: TicketView, lines: ItemizedTicketView): void {
  t.itemized = lines;
  t.subtotalCents = lines.pricing.netCents;
  t.taxCents = lines.pricing.taxCents;
  recompute(t);
}

export function checkDiscount(d: TicketDiscount | null): void {
  if (d === null) return;
  if (d.kind === 'percent' && (!isExactRate(d.percent) || d.percent > 100))
    throw new BridgeFailure('invalid', 'A discount is 0 to 100 %, with at most four decimals.', {
      messageId: 'sale.discountPercent',
    });
  if (d.kind === 'amount' && (!Number.isSafeInteger(d.amountCents) || d.amountCents < 0))
    throw new BridgeFailure('invalid', 'A discount is zero or a positive number of cents.', {
      messageId: 'sale.discountAmount',
    });
}

export function checkTaxClass(c: TicketTaxClass): void {
  if (c.mode !== 'exempt' && !isExactRate(c.ratePercent))
    throw new BridgeFailure('invalid', 'The tax rate has more than four decimals.');
}

export function addLine(t: ItemizedTicketView, line: NewLine): TicketLineView {
  if (t.lines.filter((l) => !l.voided).length >= MAX_LINES)
    throw new BridgeFailure('conflict', `A ticket has at most ${MAX_LINES} lines: finish this one first.`, {
      messageId: 'sale.tooManyLines',
      params: { max: MAX_LINES },
    });
  checkTaxClass(line.taxClass);
  const added: TicketLineView = {
    ...line,
    lineId: newId('L'),
    priced: {
      grossCents: 0,
      lineDiscountCents: 0,
      ticketDiscountCents: 0,
      amountCents: 0,
      taxCents: 0,
      netCents: 0,
      totalCents: 0,
    },
  };
  t.lines.push(added);
  return added;
}

/** A line still on the ticket (not voided), or the cashier's words for why not. */
export function liveLine(t: ItemizedTicketView, lineId: string): TicketLineView {
  const line = t.lines.find((l) => l.lineId === lineId);
  if (!line)
    throw new BridgeFailure('not-found', 'No such line on this ticket.', { messageId: 'sale.noSuchLine' });
  if (line.voided)
    throw new BridgeFailure('conflict', 'That line is voided.', { messageId: 'sale.lineVoided' });
  return line;
}

export function setQuantity(t: ItemizedTicketView, lineId: string, quantity: number): void {
  const line = liveLine(t, lineId);
  if (line.kind === 'weighed')
    throw new BridgeFailure('conflict', 'A weighed item’s quantity is on its label: scan each label.', {
      messageId: 'sale.weighedQuantity',
    });
  line.quantity = quantity;
}

/** A new unit price: an open item's or open-price item's price, or an override of the catalog's. */
export function setUnitPrice(t: ItemizedTicketView, lineId: string, unitPriceCents: number): void {
  const line = liveLine(t, lineId);
  if (line.kind === 'weighed')
    throw new BridgeFailure(
      'conflict',
      'A weighed item’s price is on its label: void the line to take it off.',
      { messageId: 'sale.weighedPrice' },
    );
  line.unitPriceCents = unitPriceCents;
  delete line.priceApproval;
}

/** A new line discount (or none); the line's earlier approval covered the earlier discount only. */
export function setLineDiscount(
  t: ItemizedTicketView,
  lineId: string,
  discount: TicketDiscount | null,
): void {
  checkDiscount(discount);
  const line = liveLine(t, lineId);
  if (discount === null) delete line.discount;
  else line.discount = discount;
  delete line.discountApproval;
}

export function setTicketDiscount(t: ItemizedTicketView, discount: TicketDiscount | null): void {
  checkDiscount(discount);
  if (discount === null) delete t.discount;
  else t.discount = discount;
  delete t.discountApproval;
}

/** A line voided before payment stays on the ticket (voided), priced at nothing. */
export function voidLine(t: ItemizedTicketView, lineId: string): void {
  liveLine(t, lineId).voided = true;
}
