import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../common/bridge/contract';
import {
  groupBySale,
  groupTitle,
  saleStatus,
  statusWord,
} from '../../renderer/src/format/transaction-groups';

let seq = 0;
const tx = (over: Partial<TransactionView>): TransactionView => {
  seq += 1;
  return {
    userTransactionNumber: `L1-x-${seq}`,
    operation: 'sale',
    state: 'approved',
    amountCents: 1000,
    tipCents: 0,
    cashBackCents: 0,
    approvedCents: 1000,
    refundedCents: 0,
    createdAt: Date.UTC(2026, 10, 22, 15, 5) + seq * 60_000,
    updatedAt: Date.UTC(2026, 10, 22, 15, 5) + seq * 60_000,
    ...over,
  };
};
const NY = 'America/New_York';

describe('today’s transactions grouped by sale (renderer/src/format/transaction-groups.ts)', () => {
  it('a ticket’s tenders are one sale, its figure what they took; refunds join the payment they gave back', () => {
    const card = tx({
      ticketId: 'T1',
      amountCents: 3500,
      approvedCents: 2000,
      state: 'partial',
      serviceReferenceNumber: 'S1',
    });
    const cash = tx({ ticketId: 'T1', operation: 'cash', amountCents: 1500, approvedCents: 1500 });
    const other = tx({
      ticketId: 'T2',
      amountCents: 4422,
      approvedCents: 4422,
      serviceReferenceNumber: 'S2',
      refundedCents: 500,
    });
    const refund = tx({
      operation: 'refund',
      amountCents: 500,
      approvedCents: 500,
      originalServiceReferenceNumber: 'S2',
    });
    const standalone = tx({ operation: 'preauth-complete', amountCents: 2150, approvedCents: 2150 });
    // transactions.list answers newest first.
    const groups = groupBySale([standalone, refund, other, cash, card]);
    expect(groups.map((g) => g.rows.map((r) => r.userTransactionNumber))).toEqual([
      [standalone.userTransactionNumber],
      [other.userTransactionNumber, refund.userTransactionNumber],
      [card.userTransactionNumber, cash.userTransactionNumber],
    ]);
    const [, refunded, split] = groups;
    expect(split && groupTitle(split, NY)).toBe('Sale at 10:06 AM · $35.00 · Paid · 2 tenders');
    expect(refunded && groupTitle(refunded, NY)).toMatch(/^Sale at .* · \$44\.22 · Part refunded$/);
  });

  it('a voided sale reads Voided, never Approved; a cancelled partial reads what was held, reversed', () => {
    const sale = tx({
      ticketId: 'T3',
      state: 'voided',
      amountCents: 4321,
      approvedCents: 4321,
      serviceReferenceNumber: 'S3',
    });
    const voided = tx({
      operation: 'void',
      amountCents: 4321,
      approvedCents: 4321,
      originalServiceReferenceNumber: 'S3',
    });
    const [g] = groupBySale([voided, sale]);
    expect(g && saleStatus(g.rows)).toBe('Voided');
    expect(g?.rows.map(statusWord)).toEqual(['Voided', 'Voided']);
    const held = tx({ ticketId: 'T4', state: 'reversed', amountCents: 3248, approvedCents: 2000 });
    const [r] = groupBySale([held]);
    expect(r && groupTitle(r, NY)).toMatch(/ · \$20\.00 · Cancelled, reversed$/);
    expect(statusWord(tx({ operation: 'refund' }))).toBe('Refunded');
  });

  it('a hold charged nothing: its completion is the sale’s figure; a gift load is not a payment', () => {
    const hold = tx({
      ticketId: 'T5',
      operation: 'preauth',
      amountCents: 2000,
      approvedCents: 2000,
      serviceReferenceNumber: 'H1',
    });
    const [alone] = groupBySale([hold]);
    expect(alone && groupTitle(alone, NY)).toMatch(/^Hold at .* · \$20\.00 · Held, nothing charged yet$/);
    const done = tx({
      operation: 'preauth-complete',
      amountCents: 2150,
      approvedCents: 2150,
      originalServiceReferenceNumber: 'H1',
    });
    const [both] = groupBySale([done, hold]);
    expect(both && groupTitle(both, NY)).toMatch(/^Hold at .* · \$21\.50 · Paid$/);
    const pay = tx({ ticketId: 'T6', operation: 'cash', amountCents: 2500, approvedCents: 2500 });
    const load = tx({ ticketId: 'T6', operation: 'gift-reload', amountCents: 2500, approvedCents: 2500 });
    const [gift] = groupBySale([load, pay]);
    expect(gift && groupTitle(gift, NY)).toMatch(/^Gift card load at .* · \$25\.00 · Paid$/);
  });

  it('a sale that never took money is not paid; an empty list has no groups', () => {
    const [g] = groupBySale([tx({ ticketId: 'T7', state: 'declined', amountCents: 999, approvedCents: 0 })]);
    expect(g && groupTitle(g, NY)).toMatch(/ · \$9\.99 · Not paid$/);
    expect(groupBySale([])).toEqual([]);
  });
});
