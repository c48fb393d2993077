import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  merchant1,
  merchant2,
  startGateway,
  utn,
  type Json,
  type TestGateway,
  declined,
} from '../../support/gateway-harness';
import { allText, gift, giftBody } from './helpers';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';

describe('gift cards', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const balance = async (card: string, envelope: Json = merchant1) =>
    gw.post('/api/GiftCard/GetBalance', { ...envelope, CardNumber: card });

  it('shows the sandbox starting balances, per merchant', async () => {
    const r = await balance(gift.hundred);
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      Balance: '100.00',
      LastFour: '0018',
      CardType: 'GiftCard',
    });
    expect((await balance(gift.twentyFive)).body.Balance).toBe('25.00');
    expect((await balance(gift.empty)).body.Balance).toBe('0.00');
    expect((await balance(gift.notActivated)).body).toMatchObject(declined(DeclineCode.CardInactive));
    expect((await balance(gift.fresh)).body.ResponseCode).toBe(404);
  });

  it('sells against the balance, exactly, and never below zero (partial approval 210)', async () => {
    const card = gift.twentyFive;
    const first = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 10.1 }));
    expect(first.body).toMatchObject({ ResponseCode: 200, Amount: 10.1, Balance: '14.90' });
    expect(first.body.ServiceReferenceNumber).toMatch(/^\d{12}$/);
    const partial = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 20 }));
    expect(partial.body).toMatchObject({ ResponseCode: 210, Amount: 14.9, Balance: '0.00' });
    const none = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 1 }));
    expect(none.body).toMatchObject({ ...declined(DeclineCode.InsufficientFunds) });
    expect((await balance(card)).body.Balance).toBe('0.00');
  });

  it('covers tax and tip first on a partial approval', async () => {
    const act = await gw.post('/api/GiftCard/Activate', giftBody('6035710000000109', { Amount: 12 }));
    expect(act.body).toMatchObject({ ResponseCode: 200, Balance: '12.00' });
    const r = await gw.post(
      '/api/GiftCard/Sale',
      giftBody('6035710000000109', { Amount: 20, TaxAmount: 1.5, TipAmount: 0.5 }),
    );
    expect(r.body).toMatchObject({
      ResponseCode: 210,
      Amount: 10,
      TaxAmount: 1.5,
      TipAmount: 0.5,
      Balance: '0.00',
    });
  });

  it('keeps the balance right under concurrent sales on one card', async () => {
    const card = '6035710000000117';
    await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 50 }));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 5 }))),
    );
    const approved = answers.map((a) => a.body).filter((b) => b.ResponseCode === 200);
    expect(approved).toHaveLength(10);
    expect(answers.filter((a) => a.body.DeclineCode === DeclineCode.InsufficientFunds)).toHaveLength(2);
    expect((await balance(card)).body.Balance).toBe('0.00');
  });

  it('reloads and refunds (credits), up to the maximum balance', async () => {
    const card = gift.hundred;
    const reload = await gw.post('/api/GiftCard/Reload', giftBody(card, { Amount: 50.25 }));
    expect(reload.body).toMatchObject({ ResponseCode: 200, Balance: '150.25' });
    const refund = await gw.post('/api/GiftCard/Refund', giftBody(card, { Amount: 9.75 }));
    expect(refund.body).toMatchObject({ ResponseCode: 200, Balance: '160.00' });
    const tooMuch = await gw.post('/api/GiftCard/Reload', giftBody(card, { Amount: 1900 }));
    expect(tooMuch.body.ResponseCode).toBe(651);
    expect((await balance(card)).body.Balance).toBe('160.00');
  });

  it('activates: a pre-issued card loads Amount; a new number is issued; an active card is refused', async () => {
    const a = await gw.post('/api/GiftCard/Activate', giftBody(gift.notActivated, { Amount: 30 }));
    expect(a.body).toMatchObject({ ResponseCode: 200, Balance: '30.00' });
    const again = await gw.post('/api/GiftCard/Activate', giftBody(gift.notActivated, { Amount: 30 }));
    expect(again.body.ResponseCode).toBe(650);
    const fresh = await gw.post('/api/GiftCard/Activate', giftBody(gift.fresh, { Amount: 0 }));
    expect(fresh.body).toMatchObject({ ResponseCode: 200, Balance: '0.00' });
    const revived = await gw.post('/api/GiftCard/Activate', giftBody(gift.deactivated, { Amount: 10 }));
    expect(revived.body).toMatchObject({ ResponseCode: 200, Balance: '50.00' });
  });

  it('refuses every operation on an inactive card (114) and keeps its balance', async () => {
    const card = '6035710000000125';
    await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 20 }));
    const d = await gw.post('/api/GiftCard/Deactivate', { ...merchant1, CardNumber: card });
    expect(d.body.ResponseCode).toBe(200);
    expect(
      (await gw.post('/api/GiftCard/Deactivate', { ...merchant1, CardNumber: card })).body.ResponseCode,
    ).toBe(427);
    for (const path of ['/api/GiftCard/Sale', '/api/GiftCard/Reload', '/api/GiftCard/Refund']) {
      const r = await gw.post(path, giftBody(card, { Amount: 1 }));
      expect(r.body, path).toMatchObject(declined(DeclineCode.CardInactive));
    }
    expect((await balance(card)).body).toMatchObject(declined(DeclineCode.CardInactive));
    await gw.post('/api/GiftCard/Activate', giftBody(card, {}));
    expect((await balance(card)).body.Balance).toBe('20.00');
  });

  it('gives a voided gift sale its value back (core DoVoid)', async () => {
    const card = '6035710000000133';
    await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 40 }));
    const sale = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 15 }));
    expect(sale.body.Balance).toBe('25.00');
    const v = await gw.post('/api/Transactions/DoVoid', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      UserTransactionNumber: utn('void'),
    });
    expect(v.body.ResponseCode).toBe(200);
    expect((await balance(card)).body.Balance).toBe('40.00');
    // The core refund path is for card payments: a gift sale is refunded with /api/GiftCard/Refund.
    const refund = await gw.post('/api/Transactions/DoRefund', {
      ...merchant1,
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      Amount: 1,
      UserTransactionNumber: utn('refund'),
    });
    expect(refund.body.ResponseCode).not.toBe(200);
  });

  it('keeps each merchant to its own cards', async () => {
    const card = '6035710000000141';
    await gw.post('/api/GiftCard/Activate', giftBody(card, { Amount: 60 }));
    expect((await balance(card, merchant2)).body.ResponseCode).toBe(404);
    const steal = await gw.post('/api/GiftCard/Sale', giftBody(card, { Amount: 5 }, merchant2));
    expect(steal.body.ResponseCode).toBe(404);
    expect(
      (await gw.post('/api/GiftCard/Deactivate', { ...merchant2, CardNumber: card })).body.ResponseCode,
    ).toBe(404);
    // The sandbox pre-issued numbers are separate cards at each merchant.
    await gw.post('/api/GiftCard/Sale', giftBody(gift.empty, { Amount: 1 }, merchant2));
    expect((await balance(gift.hundred, merchant2)).body.Balance).toBe('100.00');
    expect((await balance(card)).body.Balance).toBe('60.00');
  });

  it('refuses bad input, all problems together, without echoing the card', async () => {
    const r = await gw.post(
      '/api/GiftCard/Sale',
      giftBody('6035710000000010', { Amount: 10.005, TransactionType: 1, SurchargeAmount: 1 }),
    );
    expect(r.body.ResponseCode).toBe(506);
    const msg = (r.body.Msg as string[]).join(' | ');
    expect(msg).toMatch(/Amount must have at most two decimals/);
    expect(msg).toMatch(/TransactionType must be the JSON integer 7/);
    expect(msg).toMatch(/SurchargeAmount is not taken/);
    expect(msg).toMatch(/CardNumber is not a valid card number/);
    expect(allText(r.body)).not.toContain('6035710000000010');

    const quoted = await gw.post('/api/GiftCard/Sale', giftBody(gift.hundred, { Amount: '10.00 USD' }));
    expect(quoted.body.ResponseCode).toBe(506);
    const negative = await gw.post('/api/GiftCard/Reload', giftBody(gift.hundred, { Amount: -5 }));
    expect(negative.body.ResponseCode).toBe(506);
    const hostile = await gw.post(
      '/api/GiftCard/Sale',
      giftBody("'; DROP TABLE gift_cards; --", { Amount: 1 }),
    );
    expect(hostile.body.ResponseCode).toBe(400);
    const noCard = await gw.post('/api/GiftCard/GetBalance', { ...merchant1 });
    expect(noCard.body.ResponseCode).toBe(106);
    const euro = await gw.post(
      '/api/GiftCard/Sale',
      giftBody(gift.hundred, { Amount: 1, CurrencyCode: 'EUR' }),
    );
    expect(euro.body.ResponseCode).toBe(400);
    const badLogin = await gw.post('/api/GiftCard/GetBalance', {
      ...merchant1,
      Password: 'nope',
      CardNumber: gift.hundred,
    });
    expect(badLogin.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
  });

  it('refuses a reused UserTransactionNumber and a duplicate within the window', async () => {
    const body = giftBody(gift.hundred, { Amount: 2 });
    expect((await gw.post('/api/GiftCard/Sale', body)).body.ResponseCode).toBe(200);
    expect((await gw.post('/api/GiftCard/Sale', body)).body.ResponseCode).toBe(409);
    const plain = { ...giftBody(gift.hundred, { Amount: 3.33 }), ForceDuplication: false };
    expect((await gw.post('/api/GiftCard/Sale', plain)).body.ResponseCode).toBe(200);
    const dup = await gw.post('/api/GiftCard/Sale', { ...plain, UserTransactionNumber: utn('dup') });
    expect(dup.body.ResponseCode).toBe(410);
  });

  it('accepts a swiped card (Track2) and form bodies', async () => {
    const track = `;${gift.hundred}=49121010000000000000?`;
    const r = await gw.post('/api/GiftCard/GetBalance', { ...merchant1, Track2: track });
    expect(r.body.ResponseCode).toBe(200);
    const form = new URLSearchParams({
      appkey: merchant1.AppKey,
      apptype: String(merchant1.AppType),
      MID: String(merchant1.mid),
      cid: String(merchant1.cid),
      username: merchant1.UserName,
      password: merchant1.Password,
      cardnumber: gift.hundred,
      amount: '1.25',
      transactiontype: '7',
      usertransactionnumber: utn('form'),
      forceduplication: 'True',
    });
    const f = await gw.post('/api/GiftCard/Sale', null, {
      raw: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(f.body).toMatchObject({ ResponseCode: 200, Amount: 1.25 });
  });

  it('shows gift payments in the Report group and the open batch', async () => {
    const sale = await gw.post('/api/GiftCard/Sale', giftBody(gift.hundred, { Amount: 4.44 }));
    const report = await gw.post('/api/Report/GetReportByMerchant', { ...merchant1 });
    const rows = report.body.Transactions as {
      ServiceReferenceNumber: string;
      CardType: string;
      LastFour: string;
    }[];
    const row = rows.find((t) => t.ServiceReferenceNumber === sale.body.ServiceReferenceNumber);
    expect(row).toMatchObject({ CardType: 'GiftCard', LastFour: '0018' });
    expect(allText(report.body)).not.toContain(gift.hundred);
    const unsettled = await gw.post('/api/Report/GetUnsettledTransactions', { ...merchant1 });
    expect(allText(unsettled.body)).toContain(String(sale.body.ServiceReferenceNumber));
  });
});
