import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connectBridge, readBridgeFile } from '../../electron/bridge/ws-client';
import type { TransactionReportRecord } from '../../gateway/contract/report';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  go,
  launchBrowser,
  pageText,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Chip cards the EMV way, in real Chromium against the real `npm start` (browser mode, embedded sandbox
 * gateway, simulated NGA reader whose chip cards compute real ARQCs): the card's CVM decides PIN or
 * signature and its TC approves; a card that refuses after the issuer's approval ends reversed at the
 * gateway; a chip that cannot be read falls back to the stripe; a tap stays contactless.
 */

const VISA_DEBIT_CHIP = '4000000000000408'; // online PIN
const VISA_CHIP = '4012888888881881'; // signature
const DECLINES_AFTER_APPROVAL = '4000000000000416';
const UNREADABLE_CHIP = '4000000000000432';
const PIN_CHANGE_CHIP = '5100000000000024'; // signature; the approval carries a PIN change script
const VISA_STRIPE = '4111111111111111';

const sandboxEnvelope = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
};

let terminal: Terminal;
let browser: Browser;
let page: Page;
let gatewayUrl = '';

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function newSale(p: Page): Promise<void> {
  await p.keyboard.press('n');
  await p.waitForSelector('[data-outcome]', { state: 'detached' });
}

/** The journal's newest row (the lane's own file, read-only): what the card said is kept there. */
function lastJournalRow(): { utn: string; state: string; card_decision: string | null; operation: string } {
  const db = new Database(join(terminal.dataDir, 'journal.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT utn, state, card_decision, operation FROM journal ORDER BY seq DESC LIMIT 1')
      .get() as { utn: string; state: string; card_decision: string | null; operation: string };
  } finally {
    db.close();
  }
}

/** How the embedded gateway recorded the payment's entry mode (its own SQLite file, read-only). */
function gatewayEntryMode(utn: string): string | undefined {
  const db = new Database(join(terminal.dataDir, 'gateway', 'gateway.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('SELECT entry_mode FROM payments WHERE utn = ?').get(utn) as
        { entry_mode: string } | undefined
    )?.entry_mode;
  } finally {
    db.close();
  }
}

