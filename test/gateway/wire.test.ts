import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, merchant1, startGateway, utn, type TestGateway } from '../support/gateway-harness';

async function report(gw: TestGateway) {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
  return r.body.Transactions as Record<string, unknown>[];
}

describe('the wire: JSON, forms, and transport faults', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ bodyLimitBytes: 8 * 1024 });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers unparseable JSON with HTTP 400 in the interface shape, and changes nothing', async () => {
    const before = (await report(gw)).length;
    const r = await gw.post('/api/Transactions/Sale', null, { raw: '{"Amount": 1,,}' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ResponseCode: 400, verbiage: 'INVALID REQUEST' });
    expect(Array.isArray(r.body.Msg)).toBe(true);
    expect((await report(gw)).length).toBe(before);
  });

  it('answers an oversized body with 413, an unknown path with 404, a wrong method with 405, an unknown media type with 415', async () => {
    const big = await gw.post('/api/Transactions/Sale', keyedSale({ OrderReference: 'x'.repeat(20_000) }));
    expect(big.status).toBe(413);
    expect(big.body.ResponseCode).toBe(413);
    const unknown = await gw.post('/api/Transactions/NoSuchThing', merchant1);
    expect(unknown.status).toBe(404);
    expect(unknown.body.ResponseCode).toBe(404);
    const method = await gw.get('/api/Transactions/Sale');
    expect(method.status).toBe(405);
    expect(method.body.ResponseCode).toBe(405);
    const media = await gw.post('/api/Transactions/Sale', null, {
      raw: '<xml/>',
      contentType: 'application/xml',
    });
    expect(media.status).toBe(415);
    expect(media.body.ResponseCode).toBe(415);
  });

  it('refuses a quoted number where a number is declared, naming the field', async () => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale({ Amount: '10.00' }));
    expect(r.status).toBe(200);
    expect(r.body.ResponseCode).toBe(506);
    expect(r.body.Msg).toContain('Amount must be number');
    const t = await gw.post('/api/Transactions/Sale', keyedSale({ TransactionType: '1' }));
    expect(t.body.ResponseCode).toBe(501);
  });

  it('lists every problem of a request, not only the first', async () => {
    const r = await gw.post('/api/Transactions/Sale', {
      ...merchant1,
      Amount: 1.234,
      TransactionType: 3,
      CVN: 12,
    });
    expect(r.body.ResponseCode).toBe(506);
    const msg = r.body.Msg as string[];
    expect(msg[0]).toBe('Amount must have at most two decimals');
    expect(msg).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TransactionType must be the JSON integer 1/),
        'CVN must be string',
        'UserTransactionNumber is required',
      ]),
    );
  });

  it('binds form-urlencoded bodies case-insensitively with declared types', async () => {
    const number = utn('form');
    const form = new URLSearchParams({
      appkey: merchant1.AppKey,
      APPTYPE: '1',
      Mid: '1001',
      CID: '1',
      username: merchant1.UserName,
      PASSWORD: merchant1.Password,
      amount: '12.50',
      transactiontype: '1',
      usertransactionnumber: number,
      cardnumber: '4242424242424242',
      expdate: '1230',
      forceduplication: 'True',
      SaveToken: 'False',
      UnknownField: 'ignored',
    });
    const r = await gw.post('/api/Transactions/Sale', null, {
      raw: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(r.body.ResponseCode).toBe(200);
    expect(r.body.Amount).toBe(12.5);
    expect(r.body.UserTransactionNumber).toBe(number);
    expect(r.body.Token).toBeUndefined();
    const badForm = await gw.post('/api/Transactions/Sale', null, {
      raw: new URLSearchParams({
        ...Object.fromEntries(form),
        amount: 'twelve',
        usertransactionnumber: utn(),
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(badForm.body.ResponseCode).toBe(506);
  });

  it('stores hostile strings as inert data', async () => {
    const hostile = `x'); DROP TABLE payments; --<script>alert(1)</script>`;
    const r = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ UserTransactionNumber: hostile.slice(0, 60), InvoiceNumber: hostile.slice(0, 60) }),
    );
    expect(r.body.ResponseCode).toBe(200);
    const rows = await report(gw);
    expect(rows.some((t) => t.UserTransactionNumber === hostile.slice(0, 60))).toBe(true);
    expect(rows.some((t) => t.InvoiceNumber === hostile.slice(0, 60))).toBe(true);
  });

  it('answers a non-object body with a clear error', async () => {
    const r = await gw.post('/api/Transactions/Sale', [1, 2, 3]);
    expect(r.body.ResponseCode).toBe(400);
  });
});

describe('base path prefix', () => {
  it('serves the API under a configured prefix only', async () => {
    const gw = await startGateway({ basePath: '/testing' });
    try {
      expect((await gw.post('/testing/api/BusinessSettings/Get', merchant1)).body.ResponseCode).toBe(200);
      expect((await gw.post('/api/BusinessSettings/Get', merchant1)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });
});
