import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import {
  artifacts,
  axeSerious,
  buildRenderer,
  chooseCard,
  describeViolations,
  go,
  launchBrowser,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type AxeViolation,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Emailed receipts in real Chromium against the real `npm start`: the manager sets the store's mail
 * server on Settings and sends a test; the cashier sells, opens the receipt and emails it, and it arrives
 * at a real SMTP server on loopback (smtp-server), read with mailparser; with the server down the email
 * waits on Offline & queues with its reason, and the manager's Retry sends it when the server is back.
 * Every screen at 1366x900 and 1024x768.
 */

const VISA = '4111111111111111';
const SIZES = [
  { width: 1366, height: 900 },
  { width: 1024, height: 768 },
] as const;

let terminal: Terminal;
let browser: Browser;
let page: Page;
let sink: SmtpSink;
const a11y = new Map<string, AxeViolation[]>();

/**
 * The screen as the person sees it at each size: the viewport only (what is below the fold is not seen),
 * scrolled to `at`; and the whole page beside it.
 */
async function atBothSizes(p: Page, name: string, at?: string): Promise<void> {
  for (const size of SIZES) {
    await p.setViewportSize(size);
    if (at)
      await p
        .locator(at)
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    mkdirSync(artifacts, { recursive: true });
    await p.screenshot({ path: join(artifacts, `email-${name}-${size.width}x${size.height}.png`) });
    await screenshot(p, `email-${name}-${size.width}x${size.height}-page`);
  }
  await p.setViewportSize(SIZES[0]);
}

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function cardSale(p: Page, digits: string): Promise<void> {
  await chooseCard(p, VISA);
  await typeAmount(p, digits);
  await p.keyboard.press('c');
  await p.waitForSelector('[data-step="waiting-for-card"]');
  await p.click('[data-sim="swipe"]');
  await p.waitForSelector('[data-outcome="approved"]');
}

async function emailReceipt(p: Page, to: string): Promise<string> {
  await p.keyboard.press('r');
  await p.waitForSelector('dialog[open] #receipt-email');
  await p.fill('#receipt-email', to);
  await p.getByRole('button', { name: 'Send email' }).click();
  const note = p.getByTestId('receipt-email-note');
  await note.filter({ hasText: /\S/ }).waitFor();
  return (await note.textContent()) ?? '';
}

describe('emailed receipts on the screens', () => {
  beforeAll(async () => {
    buildRenderer();
    sink = await startSmtpSink();
    terminal = await startTerminal();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
    await sink?.close();
  });

  it('the manager sets the mail server and a test email arrives', async () => {
    await signIn(page, '9999');
    await go(page, 'Settings');
    const section = page.locator('section[aria-labelledby="email-title"]');
    await section.scrollIntoViewIfNeeded();
    await section.getByText(/Not set up/).waitFor();
    await atBothSizes(page, 'settings-empty', '#email-title');
    await page.fill('#email-host', '127.0.0.1');
    await page.selectOption('#email-security', 'none');
    expect(await page.inputValue('#email-port')).toBe('25');
    await page.fill('#email-port', String(sink.port));
    await page.fill('#email-sender', 'receipts@corner.example');
    await page.fill('#email-sender-name', 'Corner Shop');
    await page.getByRole('button', { name: 'Save email settings' }).click();
    await page.getByText('Email settings saved.').waitFor();
    await expect.poll(() => page.inputValue('#email-test-to')).toBe('receipts@corner.example');
    await page.fill('#email-test-to', 'manager@corner.example');
    await page.getByRole('button', { name: 'Send test email' }).click();
    await page
      .getByTestId('email-test-result')
      .filter({ hasText: 'Test email sent to manager@corner.example. Check that it arrived.' })
      .waitFor();
    const [test] = await sink.waitFor(1);
    expect(test?.to).toEqual(['manager@corner.example']);
    expect(test?.parsed.from?.value[0]).toEqual({ address: 'receipts@corner.example', name: 'Corner Shop' });
    a11y.set('settings: email receipts', await axeSerious(page));
    await atBothSizes(page, 'settings', '#email-title');
    await atBothSizes(page, 'settings-tested', '.email-test');
  }, 60_000);

  it('a wrong port: the test says what the server did, in words', async () => {
    await page.fill('#email-port', '1');
    await page.getByRole('button', { name: 'Save email settings' }).click();
    await page.getByText('Email settings saved.').last().waitFor();
    await page.getByRole('button', { name: 'Send test email' }).click();
    const alert = page.locator('section[aria-labelledby="email-title"] [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^The test email was not sent\. Could not reach the mail server at 127\.0\.0\.1:1: the connection was refused\./,
    );
    await atBothSizes(page, 'settings-test-failed', '.email-test');
    await page.fill('#email-port', String(sink.port));
    await page.getByRole('button', { name: 'Save email settings' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Save email settings' }).isDisabled())
      .toBe(true);
    await signOut(page);
  }, 60_000);

  it('the cashier sells, emails the receipt from the receipt screen, and it arrives', async () => {
    await signIn(page, '1111');
    await cardSale(page, '2345');
    const note = await emailReceipt(page, 'ana@example.com');
    expect(note).toBe('Receipt queued for ana@example.com.');
    expect(await page.inputValue('#receipt-email')).toBe('');
    a11y.set('receipt dialog with email', await axeSerious(page));
    await atBothSizes(page, 'receipt-queued', 'dialog[open] #receipt-email');

    const mails = await sink.waitFor(2);
    const mail = mails[1];
    expect(mail?.to).toEqual(['ana@example.com']);
    expect(mail?.parsed.subject).toMatch(/^Your receipt from /);
    expect(mail?.parsed.text).toContain('23.45');
    expect(mail?.parsed.text).toContain('****1111');
    expect(mail?.raw).not.toContain('411111');

    // A mistyped address is refused on the screen, in the core's words, and nothing is queued.
    await page.fill('#receipt-email', 'ana@example');
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.locator('dialog[open] [role="alert"]').filter({ hasText: 'not an email address' }).waitFor();
    await atBothSizes(page, 'receipt-bad-address', 'dialog[open] #receipt-email');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.keyboard.press('n');
    await page.waitForSelector('[data-outcome]', { state: 'detached' });
  }, 60_000);

  it('mail server down: the email waits on Offline & queues with its reason; Retry sends it when it is back', async () => {
    const port = sink.port;
    const before = sink.messages.length;
    await sink.close();
    await cardSale(page, '1234');
    expect(await emailReceipt(page, 'bo@example.com')).toBe('Receipt queued for bo@example.com.');
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await signOut(page);

    await signIn(page, '9999');
    await go(page, 'Offline & queues');
    const row = page.locator('tr[data-state="queued"]').filter({ hasText: 'b***@example.com' });
    await row.filter({ hasText: 'connection was refused' }).waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('Waiting');
    a11y.set('offline & queues: emailed receipts', await axeSerious(page));
    await atBothSizes(page, 'queue-waiting', '#email-queue-title');

    sink = await startSmtpSink({ port });
    await row.getByRole('button', { name: /^Retry/ }).click();
    await page.locator('tr[data-state="sent"]').filter({ hasText: 'b***@example.com' }).waitFor();
    const mails = await sink.waitFor(1);
    expect(mails[0]?.to).toEqual(['bo@example.com']);
    expect(before).toBe(2);
    // The screen never shows an address in full: the queue masks them.
    expect(await page.locator('section[aria-labelledby="email-queue-title"]').textContent()).not.toMatch(
      /[a-z]+@example\.com/,
    );
    await atBothSizes(page, 'queue-sent', '#email-queue-title');
  }, 90_000);

  it('no serious or critical accessibility violation on the screens changed', () => {
    expect([...a11y.keys()].sort()).toEqual(
      ['offline & queues: emailed receipts', 'receipt dialog with email', 'settings: email receipts'].sort(),
    );
    expect(describeViolations(a11y)).toEqual([]);
  });
});
