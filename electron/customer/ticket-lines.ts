import type { CustomerLineView, TicketView } from '../../common/bridge/contract';

/**
 * The ticket's lines as the customer reads them, on the customer display and the pole display alike: a
 * ticket of items shows each line rung (quantity, unit price, its own discount) and the ticket discount as
 * a line of its own, so the lines add up to the subtotal the customer sees; a voided line is gone, as it
 * is from the ticket. An open-amount ticket is one line, "Sale" (a gift card load says so).
 */
export function customerLinesOf(ticket: TicketView): CustomerLineView[] {
  const itemized = ticket.itemized;
  if (!itemized)
    return [
      {
        lineId: `${ticket.ticketId}-amount`,
        description: ticket.purpose === 'gift-reload' ? 'Gift card load' : 'Sale',
        wording: ticket.purpose === 'gift-reload' ? 'giftCardLoad' : 'sale',
        amountCents: ticket.subtotalCents,
      },
    ];
  const lines: CustomerLineView[] = itemized.lines
    .filter((l) => !l.voided)
    .map((l) => ({
      lineId: l.lineId,
      description: l.name,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      ...(l.priced.lineDiscountCents > 0 ? { discountCents: l.priced.lineDiscountCents } : {}),
      amountCents: l.priced.grossCents - l.priced.lineDiscountCents,
    }));
  const ticketDiscount = itemized.lines
    .filter((l) => !l.voided)
    .reduce((sum, l) => sum + l.priced.ticketDiscountCents, 0);
  if (ticketDiscount > 0)
    lines.push({
      lineId: `${ticket.ticketId}-discount`,
      description: 'Discount',
      wording: 'discount',
      amountCents: -ticketDiscount,
    });
  return lines;
}
