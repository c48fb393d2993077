import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, utn, type Json, type TestGateway } from '../../support/gateway-harness';

/**
 * A published shopping-cart plugin. Checkout: a form Sale with `SaveToken` `True`, then SaleWithToken with
 * the returned token for the next order (a form too, like its Sale). Refunds: a JSON DoRefund whose
 * `Amount` is a quoted string ("25.00") and whose `AppType`, `mid`, `cid` are quoted too, with `TrackData`
 * and `SURI` as empty strings; its "refund all" is DoFullRefund with the order total as `Amount`, also
 * after a partial refund. It reads ResponseCode 200 as done and shows Msg otherwise.
 */
describe('real client: shopping-cart plugin (form checkout, quoted JSON refunds)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const formCredentials = {
    AppKey: merchant1.AppKey,
    AppType: '1',
    mid: '1001',
    cid: '1',
    UserName: merchant1.UserName,
    Password: merchant1.Password,
  };
  const form = (operation: string, fields: Record<string, string>) =>
    gw.post(`/api/Transactions/${operation}`, null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({ ...formCredentials, ...fields }).toString(),
    });
  /** The plugin's JSON body: every number of the envelope and the amount quoted. */
  const json = (operation: string, fields: Json) =>
    gw.post(`/api/Transactions/${operation}`, {
      AppKey: merchant1.AppKey,
      AppType: '1',
      mid: '1001',
      cid: '1',
      UserName: merchant1.UserName,
      Password: merchant1.Password,
      TrackData: '',
      SURI: '',
      ...fields,
    });

  let token: string;
  let orderSrn: string;

  it('checks out with SaveToken True and gets a token', async () => {
    const r = await form('Sale', {
      Amount: '60.00',
      TransactionType: '1',
      UserTransactionNumber: utn('cart'),
      CardNumber: '4242424242424242',
      ExpDate: '1230',
      CVN: '123',
      NameOnCard: 'Ada Shopper',
      SaveToken: 'True',
    });
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 60 });
    expect(typeof r.body.Token).toBe('string');
    token = r.body.Token as string;
  });

  it('charges the next order with the token', async () => {
    const r = await form('SaleWithToken', {
      Amount: '40.00',
      TransactionType: '2',
      UserTransactionNumber: utn('cart-tok'),
      Token: token,
    });
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 40, LastFour: '4242' });
    orderSrn = r.body.ServiceReferenceNumber as string;
  });

  it('refunds part of the order with quoted JSON (Amount "25.00", empty TrackData and SURI)', async () => {
    const r = await json('DoRefund', {
      ServiceTransactionNumber: orderSrn,
      Amount: '25.00',
      UserTransactionNumber: utn('cart-ref'),
    });
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 25 });
  });

  it('refunds the rest by sending the order total to DoFullRefund', async () => {
    const r = await json('DoFullRefund', {
      ServiceTransactionNumber: orderSrn,
      Amount: '40.00',
      UserTransactionNumber: utn('cart-full'),
    });
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, RefundedAmount: 15 });
    // Refunded in full: another refund is the real catalog's "refund impossible", shown to the merchant.
    const again = await json('DoRefund', {
      ServiceTransactionNumber: orderSrn,
      Amount: '1.00',
      UserTransactionNumber: utn('cart-again'),
    });
    expect(again.body.ResponseCode).toBe(ResponseCode.RefundImpossible);
    expect((again.body.Msg as string[])[0]).toMatch(/fully refunded/);
  });

  it('keeps the money rules: a quoted amount with three decimals is refused and refunds nothing', async () => {
    const sale = await form('SaleWithToken', {
      Amount: '9.00',
      TransactionType: '2',
      UserTransactionNumber: utn('cart-tok2'),
      Token: token,
    });
    const r = await json('DoRefund', {
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      Amount: '2.505',
      UserTransactionNumber: utn('cart-bad'),
    });
    expect(r.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    const full = await json('DoFullRefund', {
      ServiceTransactionNumber: sale.body.ServiceReferenceNumber,
      Amount: '9.00',
      UserTransactionNumber: utn('cart-full2'),
    });
    expect(full.body).toMatchObject({ ResponseCode: ResponseCode.Success, RefundedAmount: 9 });
  });
});

/**
 * The plugin's test mode (issue 21, item 12): it sends the real service's published demo credentials —
 * AppKey 12345, AppType 1, mid 76074, cid 260, nicolas / password1 — unchanged, and must work against a
 * Tillpoint sandbox as it does against the real one.
 */
describe('real client: shopping-cart plugin in test mode (published demo credentials)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const demo = {
    AppKey: '12345',
    AppType: '1',
    mid: '76074',
    cid: '260',
    UserName: 'nicolas',
    Password: 'password1',
  };
  const form = (operation: string, fields: Record<string, string>) =>
    gw.post(`/api/Transactions/${operation}`, null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({ ...demo, ...fields }).toString(),
    });

  it('checks out, charges the saved card and refunds, all as the demo merchant', async () => {
    const checkout = await form('Sale', {
      Amount: '19.99',
      TransactionType: '1',
      UserTransactionNumber: utn('cart-demo'),
      CardNumber: '4111111111111111',
      ExpDate: '1230',
      CVN: '123',
      NameOnCard: 'Test Mode',
      SaveToken: 'True',
    });
    expect(checkout.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 19.99 });
    const next = await form('SaleWithToken', {
      Amount: '5.00',
      TransactionType: '2',
      UserTransactionNumber: utn('cart-demo-tok'),
      Token: checkout.body.Token as string,
    });
    expect(next.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 5 });
    const refund = await gw.post('/api/Transactions/DoRefund', {
      ...demo,
      TrackData: '',
      SURI: '',
      ServiceTransactionNumber: next.body.ServiceReferenceNumber,
      Amount: '5.00',
      UserTransactionNumber: utn('cart-demo-ref'),
    });
    expect(refund.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 5 });
  });
});
