import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW, billing } from './support';
import { storedText } from '../../support/test-database';
import {
  ManualClock,
  keyedSale,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { ResponseCode } from '../../../gateway/contract/response-codes';

describe('Recurring Billing API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false, clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await gw.close();
  });

  const create = async (overrides: Json = {}) => gw.post('/api/RecurringBilling/Create', billing(overrides));
  const get = async (id: unknown, merchant: Json = merchant1) =>
    gw.post('/api/RecurringBilling/Get', { ...merchant, BillingId: id });

  it('creates a billing on a card it vaults, and returns its record', async () => {
    const r = await create();
    expect(r.body.ResponseCode).toBe(200);
    expect(r.body.BillingId).toEqual(expect.any(Number));
    expect(r.body.Billing).toMatchObject({
      Id: r.body.BillingId,
      Amount: 19.99,
      AmountCollectedSoFar: 0,
      FrequencyId: 4,
      Frequency: 'Monthly',
      IsInstallment: false,
      StartDate: '2030-01-15',
      NextPaymentDate: '2030-01-15',
      EndDate: '',
      LastFour: '1111',
      CardType: 'Visa',
      FirstName: 'Grace',
      LastName: 'Hopper',
      Email: 'grace@example.com',
      City: 'Arlington',
      Description: 'Gym membership',
      Active: true,
      Status: 'active',
      InstallmentsPaid: 0,
    });
    const b = r.body.Billing as Json;
    expect(b.CustomerId).toEqual(expect.any(Number));
    expect(JSON.stringify(r.body)).not.toContain('4111111111111111');
    // The billing's customer is a customer record of the merchant.
    const customers = (await gw.post('/api/Customers', merchant1)).body.Customers as Json[];
    expect(customers.find((c) => c.Id === b.CustomerId)).toMatchObject({
      FirstName: 'Grace',
      LastName: 'Hopper',
      CustomerSource: 'Recurring',
    });
    expect((await get(r.body.BillingId)).body.Billing).toEqual(r.body.Billing);
  });

  it('never keeps the card number in clear on disk', async () => {
    await create({ Account: '6011111111111117', ExpDate: '0935' });
    const stored = await storedText(gw.dataDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const { name, text } of stored) expect(text.includes('6011111111111117'), name).toBe(false);
  });

  it('refuses bad input, reporting every problem', async () => {
    const cases: [Json, number, RegExp][] = [
      [{ Amount: '19.99 USD' }, 506, /Amount must be number/],
      [{ Amount: 0 }, 506, /greater than zero/],
      [{ Amount: -5 }, 506, /negative/],
      [{ Amount: 10.001 }, 506, /two decimals/],
      [{ FrequencyId: 8 }, 604, /FrequencyId must be 1 to 7/],
      [{ FrequencyId: 0 }, 604, /FrequencyId/],
      [{ FrequencyId: 'weekly' }, 400, /FrequencyId must be integer/],
      [{ IsInstallment: 'yes' }, 400, /IsInstallment must be boolean/],
      [{ IsInstallment: true, InstallmentTotal: 0 }, 605, /InstallmentTotal must be 1 to 999/],
      [{ StartDate: '2030-01-09T12:00:00Z' }, 605, /StartDate must be today \(2030-01-10\) or later/],
      [{ EndDate: '2030-01-01T00:00:00Z' }, 605, /EndDate is before StartDate/],
      [{ StartDate: 'soon' }, 400, /StartDate/],
      [{ Account: undefined, ExpDate: undefined }, 106, /A card is required/],
      [{ Account: '4111111111111112' }, 104, /Account is not a valid card number/],
      [{ ExpDate: '1229' }, ResponseCode.Declined, /expired/],
      [{ ExpDate: undefined }, 107, /ExpDate/],
      [{ Cv: '12a' }, 400, /Cv must be 3 or 4 digits/],
      [{ CardTokenId: 9999 }, 400, /Send one card/],
      [{ Account: undefined, CardTokenId: 987654 }, 404, /CardTokenId is not a stored card/],
      [{ TaxPercent: 101 }, 400, /TaxPercent/],
      [{ TaxPercent: 8.125 }, 400, /TaxPercent/],
      [{ SurchargePercent: 3 }, 400, /surcharge is not enabled/],
      [{ MerchantId: 1002 }, 403, /MerchantId must be the envelope mid/],
      [{ SelectedCustomerId: 424242 }, 404, /SelectedCustomerId/],
    ];
    const before = ((await gw.post('/api/RecurringBilling/GetAll', merchant1)).body.Billings as Json[])
      .length;
    for (const [overrides, code, message] of cases) {
      const body = billing(overrides);
      for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
      const r = await gw.post('/api/RecurringBilling/Create', body);
      expect(r.body.ResponseCode, JSON.stringify(overrides)).toBe(code);
      expect((r.body.Msg as string[]).join(' | '), JSON.stringify(overrides)).toMatch(message);
      expect(JSON.stringify(r.body)).not.toMatch(/4111111111111112|4111111111111111/);
    }
    const multi = await gw.post(
      '/api/RecurringBilling/Create',
      billing({ Amount: -1, FrequencyId: 9, StartDate: '2001-01-01T00:00:00Z' }),
    );
    expect(multi.body.ResponseCode).toBe(506);
    expect((multi.body.Msg as string[]).length).toBeGreaterThanOrEqual(2);
    const after = ((await gw.post('/api/RecurringBilling/GetAll', merchant1)).body.Billings as Json[]).length;
    expect(after).toBe(before);
  });

  it('bills a card saved by an earlier sale (Token, CardTokenId, TransactionId)', async () => {
    const sale = await gw.post(
      '/api/Transactions/Sale',
      keyedSale({ SaveToken: true, CardNumber: '5555555555554444' }),
    );
    expect(sale.body.ResponseCode).toBe(200);
    const byToken = await create({ Account: undefined, ExpDate: undefined, Token: sale.body.Token });
    expect(byToken.body.ResponseCode).toBe(200);
    expect(byToken.body.Billing).toMatchObject({ LastFour: '4444', CardType: 'Mastercard' });
    const cardTokenId = (byToken.body.Billing as Json).CardTokenId;
    const byId = await create({ Account: undefined, ExpDate: undefined, CardTokenId: cardTokenId });
    expect((byId.body.Billing as Json).CardTokenId).toBe(cardTokenId);
    const bySale = await create({
      Account: undefined,
      ExpDate: undefined,
      TransactionId: sale.body.ServiceReferenceNumber,
    });
    expect((bySale.body.Billing as Json).CardTokenId).toBe(cardTokenId);
    const plain = await gw.post('/api/Transactions/Sale', keyedSale());
    const noCard = await create({
      Account: undefined,
      ExpDate: undefined,
      TransactionId: plain.body.ServiceReferenceNumber,
    });
    expect(noCard.body.ResponseCode).toBe(106);
    // Another merchant's stored card is unknown here.
    const other = await gw.post('/api/RecurringBilling/Create', {
      ...billing({ Account: undefined, ExpDate: undefined, CardTokenId: cardTokenId }),
      ...merchant2,
    });
    expect(other.body.ResponseCode).toBe(404);
    const otherToken = await gw.post('/api/RecurringBilling/Create', {
      ...billing({ Account: undefined, ExpDate: undefined, Token: sale.body.Token }),
      ...merchant2,
    });
    expect(otherToken.body.ResponseCode).toBe(404);
  });

  it('edits amount, description, frequency and dates of an active billing', async () => {
    const id = (await create({ StartDate: '2030-01-31T00:00:00Z' })).body.BillingId;
    const edit = (fields: Json) => gw.post('/api/RecurringBilling/Edit', { ...merchant1, Id: id, ...fields });
    const a = await edit({ Amount: 25.5, Description: 'Gold plan' });
    expect(a.body.Billing).toMatchObject({
      Amount: 25.5,
      Description: 'Gold plan',
      NextPaymentDate: '2030-01-31',
    });
    const b = await edit({ FrequencyId: 2 });
    expect(b.body.Billing).toMatchObject({ Frequency: 'Weekly', NextPaymentDate: '2030-01-31' });
    const c = await edit({ NextPaymentDate: '2030-02-03T09:00:00Z' });
    expect((c.body.Billing as Json).NextPaymentDate).toBe('2030-02-03');
    const d = await edit({ RecurringStart: '2030-02-01T00:00:00Z' });
    expect(d.body.Billing).toMatchObject({ StartDate: '2030-02-01', NextPaymentDate: '2030-02-01' });
    const e = await edit({ RecurringEnd: '2030-06-30T00:00:00Z' });
    expect((e.body.Billing as Json).EndDate).toBe('2030-06-30');
    const cases: [Json, number][] = [
      [{ Amount: 0 }, 506],
      [{ Amount: '3 USD' }, 506],
      [{ FrequencyId: 11 }, 604],
      [{ NextPaymentDate: '2029-12-31T00:00:00Z' }, 605],
      [{ RecurringEnd: '2030-01-20T00:00:00Z' }, 605],
      [{ Id: undefined }, 400],
      [{ Id: 999999 }, 404],
    ];
    for (const [fields, code] of cases) {
      const body: Json = { ...merchant1, Id: id, ...fields };
      for (const [k, v] of Object.entries(fields)) if (v === undefined) delete body[k];
      expect(
        (await gw.post('/api/RecurringBilling/Edit', body)).body.ResponseCode,
        JSON.stringify(fields),
      ).toBe(code);
    }
    expect((await get(id)).body.Billing).toMatchObject({ Amount: 25.5, Frequency: 'Weekly' });
  });

  it('deactivates: Get and GetAll then leave it out, Edit and Deactivate refuse it', async () => {
    const id = (await create()).body.BillingId;
    const off = await gw.post('/api/RecurringBilling/Deactivate', { ...merchant1, BillingId: id });
    expect(off.body.ResponseCode).toBe(200);
    expect(off.body.Billing).toMatchObject({ Active: false, Status: 'deactivated', NextPaymentDate: null });
    expect((await get(id)).body.ResponseCode).toBe(606);
    expect(
      (await gw.post('/api/RecurringBilling/Deactivate', { ...merchant1, BillingId: id })).body.ResponseCode,
    ).toBe(606);
    expect(
      (await gw.post('/api/RecurringBilling/Edit', { ...merchant1, Id: id, Amount: 1 })).body.ResponseCode,
    ).toBe(606);
    const all = (await gw.post('/api/RecurringBilling/GetAll', merchant1)).body.Billings as Json[];
    expect(all.map((b) => b.Id)).not.toContain(id);
    expect(all.every((b) => b.Active === true)).toBe(true);
    const everything = (
      await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, IncludeInactive: true })
    ).body.Billings as Json[];
    expect(everything.find((b) => b.Id === id)).toMatchObject({ Status: 'deactivated' });
    const one = (await gw.post('/api/RecurringBilling/GetAll', { ...merchant1, BillingId: all[0]?.Id })).body
      .Billings as Json[];
    expect(one).toHaveLength(1);
    expect((await gw.post('/api/RecurringBilling/Deactivate', merchant1)).body.ResponseCode).toBe(400);
    expect((await gw.post('/api/RecurringBilling/Get', merchant1)).body.ResponseCode).toBe(400);
    expect(
      (await gw.post('/api/RecurringBilling/Deactivate', { ...merchant1, BillingId: 888888 })).body
        .ResponseCode,
    ).toBe(404);
  });

  it('merchant 1002 never sees or changes a billing of 1001', async () => {
    const id = (await create()).body.BillingId;
    expect((await get(id, merchant2)).body.ResponseCode).toBe(404);
    expect(
      (await gw.post('/api/RecurringBilling/Edit', { ...merchant2, Id: id, Amount: 1 })).body.ResponseCode,
    ).toBe(404);
    expect(
      (await gw.post('/api/RecurringBilling/Deactivate', { ...merchant2, BillingId: id })).body.ResponseCode,
    ).toBe(404);
    const all2 = (await gw.post('/api/RecurringBilling/GetAll', { ...merchant2, IncludeInactive: true })).body
      .Billings as Json[];
    expect(all2.map((b) => b.Id)).not.toContain(id);
    const by = (await gw.post('/api/RecurringBilling/GetAll', { ...merchant2, BillingId: id })).body
      .Billings as Json[];
    expect(by).toEqual([]);
    expect((await get(id)).body.Billing).toMatchObject({ Amount: 19.99, Active: true });
  });
});