/** The payment's status in the gateway's report (GetReportByMerchant over HTTP, as any client asks). */
async function reportStatus(utn: string): Promise<string | undefined> {
  const res = await fetch(`${gatewayUrl}/api/Report/GetReportByMerchant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sandboxEnvelope),
  });
  const body = (await res.json()) as { Transactions?: TransactionReportRecord[] };
  return body.Transactions?.find((t) => t.UserTransactionNumber === utn)?.Status;
}

describe('chip cards in Chromium (browser mode, sandbox issuer, simulated NGA reader)', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    // The embedded gateway's address, as the tech's Gateway screen shows it (through the bridge's secret).
    const b = readBridgeFile(terminal.dataDir);
    const tech = await connectBridge(b.wsUrl, b.secret);
    const signedIn = await tech.send('session.signIn', { pin: '7777' });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const g = await tech.send('gateway.get', {});
    if (!g.ok) throw new Error(g.error.message);
    gatewayUrl = g.value.baseUrl;
    await tech.close();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
    await signIn(page, '1111');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('insert a debit chip card: its CVM asks for the PIN on the pad; approved with the card’s TC', async () => {
    await chooseCard(page, VISA_DEBIT_CHIP);
    await typeAmount(page, '2345');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    expect(await page.textContent('#prompt-text')).toContain('Insert, tap or swipe');
    await screenshot(page, 'chip-01-waiting-insert-or-tap');
    await page.click('[data-sim="insert"]:enabled');
    await page.waitForSelector('[data-step="pin-entry"]');
    expect(await page.textContent('[data-testid="sim-reader"]')).toContain('A card is in the chip slot');
    await screenshot(page, 'chip-01-pin-entry');
    const pad = page.getByRole('group', { name: 'Simulated PIN pad keys' });
    for (const d of '1234') await pad.getByRole('button', { name: d, exact: true }).click();
    await page.click('[data-sim="pin-enter"]');
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Chip');
    await screenshot(page, 'chip-01-debit-approved');
    const row = lastJournalRow();
    expect(row).toMatchObject({ state: 'approved', card_decision: 'TC', operation: 'debit' });
    expect(gatewayEntryMode(row.utn)).toBe('Chip');
    expect(await pageText(page)).not.toContain(VISA_DEBIT_CHIP);
    await newSale(page);
  }, 60_000);

  it('insert a signature chip card: a signature as its CVM asks, even below the floor; TC', async () => {
    await chooseCard(page, VISA_CHIP);
    await typeAmount(page, '1250');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="insert"]:enabled');
    // 12.50 is under the signature floor: the card's CVM list asks for the signature.
    await page.waitForSelector('#sign-title');
    await page.click('[data-sim="sign"]');
    await page.getByRole('button', { name: 'Customer has signed on the pad' }).click();
    await page.waitForSelector('#receipt-title');
    await screenshot(page, 'chip-02-signature-approved');
    const row = lastJournalRow();
    expect(row).toMatchObject({ state: 'approved', card_decision: 'TC', operation: 'sale' });
    expect(gatewayEntryMode(row.utn)).toBe('Chip');
    await newSale(page);
  }, 60_000);

  it('the PIN change card: the simulator says what it does; approved with TC, the script’s 9F5B kept', async () => {
    await chooseCard(page, PIN_CHANGE_CHIP);
    const chosen = await page.$eval('#sim-card', (el) => {
      const select = el as HTMLSelectElement;
      return select.options[select.selectedIndex]?.text ?? '';
    });
    expect(chosen).toContain('approval changes its offline PIN');
    await typeAmount(page, '1999');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await screenshot(page, 'chip-07-pin-change-card-1366');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'chip-07-pin-change-card-1024');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.click('[data-sim="insert"]:enabled');
    await page.waitForSelector('#sign-title');
    await page.click('[data-sim="sign"]');
    await page.getByRole('button', { name: 'Customer has signed on the pad' }).click();
    await page.waitForSelector('#receipt-title');
    const row = lastJournalRow();
    expect(row).toMatchObject({ state: 'approved', card_decision: 'TC', operation: 'sale' });
    const db = new Database(join(terminal.dataDir, 'journal.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT script_results FROM journal WHERE utn = ?').get(row.utn)).toEqual({
        script_results: '2000000003',
      });
    } finally {
      db.close();
    }
    await newSale(page);
  }, 60_000);

  it('a card that declines after the issuer’s approval: "Declined by card", reversed at the gateway', async () => {
    await chooseCard(page, DECLINES_AFTER_APPROVAL);
    await typeAmount(page, '3456');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="insert"]:enabled');
    await page.waitForSelector('[data-outcome="reversed"]');
    expect(await page.textContent('#outcome-title')).toBe('Declined by card — payment reversed');
    await page.waitForSelector('[data-reversal="reversed"]', { timeout: 30_000 });
    await screenshot(page, 'chip-03-declined-by-card-reversed');
    expect(await axeSerious(page)).toEqual([]);
    const row = lastJournalRow();
    expect(row).toMatchObject({ state: 'reversed', card_decision: 'AAC' });
    // The gateway had approved it; its report now says reversed (nothing charged).
    expect(await reportStatus(row.utn)).toBe('reversed');
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    await page.waitForSelector('[data-outcome]', { state: 'detached' });
  }, 60_000);

  it('a chip that cannot be read: the swipe is refused until the chip failed, then goes as chip fallback', async () => {
    await chooseCard(page, UNREADABLE_CHIP);
    await typeAmount(page, '4567');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('#prompt-text:has-text("Chip card: insert the card")');
    await screenshot(page, 'chip-04-swipe-refused');
    await page.click('[data-sim="insert"]:enabled');
    await page.waitForSelector('#prompt-text:has-text("Chip could not be read — swipe the card")');
    await screenshot(page, 'chip-04-chip-unreadable');
    expect(await axeSerious(page)).toEqual([]);
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Swiped');
    await screenshot(page, 'chip-04-fallback-approved');
    expect(gatewayEntryMode(lastJournalRow().utn)).toBe('ChipFallbackSwipe');
    await newSale(page);
  }, 60_000);

  it('a tap still approves as contactless, and the gateway records Contactless', async () => {
    await chooseCard(page, VISA_STRIPE);
    await typeAmount(page, '1678');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="tap"]:enabled');
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Contactless');
    await screenshot(page, 'chip-05-tap-approved');
    const row = lastJournalRow();
    expect(row.card_decision).toBeNull();
    expect(gatewayEntryMode(row.utn)).toBe('Contactless');
    await newSale(page);
  }, 60_000);

  it('the tech’s Devices screen shows the chip slot', async () => {
    await signOut(page);
    await signIn(page, '7777');
    await go(page, 'Devices');
    await page.waitForSelector('tr[data-role="contactless"] [data-testid="chip-slot"]');
    expect(await page.textContent('tr[data-role="contactless"] [data-testid="chip-slot"]')).toBe(
      'Chip slot: idle',
    );
    await screenshot(page, 'chip-06-devices-chip-slot');
    await signOut(page);
  }, 60_000);
});
