import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, startGateway, type TestGateway } from '../../support/gateway-harness';
import { ebt, ebtBody, giftBody } from '../tenders/helpers';
import { ResponseCode } from '../../../gateway/contract/response-codes';

/**
 * The duplicate payment rule (rules/duplicate-payment.ts): a payment with the signature of a recent one —
 * same merchant, card, base amount, TransactionType and operation — is refused unless ForceDuplication.
 * Card payments and stored-value movements apply the same rule: before, each had its own copy (card: by
 * TransactionType, counting a twin still at the processor; stored value: by operation, approved only).
 */
describe('duplicate payment', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });
  const once = { ForceDuplication: false };

  it('refuses a gift card sale repeated in the window, but not the return or the reload that follows it', async () => {
    const card = '6035710000000125';
    const act = await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 50 }));
    expect(act.body.ResponseCode).toBe(ResponseCode.Success);
    const sale = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 10, ...once }));
    expect(sale.body.ResponseCode).toBe(ResponseCode.Success);
    const again = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 10, ...once }));
    expect(again.body.ResponseCode).toBe(ResponseCode.DuplicatePayment);
    // Same card, amount and TransactionType (7), but a return is not a repeat of the sale it gives back.
    const refund = await gw.post('/api/GiftCard/Refund', giftBody(card, { Amount: 10, ...once }));
    expect(refund.body).toMatchObject({ ResponseCode: ResponseCode.Success, Balance: '50.00' });
    const reload = await gw.post('/api/GiftCard/Reload', giftBody(card, { Amount: 10, ...once }));
    expect(reload.body).toMatchObject({ ResponseCode: ResponseCode.Success, Balance: '60.00' });
    const forced = await gw.post(
      '/api/GiftCard/Sale',
      giftBody(card, { Amount: 10, ForceDuplication: true }),
    );
    expect(forced.body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('keeps the EBT food and cash programs apart: one of each for the same amount is no duplicate', async () => {
    const food = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 3.3, ...once }),
    );
    expect(food.body.ResponseCode).toBe(ResponseCode.Success);
    const cash = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(ebt.rich, { Amount: 3.3, ...once }),
    );
    expect(cash.body.ResponseCode).toBe(ResponseCode.Success);
    const foodAgain = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 3.3, ...once }),
    );
    expect(foodAgain.body.ResponseCode).toBe(ResponseCode.DuplicatePayment);
  });

  it('refuses a card sale sent again while the first is still at the processor', async () => {
    // The sandbox's slow card (4000000000000119) answers late, so the twin arrives while it is pending.
    const body = keyedSale({ CardNumber: '4000000000000119', Amount: 19.19, ForceDuplication: false });
    const first = gw.post('/api/Transactions/Sale', body);
    await new Promise((r) => setTimeout(r, 300));
    const twin = await gw.post('/api/Transactions/Sale', {
      ...body,
      UserTransactionNumber: `${String(body.UserTransactionNumber)}-b`,
    });
    expect(twin.body.ResponseCode).toBe(ResponseCode.DuplicatePayment);
    expect((await first).body.ResponseCode).toBe(ResponseCode.Success);
  });
});
