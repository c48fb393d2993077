import { describe, expect, it } from 'vitest';
import { cashBackRefusal } from '../../../electron/sale/cash-back-limit';

const NOT_NEGATIVE = {
  message: 'Cash back must be zero or a positive number of cents.',
  messageId: 'sale.cashBackNotNegative',
};
const DEBIT_ONLY = {
  message: 'Cash back is paid only on a PIN debit sale.',
  messageId: 'sale.cashBackDebitOnly',
};

describe('what cash back a tender may carry (sale/cash-back-limit.ts)', () => {
  it('PIN debit: zero or more whole cents', () => {
    expect(cashBackRefusal('debit', 0)).toBeUndefined();
    expect(cashBackRefusal('debit', 4_000)).toBeUndefined();
  });

  it('negative or fractional cents are refused with the words the cashier reads and their catalog id', () => {
    expect(cashBackRefusal('debit', -1)).toEqual(NOT_NEGATIVE);
    expect(cashBackRefusal('debit', 10.5)).toEqual(NOT_NEGATIVE);
  });

  it('any other tender carries none', () => {
    expect(cashBackRefusal('ebt', 0)).toBeUndefined();
    expect(cashBackRefusal('ebt', 500)).toEqual(DEBIT_ONLY);
    expect(cashBackRefusal('credit', 500)).toEqual(DEBIT_ONLY);
  });
});
