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

  /**
   * The integration's error mapping, as it is written: it switches on verbiage, and takes a verbiage
   * containing APPROV for success (the Node backend does too).
   */
  const errorOf = (answer: Json): string =>
    typeof answer.verbiage === 'string' && answer.verbiage.includes('APPROV')
      ? 'approved'
      : ({
          'LUHN/MOD10 CHECK ON ACCOUNT NUMBER FAILED': 'card_number_invalid',
          'INVALID CARD NUMBER': 'card_number_invalid',
          'EXPIRED CARD': 'card_expired',
          'INSUFFICIENT FUNDS': 'insufficient_funds',
          'CVV2 MISMATCH': 'cvv_mismatch',
          'DO NOT HONOR': 'card_declined',
        }[String(answer.verbiage)] ?? 'unknown');

  it('reads a Luhn-invalid Account on GetTokenForCard by its verbiage (issue 21, item 11)', async () => {
    const bad = await tokenize('4111111111111112');
    expect(bad.body).toMatchObject({
      ResponseCode: ResponseCode.TokenNotGenerated,
      verbiage: 'LUHN/MOD10 CHECK ON ACCOUNT NUMBER FAILED',
    });
    expect(errorOf(bad.body)).toBe('card_number_invalid');
    // Other reasons a card cannot be stored keep the code's own verbiage.
    const noAccount = await post('/api/MonetraAdmin/GetTokenForCard', { expDate: '1230' });
    expect(noAccount.body).toMatchObject({ ResponseCode: 25, verbiage: 'TOKEN NOT GENERATED' });
  });

  it('reads each decline by the reason in its verbiage, ResponseCode 3 and DeclineCode as before (item 11)', async () => {
    const sale = (card: string, cvn = '123') =>
      post('/api/Transactions/Sale', {
        Amount: '21.00',
        TransactionType: '1',
        UserTransactionNumber: utn('php-d'),
        CardNumber: card,
        ExpDate: '1230',
        CVN: cvn,
        ForceDuplication: 'true',
      });
    const cases = [
      ['4000000000000002', 100, 'DO NOT HONOR', 'card_declined'],
      ['4000000000009995', 101, 'INSUFFICIENT FUNDS', 'insufficient_funds'],
      ['4000000000000069', 102, 'EXPIRED CARD', 'card_expired'],
      ['4000000000000127', 103, 'CVV2 MISMATCH', 'cvv_mismatch'],
    ] as const;
    for (const [card, declineCode, verbiage, error] of cases) {
      const r = await sale(card);
      expect(r.body, card).toMatchObject({
        ResponseCode: ResponseCode.Declined,
        DeclineCode: declineCode,
        verbiage,
      });
      expect(errorOf(r.body), card).toBe(error);
    }
    // The same reasons through the integration's own path: a stored card charged with SaleWithToken.
    const token = (await tokenize('4000000000009995')).body.Token as string;
    const byToken = await charge(token, '22.00');
    expect(byToken.body).toMatchObject({ ResponseCode: 3, DeclineCode: 101, verbiage: 'INSUFFICIENT FUNDS' });
    const invalid = await sale('4111111111111112');
    expect(invalid.body).toMatchObject({
      ResponseCode: ResponseCode.InvalidCardNumber,
      verbiage: 'INVALID CARD NUMBER',
    });
    expect(errorOf(invalid.body)).toBe('card_number_invalid');
  });

  it('authenticates with Username and refuses a wrong password with 1', async () => {
    const r = await post('/api/Transactions/DoSettlement', {}, 'wrong');
    expect(r.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
  });
});
