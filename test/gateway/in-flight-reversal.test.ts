import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { pinBlock, swipe } from '../support/cards';
import { ControlledProcessor } from '../support/controlled-processor';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../support/gateway-harness';
import { ebtBody, giftBody, pinFor } from './tenders/helpers';

/**
 * The terminal's reversal worker sends DoReversal for any money operation whose answer it lost, possibly
 * while that operation is still in flight. Refunds and completions have their own tests
 * (refund-reversal, preauth-capture); these are the other money operations: a PIN debit at the processor
 * is reversed there when its answer arrives, and gift and EBT payments, which the gateway books in one
 * unit of work, are either reversed whole or refused whole, never half.
 */
describe('DoReversal of a money operation in flight', () => {
  let gw: TestGateway;
  const processor = new ControlledProcessor();
  beforeAll(async () => {
    gw = await startGateway({ processor });
  });
  afterAll(async () => {
    await gw.close();
  });
  const reverse = (number: string) =>
    gw.post('/api/Transactions/DoReversal', { ...merchant1, UserTransactionNumber: number });

  it('a PIN debit at the processor is reversed there, with its cash back, and never booked', async () => {
    const number = utn('debit');
    const held = processor.hold('authorize');
    const pending = gw.post('/api/Transactions/SaleDebit', {
      ...merchant1,
      Amount: 20,
      CashBackAmount: 10,
      TransactionType: 5,
      UserTransactionNumber: number,
      Track2: swipe('4111111111111111'),
      ...pinBlock('4111111111111111'),
      ForceDuplication: true,
    });
    await held.arrived;
    expect((await reverse(number)).body.ResponseCode).toBe(ResponseCode.Success);
    held.release();
    const answer = await pending;
    expect(answer.body.ResponseCode).toBe(ResponseCode.TransactionNumberBlocked);
    const authorized = processor.callsOf('authorize').at(-1);
    expect(authorized?.amountCents).toBe(3_000);
    expect(processor.callsOf('reverse').map((c) => c.authCode)).toContain(authorized?.authCode);
    const unsettled = (await gw.post('/api/Report/GetUnsettledTransactions', merchant1)).body
      .UnsettledTransactions as Json[];
    expect(unsettled.some((u) => u.ServiceReferenceNumber === answer.body.ServiceReferenceNumber)).toBe(
      false,
    );
  });

  it('a gift sale and its DoReversal sent together: charged and given back, or refused; never half', async () => {
    const card = '6035710000006098';
    await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 50 }));
    const numbers = Array.from({ length: 6 }, () => utn('gift'));
    await Promise.all(
      numbers.map((number) =>
        Promise.all([
          gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 5, UserTransactionNumber: number })),
          reverse(number),
        ]),
      ),
    );
    const balance = await gw.post('/api/GiftCard/GetBalance', { ...merchant1, CardNumber: card });
    expect(balance.body.Balance).toBe('50.00');
  });

  it('an EBT sale and its DoReversal sent together leave the benefit balance whole', async () => {
    const card = '5077010000000014';
    const before = await gw.post('/api/EbtTransaction/EbtFoodStampBalance', {
      ...merchant1,
      CardNumber: card,
      ...pinFor(card),
    });
    const numbers = Array.from({ length: 6 }, () => utn('ebt'));
    await Promise.all(
      numbers.map((number) =>
        Promise.all([
          gw.post(
            '/api/EbtTransaction/EbtFoodStampSale',
            ebtBody(card, { Amount: 3, UserTransactionNumber: number }),
          ),
          reverse(number),
        ]),
      ),
    );
    const after = await gw.post('/api/EbtTransaction/EbtFoodStampBalance', {
      ...merchant1,
      CardNumber: card,
      ...pinFor(card),
    });
    expect(before.body.FoodStampBalance).toBe('150.00');
    expect(after.body.FoodStampBalance).toBe(before.body.FoodStampBalance);
  });
});
