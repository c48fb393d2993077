import type { ItemizedTicketView, ReceiptLineView } from '../../common/bridge/contract';
import { RECEIPT_WORDS, type ReceiptWords } from '../i18n/receipt-words';
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

/**
 * The lines, in the receipt's words and its way of writing amounts (receipt.ts hands in the store's;
 * English and plain cents by default).
 */
export function itemizedReceiptLines(
  t: ItemizedTicketView,
  words: ReceiptWords = RECEIPT_WORDS.en,
  money: (cents: number) => string = formatCents,
): ReceiptLineView[] {
  const discountWords = (
    d: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
  ): string => (d.kind === 'percent' ? `${d.percent}%` : money(d.amountCents));
  const out: ReceiptLineView[] = [];
  for (const line of t.lines) {
    if (line.voided) continue;
    out.push(pair(line.name, money(line.priced.grossCents)));
    if (line.quantity > 1)
      out.push({ kind: 'text', text: `  ${line.quantity} @ ${money(line.unitPriceCents)}` });
    if (line.discount && line.priced.lineDiscountCents > 0)
      out.push(
        pair(
          `  ${words.discount} ${discountWords(line.discount)}`,
          `-${money(line.priced.lineDiscountCents)}`,
        ),
      );
  }
  out.push({ kind: 'rule' });
  const p = t.pricing;
  if (p.lineDiscountCents > 0 || p.ticketDiscountCents > 0)
    out.push(pair(words.items, money(p.itemsCents - p.lineDiscountCents)));
  if (t.discount && p.ticketDiscountCents > 0)
    out.push(
      pair(`${words.ticketDiscount} ${discountWords(t.discount)}`, `-${money(p.ticketDiscountCents)}`),
    );
  out.push(pair(words.subtotal, money(p.subtotalCents)));
  for (const tax of p.taxes) {
    // An exempt class, or a class at 0 %, has no tax to print.
    if (tax.mode === 'exempt' || tax.ratePercent === 0) continue;
    const inclusive = tax.mode === 'inclusive';
    const amount = inclusive ? `(${money(tax.taxCents)})` : money(tax.taxCents);
    // The rate first, so a long class name is what gets cut at the receipt's edge.
    out.push(pair(`${words.classTax(inclusive)} ${tax.ratePercent}% ${tax.name.toUpperCase()}`, amount));
  }
  return out;
}
