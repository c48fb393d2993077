import { describe, expect, it } from 'vitest';
import { cashBackRefusal } from '../../../electron/sale/cash-back-limit';

describe('what cash back a tender may carry (sale/cash-back-limit.ts)', () => {
  it('PIN debit: zero or more whole cents', () => {
    expect(cashBackRefusal('debit', 0)).toBeUndefined();
    expect(cashBackRefusal('debit', 4_000)).toBeUndefined();
  });

  it('negative or fractional cents are refused with the words the cashier reads', () => {
    expect(cashBackRefusal('debit', -1)).toBe('Cash back must be zero or a positive number of cents.');
    expect(cashBackRefusal('debit', 10.5)).toBe('Cash back must be zero or a positive number of cents.');
  });

  it('any other tender carries none', () => {
    expect(cashBackRefusal('ebt', 0)).toBeUndefined();
    expect(cashBackRefusal('ebt', 500)).toBe('Cash back is paid only on a PIN debit sale.');
    expect(cashBackRefusal('credit', 500)).toBe('Cash back is paid only on a PIN debit sale.');
  });
});
