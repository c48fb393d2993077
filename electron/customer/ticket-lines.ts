import type { CustomerLineView, TicketView } from '../bridge/contract';

/**
 * The ticket's lines as the customer reads them, on the customer display and the pole display alike.
 * Today a ticket is an open amount: one line, "Sale", for its subtotal (a gift card load says so). When
 * the ticket carries item lines (description, quantity, unit price, discount) this is the one place that
 * maps them; both displays render any number of lines already.
 */
export function customerLinesOf(ticket: TicketView): CustomerLineView[] {
  return [
    {
      lineId: `${ticket.ticketId}-amount`,
      description: ticket.purpose === 'gift-reload' ? 'Gift card load' : 'Sale',
      amountCents: ticket.subtotalCents,
    },
  ];
}
