import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FIGURE_LABELS, moneyFigures, type MoneyFigures } from '../../common/money-figures';
import { formatCents } from '../../renderer/src/format/money';
import {
  buildRenderer,
  chooseCard,
  go,
  launchBrowser,
  openTillFor,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Issue 18, "The manager's figures agree": one day of mixed sales — a credit sale later partly refunded,
 * cash, a debit purchase with cash back, a partial approval finished in cash — driven on the screens as a
 * cashier and a manager do, then every screen's figures (the batch screen, the close dialog, the
 * settlement, Reports) are read by their labels and checked against one computation over the lane's
 * journal, and the card net against the gateway's own settlement.
 */

const VISA = '4111111111111111';
const PARTIAL = '4000000000000341'; // holds 20.00: a card-present sale above it is approved for 20.00

let terminal: Terminal;
let browser: Browser;
let page: Page;

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function newSale(p: Page): Promise<void> {
  await p.keyboard.press('n');
  await p.waitForSelector('[data-outcome]', { state: 'detached' });
}

async function swipe(p: Page): Promise<void> {
  await p.waitForSelector('[data-step="waiting-for-card"]');
  await p.click('[data-sim="swipe"]');
}

/** The lane's journal as the terminal wrote it (its own file, read-only). */
function journalFigures(): MoneyFigures {
  const db = new Database(join(terminal.dataDir, 'journal.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<
        [],
        {
          operation: string;
          state: string;
          approved_cents: number;
          cashback_cents: number;
          tip_cents: number;
          card_type: string | null;
        }
      >('SELECT operation, state, approved_cents, cashback_cents, tip_cents, card_type FROM journal')
      .all();
    return moneyFigures(
      rows.map((r) => ({
        operation: r.operation,
        state: r.state,
        approvedCents: r.approved_cents,
        cashBackCents: r.cashback_cents,
        tipCents: r.tip_cents,
        cardType: r.card_type,
      })),
    );
  } finally {
    db.close();
  }
}

/** The figure a labelled row of a figures table shows (its last cell). */
async function figure(table: Locator, label: string): Promise<string> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });
  return ((await row.getByRole('cell').last().textContent()) ?? '').trim();
}

/** Every labelled figure of the card batch and the drawer, as the screen shows them. */
async function screenFigures(p: Page): Promise<Record<string, string>> {
  const card = p.getByRole('table', { name: 'Card batch', exact: true });
  const drawer = p.getByRole('table', { name: 'Drawer', exact: true });
  return {
    cardSales: await figure(card, FIGURE_LABELS.cardSales),
    cardRefunds: await figure(card, FIGURE_LABELS.cardRefunds),
    cardNet: await figure(card, FIGURE_LABELS.cardNet),
    cardCashBack: await figure(card, FIGURE_LABELS.cardCashBack),
    cashTaken: await figure(drawer, FIGURE_LABELS.cashTaken),
    cashBackPaid: await figure(drawer, FIGURE_LABELS.cashBackPaid),
    expectedCash: await figure(drawer, FIGURE_LABELS.expectedCash),
  };
}

function expectedOnScreen(f: MoneyFigures): Record<string, string> {
  return {
    cardSales: formatCents(f.card.sales.cents),
    cardRefunds: formatCents(f.card.refunds.cents),
    cardNet: formatCents(f.card.netCents),
    cardCashBack: formatCents(f.card.cashBackCents),
    cashTaken: formatCents(f.drawer.cashTaken.cents),
    cashBackPaid: formatCents(f.drawer.cashBackPaidCents),
    expectedCash: formatCents(f.drawer.expectedCashCents),
  };
}

