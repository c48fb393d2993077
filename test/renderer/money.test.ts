import { describe, expect, it } from 'vitest';
import {
  cardLabel,
  formatCents,
  parseMoney,
  popDigit,
  pushDigit,
  taxOf,
  tipOf,
} from '../../renderer/src/format/money';
import { nextStepFor, unknownHeadlineFor } from '../../renderer/src/format/outcome';
import type { TenderView } from '../../common/bridge/contract';

describe('money at the display boundary', () => {
  it('formats integer cents as dollars', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(1250)).toBe('$12.50');
    expect(formatCents(123456789)).toBe('$1,234,567.89');
  });

  it('keypad digits shift in from the right and stop at eight digits', () => {
    let c = 0;
    for (const d of '1250') c = pushDigit(c, d);
    expect(c).toBe(1250);
    expect(pushDigit(1250, '00')).toBe(125000);
    expect(popDigit(1250)).toBe(125);
    expect(pushDigit(0, '0')).toBe(0);
    expect(pushDigit(12345678, '9')).toBe(12345678);
    expect(pushDigit(5, 'x')).toBe(5);
  });

  it('parses typed amounts without floating point', () => {
    expect(parseMoney('12')).toBe(1200);
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney('$1,234.56')).toBe(123456);
    expect(parseMoney('0.29')).toBe(29);
    expect(parseMoney('.1')).toBe(10);
    expect(parseMoney('1.234')).toBeUndefined();
    expect(parseMoney('-1')).toBeUndefined();
    expect(parseMoney('abc')).toBeUndefined();
    expect(parseMoney('')).toBeUndefined();
  });

  it('rounds tax and tip half up to the cent', () => {
    expect(taxOf(1000, 8.25)).toBe(83);
    expect(taxOf(1999, 7.3)).toBe(146);
    expect(taxOf(1000, 0)).toBe(0);
    expect(tipOf(2000, 18)).toBe(360);
    expect(tipOf(333, 15)).toBe(50);
  });

  it('labels a card by type and last four only', () => {
    expect(cardLabel({ cardType: 'Visa', last4: '1111' })).toBe('Visa •••• 1111');
    expect(cardLabel({ last4: '4444' })).toBe('Card •••• 4444');
    expect(cardLabel(undefined)).toBe('');
  });
});

describe('what to try next after a tender that did not go through', () => {
  const tender = (over: Partial<TenderView>): TenderView => ({
    tenderId: 'T',
    kind: 'credit',
    status: 'declined',
    requestedCents: 100,
    approvedCents: 0,
    tipCents: 0,
    cashBackCents: 0,
    at: 0,
    ...over,
  });
  it('by the gateway code: a decline (3) by its DeclineCode, a duplicate by 410', () => {
    expect(nextStepFor(tender({ gatewayCode: 3, declineCode: 101 }))).toMatch(/another card/);
    expect(nextStepFor(tender({ gatewayCode: 3, declineCode: 105 }))).toMatch(/PIN again/);
    expect(nextStepFor(tender({ gatewayCode: 410 }))).toMatch(/Charge again/);
    expect(nextStepFor(tender({ status: 'offline-refused' }))).toMatch(/cash/);
    expect(nextStepFor(tender({ status: 'unknown' }))).toMatch(/Do not run the card again/);
    // A check is never reversed by the terminal: its lost answer must not promise that nothing was charged.
    expect(nextStepFor(tender({ status: 'unknown', kind: 'check' }))).toMatch(/Reconciliation/);
    expect(unknownHeadlineFor(tender({ status: 'unknown', kind: 'check' }))).not.toMatch(/reversing/);
    expect(unknownHeadlineFor(tender({ status: 'unknown', kind: 'credit' }))).toMatch(/reversing/);
    expect(nextStepFor(tender({ status: 'approved' }))).toBe('');
  });
});
