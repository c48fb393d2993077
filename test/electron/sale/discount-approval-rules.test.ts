import { describe, expect, it } from 'vitest';
import type {
  DiscountLimitsView,
  ItemizedTicketView,
  TicketTaxClass,
  TicketView,
} from '../../../common/bridge/contract';
import { approvalsNeeded, recordApprovals } from '../../../electron/sale/discount-approval-rules';
import { itemizedReceiptLines } from '../../../electron/sale/itemized-receipt';
import { buildReceipt, receiptText, wrapText } from '../../../electron/sale/receipt';
import {
  addLine,
  applyLines,
  newItemizedTicket,
  reprice,
  setLineDiscount,
  setQuantity,
  setTicketDiscount,
  setUnitPrice,
  type NewLine,
} from '../../../electron/sale/ticket-lines';

const limits: DiscountLimitsView = {
  maxLineDiscountPercent: 10,
  maxTicketDiscountPercent: 10,
  priceOverrideNeedsApproval: true,
};
const standard = { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' as const };
const exempt = { code: 'exempt', name: 'Groceries', ratePercent: 0, mode: 'exempt' as const };
const included = { code: 'included', name: 'Concessions', ratePercent: 10, mode: 'inclusive' as const };

function item(
  name: string,
  quantity: number,
  unitPriceCents: number,
  taxClass: TicketTaxClass = standard,
): NewLine {
  return {
    kind: 'item',
    name,
    sku: name.toUpperCase(),
    quantity,
    unitPriceCents,
    listPriceCents: unitPriceCents,
    taxClass,
  };
}

function ticket(...lines: NewLine[]): ItemizedTicketView {
  const t: ItemizedTicketView = structuredClone(newItemizedTicket(0).itemized as ItemizedTicketView);
  for (const l of lines) addLine(t, l);
  return reprice(t);
}

describe('what needs a manager on a ticket (electron/sale/discount-approval-rules.ts)', () => {
  it('a percent discount is judged by the percent typed, at the limit passing', () => {
    const t = ticket(item('Gum', 1, 5));
    const id = t.lines[0]?.lineId ?? '';
    setLineDiscount(t, id, { kind: 'percent', percent: 10 });
    reprice(t);
    // 10 % of 0.05 is 0.005 → 0.01 (a fifth of the line), but the cashier typed 10 %: within the limit.
    expect(t.lines[0]?.priced.lineDiscountCents).toBe(1);
    expect(approvalsNeeded(t, limits)).toEqual([]);
    setLineDiscount(t, id, { kind: 'percent', percent: 10.0001 });
    expect(approvalsNeeded(reprice(t), limits).map((n) => n.action)).toEqual(['line-discount']);
  });

  it('an amount discount is judged by its exact share of the line', () => {
    const t = ticket(item('Bread', 1, 1999));
    const id = t.lines[0]?.lineId ?? '';
    setLineDiscount(t, id, { kind: 'amount', amountCents: 199 }); // 9.95 %
    expect(approvalsNeeded(reprice(t), limits)).toEqual([]);
    setLineDiscount(t, id, { kind: 'amount', amountCents: 200 }); // 10.005 %: rounding to 10.0 % would pass it
    const needs = approvalsNeeded(reprice(t), limits);
    expect(needs).toEqual([
      {
        action: 'line-discount',
        lineId: id,
        reason: 'A manager must approve a discount of 2.00 (10%) on Bread: a cashier may give up to 10%.',
        detail: `line ${id} BREAD: discount 2.00 (10%) of 19.99, limit 10%`,
      },
    ]);
  });

  it('an approval covers the share it approved: less later passes, more needs the manager again', () => {
    const t = ticket(item('Bread', 4, 500));
    const id = t.lines[0]?.lineId ?? '';
    setLineDiscount(t, id, { kind: 'amount', amountCents: 400 }); // 20 %
    const needs = approvalsNeeded(reprice(t), limits);
    recordApprovals(t, needs, 'manager', 7);
    expect(t.lines[0]?.discountApproval).toEqual({
      kind: 'share',
      partCents: 400,
      wholeCents: 2000,
      approvedBy: 'manager',
      at: 7,
    });
    expect(approvalsNeeded(t, limits)).toEqual([]);
    setQuantity(t, id, 5); // 16 %
    expect(approvalsNeeded(reprice(t), limits)).toEqual([]);
    setQuantity(t, id, 3); // 26.7 %
    expect(approvalsNeeded(reprice(t), limits).map((n) => n.action)).toEqual(['line-discount']);
    // A new discount drops the old approval.
    setQuantity(t, id, 4);
    setLineDiscount(t, id, { kind: 'amount', amountCents: 400 });
    expect(approvalsNeeded(reprice(t), limits).map((n) => n.action)).toEqual(['line-discount']);
  });

  it('a ticket discount is judged against the lines after their own discounts', () => {
    const t = ticket(item('A', 1, 1000), item('B', 1, 1000));
    setLineDiscount(t, t.lines[0]?.lineId ?? '', { kind: 'amount', amountCents: 100 }); // 10 % of A
    setTicketDiscount(t, { kind: 'amount', amountCents: 190 }); // 10 % of 19.00
    expect(approvalsNeeded(reprice(t), limits)).toEqual([]);
    setTicketDiscount(t, { kind: 'amount', amountCents: 191 });
    expect(approvalsNeeded(reprice(t), limits).map((n) => n.action)).toEqual(['ticket-discount']);
  });

  it('a changed catalog price needs the manager unless turned off; an open-price item never does', () => {
    const t = ticket(item('Gum', 1, 129), { ...item('Wrap', 1, 0), openPrice: true });
    setUnitPrice(t, t.lines[1]?.lineId ?? '', 350);
    expect(approvalsNeeded(reprice(t), limits)).toEqual([]);
    setUnitPrice(t, t.lines[0]?.lineId ?? '', 99);
    const needs = approvalsNeeded(reprice(t), limits);
    expect(needs.map((n) => n.reason)).toEqual([
      'A manager must approve the price 0.99 for Gum (the catalog price is 1.29).',
    ]);
    expect(approvalsNeeded(t, { ...limits, priceOverrideNeedsApproval: false })).toEqual([]);
    recordApprovals(t, needs, 'manager', 1);
    expect(approvalsNeeded(t, limits)).toEqual([]);
    setUnitPrice(t, t.lines[0]?.lineId ?? '', 98);
    expect(approvalsNeeded(reprice(t), limits).map((n) => n.action)).toEqual(['price-override']);
  });

  it('with limits of 0 %, every discount needs the manager; a zero discount does not', () => {
    const t = ticket(item('A', 1, 1000));
    setLineDiscount(t, t.lines[0]?.lineId ?? '', { kind: 'amount', amountCents: 0 });
    const zero = { ...limits, maxLineDiscountPercent: 0, maxTicketDiscountPercent: 0 };
    expect(approvalsNeeded(reprice(t), zero)).toEqual([]);
    setLineDiscount(t, t.lines[0]?.lineId ?? '', { kind: 'amount', amountCents: 1 });
    expect(approvalsNeeded(reprice(t), zero)).toHaveLength(1);
  });
});

describe('a ticket of lines on the receipt (electron/sale/itemized-receipt.ts)', () => {
  it('prints the worked example of docs/ticket-pricing.md', () => {
    const t = ticket(
      item('Paper towels', 2, 1299),
      item('Banana', 3, 29, exempt),
      item('Hot coffee', 1, 250, included),
    );
    setLineDiscount(t, t.lines[0]?.lineId ?? '', { kind: 'percent', percent: 10 });
    setTicketDiscount(t, { kind: 'amount', amountCents: 500 });
    const text = receiptText(itemizedReceiptLines(reprice(t)));
    expect(text).toBe(
      [
        'Paper towels                         25.98',
        '  2 @ 12.99',
        '  DISCOUNT 10%                       -2.60',
        'Banana                                0.87',
        '  3 @ 0.29',
        'Hot coffee                            2.50',
        '------------------------------------------',
        'ITEMS                                26.75',
        'TICKET DISCOUNT 5.00                 -5.00',
        'SUBTOTAL                             21.75',
        'TAX 8.25% SALES TAX                   1.57',
        'INCL. TAX 10% CONCESSIONS           (0.18)',
      ].join('\n'),
    );
  });

  it('the receipt total is the ticket total, the store header first, the policy at the customer copy’s foot', () => {
    const lines = ticket(item('Paper towels', 1, 899));
    const view: TicketView = newItemizedTicket(0);
    applyLines(view, lines);
    expect(view).toMatchObject({ subtotalCents: 899, taxCents: 74, totalCents: 973 });
    const header = {
      merchantName: 'A very long store name, over twenty',
      laneId: 'L1',
      mid: 1001,
      addressLines: ['1 Main St', ''],
      phone: '555-0100',
      returnPolicy: 'Returns within thirty days with the receipt, in the original packaging.',
      timeZone: 'America/New_York',
    };
    const customer = buildReceipt(view, 'customer', header, 0);
    expect(customer.lines[0]).toEqual({
      kind: 'text',
      text: header.merchantName,
      align: 'center',
      bold: true,
    });
    expect(customer.lines.slice(1, 3).map((l) => (l.kind === 'text' ? l.text : ''))).toEqual([
      '1 Main St',
      '555-0100',
    ]);
    expect(customer.text).toMatch(/TOTAL\s+9\.73/);
    expect(customer.text).toContain('Returns within thirty days with the');
    expect(buildReceipt(view, 'merchant', header, 0).text).not.toContain('Returns within');
    // A name of 21 characters or fewer is printed double size (21 columns at double width).
    expect(
      buildReceipt(view, 'customer', { ...header, merchantName: 'Corner Shop' }, 0).lines[0],
    ).toMatchObject({ large: true });
  });

  it('wraps the return policy to the receipt’s 42 columns, cutting only a word longer than a line', () => {
    expect(wrapText('Returns within 30 days with this receipt. Thank you for shopping with us!')).toEqual([
      'Returns within 30 days with this receipt.',
      'Thank you for shopping with us!',
    ]);
    expect(wrapText(`${'x'.repeat(50)} y`)).toEqual(['x'.repeat(42), 'xxxxxxxx y']);
    expect(wrapText('One.\n\nTwo.')).toEqual(['One.', '', 'Two.']);
    for (const line of wrapText('word '.repeat(100))) expect(line.length).toBeLessThanOrEqual(42);
  });
});
