import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchant1, startGateway, type Json, type TestGateway } from '../../support/gateway-harness';
import { createLink, put, reportOf } from './support';
import { chromiumArgs, chromiumExecutable } from '../../../build/chromium';

const CHROMIUM = chromiumExecutable;
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'checkout');

describe('hosted checkout in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    gw = await startGateway({ backgroundTasks: false });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...chromiumArgs],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /** A fresh page that records console errors (CSP violations land there) and every request it makes. */
  async function openPage(url: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    return { page, problems, requests };
  }

  async function fillCard(page: Page, number = '4111111111111111') {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByLabel('ZIP code').fill('10001');
  }

  const linkOf = async (id: unknown) =>
    (await gw.post('/api/PaymentLinks/GetPaymentLink', { ...merchant1, PaymentLink: { Id: id } })).body
      .PaymentLink as Json;

  it('pays an Open link: the payer enters the amount, sees the approval, the link is Paid', async () => {
    const link = await createLink(gw, { Description: 'Open donation', InvoiceNumber: 'DON-1' });
    const { page, problems, requests } = await openPage(String(link.Link));
    await expect(page.title()).resolves.toBe('Pay Tillpoint Demo Store');
    await page.getByLabel('Amount to pay (USD)').fill('18.75');
    await expect(page.locator('#pay').textContent()).resolves.toBe('Pay $18.75');
    await fillCard(page);
    await page.screenshot({ path: join(ARTIFACTS, 'open-link-filled.png'), fullPage: true });
    await page.locator('#pay').click();
    const result = page.locator('#result');
    await result.getByText('Payment approved').waitFor();
    await expect(result.textContent()).resolves.toMatch(/\$18\.75.*Visa ending 1111/s);
    await expect(page.locator('#checkout').isHidden()).resolves.toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'open-link-approved.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests.every((u) => u.startsWith(gw.baseUrl))).toBe(true);
    // The page never puts the card number anywhere it could linger.
    await expect(page.evaluate(() => document.documentElement.outerHTML)).resolves.not.toContain(
      '4111111111111111',
    );

    const paid = await linkOf(link.Id);
    expect(paid).toMatchObject({ Status: 'Paid', PaymentSchedule: 'Single' });
    const sale = (await reportOf(gw)).find((t) => t.PaymentLinkId === link.Id);
    expect(sale).toMatchObject({
      Amount: 18.75,
      Status: 'approved',
      ServiceReferenceNumber: paid.ServiceReferenceNumber,
      InvoiceNumber: 'DON-1',
    });
    await page.context().close();
  });

  it('pays a Fixed link, after showing a decline without losing the form', async () => {
    const link = await createLink(gw, { Amount: '42.00', Description: 'Invoice 1042' });
    const { page, problems } = await openPage(String(link.Link));
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('$42.00');
    await expect(page.getByLabel('Amount to pay (USD)').count()).resolves.toBe(0);
    await fillCard(page, '4000000000000002');
    await page.locator('#pay').click();
    const error = page.getByRole('alert');
    await error.getByText('Do not honor').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'fixed-link-declined.png'), fullPage: true });
    await expect(page.getByLabel('Security code').inputValue()).resolves.toBe('');
    expect((await linkOf(link.Id)).Status).toBe('UnPaid');
    await fillCard(page, '5555555555554444');
    await page.locator('#pay').click();
    await page.locator('#result').getByText('Payment approved').waitFor();
    await expect(page.locator('#result').textContent()).resolves.toMatch(/Mastercard ending 4444/);
    await page.screenshot({ path: join(ARTIFACTS, 'fixed-link-approved.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect((await linkOf(link.Id)).Status).toBe('Paid');
    // Opening it again shows that it is paid.
    await page.reload();
    await page.getByText('Already paid').waitFor();
    await page.context().close();
  });

  it('refuses a disabled link with a clear page', async () => {
    const link = await createLink(gw, { Amount: '5.00', Description: 'Old offer' });
    await put(gw, '/api/PaymentLinks/DisablePaymentLink', { ...merchant1, PaymentLink: { Id: link.Id } });
    const { page, problems } = await openPage(String(link.Link));
    await page.getByRole('heading', { name: 'Payment link disabled' }).waitFor();
    await expect(page.locator('#checkout').count()).resolves.toBe(0);
    await expect(page.getByTestId('notice').textContent()).resolves.toMatch(/cannot be paid/);
    await page.screenshot({ path: join(ARTIFACTS, 'disabled-link.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('offers the installment plan the link allows and starts it', async () => {
    const link = await createLink(gw, {
      Amount: '90.00',
      Description: 'Course fee',
      AllowedPaymentSchedule: 'SingleAndRecurringOrInstallment',
      IsOpenPaymentSchedule: true,
      FrequencyId: 4,
    });
    const { page, problems } = await openPage(String(link.Link));
    await expect(page.locator('#frequency').isHidden()).resolves.toBe(true);
    await page.getByLabel('Pay in installments').check();
    await page.getByLabel('Number of installments').fill('4');
    await page.getByLabel('How often').selectOption({ label: 'Biweekly' });
    await expect(page.locator('#pay').textContent()).resolves.toBe('Pay $22.50 now');
    await fillCard(page, '4242424242424242');
    await page.screenshot({ path: join(ARTIFACTS, 'installments-chosen.png'), fullPage: true });
    await page.locator('#pay').click();
    await page.locator('#result').getByText('Payment approved').waitFor();
    await expect(page.locator('#result').textContent()).resolves.toMatch(/Next payment\d{4}-\d{2}-\d{2}/);
    await page.screenshot({ path: join(ARTIFACTS, 'installments-approved.png'), fullPage: true });
    expect(problems).toEqual([]);
    const paid = await linkOf(link.Id);
    expect(paid).toMatchObject({ Status: 'Paid', PaymentSchedule: 'Installment' });
    const billing = await gw.post('/api/RecurringBilling/Get', {
      ...merchant1,
      BillingId: paid.RecurringBillingId,
    });
    expect(billing.body.Billing).toMatchObject({
      Amount: 22.5,
      AmountCollectedSoFar: 22.5,
      InstallmentTotal: 4,
      InstallmentsPaid: 1,
      Frequency: 'Biweekly',
      LastFour: '4242',
    });
    await page.context().close();
  });
});
