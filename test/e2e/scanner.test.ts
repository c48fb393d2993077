import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fastTypist, jitteryScanner, type RecordedKey } from '../support/keystroke-recordings';
import {
  axeSerious,
  buildRenderer,
  go,
  launchBrowser,
  screenshot,
  signIn,
  startTerminal,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The barcode scanner and the pole display in real Chromium against the real `npm start` (sandbox, the
 * simulated scanner playing serial, USB HID POS and keyboard-wedge scanners, the simulated 2 x 20 display):
 * the tech's Devices screen lists every scan with its verdict, tells a wedge scan typed into its test field
 * from a person typing, and shows a test on the pole display, which the simulator panel renders.
 */

let terminal: Terminal;
let browser: Browser;
let page: Page;

async function chooseLabel(p: Page, data: string): Promise<void> {
  const value = await p.$eval(
    '#sim-barcode',
    (el, d) => [...(el as HTMLSelectElement).options].find((o) => o.text.includes(d))?.value ?? '',
    data,
  );
  expect(value, `label ${data} in the simulator`).not.toBe('');
  await p.selectOption('#sim-barcode', value);
}

/**
 * Replays recorded keystrokes into the focused element with their own timestamps (DevTools
 * Input.dispatchKeyEvent `timestamp` becomes KeyboardEvent.timeStamp), as the OS stamps a real keyboard's
 * keys: the page's timing rule sees the recording's pace, not how fast this machine dispatches.
 */
async function replayKeys(p: Page, keys: readonly RecordedKey[]): Promise<void> {
  const cdp = await browser.context.newCDPSession(p);
  const base = Date.now() - (keys[0]?.at ?? 0);
  for (const { key, at } of keys) {
    const enter = key === 'Enter';
    const common = {
      key,
      code: enter ? 'Enter' : `Digit${key}`,
      windowsVirtualKeyCode: enter ? 13 : key.charCodeAt(0),
    };
    await cdp.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      text: enter ? '\r' : key,
      ...common,
      timestamp: (base + at) / 1000,
    });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common, timestamp: (base + at + 1) / 1000 });
  }
  await cdp.detach();
}

const scanRows = (p: Page) => p.locator('table[aria-label="Last scans"] tbody tr[data-scan]');

beforeAll(async () => {
  buildRenderer();
  terminal = await startTerminal();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(terminal.url);
  await signIn(page, '7777');
  await go(page, 'Devices');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  terminal?.child.kill('SIGTERM');
});

describe('scanner and pole display on the tech’s Devices screen', () => {
  it('lists the scanner and the pole display as connected devices', async () => {
    await page.waitForSelector('tr[data-role="scanner"] .badge-ok');
    await page.waitForSelector('tr[data-role="poleDisplay"] .badge-ok');
    expect(await page.textContent('tr[data-role="scanner"] th')).toBe('Barcode scanner');
    expect(await page.textContent('tr[data-role="poleDisplay"] th')).toBe('Pole display');
  });

  it('lists scans through each scanner kind, a misread refused with its reason', async () => {
    await chooseLabel(page, '036000241457');
    await page.click('[data-sim="scan-serial"]');
    await chooseLabel(page, '96385074');
    await page.click('[data-sim="scan-hid"]');
    await chooseLabel(page, 'TP-LOYALTY-00042');
    await page.click('[data-sim="scan-wedge"]');
    await chooseLabel(page, '036000241458');
    await page.click('[data-sim="scan-serial"]');
    await expect.poll(() => scanRows(page).count(), { timeout: 10_000 }).toBe(4);
    const rows = await scanRows(page).allInnerTexts();
    expect(rows[0]).toMatch(
      /serial\s+UPC-A\s+036000241458\s+Refused the check digit does not match: a misread, scan it again/,
    );
    expect(rows[1]).toMatch(
      /keyboard wedge\s+not identified\s+TP-LOYALTY-00042\s+Valid checked by the scanner/,
    );
    expect(rows[2]).toMatch(/USB HID POS\s+EAN-8\s+96385074\s+Valid check digit verified/);
    expect(rows[3]).toMatch(/serial\s+UPC-A\s+036000241457\s+Valid check digit verified/);
    expect(await page.textContent('[data-testid="sim-last-scan"]')).toMatch(/refused/);
  });

  it('shows a price-embedded label’s item and price', async () => {
    await chooseLabel(page, '212345928752');
    await page.click('[data-sim="scan-hid"]');
    await expect
      .poll(() => scanRows(page).first().innerText(), { timeout: 10_000 })
      .toMatch(/212345928752.*item 12345, label price \$28\.75/);
  });

  it('takes a recorded wedge scan (with jitter) into its test field, and leaves a fast typist alone', async () => {
    const before = await scanRows(page).count();
    await page.focus('#wedge-test');
    await replayKeys(page, jitteryScanner);
    await expect.poll(() => scanRows(page).count(), { timeout: 10_000 }).toBe(before + 1);
    expect(await scanRows(page).first().innerText()).toMatch(/keyboard wedge\s+UPC-A\s+036000241457\s+Valid/);
    expect(await page.inputValue('#wedge-test')).toBe('');
    await replayKeys(page, fastTypist);
    await page.waitForTimeout(500);
    expect(await scanRows(page).count()).toBe(before + 1);
    expect(await page.inputValue('#wedge-test')).toBe('036000241457');
  });

  it('shows the pole display test, which the simulator panel renders as the customer sees it', async () => {
    await page.fill('#pole-text', 'LANE 3 OPEN');
    await page.getByRole('button', { name: 'Show on pole display' }).click();
    await page.waitForSelector('text=shown:');
    await expect
      .poll(() => page.textContent('[data-testid="sim-pole"]'), { timeout: 10_000 })
      .toBe('    LANE 3 OPEN     \n12345678901234567890');
  });

  it('has no serious accessibility violation, and fits at 1366 x 900 and 1024 x 768', async () => {
    expect(await axeSerious(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.locator('#scanner-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'scanner-devices-1366');
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-devices-1366-view.png' });
    await page.locator('#sim-barcode').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-simulator-1366-view.png' });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.locator('#scanner-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'scanner-devices-1024');
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-devices-1024-view.png' });
    await page.locator('#sim-barcode').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-simulator-1024-view.png' });
    await page.locator('#health-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-health-1024-view.png' });
    // The scanner's assignment: a keyboard wedge shows its prefix, suffix and shortest code.
    await page.selectOption('#dev-scanner-kind', 'wedge');
    await page.locator('#dev-scanner-prefix').scrollIntoViewIfNeeded();
    expect(await page.inputValue('#dev-scanner-minlen')).toBe('6');
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-assignment-1024-view.png' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.locator('#dev-scanner-prefix').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/e2e/scanner-assignment-1366-view.png' });
    await page.setViewportSize({ width: 1024, height: 768 });
    // Nothing of the scans table spills sideways at the smaller size.
    const overflow = await page.$eval('table[aria-label="Last scans"]', (t) => t.scrollWidth - t.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
