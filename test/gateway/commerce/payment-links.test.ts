import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { createLink, linksQuery, put } from './support';
import { ResponseCode } from '../../../gateway/contract/response-codes';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Payment Links API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  const post = (path: string, link: unknown, merchant: Json = merchant1) =>
    gw.post(path, { ...merchant, PaymentLink: link });

  describe('create', () => {
    it('makes an Open link when Amount is omitted, null or empty, with Link and no Url', async () => {
      for (const link of [{}, { Amount: null }, { Amount: '' }, { Amount: '   ' }]) {
        const r = await post('/api/PaymentLinks', { ...link, Description: 'Tip jar' });
        expect(r.body.ResponseCode).toBe(200);
        const pl = r.body.PaymentLink as Json;
        expect(pl.Type).toBe('Open');
        expect(pl.Amount).toBeNull();
        expect(pl.Status).toBe('UnPaid');
        expect(pl.Active).toBe(true);
        expect(pl.MerchantId).toBe(1001);
        expect(pl.Id).toMatch(UUID_V4);
        expect(pl.Link).toBe(`${gw.baseUrl}/pay/${String(pl.Id)}`);
        expect(pl).not.toHaveProperty('Url');
        expect(pl.PaidOn).toBeNull();
        expect(pl.ServiceReferenceNumber).toBeNull();
      }
    });

    it('makes a Fixed link from a positive en-US amount string, formatted back as currency text', async () => {
      const cases: [string, string][] = [
        ['12.50', '12.50'],
        ['12.5', '12.50'],
        ['7', '7.00'],
        ['$20', '20.00'],
        ['1,234.5', '1,234.50'],
        ['0.01', '0.01'],
      ];
      for (const [input, shown] of cases) {
        const pl = await createLink(gw, { Amount: input });
        expect(pl.Type).toBe('Fixed');
        expect(pl.Amount).toBe(shown);
      }
    });

    it('never lets an input Type override the amount rule', async () => {
      expect((await createLink(gw, { Type: 'Fixed' })).Type).toBe('Open');
      expect((await createLink(gw, { Type: 'Open', Amount: '5.00' })).Type).toBe('Fixed');
    });

    it('refuses non-positive, 3-decimal, numeric and malformed amounts with 506, changing nothing', async () => {
      const before = await gw.get(linksQuery(merchant1));
      const bad: unknown[] = [
        '-5.00',
        '0',
        '0.00',
        '12.345',
        'abc',
        '1e3',
        '12.',
        '99,999,999.00',
        '1,23.00',
        12.5,
        0,
        true,
      ];
      for (const Amount of bad) {
        const r = await post('/api/PaymentLinks', { Amount });
        expect(r.status).toBe(200);
        expect(r.body.ResponseCode, `Amount ${JSON.stringify(Amount)}`).toBe(506);
        expect((r.body.Msg as string[]).join(' ')).toMatch(/PaymentLink\.Amount/);
      }
      const after = await gw.get(linksQuery(merchant1));
      expect((after.body.PaymentLinks as Json[]).length).toBe((before.body.PaymentLinks as Json[]).length);
    });

    it('does not store unknown properties', async () => {
      const r = await post('/api/PaymentLinks/AddPaymentLink', {
        Amount: '9.99',
        Name: 'Someone',
        OrderReference: 'ORD-1',
        CustomerEmail: 'a@example.com',
        Url: 'https://evil.example/',
        Status: 'Paid',
        Active: false,
        ServiceReferenceNumber: '123456789012',
      });
      expect(r.body.ResponseCode).toBe(200);
      const pl = r.body.PaymentLink as Json;
      for (const k of ['Name', 'OrderReference', 'CustomerEmail', 'Url']) expect(pl).not.toHaveProperty(k);
      // Server-set fields are not inputs either.
      expect(pl.Status).toBe('UnPaid');
      expect(pl.Active).toBe(true);
      expect(pl.ServiceReferenceNumber).toBeNull();
      const got = await post('/api/PaymentLinks/GetPaymentLink', { Id: pl.Id });
      expect(Object.keys(got.body.PaymentLink as Json).sort()).toEqual(Object.keys(pl).sort());
    });

    it('requires the PaymentLink object and its declared types (text that is no number or boolean refused)', async () => {
      const missing = await gw.post('/api/PaymentLinks', { ...merchant1 });
      expect(missing.body.ResponseCode).toBe(400);
      expect((missing.body.Msg as string[]).join(' ')).toMatch(/PaymentLink is required/);
      const quoted = await post('/api/PaymentLinks', { FrequencyId: 'four', AllowRecurringPayment: 'yes' });
      expect(quoted.body.ResponseCode).toBe(400);
      const msg = (quoted.body.Msg as string[]).join(' | ');
      expect(msg).toMatch(/PaymentLink\.FrequencyId must be integer/);
      expect(msg).toMatch(/PaymentLink\.AllowRecurringPayment must be boolean/);
    });

    it('accepts a form-urlencoded body with dotted names', async () => {
      const r = await gw.post('/api/PaymentLinks', undefined, {
        contentType: 'application/x-www-form-urlencoded',
        raw: new URLSearchParams({
          appkey: merchant1.AppKey,
          apptype: '1',
          mid: '1001',
          cid: '1',
          username: merchant1.UserName,
          password: merchant1.Password,
          'PaymentLink.Amount': '15.25',
          'paymentlink.description': 'Form link',
          'PaymentLink.AllowRecurringPayment': 'False',
        }).toString(),
      });
      expect(r.body.ResponseCode).toBe(200);
      expect((r.body.PaymentLink as Json).Amount).toBe('15.25');
      expect((r.body.PaymentLink as Json).Description).toBe('Form link');
    });

    it('checks the schedule settings: frequency table, allowed schedules, installments, dates', async () => {
      const recurring = await createLink(gw, {
        Amount: '30.00',
        AllowRecurringPayment: true,
        FrequencyId: 4,
        InstallmentTotal: 3,
        RecurringDescription: 'Monthly box',
      });
      expect(recurring.AllowedPaymentSchedule).toBe('SingleAndRecurringOrInstallment');
      expect(recurring.AllowRecurringPayment).toBe(true);
      expect(recurring.PaymentSchedule).toBe('Single');
      const open = await createLink(gw, {
        AllowedPaymentSchedule: 'OnlyRecurring',
        IsOpenPaymentSchedule: true,
      });
      expect(open.PaymentSchedule).toBe('Recurring');
      expect(open.IsOpenPaymentSchedule).toBe(true);

      const cases: [Json, number, RegExp][] = [
        [{ AllowRecurringPayment: true }, 604, /FrequencyId is required/],
        [{ AllowedPaymentSchedule: 'OnlyRecurring', FrequencyId: 9 }, 604, /FrequencyId must be 1 to 7/],
        [{ PaymentSchedule: 'Recurring' }, 603, /not allowed by AllowedPaymentSchedule OnlySingle/],
        [
          { AllowRecurringPayment: false, AllowedPaymentSchedule: 'OnlyRecurring', FrequencyId: 1 },
          603,
          /contradicts/,
        ],
        [
          { AllowedPaymentSchedule: 'OnlyInstallment', FrequencyId: 2, InstallmentTotal: 1 },
          605,
          /InstallmentTotal must be 2 to 120/,
        ],
        [{ AllowedPaymentSchedule: 'OnlyInstallment', FrequencyId: 2 }, 605, /InstallmentTotal is required/],
        [
          { StartDate: '2031-05-01T00:00:00Z', EndDate: '2031-04-01T00:00:00Z' },
          605,
          /EndDate is before StartDate/,
        ],
        [{ EndDate: '2001-01-01T00:00:00Z' }, 605, /EndDate is in the past/],
        [{ StartDate: 'tomorrow' }, 400, /StartDate/],
      ];
      for (const [link, code, message] of cases) {
        const r = await post('/api/PaymentLinks', link);
        expect(r.body.ResponseCode, JSON.stringify(link)).toBe(code);
        expect((r.body.Msg as string[]).join(' '), JSON.stringify(link)).toMatch(message);
      }
    });

    it('reports every problem at once', async () => {
      const r = await post('/api/PaymentLinks', {
        Amount: '-1',
        FrequencyId: 12,
        PaymentSchedule: 'Installment',
      });
      const msg = r.body.Msg as string[];
      expect(r.body.ResponseCode).toBe(506);
      expect(msg.length).toBeGreaterThanOrEqual(3);
    });

    it('keeps hostile text as data', async () => {
      const hostile = `<script>alert(1)</script>"'&; DROP TABLE payment_links;--`;
      const pl = await createLink(gw, { Description: hostile, InvoiceNumber: "INV-'1'" });
      expect(pl.Description).toBe(hostile);
      const listed = await gw.get(linksQuery(merchant1, { id: String(pl.Id) }));
      expect((listed.body.PaymentLinks as Json[])[0]?.Description).toBe(hostile);
    });
  });

  describe('get, disable, enable, edit, delete', () => {
    it('disables and enables by PaymentLink.Id', async () => {
      const pl = await createLink(gw, { Amount: '4.00' });
      const off = await put(gw, '/api/PaymentLinks/DisablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect(off.body.ResponseCode).toBe(200);
      expect((off.body.PaymentLink as Json).Active).toBe(false);
      expect((off.body.PaymentLink as Json).DisabledOn).toEqual(expect.any(String));
      const again = await put(gw, '/api/PaymentLinks/DisablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect((again.body.PaymentLink as Json).DisabledOn).toBe((off.body.PaymentLink as Json).DisabledOn);
      const on = await put(gw, '/api/PaymentLinks/EnablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect((on.body.PaymentLink as Json).Active).toBe(true);
      expect((on.body.PaymentLink as Json).DisabledOn).toBeNull();
    });

    it('edits only the fields sent; a sent Amount decides Open or Fixed again', async () => {
      const pl = await createLink(gw, { Amount: '10.00', Description: 'Before', InvoiceNumber: 'I-1' });
      const edit = (link: Json) =>
        put(gw, '/api/PaymentLinks/EditPaymentLink', { ...merchant1, PaymentLink: { Id: pl.Id, ...link } });
      const a = await edit({ Description: 'After' });
      expect(a.body.ResponseCode).toBe(200);
      expect(a.body.PaymentLink).toMatchObject({
        Description: 'After',
        InvoiceNumber: 'I-1',
        Amount: '10.00',
        Type: 'Fixed',
      });
      const b = await edit({ Type: 'Open' });
      expect((b.body.PaymentLink as Json).Type).toBe('Fixed');
      const c = await edit({ Amount: '' });
      expect(c.body.PaymentLink).toMatchObject({ Type: 'Open', Amount: null });
      const d = await edit({ Amount: '3,000' });
      expect(d.body.PaymentLink).toMatchObject({ Type: 'Fixed', Amount: '3,000.00' });
      const bad = await edit({ Amount: '-3' });
      expect(bad.body.ResponseCode).toBe(506);
      const still = await gw.post('/api/PaymentLinks/GetPaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect((still.body.PaymentLink as Json).Amount).toBe('3,000.00');
    });

    it('identifies links by their UUID only', async () => {
      const noId = await put(gw, '/api/PaymentLinks/EditPaymentLink', {
        ...merchant1,
        PaymentLink: { Description: 'x' },
      });
      expect(noId.body.ResponseCode).toBe(400);
      const intId = await put(gw, '/api/PaymentLinks/DisablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: 5 },
      });
      expect(intId.body.ResponseCode).toBe(400);
      const notUuid = await put(gw, '/api/PaymentLinks/DisablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: '5' },
      });
      expect(notUuid.body.ResponseCode).toBe(400);
      expect((notUuid.body.Msg as string[])[0]).toMatch(/UUID/);
      const unknown = await put(gw, '/api/PaymentLinks/DisablePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: '6f1c2a4e-3b7d-4c8e-9f00-112233445566' },
      });
      expect(unknown.body.ResponseCode).toBe(404);
    });

    it('deletes a link: gone from every operation and its page', async () => {
      const pl = await createLink(gw, { Amount: '2.00', Description: 'to delete' });
      const del = await gw.post('/api/PaymentLinks/DeletePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect(del.body.ResponseCode).toBe(200);
      const get = await gw.post('/api/PaymentLinks/GetPaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect(get.body.ResponseCode).toBe(404);
      const list = await gw.get(linksQuery(merchant1, { id: String(pl.Id) }));
      expect(list.body.PaymentLinks).toEqual([]);
      const page = await fetch(String(pl.Link));
      expect(page.status).toBe(404);
      const twice = await gw.post('/api/PaymentLinks/DeletePaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect(twice.body.ResponseCode).toBe(404);
    });

    it('answers 405 for a wrong method', async () => {
      const r = await gw.post('/api/PaymentLinks/DisablePaymentLink', { ...merchant1, PaymentLink: {} });
      expect(r.status).toBe(405);
    });
  });

  describe('GET /api/PaymentLinks', () => {
    it('authenticates with the request.-prefixed query envelope', async () => {
      const ok = await gw.get(linksQuery(merchant1));
      expect(ok.body.ResponseCode).toBe(200);
      const wrong = await gw.get(linksQuery({ ...merchant1, Password: 'nope' }));
      expect(wrong.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
      expect(wrong.body).not.toHaveProperty('PaymentLinks');
      const none = await gw.get('/api/PaymentLinks');
      expect(none.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    });

    it('filters by request.paymentLink.<field>, typed', async () => {
      const tag = `filter-${Date.now()}`;
      const fixed = await createLink(gw, { Amount: '42.00', Description: tag, InvoiceNumber: 'F-1' });
      const open = await createLink(gw, { Description: tag });
      const ids = (r: { body: Json }) => (r.body.PaymentLinks as Json[]).map((l) => l.Id).sort();
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag })))).toEqual(
        [fixed.Id, open.Id].sort(),
      );
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag, type: 'Open' })))).toEqual([open.Id]);
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag, amount: '42' })))).toEqual([
        fixed.Id,
      ]);
      expect(ids(await gw.get(linksQuery(merchant1, { id: String(fixed.Id) })))).toEqual([fixed.Id]);
      expect(ids(await gw.get(linksQuery(merchant1, { link: String(open.Link) })))).toEqual([open.Id]);
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag, invoiceNumber: 'F-1' })))).toEqual([
        fixed.Id,
      ]);
      expect(
        ids(await gw.get(linksQuery(merchant1, { description: tag, status: 'UnPaid', active: true }))),
      ).toHaveLength(2);
      expect(
        ids(await gw.get(linksQuery(merchant1, { description: tag, active: 'False' as unknown as boolean }))),
      ).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag, createdOn: today })))).toHaveLength(
        2,
      );
      expect(ids(await gw.get(linksQuery(merchant1, { description: tag, createdOn: '2001-01-01' })))).toEqual(
        [],
      );
      const badType = await gw.get(linksQuery(merchant1, { frequencyId: 'abc' }));
      expect(badType.body.ResponseCode).toBe(400);
      const badStatus = await gw.get(linksQuery(merchant1, { status: 'Whatever' }));
      expect(badStatus.body.ResponseCode).toBe(400);
      const badAmount = await gw.get(linksQuery(merchant1, { amount: '-1' }));
      expect(badAmount.body.ResponseCode).toBe(506);
    });
  });

  describe('between merchants', () => {
    it('merchant 1002 never sees or changes a link of 1001', async () => {
      const pl = await createLink(gw, { Amount: '11.00', Description: 'merchant one only' });
      const as2 = (path: string, body: Json) => ({
        path,
        body: { ...merchant2, PaymentLink: { Id: pl.Id, ...body } },
      });
      const attempts = [
        as2('/api/PaymentLinks/GetPaymentLink', {}),
        as2('/api/PaymentLinks/DeletePaymentLink', {}),
      ];
      for (const a of attempts) expect((await gw.post(a.path, a.body)).body.ResponseCode).toBe(404);
      for (const path of ['DisablePaymentLink', 'EnablePaymentLink', 'EditPaymentLink']) {
        const r = await put(gw, `/api/PaymentLinks/${path}`, {
          ...merchant2,
          PaymentLink: { Id: pl.Id, Amount: '1.00' },
        });
        expect(r.body.ResponseCode, path).toBe(404);
      }
      const list2 = await gw.get(linksQuery(merchant2));
      expect((list2.body.PaymentLinks as Json[]).map((l) => l.Id)).not.toContain(pl.Id);
      const byId = await gw.get(linksQuery(merchant2, { id: String(pl.Id) }));
      expect(byId.body.PaymentLinks).toEqual([]);
      const byMerchant = await gw.get(linksQuery(merchant2, { merchantId: 1001 }));
      expect(byMerchant.body.PaymentLinks).toEqual([]);
      const claim = await gw.post('/api/PaymentLinks', {
        ...merchant2,
        PaymentLink: { MerchantId: 1001, Amount: '1.00' },
      });
      expect(claim.body.ResponseCode).toBe(ResponseCode.MerchantAccessDenied);
      const mine = await gw.post('/api/PaymentLinks/GetPaymentLink', {
        ...merchant1,
        PaymentLink: { Id: pl.Id },
      });
      expect(mine.body.PaymentLink).toMatchObject({
        Amount: '11.00',
        Active: true,
        Description: 'merchant one only',
      });
    });
  });
});
