import type { ReceiptLineView, ReceiptView } from '../../common/bridge/contract';
import type { ReturnRecord } from '../journal/return-store';
import { head, receiptText, writerOf, type ReceiptHeader } from '../sale/receipt';
import { formatCents } from '../util/money';

/**
 * A return's own receipt: the items returned with what each gave back, the tax returned, the total, and
 * where the money went — each card refund or void by its last four digits only (FACTA truncation; the
 * customer's copy leaves with the customer, and the merchant's needs no more to find the refund, whose
 * own number it prints), cash from the drawer, a gift card credited — and what is still owed when a
 * refund failed. Amounts given back print negative, as a return's do on every US receipt. 42 columns.
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

const minus = (cents: number): string => (cents === 0 ? formatCents(0) : `-${formatCents(cents)}`);

/** The leg's tender as the receipt names it: never more of a card number than its last four. */
function legLabel(leg: ReturnRecord['legs'][number]): string {
  if (leg.kind === 'cash') return 'CASH';
  const brand = (leg.cardType ?? (leg.kind === 'gift-card' ? 'GIFT CARD' : leg.tender)).toUpperCase();
  return leg.last4 ? `${brand} ****${leg.last4}` : brand;
}

const METHOD_WORDS = {
  refund: 'REFUNDED TO',
  void: 'VOIDED',
  drawer: 'CASH BACK',
  'gift-card': 'CREDITED TO',
} as const;

export type ReturnReceiptInput = {
  record: ReturnRecord;
  /** Each done card leg's authorization, by its journal number. */
  authCodes: ReadonlyMap<string, string>;
  approvedBy?: string | undefined;
};

export function buildReturnReceipt(
  input: ReturnReceiptInput,
  copy: 'customer' | 'merchant',
  h: ReceiptHeader,
): ReceiptView {
  const r = input.record;
  const lines: ReceiptLineView[] = [
    ...head(h, writerOf(h), r.createdAt),
    { kind: 'text', text: 'RETURN', align: 'center', bold: true, large: true },
    { kind: 'text', text: `RETURN NO. ${r.id}`, align: 'center' },
    {
      kind: 'text',
      text: r.ticketId ? `SALE TICKET ${r.ticketId}` : 'NO RECEIPT',
      align: 'center',
    },
    { kind: 'rule' },
  ];
  for (const l of r.lines) {
    lines.push(pair(l.name, minus(l.totalCents - l.taxCents)));
    if (l.quantity > 1) lines.push({ kind: 'text', text: `  ${l.quantity} RETURNED` });
  }
  const tax = r.lines.reduce((s, l) => s + l.taxCents, 0);
  const total = r.lines.reduce((s, l) => s + l.totalCents, 0);
  lines.push(
    { kind: 'rule' },
    pair('ITEMS RETURNED', minus(total - tax)),
    pair('TAX RETURNED', minus(tax)),
    pair('TOTAL RETURNED', minus(total), true),
    { kind: 'rule' },
  );
  for (const leg of r.legs) {
    if (leg.state === 'cancelled') continue;
    const done = leg.state === 'done';
    const words = done && leg.method ? METHOD_WORDS[leg.method] : 'NOT REFUNDED YET';
    lines.push(
      pair(
        `${words} ${leg.method === 'drawer' && done ? '' : legLabel(leg)}`.trim(),
        formatCents(leg.amountCents),
        true,
      ),
    );
    if (done && leg.utn) {
      const auth = input.authCodes.get(leg.utn);
      if (auth) lines.push(pair('AUTH', auth));
      lines.push(pair('REF', leg.utn));
    }
  }
  const owed = r.legs.filter((l) => l.state !== 'done' && l.state !== 'cancelled');
  if (owed.length > 0)
    lines.push(pair('STILL OWED', formatCents(owed.reduce((s, l) => s + l.amountCents, 0)), true));
  lines.push({ kind: 'rule' });
  if (input.approvedBy) lines.push({ kind: 'text', text: `APPROVED BY ${input.approvedBy.toUpperCase()}` });
  lines.push({
    kind: 'text',
    text: copy === 'customer' ? 'CUSTOMER COPY' : 'MERCHANT COPY',
    align: 'center',
  });
  const qrData = `tillpoint:return:${r.id}:${formatCents(total)}`;
  lines.push({ kind: 'qr', data: qrData });
  return { ticketId: r.ticketId ?? '', copy, lines, qrData, text: receiptText(lines) };
}
