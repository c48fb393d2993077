import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { swipe } from '../support/cards';
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

  it('binds quoted numbers and booleans where they are declared, as the real service does', async () => {
    const r = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({
        mid: '1001',
        cid: '1',
        AppType: '1',
        Amount: '25.00',
        TaxAmount: '1.5',
        TransactionType: '1',
        ForceDuplication: 'True',
        IsTest: 'true',
      }),
    );
    expect(r.body).toMatchObject({ ResponseCode: ResponseCode.Success, Amount: 25, TaxAmount: 1.5 });
  });

  it('never loosens the money rules for quoted amounts, and changes nothing', async () => {
    const before = (await report(gw)).length;
    for (const Amount of [
      '10.001',
      '1e3',
      ' 10',
      '10 ',
      '+10',
      '-5',
      '0.00',
      'Infinity',
      '1,000.00',
      '',
      'ten',
    ]) {
      const r = await gw.post('/api/Transactions/Sale', keyedSale({ Amount }));
      expect(r.body.ResponseCode, JSON.stringify(Amount)).toBe(ResponseCode.InvalidAmount);
    }
    expect((await report(gw)).length).toBe(before);
  });

  it('keeps the JSON numbers the interface fixes on SaleWithToken: 506, 501, 3 in that priority', async () => {
    const token = {
      ...merchant1,
      UserTransactionNumber: utn('tok'),
      Token: '00000000-0000-4000-8000-000000000000',
    };
    const amount = await gw.post('/api/Transactions/SaleWithToken', {
      ...token,
      Amount: '10.00',
      TransactionType: 2,
    });
    expect(amount.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    const surcharge = await gw.post('/api/Transactions/SaleWithToken', {
      ...token,
      Amount: 10,
      SurchargeAmount: '0.50',
      TransactionType: 2,
    });
    expect(surcharge.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    const type = await gw.post('/api/Transactions/SaleWithToken', {
      ...token,
      Amount: 10,
      TransactionType: '2',
    });
    expect(type.body.ResponseCode).toBe(ResponseCode.InvalidTransactionType);
    const { Token: _t, ...noToken } = token;
    const all = await gw.post('/api/Transactions/SaleWithToken', {
      ...noToken,
      amount: '1',
      transactiontype: '2',
    });
    expect(all.body.ResponseCode).toBe(ResponseCode.InvalidAmount);
    expect(all.body.Msg).toEqual([
      expect.stringMatching(/^Amount /),
      expect.stringMatching(/^TransactionType /),
      'Token is required',
    ]);
  });

  it('binds JSON property names case-insensitively, nested objects too; the declared spelling wins', async () => {
    const number = utn('ci');
    const r = await gw.post('/api/Transactions/Sale', {
      appkey: merchant1.AppKey,
      APPTYPE: 1,
      Mid: 1001,
      CID: 1,
      username: merchant1.UserName,
      PASSWORD: merchant1.Password,
      amount: 12.5,
      Amount: 13,
      transactiontype: 1,
      usertransactionnumber: number,
      cardnumber: '4242424242424242',
      expdate: '1230',
      forceduplication: true,
    });
    expect(r.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      Amount: 13,
      UserTransactionNumber: number,
    });
    const link = await gw.post('/api/PaymentLinks', {
      ...merchant1,
      paymentlink: { amount: '12.50', DESCRIPTION: 'nested' },
    });
    expect(link.body.ResponseCode).toBe(ResponseCode.Success);
    expect(link.body.PaymentLink).toMatchObject({ Amount: '12.50', Description: 'nested', Type: 'Fixed' });
  });

  it('binds the card names published clients send: TrackData as Track2, Account/cv/expDate as the keyed card', async () => {
    const { CardNumber: _c, ExpDate: _e, CVN: _v, ...noCard } = keyedSale();
    const keyed = await gw.post('/api/Transactions/Sale', {
      ...noCard,
      Account: '5555555555554444',
      cv: '123',
      expDate: '1230',
    });
    expect(keyed.body).toMatchObject({ ResponseCode: ResponseCode.Success, LastFour: '4444' });
    const badCv = await gw.post('/api/Transactions/Sale', {
      ...noCard,
      UserTransactionNumber: utn('cv'),
      Account: '5555555555554444',
      cv: '12x',
      expDate: '1230',
    });
    expect(badCv.body.Msg).toContain('CVN must be 3 or 4 digits');
    const swiped = await gw.post('/api/Transactions/Sale', {
      ...noCard,
      UserTransactionNumber: utn('td'),
      track2: '',
      TrackData: swipe('4242424242424242'),
    });
    expect(swiped.body).toMatchObject({ ResponseCode: ResponseCode.Success, LastFour: '4242' });
    const rows = await report(gw);
    expect(rows.find((r) => r.ServiceReferenceNumber === swiped.body.ServiceReferenceNumber)).toMatchObject({
      CardWasSwiped: 1,
    });
    // The declared name wins over an alias: CardNumber beside Account is the card.
    const both = await gw.post('/api/Transactions/Sale', {
      ...keyedSale({ UserTransactionNumber: utn('both') }),
      Account: '5555555555554444',
    });
    expect(both.body.LastFour).toBe('1111');
  });

  it('treats an empty string for an optional field as absent', async () => {
    const r = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ CVN: '', Track2: '', SURI: '', InvoiceNumber: '', SaveToken: '', CustomerId: '' }),
    );
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    expect(r.body.Token).toBeUndefined();
    // A required field stays required: an empty UserTransactionNumber is the real catalog's 30.
    const utnEmpty = await gw.post('/api/Transactions/Sale', keyedSale({ UserTransactionNumber: '' }));
    expect(utnEmpty.body.ResponseCode).toBe(ResponseCode.UserTransactionNumberEmpty);
  });

  it('reads JSON under text/json and +json media types, in the charset the header names', async () => {
    for (const contentType of [
      'text/json',
      'text/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/vnd.tillpoint+json',
      'TEXT/JSON',
    ]) {
      const r = await gw.post('/api/Transactions/Sale', keyedSale(), { contentType });
      expect(r.status, contentType).toBe(200);
      expect(r.body.ResponseCode, contentType).toBe(ResponseCode.Success);
    }
    // ISO-8859-1 bytes: é is one byte 0xE9, which UTF-8 would refuse to read as é.
    const body = JSON.stringify(keyedSale({ NameOnCard: 'José Núñez' }));
    const res = await fetch(`${gw.baseUrl}/api/Transactions/Sale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      body: Buffer.from(body, 'latin1'),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Record<string, unknown>).ResponseCode).toBe(ResponseCode.Success);
    const unknown = await gw.post('/api/Transactions/Sale', keyedSale(), {
      contentType: 'application/json; charset=x-no-such',
    });
    expect(unknown.status).toBe(415);
    expect(unknown.body.ResponseCode).toBe(ResponseCode.UnsupportedMediaType);
  });

  it("answers a request without a body with the real catalog's 13, changing nothing", async () => {
    const before = (await report(gw)).length;
    for (const raw of ['', '   ', 'null']) {
      const r = await gw.post('/api/Transactions/Sale', null, { raw });
      expect(r.status, JSON.stringify(raw)).toBe(200);
      expect(r.body.ResponseCode, JSON.stringify(raw)).toBe(ResponseCode.EmptyRequest);
    }
    const bare = await fetch(`${gw.baseUrl}/api/Transactions/Sale`, { method: 'POST' });
    expect(((await bare.json()) as Record<string, unknown>).ResponseCode).toBe(ResponseCode.EmptyRequest);
    expect((await report(gw)).length).toBe(before);
  });

  it('matches paths case-insensitively; OpenAPI keeps the declared spelling', async () => {
    const r = await gw.post('/API/transactions/SALE', keyedSale());
    expect(r.body.ResponseCode).toBe(ResponseCode.Success);
    const wrongMethod = await gw.get('/api/transactions/sale');
    expect(wrongMethod.status).toBe(405);
    const doc = (await gw.get('/openapi.json')).body as { paths: Record<string, unknown> };
    expect(doc.paths['/api/Transactions/Sale']).toBeDefined();
    expect(doc.paths['/api/transactions/sale']).toBeUndefined();
  });

  it('lets an ordinary HTTP client read the 413 of a body far over the limit (fetch and node:http)', async () => {
    const big = JSON.stringify(keyedSale({ OrderReference: 'x'.repeat(3 * 1024 * 1024) }));
    const res = await fetch(`${gw.baseUrl}/api/Transactions/Sale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Record<string, unknown>).ResponseCode).toBe(ResponseCode.RequestTooLarge);
    // A client still uploading (chunked, a piece every few ms) when the limit is passed: before the
    // drain the server closed on it and its next write failed with EPIPE instead of reading the 413.
    const viaHttp = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${gw.baseUrl}/api/Transactions/Sale`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (answer) => {
          let text = '';
          answer.setEncoding('utf8');
          answer.on('data', (c: string) => (text += c));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const piece = Buffer.alloc(64 * 1024, 0x20);
      const next = (): void => {
        if (sent >= 2 * 1024 * 1024) {
          req.end();
          return;
        }
        sent += piece.length;
        req.write(piece);
        setTimeout(next, 5);
      };
      next();
    });
    expect(viaHttp.status).toBe(413);
    expect(JSON.parse(viaHttp.text)).toMatchObject({ ResponseCode: ResponseCode.RequestTooLarge });
  });

  it('lists every problem of a request, not only the first', async () => {
    const r = await gw.post('/api/Transactions/Sale', {
      ...merchant1,
      Amount: 1.234,
      TransactionType: 3,
      CVN: true,
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

describe('base path and the test environment prefix', () => {
  it('serves the API under a configured prefix only', async () => {
    const gw = await startGateway({ basePath: '/testing' });
    try {
      expect((await gw.post('/testing/api/BusinessSettings/Get', merchant1)).body.ResponseCode).toBe(200);
      expect((await gw.post('/api/BusinessSettings/Get', merchant1)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });

  it('answers /testing/api/... as /api/... in sandbox mode, under a base path too', async () => {
    const gw = await startGateway({ basePath: '/gw' });
    try {
      const sale = await gw.post('/gw/testing/api/Transactions/Sale', keyedSale());
      expect(sale.body.ResponseCode).toBe(ResponseCode.Success);
      const lower = await gw.post('/gw/Testing/API/transactions/sale', keyedSale());
      expect(lower.body.ResponseCode).toBe(ResponseCode.Success);
      expect((await gw.post('/gw/api/Transactions/Sale', keyedSale())).body.ResponseCode).toBe(
        ResponseCode.Success,
      );
      expect((await gw.post('/testing/api/Transactions/Sale', keyedSale())).status).toBe(404);
    } finally {
      await gw.close();
    }
  });

  it('turns the test prefix off when asked (the default outside the sandbox)', async () => {
    const gw = await startGateway({ testingPrefix: false });
    try {
      expect((await gw.post('/testing/api/Transactions/Sale', keyedSale())).status).toBe(404);
      expect((await gw.post('/api/Transactions/Sale', keyedSale())).body.ResponseCode).toBe(
        ResponseCode.Success,
      );
    } finally {
      await gw.close();
    }
  });
});