describe("issue 18: the manager's figures agree (Chromium, sandbox gateway, simulated devices)", () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    await openTillFor(terminal);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('the cashier’s day: credit, cash, debit with cash back, a partial approval finished in cash, a refund', async () => {
    await signIn(page, '1111');
    // Credit 45.67, swiped.
    await chooseCard(page, VISA);
    await typeAmount(page, '4567');
    await page.keyboard.press('c');
    await swipe(page);
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
    // Cash 23.40, exact.
    await typeAmount(page, '2340');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
    // Debit 20.99 with 20.00 cash back, the PIN on the simulated pad.
    await typeAmount(page, '2099');
    await page.keyboard.press('d');
    await page.getByRole('group', { name: 'Cash back' }).getByRole('radio', { name: '$20.00' }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await swipe(page);
    await page.waitForSelector('[data-step="pin-entry"]');
    const pad = page.getByRole('group', { name: 'Simulated PIN pad keys' });
    for (const d of '1234') await pad.getByRole('button', { name: d, exact: true }).click();
    await page.click('[data-sim="pin-enter"]');
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
    // 30.00 on a card that holds 20.00: approved for 20.00, the other 10.00 in cash.
    await chooseCard(page, PARTIAL);
    await typeAmount(page, '3000');
    await page.keyboard.press('c');
    await swipe(page);
    await page.waitForSelector('[data-outcome="partial"]');
    expect(await page.textContent('[data-outcome="partial"]')).toContain('$20.00 of $30.00');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
    // 10.00 back on the credit sale, with the manager's PIN.
    await go(page, 'Transactions');
    await page.fill('#search-last4', '1111');
    await page.fill('#search-amount', '45.67');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Refund $45.67 Visa •••• 1111' }).click();
    await page.fill('#refund-amount', '10.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.waitForSelector('#manager-pin');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Refunded $10.00.');
    expect(await page.getByText('Refunded $10.00.').count()).toBeGreaterThan(0);
    await signOut(page);
  }, 120_000);

  it('the one computation over the journal is the day worked by hand', () => {
    const f = journalFigures();
    // Card sales: 45.67 + (20.99 + 20.00 cash back) + 20.00 approved of 30.00 asked.
    expect(f.card.sales).toEqual({ count: 3, cents: 4567 + 2099 + 2000 + 2000 });
    expect(f.card.refunds).toEqual({ count: 1, cents: 1000 });
    expect(f.card.netCents).toBe(9666);
    expect(f.drawer.cashTaken).toEqual({ count: 2, cents: 2340 + 1000 });
    expect(f.drawer.cashBackPaidCents).toBe(2000);
    expect(f.drawer.expectedCashCents).toBe(1340);
  });

  it('the batch screen, the close dialog and the settlement show the same figures, each labelled', async () => {
    const f = journalFigures();
    await signIn(page, '9999');
    await go(page, 'Batch');
    await page.getByRole('table', { name: 'Card batch', exact: true }).waitFor();
    expect(await screenFigures(page)).toEqual(expectedOnScreen(f));
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await screenshot(page, `18-batch-figures-${size.width}x${size.height}`);
    }
    await page.getByRole('button', { name: 'Close batch now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the batch?' });
    const said = (await dialog.textContent()) ?? '';
    expect(said).toContain(`${FIGURE_LABELS.cardNet}: ${formatCents(f.card.netCents)}`);
    expect(said).not.toContain(formatCents(f.card.netCents + f.drawer.cashTaken.cents));
    await screenshot(page, '18-batch-close-dialog');
    await page.click('#settle-confirm');
    const result = page.getByTestId('settle-result');
    await result.waitFor({ timeout: 30_000 });
    // The gateway's own settlement (its sum over its batch) is the card net the screens showed.
    expect(await figure(result.getByRole('table'), 'Settled by the gateway')).toBe(
      formatCents(f.card.netCents),
    );
    expect(await figure(result.getByRole('table'), FIGURE_LABELS.cardNet)).toBe(formatCents(f.card.netCents));
    await screenshot(page, '18-batch-settled');
  }, 90_000);

  it('Reports show the same figures for the day, cash included', async () => {
    const f = journalFigures();
    await go(page, 'Reports');
    await page.getByRole('table', { name: 'Card batch', exact: true }).waitFor();
    expect(await screenFigures(page)).toEqual(expectedOnScreen(f));
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await screenshot(page, `18-reports-figures-${size.width}x${size.height}`);
    }
  }, 60_000);
});
