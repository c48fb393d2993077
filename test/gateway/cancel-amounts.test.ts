import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { pinBlock, swipe } from '../support/cards';
import { ControlledProcessor } from '../support/controlled-processor';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

/**
 * A void or a reversal cancels everything the card was charged: base, tax, tip, surcharge, card difference
 * and cash back. Reversing the base amount alone would leave the rest authorized on the card.
 */
describe('a void or reversal reverses the whole charge at the processor', () => {
  let gw: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('DoVoid of a sale with tax and tip reverses 12.30, not 10.00', async () => {
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ Amount: 10, TaxAmount: 0.8, TipAmount: 1.5 }),
    );
    expect(sale.body.ResponseCode).toBe(ResponseCode.Success);
    const v = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('void'),
    });
    expect(v.body.ResponseCode).toBe(ResponseCode.Success);
    const reversed = processor.callsOf('reverse').filter((c) => c.authCode === sale.body.AuthorizationNumber);
    expect(reversed.map((c) => c.amountCents)).toEqual([1_230]);
  });

  it('DoReversal of a PIN debit with cash back reverses the cash back too', async () => {
    const number = utn('debit');
    const debit = await gw.post('/api/Transactions/SaleDebit', {
      ...merchant1,
      Amount: 20,
      CashBackAmount: 40,
      TransactionType: 5,
      UserTransactionNumber: number,
      Track2: swipe('4111111111111111'),
      ...pinBlock('4111111111111111'),
      ForceDuplication: true,
    });
    expect(debit.body.ResponseCode).toBe(ResponseCode.Success);
    const r = await gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number });
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    const reversed = processor
      .callsOf('reverse')
      .filter((c) => c.authCode === debit.body.AuthorizationNumber);
    expect(reversed.map((c) => c.amountCents)).toEqual([6_000]);
  });
});
