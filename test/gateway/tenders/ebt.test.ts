import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  merchant1,
  merchant2,
  startGateway,
  utn,
  type TestGateway,
  declined,
} from '../../support/gateway-harness';
import { allText, ebt, ebtBody, pinFor } from './helpers';
import { DeclineCode } from '../../../gateway/contract/decline-codes';

describe('EBT', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const balances = async (card: string) => {
    const r = await gw.post('/api/EbtTransaction/EbtFoodStampBalance', {
      ...merchant1,
      CardNumber: card,
      ...pinFor(card),
    });
    expect(r.body.ResponseCode).toBe(200);
    return { food: r.body.FoodStampBalance, cash: r.body.CashBenefitsBalance, balance: r.body.Balance };
  };

  it('answers both balances with a valid PIN, and the program balance as Balance', async () => {
    expect(await balances(ebt.rich)).toEqual({ food: '150.00', cash: '80.00', balance: '150.00' });
    const cash = await gw.post('/api/EbtTransaction/EbtCashBenefitsBalance', {
      ...merchant1,
      CardNumber: ebt.rich,
      ...pinFor(ebt.rich),
    });
    expect(cash.body).toMatchObject({
      ResponseCode: 200,
      Balance: '80.00',
      CardType: 'EBT',
      LastFour: '0014',
    });
  });

  it('refuses a wrong PIN, a block for another card, a forged block and missing PIN data', async () => {
    const wrong = await gw.post('/api/EbtTransaction/EbtCashBenefitsBalance', {
      ...merchant1,
      CardNumber: ebt.rich,
      ...pinFor(ebt.rich, '4321'),
    });
    expect(wrong.body).toMatchObject(declined(DeclineCode.IncorrectPin));
    expect(wrong.body.Balance).toBeUndefined();
    const otherCard = await gw.post('/api/EbtTransaction/EbtCashBenefitsBalance', {
      ...merchant1,
      CardNumber: ebt.rich,
      ...pinFor(ebt.poor),
    });
    expect(otherCard.body).toMatchObject(declined(DeclineCode.IncorrectPin));
    const forged = await gw.post('/api/EbtTransaction/EbtFoodStampSale', {
      ...ebtBody(ebt.rich, { Amount: 5 }),
      PinBlock: '0123456789ABCDEF',
    });
    expect(forged.body).toMatchObject(declined(DeclineCode.IncorrectPin));
    const missing = await gw.post('/api/EbtTransaction/EbtFoodStampSale', {
      ...ebtBody(ebt.rich, { Amount: 5 }),
      PinBlock: undefined,
    });
    expect(missing.body.ResponseCode).toBe(108);
    const badKsn = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 5, KSN: 'XYZ' }),
    );
    expect(badKsn.body.ResponseCode).toBe(108);
    // A wrong PIN on a sale is a declined payment: nothing is taken.
    expect(await balances(ebt.rich)).toMatchObject({ food: '150.00' });
    expect(allText(forged.body)).not.toContain(ebt.rich);
  });

  it('keeps food and cash apart; food sale, cash sale with cash back, withdrawal, food return', async () => {
    const card = ebt.rich;
    const food = await gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody(card, { Amount: 20.5 }));
    expect(food.body).toMatchObject({
      ResponseCode: 200,
      Amount: 20.5,
      Balance: '129.50',
      FoodStampBalance: '129.50',
      CashBenefitsBalance: '80.00',
    });
    const cash = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(card, { Amount: 10, CashBackAmount: 20 }),
    );
    expect(cash.body).toMatchObject({ ResponseCode: 200, Amount: 10, CashBackAmount: 20, Balance: '50.00' });
    const withdraw = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsWithdrawal',
      ebtBody(card, { Amount: 15 }),
    );
    expect(withdraw.body).toMatchObject({ ResponseCode: 200, Balance: '35.00', FoodStampBalance: '129.50' });
    const ret = await gw.post('/api/EbtTransaction/EbtFoodStampReturn', ebtBody(card, { Amount: 5.5 }));
    expect(ret.body).toMatchObject({ ResponseCode: 200, Balance: '135.00', CashBenefitsBalance: '35.00' });
    expect(await balances(card)).toMatchObject({ food: '135.00', cash: '35.00' });
  });

  it('approves part of a purchase on a short balance (210), never with cash back, never a withdrawal', async () => {
    const card = ebt.poor;
    const partial = await gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody(card, { Amount: 12.34 }));
    expect(partial.body).toMatchObject({ ResponseCode: 210, Amount: 10, Balance: '0.00' });
    const empty = await gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody(card, { Amount: 1 }));
    expect(empty.body).toMatchObject(declined(DeclineCode.InsufficientFunds));
    const withCashBack = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(card, { Amount: 4, CashBackAmount: 2 }),
    );
    expect(withCashBack.body).toMatchObject(declined(DeclineCode.InsufficientFunds));
    const withdraw = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsWithdrawal',
      ebtBody(card, { Amount: 6 }),
    );
    expect(withdraw.body).toMatchObject(declined(DeclineCode.InsufficientFunds));
    const cashPartial = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(card, { Amount: 7 }),
    );
    expect(cashPartial.body).toMatchObject({ ResponseCode: 210, Amount: 5 });
    const none = await gw.post('/api/EbtTransaction/EbtCashBenefitsSale', ebtBody(ebt.empty, { Amount: 1 }));
    expect(none.body).toMatchObject(declined(DeclineCode.InsufficientFunds));
  });

  it('refuses what EBT does not take', async () => {
    const tax = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 5, TaxAmount: 0.4 }),
    );
    expect(tax.body.ResponseCode).toBe(665);
    const cashBackOnFood = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 5, CashBackAmount: 1 }),
    );
    expect(cashBackOnFood.body.ResponseCode).toBe(665);
    const type = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 5, TransactionType: 5 }),
    );
    expect(type.body.ResponseCode).toBe(501);
    const quoted = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(ebt.rich, { Amount: '5 dollars' }),
    );
    expect(quoted.body.ResponseCode).toBe(506);
    const three = await gw.post(
      '/api/EbtTransaction/EbtCashBenefitsSale',
      ebtBody(ebt.rich, { Amount: 1.234 }),
    );
    expect(three.body.ResponseCode).toBe(506);
    const unknown = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.unknown, { Amount: 5 }),
    );
    expect(unknown.body).toMatchObject(declined(DeclineCode.CardNotSupported));
    const reused = ebtBody(ebt.rich, { Amount: 1 });
    expect((await gw.post('/api/EbtTransaction/EbtFoodStampSale', reused)).body.ResponseCode).toBe(200);
    expect((await gw.post('/api/EbtTransaction/EbtFoodStampSale', reused)).body.ResponseCode).toBe(409);
  });

  it('is one benefit account across merchants (the issuer keeps it), recorded per merchant', async () => {
    const card = '5077010000000014';
    const before = await balances(card);
    const r = await gw.post('/api/EbtTransaction/EbtFoodStampSale', ebtBody(card, { Amount: 1 }, merchant2));
    expect(r.body.ResponseCode).toBe(200);
    const after = await balances(card);
    expect(Number(String(after.food).replace(/,/g, ''))).toBeCloseTo(Number(before.food) - 1, 2);
    const report1 = await gw.post('/api/Report/GetReportByMerchant', { ...merchant1 });
    expect(allText(report1.body)).not.toContain(String(r.body.ServiceReferenceNumber));
  });

  it('joins the batch as TransactionType 6 and settles with the card payments', async () => {
    const sale = await gw.post(
      '/api/EbtTransaction/EbtFoodStampSale',
      ebtBody(ebt.rich, { Amount: 3 }, merchant2),
    );
    const ret = await gw.post(
      '/api/EbtTransaction/EbtFoodStampReturn',
      ebtBody(ebt.rich, { Amount: 1 }, merchant2),
    );
    expect(ret.body.ResponseCode).toBe(200);
    const settle = await gw.post('/api/Transactions/DoSettlement', { ...merchant2 });
    // merchant 2's batch: the 1.00 food sale above, the 3.00 sale and the 1.00 return.
    expect(settle.body).toMatchObject({ ResponseCode: 200, AmountSettled: 3 });
    const batches = settle.body.Batches as { SaleAmount: number; ReturnAmount: number }[];
    expect(batches[0]).toMatchObject({ SaleAmount: 4, ReturnAmount: 1 });
    expect(sale.body.ResponseCode).toBe(200);
  });

  it('a voided EBT sale gives the benefit back; reversal by UserTransactionNumber too', async () => {
    const before = await balances(ebt.rich);
    const body = ebtBody(ebt.rich, { Amount: 2 });
    const sale = await gw.post('/api/EbtTransaction/EbtFoodStampSale', body);
    expect(sale.body.ResponseCode).toBe(200);
    const rev = await gw.post('/api/Transactions/DoReversal', {
      ...merchant1,
      UserTransactionNumber: body.UserTransactionNumber,
    });
    expect(rev.body.ResponseCode).toBe(200);
    expect(await balances(ebt.rich)).toMatchObject({ food: before.food });
    const sale2 = await gw.post('/api/EbtTransaction/EbtCashBenefitsSale', ebtBody(ebt.rich, { Amount: 2 }));
    await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: sale2.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('void'),
    });
    expect(await balances(ebt.rich)).toMatchObject({ cash: before.cash });
  });
});
