import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ManualClock,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { createLink, payCheckout, put, reportOf, sandboxCard } from './support';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { DeclineCode } from '../../../gateway/contract/decline-codes';

const PANS = [
  '4111111111111111',
  '4242424242424242',
  '5555555555554444',
  '4000000000000002',
  '4000000000000119',
  '4111111111111112',
];

describe('hosted checkout of payment links (over HTTP)', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    gw = await startGateway({ backgroundTasks: false, clock, logger: { level: 'trace', stream } });
  });
  afterAll(async () => {
    await gw.close();
    // Nothing a payer typed reaches the log: every request and answer above carried card numbers.
    const all = logs.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const pan of PANS) expect(all).not.toContain(pan);
  });

  const getLink = async (id: unknown, merchant: Json = merchant1) =>
    (await gw.post('/api/PaymentLinks/GetPaymentLink', { ...merchant, PaymentLink: { Id: id } })).body;

  it('pays a Fixed link once: Paid with its sale, in the report with PaymentLinkId', async () => {
    const link = await createLink(gw, { Amount: '12.50', Description: 'Order 17', InvoiceNumber: 'INV-17' });
    const r = await payCheckout(gw, link, { ...sandboxCard });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      Approved: true,
      Amount: '12.50',
      LastFour: '1111',
      CardType: 'Visa',
    });
    expect(r.body.AuthorizationNumber).toMatch(/^[0-9A-Z]{6}$/);
    expect(r.text).not.toContain('4111111111111111');
    expect(r.body).not.toHaveProperty('Token');

    const after = await getLink(link.Id);
    expect(after.PaymentLink).toMatchObject({
      Status: 'Paid',
      ServiceReferenceNumber: r.body.ServiceReferenceNumber,
      PaymentSchedule: 'Single',
    });
    expect((after.PaymentLink as Json).PaidOn).toEqual(expect.any(String));

    const sale = (await reportOf(gw)).find((t) => t.ServiceReferenceNumber === r.body.ServiceReferenceNumber);
    expect(sale).toMatchObject({
      PaymentLinkId: link.Id,
      Amount: 12.5,
      Status: 'approved',
      InvoiceNumber: 'INV-17',
      Source: 'PaymentFrame',
    });

    const again = await payCheckout(gw, link, { ...sandboxCard, CardNumber: '4242424242424242' });
    expect(again.body).toMatchObject({ ResponseCode: 600, Approved: false });
    const page = await fetch(String(link.Link));
    expect(await page.text()).toContain('already been paid');
  });

  it('takes the amount the payer enters on an Open link, and only a positive two-decimal one', async () => {
    const link = await createLink(gw, { Description: 'Open amount' });
    for (const Amount of [undefined, '', '0', '-4.00', '12.345', 'ten', '99,999,999.00']) {
      const r = await payCheckout(gw, link, { ...sandboxCard, ...(Amount === undefined ? {} : { Amount }) });
      expect(r.body.ResponseCode, String(Amount)).toBe(506);
      expect(r.body.Approved).toBe(false);
    }
    expect((await getLink(link.Id)).PaymentLink).toMatchObject({ Status: 'UnPaid' });
    const r = await payCheckout(gw, link, {
      ...sandboxCard,
      Amount: '1,025.40',
      CardNumber: '5555555555554444',
    });
    expect(r.body).toMatchObject({ Approved: true, Amount: '1,025.40', CardType: 'Mastercard' });
    const sale = (await reportOf(gw)).find((t) => t.PaymentLinkId === link.Id);
    expect(sale?.Amount).toBe(1025.4);
  });

  it('lets one card pay two links of the same amount (two purchases, not a duplicate)', async () => {
    const a = await createLink(gw, { Amount: '13.13' });
    const b = await createLink(gw, { Amount: '13.13' });
    expect((await payCheckout(gw, a, sandboxCard)).body.Approved).toBe(true);
    expect((await payCheckout(gw, b, sandboxCard)).body.Approved).toBe(true);
  });

  it('refuses a disabled link until it is enabled again', async () => {
    const link = await createLink(gw, { Amount: '3.00' });
    await put(gw, '/api/PaymentLinks/DisablePaymentLink', { ...merchant1, PaymentLink: { Id: link.Id } });
    const r = await payCheckout(gw, link, sandboxCard);
    expect(r.body).toMatchObject({ ResponseCode: 601, Approved: false });
    expect(await (await fetch(String(link.Link))).text()).toContain('disabled');
    await put(gw, '/api/PaymentLinks/EnablePaymentLink', { ...merchant1, PaymentLink: { Id: link.Id } });
    expect((await payCheckout(gw, link, sandboxCard)).body.Approved).toBe(true);
  });

  it('keeps the link payable after a decline, and validates the card without echoing it', async () => {
    const link = await createLink(gw, { Amount: '8.00' });
    const declined = await payCheckout(gw, link, { ...sandboxCard, CardNumber: '4000000000000002' });
    expect(declined.body).toMatchObject({
      ResponseCode: ResponseCode.Declined,
      DeclineCode: DeclineCode.Declined,
      Approved: false,
    });
    expect(declined.text).not.toContain('4000000000000002');
    const bad = await payCheckout(gw, link, {
      ...sandboxCard,
      CardNumber: '4111111111111112',
      ExpDate: '13/30',
    });
    expect(bad.body.Approved).toBe(false);
    expect(bad.text).not.toContain('4111111111111112');
    expect((bad.body.Msg as string[]).join(' ')).toMatch(/CardNumber is not a valid card number/);
    expect((bad.body.Msg as string[]).join(' ')).toMatch(/ExpDate/);
    expect((await getLink(link.Id)).PaymentLink).toMatchObject({ Status: 'UnPaid' });
    expect((await payCheckout(gw, link, sandboxCard)).body.Approved).toBe(true);
    // The declined attempt is in the report too, as a normal sale of the link.
    const rows = (await reportOf(gw)).filter((t) => t.PaymentLinkId === link.Id);
    expect(rows.map((t) => t.Status).sort()).toEqual(['approved', 'declined']);
  });

  it('lets one payer at a time pay a link: a second one meanwhile is told it is in progress', async () => {
    const link = await createLink(gw, { Amount: '21.00' });
    // The slow sandbox card keeps the first payment at the processor for a while.
    const first = payCheckout(gw, link, { ...sandboxCard, CardNumber: '4000000000000119' });
    await new Promise((r) => setTimeout(r, 300));
    const second = await payCheckout(gw, link, { ...sandboxCard, CardNumber: '4242424242424242' });
    expect(second.body).toMatchObject({ ResponseCode: 602, Approved: false });
    const edit = await put(gw, '/api/PaymentLinks/EditPaymentLink', {
      ...merchant1,
      PaymentLink: { Id: link.Id, Amount: '1.00' },
    });
    expect(edit.body.ResponseCode).toBe(602);
    expect((await first).body.Approved).toBe(true);
    const sales = (await reportOf(gw)).filter((t) => t.PaymentLinkId === link.Id);
    expect(sales).toHaveLength(1);
  });

  it('releases a claim a crash left behind once it is stale', async () => {
    const link = await createLink(gw, { Amount: '6.00' });
    await gw.gateway.storage.write((tx) =>
      tx.run(
        tx.qb
          .updateTable('payment_links')
          .set({
            paying_utn: 'PL-lost-in-a-crash',
            paying_since: clock.now().toISOString(),
            paying_choice: '{}',
          })
          .where('link_id', '=', String(link.Id)),
      ),
    );
    expect((await payCheckout(gw, link, sandboxCard)).body.ResponseCode).toBe(602);
    clock.advance(3 * 60_000);
    expect((await payCheckout(gw, link, sandboxCard)).body.Approved).toBe(true);
  });

  it('starts a monthly recurring billing when the payer chooses it', async () => {
    const link = await createLink(gw, {
      Amount: '30.00',
      Description: 'Coffee club',
      AllowRecurringPayment: true,
      FrequencyId: 4,
      InstallmentTotal: 3,
      RecurringDescription: 'Monthly coffee',
    });
    const r = await payCheckout(gw, link, { ...sandboxCard, PaymentSchedule: 'Recurring' });
    expect(r.body).toMatchObject({ Approved: true, Amount: '30.00', PaymentSchedule: 'Recurring' });
    expect(r.body.RecurringBillingId).toEqual(expect.any(Number));
    expect(r.body.NextPaymentDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.text).not.toMatch(/"Token"/);
    const l = (await getLink(link.Id)).PaymentLink as Json;
    expect(l).toMatchObject({
      Status: 'Paid',
      PaymentSchedule: 'Recurring',
      RecurringBillingId: r.body.RecurringBillingId,
    });
    const billing = await gw.post('/api/RecurringBilling/Get', {
      ...merchant1,
      BillingId: r.body.RecurringBillingId,
    });
    expect(billing.body.Billing).toMatchObject({
      Amount: 30,
      AmountCollectedSoFar: 30,
      Frequency: 'Monthly',
      FrequencyId: 4,
      IsInstallment: false,
      InstallmentsPaid: 1,
      LastFour: '1111',
      CardType: 'Visa',
      Description: 'Monthly coffee',
      PaymentLinkId: link.Id,
      FirstName: 'Ada',
      NextPaymentDate: r.body.NextPaymentDate,
      Active: true,
    });
  });

  it('splits an installment plan exactly, the first installment carrying the odd cent', async () => {
    const link = await createLink(gw, {
      Amount: '100.00',
      AllowedPaymentSchedule: 'OnlyInstallment',
      FrequencyId: 2,
      InstallmentTotal: 3,
    });
    const single = await payCheckout(gw, link, { ...sandboxCard, PaymentSchedule: 'Single' });
    expect(single.body.ResponseCode).toBe(603);
    const r = await payCheckout(gw, link, {
      ...sandboxCard,
      PaymentSchedule: 'Installment',
      InstallmentTotal: 7,
    });
    // The link fixes the count: the payer's number only counts on an open schedule.
    expect(r.body).toMatchObject({ Approved: true, Amount: '33.34', TotalAmount: '100.00' });
    const b = (
      await gw.post('/api/RecurringBilling/Get', { ...merchant1, BillingId: r.body.RecurringBillingId })
    ).body.Billing as Json;
    expect(b).toMatchObject({
      Amount: 33.33,
      AmountCollectedSoFar: 33.34,
      InstallmentTotal: 3,
      InstallmentsPaid: 1,
      IsInstallment: true,
      Frequency: 'Weekly',
    });
  });

  it('lets the payer choose frequency and installments on an open schedule', async () => {
    const link = await createLink(gw, {
      AllowedPaymentSchedule: 'SingleAndInstallmentOnly',
      IsOpenPaymentSchedule: true,
    });
    const r = await payCheckout(gw, link, {
      ...sandboxCard,
      Amount: '40.00',
      PaymentSchedule: 'Installment',
      FrequencyId: 1,
      InstallmentTotal: 4,
    });
    expect(r.body).toMatchObject({ Approved: true, Amount: '10.00' });
    const b = (
      await gw.post('/api/RecurringBilling/Get', { ...merchant1, BillingId: r.body.RecurringBillingId })
    ).body.Billing as Json;
    expect(b).toMatchObject({ Amount: 10, InstallmentTotal: 4, Frequency: 'Daily' });
    const bad = await createLink(gw, {
      AllowedPaymentSchedule: 'OnlyInstallment',
      IsOpenPaymentSchedule: true,
    });
    const tooMany = await payCheckout(gw, bad, {
      ...sandboxCard,
      Amount: '40.00',
      PaymentSchedule: 'Installment',
      FrequencyId: 1,
      InstallmentTotal: 500,
    });
    expect(tooMany.body.ResponseCode).toBe(605);
    const noFreq = await payCheckout(gw, bad, {
      ...sandboxCard,
      Amount: '40.00',
      PaymentSchedule: 'Installment',
      FrequencyId: 42,
      InstallmentTotal: 2,
    });
    expect(noFreq.body.ResponseCode).toBe(604);
  });

  it('refuses a link that forces a payment method other than a card', async () => {
    const link = await createLink(gw, { Amount: '5.00', ForcedPaymentMethod: 'Check' });
    expect((await payCheckout(gw, link, sandboxCard)).body.ResponseCode).toBe(609);
    expect(await (await fetch(String(link.Link))).text()).toContain('credit cards only');
  });

  it('books the sale to the link owner only', async () => {
    const link = await createLink(gw, { Amount: '2.22' }, merchant2);
    const r = await payCheckout(gw, link, sandboxCard);
    expect(r.body.Approved).toBe(true);
    expect((await reportOf(gw, merchant2)).some((t) => t.PaymentLinkId === link.Id)).toBe(true);
    expect((await reportOf(gw, merchant1)).some((t) => t.PaymentLinkId === link.Id)).toBe(false);
  });

  it('serves a self-contained page: CSP with nonces, escaped text, no external assets', async () => {
    const link = await createLink(gw, {
      Amount: '9.00',
      Description: '<img src=x onerror=alert(1)><script>alert(2)</script>',
    });
    const res = await fetch(String(link.Link));
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(2)');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // The one <link> is the empty inline icon, so the browser fetches no favicon either.
    expect(html.replace('<link rel="icon" href="data:,">', '')).not.toMatch(/<(link|img|iframe)\b/);
    expect(html).not.toMatch(/\s(src|href)=["']?https?:/);
    expect(html).toContain('$9.00');
    const missing = await fetch(`${gw.baseUrl}/pay/not-a-link`);
    expect(missing.status).toBe(404);
  });

  it('answers a plain form POST (no script) with a result page', async () => {
    const link = await createLink(gw, { Amount: '4.75' });
    const res = await fetch(String(link.Link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...sandboxCard,
        CardNumber: '4242424242424242',
        PaymentSchedule: 'Single',
      }).toString(),
    });
    const html = await res.text();
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('Payment approved');
    expect(html).toContain('4.75');
    expect(html).not.toContain('4242424242424242');
  });

  it('turns a card tester away after repeated declines on one link', async () => {
    const link = await createLink(gw, { Amount: '1.00' });
    // Ten declines from one address, over three cards (each card has a limit of its own: 5 a day).
    const declining = ['4000000000000002', '4000000000009995', '4000000000000069'];
    for (let i = 0; i < 10; i += 1) {
      const r = await payCheckout(gw, link, { ...sandboxCard, CardNumber: declining[i % 3] });
      expect(r.body.ResponseCode).toBe(ResponseCode.Declined);
    }
    const blocked = await payCheckout(gw, link, sandboxCard);
    expect(blocked.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    clock.advance(16 * 60_000);
    expect((await payCheckout(gw, link, sandboxCard)).body.Approved).toBe(true);
  });
});
