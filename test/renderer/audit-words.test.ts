import { describe, expect, it } from 'vitest';
import { detailText } from '../../renderer/src/screens/manager/AuditScreen';
import { dollars } from '../../electron/util/money';

describe('the audit log in people’s words', () => {
  it('the core writes amounts in dollars', () => {
    expect(dollars(500)).toBe('$5.00');
    expect(dollars(123456789)).toBe('$1,234,567.89');
    expect(dollars(7)).toBe('$0.07');
    expect(dollars(-1050)).toBe('-$10.50');
  });

  it('entries written in cents before read in dollars too', () => {
    expect(detailText('refund L1-x-2 of 123: 1000 cents')).toBe('refund L1-x-2 of 123: $10.00');
    expect(detailText('store-and-forward on; per sale 10000, total 50000 cents, 24 h')).toBe(
      'store-and-forward on; per sale $100.00, total $500.00, 24 h',
    );
    expect(detailText('completion of hold L1-y-1: 2150 cents, tip 400 cents (hold 2000 cents)')).toBe(
      'completion of hold L1-y-1: $21.50, tip $4.00 (hold $20.00)',
    );
    expect(detailText('cashier signed in')).toBe('cashier signed in');
  });
});
