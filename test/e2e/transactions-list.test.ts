import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { RemoteBridge } from '../../electron/bridge/ws-client';
import {
  artifacts,
  buildRenderer,
  go,
  launchBrowser,
  openTillFor,
  signOut,
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

/** The element at the centre of `selector`'s first match is that element or inside it: nothing covers it. */
async function uncovered(p: Page, selector: string): Promise<boolean> {
  return p.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  });
}

/** The notice's whole text is in view: nothing of it cut off by its two-line clamp or its width. */
async function readsWhole(notice: Locator): Promise<boolean> {
  return notice.evaluate(
    (el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
  );
}

/** Every row and button inside the viewport whose centre something else covers (their names). */
async function coveredControls(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const out: string[] = [];
    // The sticky top bar passes over a screen scrolled under it by design: what is in view is below it.
    const top = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    for (const el of document.querySelectorAll('main button, main tr[data-utn], header button')) {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const inHeader = el.closest('header') !== null;
      if (
        r.width === 0 ||
        y < (inHeader ? 0 : top) ||
        y >= window.innerHeight ||
        x < 0 ||
        x >= window.innerWidth
      )
        continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && !el.contains(hit) && hit.closest('.notices'))
        out.push(el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName);
    }
    return out;
  });
}

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
    // A day longer than a page: cash sales, each its own row, into the till in the drawer.
    await openTillFor(terminal, 10_000, '9999');
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

  it('a notice covers no control and reads whole: the rows after a refund, a cashier’s cash refund at a full bar, Sign in after signing out', async () => {
    const t = value(await tool.send('sale.open', { subtotalCents: 2000, taxCents: 0 }));
    value(
      await tool.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
        allowDuplicate: true,
      }),
    );
    for (const [size, left, refund, cashSale] of [
      [{ width: 1024, height: 768 }, '$20.00', '10.00', '$1.56'],
      [{ width: 1366, height: 900 }, '$10.00', '5.00', '$1.55'],
    ] as const) {
      await page.setViewportSize(size);
      await go(page, 'Sale');
      await go(page, 'Transactions');
      const barHeight = async () => (await page.locator('header').boundingBox())?.height ?? 0;
      const bar = await barHeight();
      await page.getByRole('button', { name: `Refund ${left} Visa •••• 1111` }).click();
      await page.fill('#refund-amount', refund);
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      const notice = page.locator('.notice', { hasText: `Refunded $${refund}.` });
      await notice.waitFor();
      // The notice is on screen, where a screen reader hears it (a live region).
      const box = await notice.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= size.height).toBe(true);
      expect(await page.locator('.notices').getAttribute('aria-live')).toBe('polite');
      // It takes room in the bar's row: the bar is no taller, so nothing below it moves.
      expect(await barHeight()).toBe(bar);
      expect(await readsWhole(notice)).toBe(true);
      await page.locator('table.data tbody tr[data-utn]').first().scrollIntoViewIfNeeded();
      expect(await uncovered(page, 'table.data tbody tr[data-utn]')).toBe(true);
      // However the list is scrolled, no row or button in view is under the notice.
      for (const y of [0, 300, 600, 900, 1200]) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        expect(await coveredControls(page), `scrolled to ${y}`).toEqual([]);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await viewShot(page, `tx-03-refund-notice-${size.width}`);

      // Signing out leaves no notice behind, over Sign in or anywhere.
      await signOut(page);
      expect(await page.locator('.notice').count()).toBe(0);
      expect(await uncovered(page, 'main form button[type="submit"]')).toBe(true);
      await viewShot(page, `tx-04-signed-out-${size.width}`);

      // The cashier's bar is full (lane, till, name, My PIN, Sign out in one row at 1024 px): the cash
      // refund's longer notice still reads whole, over no control, and the bar keeps its height.
      await signIn(page, '1111');
      await go(page, 'Transactions');
      const cashierBar = await barHeight();
      await page.getByRole('button', { name: `Refund cash ${cashSale}`, exact: true }).click();
      await page.fill('#refund-amount', '0.50');
      await page
        .getByRole('dialog', { name: 'Cash refund' })
        .getByRole('button', { name: 'Refund', exact: true })
        .click();
      await page.waitForSelector('#manager-pin');
      await page.keyboard.type('9999');
      await page.keyboard.press('Enter');
      const cashNotice = page.locator('.notice', { hasText: 'Refunded $0.50 in cash: the drawer is open.' });
      await cashNotice.waitFor();
      expect(await readsWhole(cashNotice)).toBe(true);
      expect(await barHeight()).toBe(cashierBar);
      for (const y of [0, 300, 600]) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        expect(await coveredControls(page), `cashier, scrolled to ${y}`).toEqual([]);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await viewShot(page, `tx-05-cash-refund-notice-${size.width}`);
      await signOut(page);
      await signIn(page, '9999');
    }
  }, 90_000);
});
