import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/**
 * A published PHP integration. Form bodies with `Username` (not `UserName`); it stores cards with
 * GetTokenForCard at the group's older path `/api/MonetraAdmin/GetTokenForCard`, charges them with
 * SaleWithToken, refunds with DoRefund and — when the refund answers 6 (refund impossible) — voids with
 * DoVoid instead, and closes the day with DoSettlement.
 */
describe('real client: PHP integration (forms, Username, MonetraAdmin, refund-or-void)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const post = (path: string, fields: Record<string, string>, password: string = merchant1.Password) =>
    gw.post(path, null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({
        AppKey: merchant1.AppKey,
        AppType: '1',
        mid: '1001',
        cid: '1',
        Username: merchant1.UserName,
        Password: password,
        ...fields,
      }).toString(),
    });
  const tokenize = (account: string) =>
    post('/api/MonetraAdmin/GetTokenForCard', {
      Account: account,
      expDate: '1230',
      cv: '123',
      NameOnCard: 'Rasmus Shop',
    });
  const charge = (token: string, amount: string) =>
    post('/api/Transactions/SaleWithToken', {
      Amount: amount,
      TransactionType: '2',
      UserTransactionNumber: utn('php'),
      Token: token,
    });

  /** The integration's refund: DoRefund, and DoVoid when the refund answers 6. */
  async function refundOrVoid(srn: string, amount: string): Promise<{ outcome: string; calls: Json[] }> {
    const calls: Json[] = [];
    const refund = await post('/api/Transactions/DoRefund', {
      ServiceTransactionNumber: srn,
      Amount: amount,
      UserTransactionNumber: utn('php-r'),
    });
    calls.push(refund.body);
    if (refund.body.ResponseCode === 200) return { outcome: 'refunded', calls };
    if (refund.body.ResponseCode !== 6) return { outcome: 'failed', calls };
    const voided = await post('/api/Transactions/DoVoid', {
      ServiceTransactionNumber: srn,
      UserTransactionNumber: utn('php-v'),
    });
    calls.push(voided.body);
    return { outcome: voided.body.ResponseCode === 200 ? 'voided' : 'failed', calls };
  }

  it('stores a card at /api/MonetraAdmin/GetTokenForCard and charges it with SaleWithToken', async () => {
    const stored = await tokenize('5555555555554444');
    expect(stored.body).toMatchObject({ ResponseCode: ResponseCode.Success, LastFour: '4444' });
    const sale = await charge(stored.body.Token as string, '15.00');
    expect(sale.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 15, LastFour: '4444' });
    const bad = await tokenize('5555555555554445');
    expect(bad.body.ResponseCode).toBe(ResponseCode.TokenNotGenerated);
  });

  it('refunds when the refund is possible, and never voids then', async () => {
    const token = (await tokenize('4111111111111111')).body.Token as string;
    const sale = await charge(token, '16.00');
    const r = await refundOrVoid(sale.body.ServiceReferenceNumber as string, '5.00');
    expect(r.outcome).toBe('refunded');
    expect(r.calls).toHaveLength(1);
  });

  it('falls back to DoVoid on 6 (refund impossible) and voids the charge', async () => {
    const token = (await tokenize('4242424242424242')).body.Token as string;
    const sale = await charge(token, '17.00');
    // The shop asks for more than was charged: the refund is impossible, the void of the whole charge is not.
    const r = await refundOrVoid(sale.body.ServiceReferenceNumber as string, '17.50');
    expect(r.calls.map((c) => c.ResponseCode)).toEqual([ResponseCode.RefundImpossible, ResponseCode.Success]);
    expect(r.outcome).toBe('voided');
    // Once voided, the next attempt is refused by both, with final catalog codes (6, then 7): no loop.
    const again = await refundOrVoid(sale.body.ServiceReferenceNumber as string, '1.00');
    expect(again.calls.map((c) => c.ResponseCode)).toEqual([
      ResponseCode.RefundImpossible,
      ResponseCode.VoidImpossible,
    ]);
    expect(again.outcome).toBe('failed');
  });

  it('settles the day with DoSettlement', async () => {
    const r = await post('/api/Transactions/DoSettlement', {});
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    // 15.00 + 16.00 charged, 5.00 refunded; the voided 17.00 counts nothing.
    expect(r.body.AmountSettled).toBe(26);
  });

  it('authenticates with Username and refuses a wrong password with 1', async () => {
    const r = await post('/api/Transactions/DoSettlement', {}, 'wrong');
    expect(r.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
  });
});
