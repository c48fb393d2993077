import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RemoteBridge } from '../../electron/bridge/ws-client';
import {
  artifacts,
  buildRenderer,
  go,
  launchBrowser,
  signIn,
  startTerminal,
  toolBridge,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The Transactions screen in Chromium against the real terminal: a day longer than a page arrives a page
 * at a time (Show earlier), at 1024×768 and 1366×900.
 */

const PAGE = 50;
const SALES = PAGE + 6;

let terminal: Terminal;
let browser: Browser;
let page: Page;
let tool: RemoteBridge;

/** What the cashier sees now (a full-page picture of a long list is too small to read). */
async function viewShot(p: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await p.screenshot({ path: join(artifacts, `${name}.png`) });
}

const value = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('Transactions screen: pages and notices in Chromium', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    tool = await toolBridge(terminal.dataDir, '9999');
    // A day longer than a page: cash sales, each its own row.
    for (let i = 1; i <= SALES; i += 1) {
      const t = value(await tool.send('sale.open', { subtotalCents: 100 + i, taxCents: 0 }));
      value(
        await tool.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'cash', tenderedCents: 100 + i },
        }),
      );
    }
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
    await signIn(page, '9999');
  }, 180_000);

  afterAll(async () => {
    await tool?.close();
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('shows the newest page, then earlier ones on Show earlier, until there are none', async () => {
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await go(page, 'Sale');
      await go(page, 'Transactions');
      const rows = page.locator('table.data tbody tr[data-utn]');
      await expect.poll(() => rows.count()).toBe(PAGE);
      // Newest first: the last sale made is at the top.
      expect(await rows.first().textContent()).toContain(`$${((100 + SALES) / 100).toFixed(2)}`);
      expect(await page.locator('#tx-count').textContent()).toContain('earlier ones below');
      const earlier = page.getByRole('button', { name: 'Show earlier' });
      await earlier.scrollIntoViewIfNeeded();
      await viewShot(page, `tx-01-show-earlier-${size.width}`);
      await earlier.click();
      await expect.poll(() => rows.count()).toBe(SALES);
      await page.getByTestId('tx-no-earlier').waitFor();
      expect(await earlier.count()).toBe(0);
      // The oldest sale is the last row; no row twice.
      expect(await rows.last().textContent()).toContain('$1.01');
      const utns = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-utn')));
      expect(new Set(utns).size).toBe(SALES);
      await page.getByTestId('tx-no-earlier').scrollIntoViewIfNeeded();
      await viewShot(page, `tx-02-no-earlier-${size.width}`);
    }
  }, 120_000);
});
