import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import {
  merchant1,
  merchant2,
  startGateway,
  utn,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';

/**
 * Issue 21, item 1: the form/query binder turned dotted and bracketed names into nested objects before
 * authentication, and `__proto__.X` reached Object.prototype — one anonymous request changed every later
 * answer of every merchant. Each shape goes in as a form, a query string and JSON, anonymously; after each
 * one Object.prototype is as it was and another merchant's next sale answers exactly as before.
 */

/** The names a request may try to reach Object.prototype through (X is the polluted property). */
const formShapes = (x: string) => [
  `__proto__.${x}`,
  `__proto__[${x}]`,
  `constructor.prototype.${x}`,
  `constructor[prototype][${x}]`,
  `PaymentLink.__proto__.${x}`,
  `PaymentLink[__proto__][${x}]`,
  `PaymentLink.constructor.prototype.${x}`,
  `request.paymentLink.__proto__.${x}`,
  `__proto__`,
  `prototype.${x}`,
];

const jsonShapes = (x: string): string[] => [
  `{"__proto__":{"${x}":"999"}}`,
  `{"constructor":{"prototype":{"${x}":"999"}}}`,
  `{"PaymentLink":{"__proto__":{"${x}":"999"}}}`,
  `{"PaymentLink":{"constructor":{"prototype":{"${x}":"999"}}}}`,
  // Where the binder does not bind: the second spelling of a field, an undeclared property, an array.
  `{"PaymentLink":{},"paymentLink":{"constructor":{"${x}":"999"}}}`,
  `{"Undeclared":{"prototype":{"${x}":"999"}}}`,
  `{"Undeclared":[{"__PROTO__":{"${x}":"999"}}]}`,
];

/** The fields the requests polluted, and one nobody uses. */
const targets = ['DeclineCode', 'Token', 'CardDifferenceAmount', 'PollutedMarker'];

const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();

describe('prototype pollution through the binder (issue 21, item 1)', () => {
  let gw: TestGateway;
  const clean = prototypeNames();
  let control: Json;
  const sale2 = () =>
    gw.post('/api/Transactions/Sale', {
      ...merchant2,
      Amount: 7.25,
      TransactionType: 1,
      UserTransactionNumber: utn('pp'),
      CardNumber: '4242424242424242',
      ExpDate: '1230',
      CVN: '123',
      ForceDuplication: true,
    });
  const shape = (body: Json) => Object.keys(body).sort();
  const totals = async () => {
    const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
    return (r.body.Transactions as unknown[]).length;
  };

  beforeAll(async () => {
    gw = await startGateway();
    control = (await sale2()).body;
    expect(control.ResponseCode).toBe(ResponseCode.Success);
  });
  afterAll(async () => {
    await gw.close();
  });
  // A failing run must not poison the rest of this file's process: undo whatever reached the prototype.
  afterEach(() => {
    for (const name of Object.getOwnPropertyNames(Object.prototype))
      if (!clean.includes(name)) delete (Object.prototype as Record<string, unknown>)[name];
  });

  async function expectUnpolluted(label: string) {
    expect(prototypeNames(), label).toEqual(clean);
    for (const x of targets)
      expect(({} as Record<string, unknown>)[x], `${label}: ({}).${x}`).toBeUndefined();
    const next = (await sale2()).body;
    expect(next.ResponseCode, label).toBe(ResponseCode.Success);
    expect(shape(next), label).toEqual(shape(control));
    expect(next.DeclineCode, label).toBeUndefined();
    expect(next.Token, label).toBeUndefined();
    expect(next.Amount, label).toBe(7.25);
  }

  it('refuses every shape in an anonymous form POST, in the interface shape, and pollutes nothing', async () => {
    const before = await totals();
    for (const x of targets) {
      for (const name of formShapes(x)) {
        const raw = `${encodeURIComponent(name)}=999&Amount=10.00&TransactionType=1`;
        const r = await gw.post('/api/Transactions/Sale', null, {
          contentType: 'application/x-www-form-urlencoded',
          raw,
        });
        expect(r.status, name).toBe(400);
        expect(r.body, name).toMatchObject({ ResponseCode: ResponseCode.InvalidRequest });
        expect(typeof r.body.verbiage, name).toBe('string');
        expect(Array.isArray(r.body.Msg), name).toBe(true);
        await expectUnpolluted(`form ${name}`);
      }
    }
    expect(await totals()).toBe(before);
  });

  it('refuses every shape in an anonymous Payment Links query, and pollutes nothing', async () => {
    for (const x of targets) {
      for (const name of formShapes(x)) {
        const r = await gw.get(`/api/PaymentLinks?${encodeURIComponent(name)}=x&AppKey=k`);
        expect(r.status, name).toBe(400);
        expect(r.body, name).toMatchObject({ ResponseCode: ResponseCode.InvalidRequest });
        await expectUnpolluted(`query ${name}`);
      }
    }
  });

  it('refuses every shape as JSON, with valid credentials too, and pollutes nothing', async () => {
    const before = await totals();
    for (const x of targets) {
      for (const json of jsonShapes(x)) {
        const withCredentials = `{${JSON.stringify(merchant1).slice(1, -1)},"Amount":10,"TransactionType":1,${json.slice(1)}`;
        for (const raw of [json, withCredentials]) {
          const r = await gw.post('/api/Transactions/Sale', null, { raw });
          expect(r.status, raw).toBe(400);
          expect(r.body, raw).toMatchObject({ ResponseCode: ResponseCode.InvalidRequest });
          await expectUnpolluted(`json ${raw}`);
        }
      }
    }
    expect(await totals()).toBe(before);
  });

  it('still binds ordinary dotted names (PaymentLink.Amount) in a form', async () => {
    const r = await gw.post('/api/PaymentLinks', null, {
      contentType: 'application/x-www-form-urlencoded',
      raw: new URLSearchParams({
        ...Object.fromEntries(Object.entries(merchant1).map(([k, v]) => [k, String(v)])),
        'PaymentLink.Amount': '12.50',
        'PaymentLink[Description]': 'dotted and bracketed',
      }).toString(),
    });
    expect(r.body).toMatchObject({
      ResponseCode: ResponseCode.Success,
      PaymentLink: { Amount: '12.50', Description: 'dotted and bracketed' },
    });
  });
});
