import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { ResponseCode } from '../../../gateway/contract/response-codes';

describe('Customers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('lists the records SaveCustomer created, with the customer record fields, in both endpoints', async () => {
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({
        SaveCustomer: true,
        CustomerId: 77,
        NameOnCard: 'Jane Q Public',
        CustomerEmail: 'jane@example.com',
        CustomerPhone: '+1 555 0100',
        CustomerCity: 'Springfield',
        CustomerState: 'IL',
        CustomerCountry: 'US',
        InvoiceNumber: 'INV-9',
        Source: 'VirtualTerminal',
      }),
    );
    expect(sale.body.ResponseCode).toBe(200);
    const id = sale.body.CustomerId;
    const hostile = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ SaveCustomer: true, NameOnCard: `Zoë "<b>" O'Brien` }),
    );
    const a = await gw.post('/api/Customers', merchant1);
    const b = await gw.post('/api/Customers/GetByMerchant', merchant1);
    expect(a.body.ResponseCode).toBe(200);
    expect(b.body.Customers).toEqual(a.body.Customers);
    const customers = a.body.Customers as Json[];
    const jane = customers.find((c) => c.Id === id);
    expect(jane).toMatchObject({
      MID: 1001,
      CustomerId: '77',
      FirstName: 'Jane Q',
      LastName: 'Public',
      Email: 'jane@example.com',
      Phone: '+1 555 0100',
      City: 'Springfield',
      State: 'IL',
      Country: 'US',
      Invoice: 'INV-9',
      PO: '',
      CustomerSource: 'VirtualTerminal',
      Status: 1,
    });
    expect(jane?.CreateDate).toBe(String(jane?.AddedOn).slice(0, 10));
    expect(customers.find((c) => c.Id === hostile.body.CustomerId)).toMatchObject({
      FirstName: 'Zoë "<b>"',
      LastName: "O'Brien",
    });
  });

  it('shows a merchant its own customers only', async () => {
    const mine = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ ...merchant2, SaveCustomer: true, NameOnCard: 'Cafe Regular' }),
    );
    const list2 = (await gw.post('/api/Customers', merchant2)).body.Customers as Json[];
    expect(list2.map((c) => c.Id)).toEqual([mine.body.CustomerId]);
    const list1 = (await gw.post('/api/Customers/GetByMerchant', merchant1)).body.Customers as Json[];
    expect(list1.every((c) => c.MID === 1001)).toBe(true);
    expect(list1.map((c) => c.Id)).not.toContain(mine.body.CustomerId);
    const denied = await gw.post('/api/Customers', { ...merchant1, mid: 1002 });
    expect(denied.body.ResponseCode).toBe(ResponseCode.InvalidHostCredentials);
    expect(denied.body).not.toHaveProperty('Customers');
  });
});

describe('MobileWalletTransaction', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  const full = {
    BusinessCustomerId: 'BC-1',
    DailyTransactionId: 12,
    EcommerceId: 'EC-1001',
    EcommerceStatus: 'Confirm',
    Fee: 0.3,
    NetAmount: 10.7,
    ReferenceNumber: 'REF-1',
    SubTotal: 10,
    Tax: 1,
    Total: 11,
    TotalRefundedAmount: 0,
    TransactionDate: '2030-01-10T12:00:00Z',
  };

  it('stores a transaction and lists the merchant’s, filtered by the fields sent', async () => {
    const r = await gw.post('/api/MobileWalletTransaction/Create', {
      ...merchant1,
      ...full,
      Merchantid: 1001,
    });
    expect(r.body.ResponseCode).toBe(200);
    const t = (r.body.Transactions as Json[])[0];
    expect(t).toMatchObject({ ...full, Mid: 1001, TransactionDate: '2030-01-10T12:00:00.000Z' });
    expect(t?.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t).not.toHaveProperty('Merchantid');
    await gw.post('/api/MobileWalletTransaction/Create', { ...merchant1, EcommerceId: 'EC-1002', Total: 5 });
    const all = (await gw.post('/api/MobileWalletTransaction', merchant1)).body.Transactions as Json[];
    expect(all.map((x) => x.EcommerceId)).toEqual(['EC-1001', 'EC-1002']);
    expect(all[1]).toMatchObject({ EcommerceStatus: 'Open', Fee: null, Total: 5 });
    const one = (await gw.post('/api/MobileWalletTransaction', { ...merchant1, EcommerceId: 'EC-1002' })).body
      .Transactions as Json[];
    expect(one).toHaveLength(1);
    const confirmed = (
      await gw.post('/api/MobileWalletTransaction', { ...merchant1, EcommerceStatus: 'Confirm' })
    ).body.Transactions as Json[];
    expect(confirmed.map((x) => x.EcommerceId)).toEqual(['EC-1001']);
  });

  it('refuses bad amounts, types and another merchant id; an EcommerceId is stored once', async () => {
    const cases: [Json, number][] = [
      [{ Fee: '1.00 USD' }, 506],
      [{ Total: -1 }, 506],
      [{ Tax: 1.001 }, 506],
      [{ Total: 5, TotalRefundedAmount: 6 }, 506],
      [{ EcommerceStatus: 'Done' }, 400],
      [{ DailyTransactionId: 1.5 }, 400],
      [{ DailyTransactionId: -3 }, 400],
      [{ TransactionDate: 'yesterday' }, 400],
      [{ Merchantid: 1002 }, 403],
      [{ EcommerceId: 'EC-1001' }, 426],
    ];
    for (const [fields, code] of cases) {
      const r = await gw.post('/api/MobileWalletTransaction/Create', { ...merchant1, ...fields });
      expect(r.body.ResponseCode, JSON.stringify(fields)).toBe(code);
    }
    const count = ((await gw.post('/api/MobileWalletTransaction', merchant1)).body.Transactions as Json[])
      .length;
    expect(count).toBe(2);
  });

  it('keeps merchants apart', async () => {
    const theirs = await gw.post('/api/MobileWalletTransaction/Create', {
      ...merchant2,
      EcommerceId: 'EC-1001',
      Total: 2,
    });
    expect(theirs.body.ResponseCode).toBe(200);
    const list2 = (await gw.post('/api/MobileWalletTransaction', merchant2)).body.Transactions as Json[];
    expect(list2).toHaveLength(1);
    expect(list2[0]).toMatchObject({ Mid: 1002, Total: 2 });
    const peek = await gw.post('/api/MobileWalletTransaction', { ...merchant2, Merchantid: 1001 });
    expect(peek.body.ResponseCode).toBe(ResponseCode.MerchantAccessDenied);
    const list1 = (await gw.post('/api/MobileWalletTransaction', merchant1)).body.Transactions as Json[];
    expect(list1.every((x) => x.Mid === 1001)).toBe(true);
  });
});
