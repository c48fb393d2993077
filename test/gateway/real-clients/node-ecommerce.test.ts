import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/**
 * A published Node e-commerce backend, unchanged but for its base URL and credentials. It posts
 * `application/x-www-form-urlencoded` bodies where every value is text (`Amount` "10.00", `TransactionType`
 * "1", `IsTest` "true"), sends `Track2` and `CVN` as empty strings for a keyed card, marks itself
 * `Source` ApiClient, and in test mode posts to `{base}/testing/api/...` (`{base}/api/...` in production).
 * It decides approval by ResponseCode 200, or verbiage containing APPROV, or an AuthorizationNumber; a
 * second module looks a payment up with GetTransaction by UserTransactionNumber.
 */
type Mode = 'test' | 'production';

/** The backend's approval rule, as it is written. */
function approved(answer: Json): boolean {
  return (
    answer.ResponseCode === 200 ||
    (typeof answer.verbiage === 'string' && answer.verbiage.includes('APPROV')) ||
    (typeof answer.AuthorizationNumber === 'string' && answer.AuthorizationNumber.length > 0)
  );
}

describe('real client: Node e-commerce backend (form bodies, /testing/api in test mode)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const credentials = {
    AppKey: merchant1.AppKey,
    AppType: '1',
    mid: '1001',
    cid: '1',
    UserName: merchant1.UserName,
    Password: merchant1.Password,
  };
  const post = (mode: Mode, operation: string, fields: Record<string, string>) =>
    gw.post(`${mode === 'test' ? '/testing' : ''}/api/Transactions/${operation}`, null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({ ...credentials, ...fields }).toString(),
    });
  const charge = (mode: Mode, card: string, amount: string, number = utn('node')) =>
    post(mode, 'Sale', {
      Amount: amount,
      TransactionType: '1',
      UserTransactionNumber: number,
      CardNumber: card,
      ExpDate: '1230',
      Track2: '',
      CVN: '',
      IsTest: 'true',
      Source: 'ApiClient',
    });

  it('charges a keyed card in test mode and reads the answer as approved', async () => {
    const r = await charge('test', '4111111111111111', '10.00');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 10, LastFour: '1111' });
    expect(approved(r.body)).toBe(true);
  });

  it('charges in production mode at {base}/api/... the same way', async () => {
    const r = await charge('production', '5555555555554444', '11.00');
    expect(approved(r.body)).toBe(true);
  });

  it("never reads a decline as approval: 3, the reason's verbiage, no authorization number", async () => {
    for (const [card, amount, verbiage] of [
      ['4000000000000002', '12.00', 'DO NOT HONOR'],
      ['4000000000009995', '12.01', 'INSUFFICIENT FUNDS'],
      ['4000000000000069', '12.02', 'EXPIRED CARD'],
    ] as const) {
      const r = await charge('test', card, amount);
      expect(r.body.ResponseCode, card).toBe(ResponseCode.Declined);
      expect(r.body.verbiage, card).toBe(verbiage);
      expect(approved(r.body), card).toBe(false);
    }
  });

  it('never reads a refused request as approval (bad amount, wrong password)', async () => {
    const bad = await charge('test', '4111111111111111', '10.001');
    expect(bad.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    expect(approved(bad.body)).toBe(false);
    const wrong = await gw.post('/testing/api/Transactions/Sale', null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({
        ...credentials,
        Password: 'not-it',
        Amount: '10.00',
        TransactionType: '1',
        UserTransactionNumber: utn('node'),
        CardNumber: '4111111111111111',
        ExpDate: '1230',
      }).toString(),
    });
    expect(wrong.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    expect(approved(wrong.body)).toBe(false);
  });

  it('looks its payment link up with GET /api/PaymentLinks and unprefixed query names (issue 21, item 10)', async () => {
    // The backend's order page creates a link for the order, then confirms it by looking it up with the
    // envelope's own names in the query — AppKey, mid, UserName — not the `request.`-prefixed ones.
    const created = await gw.post('/testing/api/PaymentLinks', {
      ...merchant1,
      PaymentLink: { Amount: '31.40', InvoiceNumber: `order-${utn('n')}` },
    });
    expect(created.body.ResponseCode).toBe(ResponseCode.Success);
    const link = created.body.PaymentLink as Json;
    const unprefixed = new URLSearchParams({ ...credentials, 'paymentLink.id': String(link.Id) });
    const found = await gw.get(`/testing/api/PaymentLinks?${unprefixed.toString()}`);
    expect(found.body.ResponseCode).toBe(ResponseCode.Success);
    expect((found.body.PaymentLinks as Json[]).map((l) => l.Id)).toEqual([link.Id]);
    // In any case, as bodies are bound.
    const lower = new URLSearchParams({
      appkey: merchant1.AppKey,
      APPTYPE: '1',
      Mid: '1001',
      cid: '1',
      username: merchant1.UserName,
      PASSWORD: merchant1.Password,
      'PaymentLink.InvoiceNumber': String(link.InvoiceNumber),
    });
    const byInvoice = await gw.get(`/api/PaymentLinks?${lower.toString()}`);
    expect((byInvoice.body.PaymentLinks as Json[]).map((l) => l.Id)).toEqual([link.Id]);
    // Both spellings: the prefixed one wins, whichever comes first (here the unprefixed password is wrong).
    for (const order of ['unprefixed first', 'prefixed first'] as const) {
      const pairs: [string, string][] = [
        ['Password', 'not-the-password'],
        ['request.password', merchant1.Password],
      ];
      if (order === 'prefixed first') pairs.reverse();
      const both = new URLSearchParams([
        ...Object.entries(credentials).filter(([k]) => k !== 'Password'),
        ...pairs,
        ['paymentLink.id', String(link.Id)],
      ]);
      const r = await gw.get(`/api/PaymentLinks?${both.toString()}`);
      expect(r.body.ResponseCode, order).toBe(ResponseCode.Success);
      expect(
        (r.body.PaymentLinks as Json[]).map((l) => l.Id),
        order,
      ).toEqual([link.Id]);
    }
    const wrongPrefixed = new URLSearchParams({
      ...credentials,
      'request.password': 'not-the-password',
    });
    const refused = await gw.get(`/api/PaymentLinks?${wrongPrefixed.toString()}`);
    expect(refused.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
  });

  it('looks a payment up with GetTransaction and reaches the same conclusion', async () => {
    const paid = utn('node-paid');
    const refused = utn('node-refused');
    await charge('test', '4242424242424242', '13.00', paid);
    await charge('test', '4000000000000002', '13.01', refused);
    const lookup = (number: string) => post('test', 'GetTransaction', { UserTransactionNumber: number });
    const a = await lookup(paid);
    expect(a.body).toMatchObject({ TransactionStatus: 'Approved', Amount: 13, UserTransactionNumber: paid });
    expect(approved(a.body)).toBe(true);
    const d = await lookup(refused);
    expect(d.body.TransactionStatus).toBe('Declined');
    expect(approved(d.body)).toBe(false);
    const none = await lookup(utn('node-never'));
    expect(none.body.ResponseCode).toBe(ResponseCode.UserTransactionNumberNotFound);
    expect(approved(none.body)).toBe(false);
  });
});
