import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  utn,
  type TestGateway,
} from '../support/gateway-harness';

describe('SaleWithToken', () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await startGateway();
    const r = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ SaveToken: true, CardNumber: '5555555555554444', ExpDate: '1230' }),
    );
    token = r.body.Token as string;
  });
  afterAll(async () => {
    await gw.close();
  });
  const tokenSale = (overrides: Record<string, unknown>) =>
    gw.post('/api/Transactions/SaleWithToken', {
      ...merchant1,
      Amount: 5,
      TransactionType: 2,
      Token: token,
      UserTransactionNumber: utn('tok'),
      ForceDuplication: true,
      ...overrides,
    });

  it('charges the stored card', async () => {
    const r = await tokenSale({});
    expect(r.body).toMatchObject({ ResponseCode: 200, CardType: 'Mastercard', LastFour: '4444', Amount: 5 });
  });

  it('reports invalid Amount, TransactionType and missing Token together, in priority 506, 501, 3', async () => {
    const r = await tokenSale({ Amount: 0, TransactionType: 1, Token: undefined });
    expect(r.body.ResponseCode).toBe(506);
    const msg = r.body.Msg as string[];
    expect(msg).toHaveLength(3);
    expect(msg[0]).toMatch(/^Amount/);
    expect(msg[1]).toMatch(/^TransactionType/);
    expect(msg[2]).toBe('Token is required');
    expect((await tokenSale({ TransactionType: 1, Token: undefined })).body.ResponseCode).toBe(501);
    expect((await tokenSale({ Token: undefined })).body.ResponseCode).toBe(3);
    expect((await tokenSale({ TransactionType: '2' })).body.ResponseCode).toBe(501);
    expect((await tokenSale({ Amount: '5' })).body.ResponseCode).toBe(506);
  });

  it('does not reserve the UserTransactionNumber when validation fails', async () => {
    const number = utn('keep');
    expect((await tokenSale({ UserTransactionNumber: number, Amount: 0 })).body.ResponseCode).toBe(506);
    expect((await tokenSale({ UserTransactionNumber: number })).body.ResponseCode).toBe(200);
  });

  it('runs the replay lookup before validation: a used number is refused even with a bad body', async () => {
    const number = utn('replay');
    expect((await tokenSale({ UserTransactionNumber: number })).body.ResponseCode).toBe(200);
    expect(
      (await tokenSale({ UserTransactionNumber: number, Amount: 0, Token: undefined })).body.ResponseCode,
    ).toBe(409);
  });

  it("answers 404 for an unknown token and for another merchant's token", async () => {
    expect((await tokenSale({ Token: '00000000-0000-4000-8000-000000000000' })).body.ResponseCode).toBe(404);
    expect((await tokenSale({ ...merchant2 })).body.ResponseCode).toBe(404);
  });

  it('uses ExpDate (MMYY or MM/YY) only when the stored expiry is no longer valid', async () => {
    const old = await gw.post('/api/GatewayAdmin/GetTokenForCard', {
      ...merchant1,
      Account: '4242424242424242',
      expDate: '0121',
    });
    const expiredToken = old.body.Token as string;
    expect((await tokenSale({ Token: expiredToken })).body.ResponseCode).toBe(107);
    expect((await tokenSale({ Token: expiredToken, ExpDate: '12/30' })).body.ResponseCode).toBe(200);
    expect((await tokenSale({ Token: expiredToken, ExpDate: '1230' })).body.ResponseCode).toBe(200);
    expect((await tokenSale({ Token: expiredToken, ExpDate: '13/30' })).body.ResponseCode).toBe(107);
  });
});
