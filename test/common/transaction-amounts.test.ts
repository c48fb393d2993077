import { describe, expect, it } from 'vitest';
import {
  askedCents,
  cardChargedCents,
  refundableCents,
  shownCents,
  takenCents,
  tenderChargedCents,
} from '../../common/transaction-amounts';

const row = (over: Partial<Parameters<typeof shownCents>[0]> = {}) => ({
  amountCents: 3500,
  tipCents: 0,
  cashBackCents: 0,
  approvedCents: 3500,
  refundedCents: 0,
  ...over,
});

describe('one payment’s amounts in every view (common/transaction-amounts.ts)', () => {
  it('a partial approval is the amount approved: shown, refundable, charged', () => {
    const partial = row({ approvedCents: 2000 });
    expect(askedCents(partial)).toBe(3500);
    expect(takenCents(partial)).toBe(2000);
    expect(shownCents(partial)).toBe(2000);
    expect(refundableCents(partial)).toBe(2000);
    expect(cardChargedCents(partial)).toBe(2000);
    expect(refundableCents({ ...partial, refundedCents: 500 })).toBe(1500);
  });

  it('a reversed partial still shows what was held; a decline shows what was asked', () => {
    expect(shownCents(row({ amountCents: 3248, approvedCents: 2000 }))).toBe(2000);
    const declined = row({ amountCents: 3248, approvedCents: 0 });
    expect(shownCents(declined)).toBe(3248);
    expect(refundableCents(declined)).toBe(0);
    expect(cardChargedCents(declined)).toBe(0);
  });

  it('debit cash back: the purchase is the amount, the card is charged both, only the purchase is refunded', () => {
    const debit = row({ amountCents: 1500, approvedCents: 1500, cashBackCents: 2000 });
    expect(shownCents(debit)).toBe(1500);
    expect(cardChargedCents(debit)).toBe(3500);
    expect(refundableCents(debit)).toBe(1500);
    // The tender on the sale screen and its receipt, by the same rule.
    expect(tenderChargedCents({ approvedCents: 1500, cashBackCents: 2000 })).toBe(3500);
    expect(tenderChargedCents({ approvedCents: 0, cashBackCents: 2000 })).toBe(0);
  });

  it('the tip is part of the amount asked and taken', () => {
    const tipped = row({ amountCents: 2000, tipCents: 300, approvedCents: 2300 });
    expect(askedCents(tipped)).toBe(2300);
    expect(shownCents(tipped)).toBe(2300);
  });

  it('a view without approvedCents counts as what was asked', () => {
    const { approvedCents: _omitted, ...older } = row({ amountCents: 1200, tipCents: 100 });
    expect(shownCents(older)).toBe(1300);
    expect(refundableCents(older)).toBe(1300);
  });
});
