import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';
import { ebt, ebtBody, giftBody, pinFor } from './helpers';

/**
 * Value a credit put on a gift card or EBT account (a reload, an activation load, a return) may be spent
 * before the credit is voided or reversed. Taking it back then would leave the balance below zero: a
 * cashier reloads, the customer spends it, the cashier voids the reload, and the card has paid from nothing.
 */
describe('cancelling a stored-value credit never takes the balance below zero', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const giftBalance = async (card: string) =>
    (await gw.post('/api/GiftCard/GetBalance', { ...merchant1, CardNumber: card })).body.Balance;
  const ebtFood = async (card: string) =>
    (
      await gw.post('/api/EbtTransaction/EbtFoodStampBalance', {
        ...merchant1,
        CardNumber: card,
        ...pinFor(card),
      })
    ).body.FoodStampBalance;
  const voidOf = (body: Json) =>
    gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: body.ServiceReferenceNumber,
      UserTransactionNumber: utn('void'),
    });
  const reverse = (body: Json) =>
    gw.post('/api/Transactions/DoReversal', {
      ...merchant1,
      UserTransactionNumber: body.UserTransactionNumber,
    });
  const ok = async (p: Promise<{ body: Json }>) => {
    const r = await p;
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    return r.body;
  };

  it('a spent reload can be neither voided nor reversed; once the sale is voided, it can', async () => {
    const card = '6035710000006007';
    await ok(gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 10 })));
    const reload = await ok(gw.post('/api/GiftCard/Reload', giftBody(card, { Amount: 30 })));
    const sale = await ok(gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 35 })));
    expect(await giftBalance(card)).toBe('5.00');

    expect((await voidOf(reload)).body).toMatchObject({
      ResponseCode: ResponseCode.VoidImpossible,
      Msg: [expect.stringMatching(/spent/)],
    });
    expect((await reverse(reload)).body).toMatchObject({
      ResponseCode: ResponseCode.VoidImpossible,
      Msg: [expect.stringMatching(/spent/)],
    });
    expect(await giftBalance(card)).toBe('5.00');

    await ok(voidOf(sale));
    expect(await giftBalance(card)).toBe('40.00');
    await ok(voidOf(reload));
    expect(await giftBalance(card)).toBe('10.00');
  });

  it('a spent activation load and a spent gift return are refused too', async () => {
    const card = '6035710000006015';
    const activation = await ok(gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 20 })));
    await ok(gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 15 })));
    expect((await voidOf(activation)).body).toMatchObject({
      ResponseCode: ResponseCode.VoidImpossible,
      Msg: [expect.stringMatching(/spent/)],
    });
    const giftReturn = await ok(gw.post('/api/GiftCard/Refund', giftBody(card, { Amount: 8 })));
    await ok(gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 13 })));
    expect(await giftBalance(card)).toBe('0.00');
    expect((await reverse(giftReturn)).body).toMatchObject({
      ResponseCode: ResponseCode.VoidImpossible,
      Msg: [expect.stringMatching(/spent/)],
    });
    expect(await giftBalance(card)).toBe('0.00');
  });

  it('a spent EBT food return is refused; an unspent one is voided', async () => {
    const card = ebt.empty;
    const ret = await ok(gw.post('/api/EbtTransaction/EbtFoodStampReturn', ebtBody(card, { Amount: 6 })));
    await ok(gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody(card, { Amount: 4 })));
    expect((await voidOf(ret)).body).toMatchObject({
      ResponseCode: ResponseCode.VoidImpossible,
      Msg: [expect.stringMatching(/spent/)],
    });
    expect(await ebtFood(card)).toBe('2.00');
    const unspent = await ok(gw.post('/api/EbtTransaction/EbtFoodStampReturn', ebtBody(card, { Amount: 3 })));
    await ok(voidOf(unspent));
    expect(await ebtFood(card)).toBe('2.00');
  });

  it('a void of a load racing a sale that spends it: exactly one wins, never below zero', async () => {
    const cards = [
      '6035710000006031',
      '6035710000006049',
      '6035710000006056',
      '6035710000006064',
      '6035710000006072',
      '6035710000006080',
    ];
    const outcomes = await Promise.all(
      cards.map(async (card) => {
        const load = await ok(gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 20 })));
        const [v, s] = await Promise.all([
          voidOf(load),
          gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 20 })),
        ]);
        return {
          codes: [v.body.ResponseCode, s.body.ResponseCode],
          balance: await giftBalance(card),
        };
      }),
    );
    for (const o of outcomes) {
      expect(o.codes.filter((c) => c === ResponseCode.Success)).toHaveLength(1);
      expect(o.balance).toBe('0.00');
    }
    expect(outcomes).toHaveLength(cards.length);
  });
});
