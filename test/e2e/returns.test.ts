import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIGURE_LABELS } from '../../common/money-figures';
import { storeDay } from '../../common/store-time';
import type { RemoteBridge } from '../../electron/bridge/ws-client';
import {
  axeSerious,
  buildRenderer,
  describeViolations,
  go,
  launchBrowser,
  pageText,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  toolBridge,
  type AxeViolation,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Issue 19, "Returns from a receipt" — its Done when, the returns half: a day at the counter sells items
 * split cash and card, and items for cash; the next day (the terminal restarted with its clock a day on) the
 * receipt is scanned and one item goes back to the card, an item of the cash sale (its number typed) goes
 * back in cash from the drawer, and a return without a receipt waits for the manager's PIN; the till's
 * expected cash and its X report agree with the refunds to the cent, and the manager's Reports count the
 * returns by tender. Real Chromium against the real `npm start` (browser mode, embedded sandbox gateway,
 * simulated devices, the scanner's serial side).
 *
 * The day's sales are rung by a tool holding the terminal's secret (docs/bridge.md "Automation"), through the
 * same ticket.* and sale.pay commands the sale screen uses: the sale screen's ticket of lines is another
 * engineer's work in progress, and this file is about what happens the next day.
 */

const DAY = 86_400_000;
const VISA = { cardNumber: '4111111111111111', expiry: '1230' };

let dataDir = '';
let terminal: Terminal;
let browser: Browser;
let page: Page;
let split = { ticketId: '', totalCents: 0 };
let cashOnly = { ticketId: '', totalCents: 0 };
const a11y = new Map<string, AxeViolation[]>();

async function shots(p: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 900 },
  ]) {
    await p.setViewportSize(size);
    await screenshot(p, `19-returns-${name}-${size.width}x${size.height}`);
  }
}

async function ok<T>(
  r: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
): Promise<T> {
  const v = await r;
  if (!v.ok) throw new Error(v.error.message);
  return v.value;
}

async function sku(tool: RemoteBridge, s: string): Promise<number> {
  return (await ok(tool.send('catalog.lookup', { sku: s }))).item.id;
}

/** At a 1024×768 counter, scrolled to the top, the control is in view without scrolling. */
async function inViewAt1024(p: Page, control: Locator): Promise<void> {
  await p.setViewportSize({ width: 1024, height: 768 });
  await p.evaluate(() => window.scrollTo(0, 0));
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(768);
}

/** A figure of a labelled row (its last cell). */
async function figure(table: Locator, label: string): Promise<string> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });
  return ((await row.getByRole('cell').last().textContent()) ?? '').trim();
}

