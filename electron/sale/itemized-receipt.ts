import type { ItemizedTicketView, ReceiptLineView } from '../bridge/contract';
import { formatCents } from '../util/money';

/**
 * A ticket of lines on the receipt: each line (quantity × unit price, its discount), the items' total,
 * the ticket discount, the subtotal, each tax class's tax with its rate (added, or included in the
 * prices), exactly the figures the pricing rule gave the core (common/ticket-pricing.ts). Voided lines
 * were taken off before payment and are not printed. Receipt width: 42 columns.
 */

const WIDTH = 42;

function pair(left: string, right: string, bold = false): ReceiptLineView {
  const room = Math.max(1, WIDTH - right.length - 1);
  return {
    kind: 'pair',
    left: left.length > room ? left.slice(0, room) : left,
    right,
    ...(bold ? { bold: true } : {}),
  };
}

function discountWords(
  d: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
): string {
  return d.kind === 'percent' ? `${d.percent}%` : formatCents(d.amountCents);
}

export function itemizedReceiptLines(t: ItemizedTicketView): ReceiptLineView[] {
  const out: ReceiptLineView[] = [];
  for (const line of t.lines) {
    if (line.voided) continue;
    out.push(pair(line.name, formatCents(line.priced.grossCents)));
    if (line.quantity > 1)
      out.push({ kind: 'text', text: `  ${line.quantity} @ ${formatCents(line.unitPriceCents)}` });
    if (line.discount && line.priced.lineDiscountCents > 0)
      out.push(
        pair(`  DISCOUNT ${discountWords(line.discount)}`, `-${formatCents(line.priced.lineDiscountCents)}`),
      );
  }
  out.push({ kind: 'rule' });
  const p = t.pricing;
  if (p.lineDiscountCents > 0 || p.ticketDiscountCents > 0)
    out.push(pair('ITEMS', formatCents(p.itemsCents - p.lineDiscountCents)));
  if (t.discount && p.ticketDiscountCents > 0)
    out.push(pair(`TICKET DISCOUNT ${discountWords(t.discount)}`, `-${formatCents(p.ticketDiscountCents)}`));
  out.push(pair('SUBTOTAL', formatCents(p.subtotalCents)));
  for (const tax of p.taxes) {
    // An exempt class, or a class at 0 %, has no tax to print.
    if (tax.mode === 'exempt' || tax.ratePercent === 0) continue;
    const inclusive = tax.mode === 'inclusive';
    const amount = inclusive ? `(${formatCents(tax.taxCents)})` : formatCents(tax.taxCents);
    // The rate first, so a long class name is what gets cut at the receipt's edge.
    out.push(
      pair(`${inclusive ? 'INCL. TAX' : 'TAX'} ${tax.ratePercent}% ${tax.name.toUpperCase()}`, amount),
    );
  }
  return out;
}