describe('issue 19: returns from a receipt on the next day (Chromium, sandbox gateway, simulated devices)', () => {
  beforeAll(async () => {
    buildRenderer();
    // The machine's own zone is UTC (the terminal and Chromium inherit it); the merchant's is New York.
    process.env['TZ'] = 'UTC';
    dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-e2e-returns-'));
    terminal = await startTerminal([], 60_000, { dataDir });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('day one: a till opens; items sold split cash and card, and items for cash; the receipt carries its number', async () => {
    const tool = await toolBridge(dataDir, '1111');
    try {
      await ok(tool.send('till.open', { float: { totalCents: 10_000 } }));
      // Two paper towels and a chocolate bar (8.25 % added): 19.77 + 1.63 tax = 21.40; 10.00 cash, 11.40 card.
      let t = await ok(tool.send('ticket.open', {}));
      t = await ok(
        tool.send('ticket.addItem', {
          ticketId: t.ticketId,
          itemId: await sku(tool, 'GM-TOWEL-6'),
          quantity: 2,
        }),
      );
      t = await ok(
        tool.send('ticket.addItem', { ticketId: t.ticketId, itemId: await sku(tool, 'GR-CHOC-BAR') }),
      );
      expect(t.totalCents).toBe(2140);
      await ok(
        tool.send('sale.pay', {
          ticketId: t.ticketId,
          amountCents: 1000,
          tender: { kind: 'cash', tenderedCents: 1000 },
        }),
      );
      const paid = await ok(
        tool.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'credit', entry: 'keyed', keyed: VISA },
        }),
      );
      expect(paid.ticket.status).toBe('paid');
      split = { ticketId: t.ticketId, totalCents: t.totalCents };
      const receipt = await ok(tool.send('receipt.get', { ticketId: t.ticketId }));
      expect(receipt.text).toContain(`TICKET ${t.ticketId}`);

      // Three bananas and a sourdough loaf (exempt): 5.36 in cash.
      let c = await ok(tool.send('ticket.open', {}));
      c = await ok(
        tool.send('ticket.addItem', {
          ticketId: c.ticketId,
          itemId: await sku(tool, 'PR-BANANA'),
          quantity: 3,
        }),
      );
      c = await ok(
        tool.send('ticket.addItem', { ticketId: c.ticketId, itemId: await sku(tool, 'BK-SOURDOUGH') }),
      );
      expect(c.totalCents).toBe(536);
      await ok(
        tool.send('sale.pay', { ticketId: c.ticketId, tender: { kind: 'cash', tenderedCents: 1000 } }),
      );
      cashOnly = { ticketId: c.ticketId, totalCents: c.totalCents };
    } finally {
      await tool.close();
    }
  }, 120_000);

  it('the next day: the receipt scanned finds the sale; one towel goes back to the card (DoRefund), with its receipt', async () => {
    await terminal.stop();
    terminal = await startTerminal(['--sandbox-clock-offset-ms', String(DAY)], 60_000, { dataDir });
    await page.goto(terminal.url);
    await signIn(page, '1111');
    await go(page, 'Returns');
    a11y.set('returns: find', await axeSerious(page));
    await shots(page, '0-find');

    // Without the receipt: yesterday (a store day, in the store's zone) and the card's last four.
    const tool = await toolBridge(dataDir, '1111');
    try {
      const zone = (await ok(tool.send('terminal.status', {}))).timeZone ?? 'UTC';
      // The lane's clock is a day on: its yesterday is this machine's today.
      const yesterday = storeDay(Date.now(), zone);
      await page.fill('#return-from', yesterday);
      await page.fill('#return-to', yesterday);
      await page.fill('#return-last4', '1111');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const found = page.getByRole('table', { name: 'Sales found, newest first' });
      await found.waitFor();
      expect(await found.getByRole('row').count()).toBe(2);
      expect(await found.innerText()).toMatch(
        new RegExp(`${split.ticketId}[\\s\\S]*Visa \\*{4}1111[\\s\\S]*\\$21\\.40`),
      );
      await shots(page, '1-found');
      // The receipt's code through the scanner's serial side (as the receipt prints it: its ticket id).
      await ok(tool.send('simulator.scan', { symbology: 'code-128', data: split.ticketId, via: 'serial' }));
    } finally {
      await tool.close();
    }
    await page.getByText(`Sale ${split.ticketId}`).waitFor();
    // Yesterday's sale, in the store's time.
    await page.getByRole('button', { name: 'One more Paper towels 6 roll' }).click();
    const give = page.getByRole('button', { name: 'Give back $9.73' });
    await give.waitFor();
    const order = page.getByRole('list', { name: 'Refund to, in this order' });
    const first = order.getByRole('listitem').first();
    expect(await first.innerText()).toMatch(/Visa \*{4}1111[\s\S]*\$9\.73 · refund to the card/);
    const money = page.locator('.return-totals');
    expect(await figure(money, 'Items')).toBe('$8.99');
    expect(await figure(money, 'Tax')).toBe('$0.74');
    a11y.set('returns: lines', await axeSerious(page));
    await inViewAt1024(page, give);
    await shots(page, '2-lines');
    await give.click();
    await page.getByRole('heading', { name: /Return \d+: \$9\.73 given back/ }).waitFor();
    await page.getByRole('rowheader', { name: 'Visa ****1111: refunded' }).waitFor();
    await shots(page, '3-done');
    await page.getByRole('button', { name: 'Show receipt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Return receipt' });
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toMatch(/REFUNDED TO VISA \*{4}1111\s*9\.73/);
    expect(text).toMatch(/TAX RETURNED\s*-0\.74/);
    expect(text).toContain(`SALE TICKET ${split.ticketId}`);
    expect(await pageText(page)).not.toContain('4111111111111111');
    await shots(page, '4-receipt');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 180_000);

  it('an item of the cash sale, its number typed, goes back in cash from the drawer', async () => {
    await page.getByRole('button', { name: 'Next return' }).click();
    await page.locator('#return-receipt').click();
    // A person types (slower than a scanner: the wedge rule leaves it as typing), then Enter.
    await page.keyboard.type(`TICKET ${cashOnly.ticketId}`, { delay: 70 });
    await page.keyboard.press('Enter');
    await page.getByText(`Sale ${cashOnly.ticketId}`).waitFor();
    await page.getByRole('button', { name: 'One more Sourdough loaf' }).click();
    const give = page.getByRole('button', { name: 'Give back $4.49' });
    await give.waitFor();
    expect(await page.getByRole('list', { name: 'Refund to, in this order' }).innerText()).toMatch(
      /Cash[\s\S]*\$4\.49 · cash from the drawer/,
    );
    await give.click();
    await page.getByRole('heading', { name: /Return \d+: \$4\.49 given back/ }).waitFor();
    await page.getByText('The drawer is open: give the cash back.').waitFor();
  }, 120_000);

  it('a return without a receipt waits for the manager’s PIN, then the cash comes out of the drawer', async () => {
    await page.getByRole('button', { name: 'Next return' }).click();
    await page.getByRole('button', { name: 'Return without a receipt' }).click();
    await page.fill('#noreceipt-name', 'Mug');
    await page.fill('#noreceipt-price', '5.00');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.fill('#noreceipt-reason', 'Lost the receipt');
    const give = page.getByRole('button', { name: 'Give back $5.00' });
    await inViewAt1024(page, give);
    a11y.set('returns: without a receipt', await axeSerious(page));
    await shots(page, '5-no-receipt');
    await give.click();
    const approval = page.getByRole('dialog', { name: 'Manager approval' });
    await approval.waitFor();
    expect(await approval.innerText()).toContain('Return $5.00 without a receipt, in cash.');
    a11y.set('returns: manager approval', await axeSerious(page));
    await shots(page, '6-no-receipt-approval');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Return \d+: \$5\.00 given back/ }).waitFor();
    expect(await page.locator('.return-done').innerText()).toContain('approved by Manager');
  }, 120_000);

  it('the till’s X report and the drawer agree with the refunds to the cent; Reports count the returns by tender', async () => {
    await signOut(page);
    await signIn(page, '9999');
    await go(page, 'Tills');
    await page
      .getByRole('button', { name: /^X report of / })
      .first()
      .click();
    const report = page.getByTestId('till-report');
    await report.waitFor();
    // Float 100.00 + cash taken 10.00 + 5.36 − cash refunds 4.49 and 5.00.
    const drawer = report.getByRole('table', { name: 'Drawer' });
    expect(await figure(drawer, FIGURE_LABELS.float)).toBe('$100.00');
    expect(await figure(drawer, FIGURE_LABELS.cashTaken)).toBe('$15.36');
    expect(await figure(drawer, FIGURE_LABELS.cashRefunds)).toBe('$9.49');
    expect(await figure(drawer, FIGURE_LABELS.expectedInDrawer)).toBe('$105.87');
    const returns = report.getByRole('table', { name: 'Returns' });
    expect(await figure(returns, FIGURE_LABELS.cardRefunds)).toBe('$9.73');
    expect(await figure(returns, 'Returned to Credit')).toBe('$9.73');
    expect(await figure(returns, 'Returned to Cash')).toBe('$9.49');
    expect(await figure(returns, 'Returns of sales')).toBe('$19.22');
    await shots(page, '7-x-report');

    await go(page, 'Reports');
    // The range is the lane's day: this browser's clock was not moved a day on with the terminal's.
    const tool = await toolBridge(dataDir, '9999');
    const zone = (await ok(tool.send('terminal.status', {}))).timeZone ?? 'UTC';
    await tool.close();
    const laneDay = storeDay(Date.now() + DAY, zone);
    await page.fill('#report-from', laneDay);
    await page.fill('#report-to', laneDay);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    const byTender = page.getByTestId('returns-by-tender');
    await byTender.waitFor();
    expect(await figure(byTender, 'Credit')).toBe('$9.73');
    expect(await figure(byTender, 'Cash')).toBe('$9.49');
    expect(await figure(byTender, 'Returns in all')).toBe('$19.22');
    await shots(page, '8-reports');
    expect(describeViolations(a11y)).toEqual([]);
  }, 180_000);
});
