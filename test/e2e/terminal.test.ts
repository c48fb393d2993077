import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  axeSerious,
  buildRenderer,
  describeViolations,
  chooseCard,
  go,
  pageText,
  signIn,
  signOut,
  launchBrowser,
  openTillFor,
  median,
  screenshot,
  startTerminal,
  type AxeViolation,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The whole terminal in real Chromium, in browser mode against the real `npm start` (electron/start.ts)
 * with its embedded sandbox gateway and simulated devices. The tests run in order on one terminal, as one
 * lane's day: sales, a refund, then the manager closes the batch.
 */

const VISA = '4111111111111111';
const DECLINE = '4000000000000002';
const PARTIAL = '4000000000000341'; // holds 20.00: a card-present sale above it is approved for 20.00
const SLOW = '4000000000000119'; // the sandbox processor answers after its delay (--sandbox-slow-ms)

let terminal: Terminal;
let browser: Browser;
let page: Page;
const a11y = new Map<string, AxeViolation[]>();

/** Every screen the journeys below scan; the verdict counts them, so a skipped scan cannot pass as clean. */
const SCANNED_SCREENS = [
  'sign-in',
  'sale: amount entry',
  'sale: approved',
  'sale: device prompt',
  'sale: signature',
  'sale: done',
  'receipt dialog',
  'sale: debit form',
  'sale: PIN entry prompt',
  'sale: declined',
  'sale: cash form',
  'sale: partial approval',
  'sale: unknown outcome',
  'transactions',
  'manager PIN dialog',
  'manager: batch',
  'manager: reports',
  'manager: settings',
  'manager: payment links',
  'manager: offline & queues',
  'tech: devices',
  'tech: gateway & lane',
  'tech: diagnostics',
  'sale: keyed card form',
] as const;
const timings = {
  firstInteractiveMs: 0,
  firstInteractiveWallMs: 0,
  /** In-page swipe-to-approved times, one array per batch of seven sales. */
  swipeBatches: [] as number[][],
  swipeWall: [] as number[],
};
let bundleLines: string[] = [];

async function checkA11y(p: Page, screen: string): Promise<void> {
  a11y.set(screen, await axeSerious(p));
}

/** Types an amount on the keyboard (digits shift in from the right: "2500" is 25.00). */
async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function newSale(p: Page): Promise<void> {
  await p.keyboard.press('n');
  await p.waitForSelector('[data-outcome]', { state: 'detached' });
}

/** The in-page time from the simulated card action to the outcome on screen (performance marks). */
function cardToOutcomeMs(p: Page): Promise<number> {
  return p.evaluate(() => {
    const card = performance.getEntriesByName('tillpoint:card').at(-1);
    const out = performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith('tillpoint:outcome:'))
      .at(-1);
    return card && out ? out.startTime - card.startTime : Number.NaN;
  });
}

async function swipeSale(p: Page, digits: string, pan = VISA): Promise<{ wall: number; inPage: number }> {
  await chooseCard(p, pan);
  await typeAmount(p, digits);
  await p.keyboard.press('c');
  await p.waitForSelector('[data-step="waiting-for-card"]');
  const t0 = performance.now();
  await p.click('[data-sim="swipe"]');
  await p.waitForSelector('[data-outcome]');
  const wall = performance.now() - t0;
  return { wall, inPage: await cardToOutcomeMs(p) };
}

describe('terminal screens in Chromium (browser mode, sandbox gateway, simulated devices)', () => {
  beforeAll(async () => {
    bundleLines = buildRenderer();
    for (const l of bundleLines) console.log(l.trim());
    // The slow test card answers after 3 s; the unknown-outcome test times the sale out well before.
    terminal = await startTerminal(['--sandbox-slow-ms', '3000']);
    await openTillFor(terminal);
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
    const rows = [...a11y.entries()].map(
      ([screen, v]) =>
        `${screen}: ${v.length === 0 ? 'ok' : v.map((x) => `${x.id} (${x.impact})`).join(', ')}`,
    );
    console.log(
      [
        'e2e performance:',
        `  first screen interactive: ${timings.firstInteractiveMs.toFixed(0)} ms after navigation start (wall ${timings.firstInteractiveWallMs.toFixed(0)} ms incl. page load)`,
        ...timings.swipeBatches.map(
          (b, i) =>
            `  swipe to approved screen${timings.swipeBatches.length > 1 ? ` (batch ${i + 1})` : ''}: median ${median(b).toFixed(0)} ms in page over ${b.length} sales [${b.map((x) => x.toFixed(0)).join(', ')}]`,
        ),
        `  swipe to approved incl. Playwright click/wait: median ${median(timings.swipeWall).toFixed(0)} ms`,
        ...bundleLines.map((l) => `  ${l.trim()}`),
        `axe-core serious/critical violations by screen (${a11y.size} screens):`,
        ...rows.map((r) => `  ${r}`),
      ].join('\n'),
    );
  }, 60_000);

  it('first screen is interactive (its time printed, not asserted: figures belong to test/bench); PIN sign-in by keyboard alone', async () => {
    const t0 = performance.now();
    await page.goto(terminal.url);
    await page.waitForSelector('#pin:enabled');
    timings.firstInteractiveWallMs = performance.now() - t0;
    timings.firstInteractiveMs = await page.evaluate(
      () => performance.getEntriesByName('tillpoint:interactive')[0]?.startTime ?? Number.NaN,
    );
    // Printed in afterAll, not asserted: a timed assertion fails a loaded machine, not a slow screen.
    expect(Number.isFinite(timings.firstInteractiveMs)).toBe(true);
    await checkA11y(page, 'sign-in');
    await screenshot(page, '00-sign-in');
    // The PIN field has the focus on arrival: typing and Enter are all it takes.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pin');
    await page.keyboard.type('1111');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#sale-amount');
    await checkA11y(page, 'sale: amount entry');
  }, 60_000);

  it('only the window the terminal opened gets the bridge; it keeps it across a reload', async () => {
    // The one-time token left the address bar as soon as the page took it.
    expect(page.url()).not.toContain('#launch=');
    expect(page.url()).toBe(`${terminal.base}/`);
    const stranger = await browser.context.newPage();
    try {
      // The page alone (what any local process can GET) grants nothing.
      await stranger.goto(terminal.base);
      await stranger.getByText('This page was not opened by a Tillpoint terminal').waitFor();
      // Nor does the printed address once its window has spent the token (a full load, not a fragment change).
      await stranger.goto('about:blank');
      await stranger.goto(terminal.url);
      await stranger.getByText('this window was not opened by the terminal').waitFor();
      expect(await stranger.locator('#pin:enabled').count()).toBe(0);
    } finally {
      await stranger.close();
    }
    // The terminal's own window reloads: its page key lets it back in (signed out: a new connection).
    await page.reload();
    await signIn(page, '1111');
    await page.waitForSelector('#sale-amount');
  }, 60_000);

  it('swiped credit sale: approved with auth number, last four and card type (and the swipe-to-approved time)', async () => {
    const first = await swipeSale(page, '1234');
    await page.waitForSelector('[data-outcome="approved"]');
    await expect.poll(() => page.textContent('[data-testid="outcome-card"]')).toContain('Visa •••• 1111');
    expect((await page.textContent('[data-testid="outcome-auth"]'))?.trim().length).toBeGreaterThan(0);
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Swiped');
    // The full number is never on screen.
    expect(await pageText(page)).not.toContain(VISA);
    await checkA11y(page, 'sale: approved');
    await screenshot(page, '01-swiped-credit-approved');
    await newSale(page);
    const batch = [first.inPage];
    timings.swipeWall.push(first.wall);
    // More sales for the median (distinct amounts: the gateway refuses a duplicate of a recent payment).
    const sale = async (digits: string, into: number[]) => {
      const t = await swipeSale(page, digits);
      await page.waitForSelector('[data-outcome="approved"]');
      into.push(t.inPage);
      timings.swipeWall.push(t.wall);
      await newSale(page);
    };
    for (const digits of ['1311', '1422', '1533', '1644', '1755', '1866']) await sale(digits, batch);
    timings.swipeBatches.push(batch);
    // The medians are printed in afterAll, not asserted (a loaded machine, not a slow screen, fails a
    // timed assertion); every sale of the batch was approved on screen.
    expect(batch).toHaveLength(7);
  }, 90_000);

  it('chip sale with a signature on the signature pad', async () => {
    // The sandbox Mastercard chip card: its CVM list asks for a signature (test/e2e/chip.test.ts has the rest).
    await chooseCard(page, '5100000000000016');
    await typeAmount(page, '7500');
    await page.keyboard.press('c');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await checkA11y(page, 'sale: device prompt');
    await screenshot(page, '02-chip-waiting-for-card');
    await page.click('[data-sim="insert"]:enabled');
    await page.waitForSelector('#sign-title');
    expect(await page.textContent('#sign-title')).toContain('Sign here');
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Chip');
    await checkA11y(page, 'sale: signature');
    await page.click('[data-sim="sign"]');
    await page.getByRole('button', { name: 'Customer has signed on the pad' }).click();
    await page.waitForSelector('#receipt-title');
    await screenshot(page, '02-chip-signed');
    await checkA11y(page, 'sale: done');
    // The on-screen receipt with its QR code.
    await page.keyboard.press('r');
    await page.waitForSelector('dialog[open] svg.qr');
    // The customer's copy carries the last four only (FACTA; PCI DSS 3.4.1), never the first six.
    const receipt = (await page.textContent('dialog[open] .receipt')) ?? '';
    expect(receipt).toContain('****0016');
    expect(receipt).not.toContain('510000');
    expect(receipt).toContain('CUSTOMER COPY');
    await checkA11y(page, 'receipt dialog');
    await screenshot(page, '02-chip-receipt');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await newSale(page);
  }, 60_000);

  it('debit sale with the PIN typed on the simulated PIN pad', async () => {
    await chooseCard(page, VISA);
    await typeAmount(page, '2099');
    await page.keyboard.press('d');
    await page.waitForSelector('#form-title');
    await checkA11y(page, 'sale: debit form');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('[data-step="pin-entry"]');
    expect(await page.textContent('#prompt-text')).toContain('Customer entering PIN');
    await checkA11y(page, 'sale: PIN entry prompt');
    await screenshot(page, '03-debit-pin-entry');
    const pad = page.getByRole('group', { name: 'Simulated PIN pad keys' });
    for (const d of '1234') await pad.getByRole('button', { name: d, exact: true }).click();
    await page.click('[data-sim="pin-enter"]');
    await page.waitForSelector('[data-outcome="approved"]');
    await screenshot(page, '03-debit-approved');
    await newSale(page);
  }, 60_000);

  it('declined card: the reason in plain words and what to try next; then paid in cash', async () => {
    await swipeSale(page, '3105', DECLINE);
    await page.waitForSelector('[data-outcome="declined"]');
    const text = (await page.textContent('[data-outcome="declined"]')) ?? '';
    expect(text).toContain('Declined');
    expect(text).toMatch(/another card or tender/i);
    await checkA11y(page, 'sale: declined');
    await screenshot(page, '04-declined');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await checkA11y(page, 'sale: cash form');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
  }, 60_000);

  it('partial approval: the remaining balance goes onto cash', async () => {
    await swipeSale(page, '3000', PARTIAL);
    await page.waitForSelector('[data-outcome="partial"]');
    expect(await page.textContent('[data-outcome="partial"]')).toContain('$20.00 of $30.00');
    expect(await page.textContent('[data-testid="outcome-remaining"]')).toContain('$10.00');
    await checkA11y(page, 'sale: partial approval');
    await screenshot(page, '05-partial-approval');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.getByRole('group', { name: 'Take cash now' }).getByRole('button', { name: '$20.00' }).click();
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('[data-testid="outcome-change"]')).toContain('$10.00');
    await screenshot(page, '05-partial-then-cash');
    await newSale(page);
  }, 60_000);

  it('unknown outcome: "Do not retry", and the sale ends reversed', async () => {
    // The tech shortens the payment timeout below the slow sandbox processor's delay (the fault hook).
    const tech = await browser.context.newPage();
    // A second window needs its own launch address: the first one's token is spent.
    await tech.goto(await terminal.launchUrl());
    await signIn(tech, '7777');
    await go(tech, 'Gateway & lane');
    const saleTimeout = tech.getByLabel('Payment timeout (seconds)');
    const original = await saleTimeout.inputValue();
    await saleTimeout.fill('0.5');
    await tech.getByRole('button', { name: 'Save connection' }).click();
    await tech.waitForSelector('text=Gateway settings saved.');
    try {
      await swipeSale(page, '2222', SLOW);
      await page.waitForSelector('[data-outcome="unknown"]');
      // "Do not retry" until the reversal is through (the sandbox may finish it before this read), then
      // the final state (test/e2e/follow-core.test.ts follows every step).
      expect([
        'Do not retry — the terminal is reversing this sale',
        'Reversed: the customer is not charged — take payment again',
      ]).toContain(await page.textContent('#outcome-title'));
      await screenshot(page, '06-unknown-outcome');
      await page.waitForSelector('[data-reversal="reversed"]', { timeout: 45_000 });
      expect(await page.textContent('#outcome-title')).toBe(
        'Reversed: the customer is not charged — take payment again',
      );
      await screenshot(page, '06-unknown-reversed');
      await checkA11y(page, 'sale: unknown outcome');
    } finally {
      await saleTimeout.fill(original);
      await tech.getByRole('button', { name: 'Save connection' }).click();
      await tech.waitForSelector('text=Gateway settings saved.');
      await tech.close();
    }
    // The ticket is still open for another tender: the cashier cancels it (nothing was taken).
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    await page.waitForSelector('[data-outcome]', { state: 'detached' });
  }, 90_000);

  it('refund with the manager PIN from today’s transactions', async () => {
    await go(page, 'Transactions');
    await page.fill('#search-last4', '1111');
    await page.fill('#search-amount', '12.34');
    await page.keyboard.press('Enter');
    const refund = page.getByRole('button', { name: 'Refund $12.34 Visa •••• 1111' });
    await refund.waitFor();
    await checkA11y(page, 'transactions');
    await refund.click();
    await page.fill('#refund-amount', '5.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.waitForSelector('#manager-pin');
    await checkA11y(page, 'manager PIN dialog');
    await screenshot(page, '07-refund-manager-pin');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Refunded $5.00.');
    await page.waitForSelector('text=refunded $5.00');
    await screenshot(page, '07-refund-done');
  }, 60_000);

  it('batch close by the manager', async () => {
    await signOut(page);
    await signIn(page, '9999');
    await go(page, 'Batch');
    await page.getByRole('table', { name: 'Card batch', exact: true }).waitFor();
    await page.waitForSelector('[data-testid="rec-can-close"]');
    await checkA11y(page, 'manager: batch');
    await screenshot(page, '08-batch-open');
    await page.getByRole('button', { name: 'Close batch now' }).click();
    await page.click('#settle-confirm');
    await page.waitForSelector('[data-testid="settle-result"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="settle-result"]')).toMatch(/Settled by the gateway\$/);
    await screenshot(page, '08-batch-closed');
  }, 60_000);

  it('manager screens: reports with CSV, settings, payment links, offline queue', async () => {
    await go(page, 'Reports');
    await page.waitForSelector('figcaption:has-text("Sales by hour")');
    await expect.poll(() => page.locator('table.data tbody tr').count()).toBeGreaterThan(5);
    await checkA11y(page, 'manager: reports');
    await screenshot(page, '09-reports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.split('\n').length).toBeGreaterThan(5);
    expect(csv).not.toContain(VISA);

    await go(page, 'Settings');
    await page.waitForSelector('#set-tax');
    // The lane's sale settings, used by the cashier's keyboard test below: 8.25 % tax and a tip prompt.
    await expect.poll(() => page.inputValue('#set-tax')).toBe('0');
    await page.fill('#set-tax', '8.25');
    await page.getByLabel('Offer a tip on each sale').check();
    await page.getByRole('button', { name: 'Save sale settings' }).click();
    await page.waitForSelector('text=Settings saved.');
    await checkA11y(page, 'manager: settings');
    await screenshot(page, '09-settings');

    await go(page, 'Payment links');
    await page.fill('#link-amount', '42.00');
    await page.fill('#link-description', 'Special order');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('button', { name: 'Disable link Special order' }).waitFor();
    await checkA11y(page, 'manager: payment links');
    await screenshot(page, '09-payment-links');
    await page.getByRole('button', { name: 'Disable link Special order' }).click();
    await page.getByRole('button', { name: 'Disable link Special order' }).waitFor({ state: 'detached' });

    await go(page, 'Offline & queues');
    await page.waitForSelector('#saf-meter');
    await checkA11y(page, 'manager: offline & queues');
    await screenshot(page, '09-offline-queues');
  }, 90_000);

  it('tech screens: devices with a test action, gateway test, diagnostics bundle with card data masked', async () => {
    await signOut(page);
    await signIn(page, '7777');
    await go(page, 'Devices');
    await page.waitForSelector('tr[data-role="cardReader"]');
    await page.getByRole('button', { name: 'Print test receipt' }).click();
    await page.waitForSelector('ul[aria-label="Test results"] li');
    await checkA11y(page, 'tech: devices');
    await screenshot(page, '10-devices');

    await go(page, 'Gateway & lane');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.waitForSelector('[data-testid="gateway-test"]');
    expect(await page.textContent('[data-testid="gateway-test"]')).toContain('Connected');
    // A remote gateway over plain http is refused on the screen, in the core's words (PCI DSS 4.2.1).
    const address = await page.inputValue('#gw-url');
    await page.fill('#gw-url', 'http://gateway.example.com');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByText('A remote gateway must use https://').waitFor();
    await page.fill('#gw-url', address);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => page.textContent('[data-testid="gateway-test"]')).toContain('Connected');
    await checkA11y(page, 'tech: gateway & lane');
    await screenshot(page, '10-gateway');

    await go(page, 'Diagnostics');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export diagnostics bundle' }).click(),
    ]);
    const bundle = await readFile((await download.path()) ?? '', 'utf8');
    expect(bundle).toContain('tillpoint-diagnostics');
    for (const pan of [VISA, '5100000000000016', SLOW, PARTIAL]) expect(bundle).not.toContain(pan);
    await checkA11y(page, 'tech: diagnostics');
    await screenshot(page, '10-diagnostics');
    await signOut(page);
  }, 90_000);

  it('keyboard alone: visible focus, tab order to the tenders, and a whole cash sale', async () => {
    await signIn(page, '1111');
    await page.waitForSelector('#sale-amount');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sale-amount');
    // Tab from the amount reaches the keypad, the ticket's ways to add items (quick keys, search, open
    // item), then the tenders, each with a visible focus ring. (Letter shortcuts reach a tender at once.)
    const seen: string[] = [];
    for (let i = 0; i < 60 && !seen.includes('credit'); i++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return null;
        const cs = getComputedStyle(el);
        return {
          tender: el.dataset['tender'] ?? el.textContent?.trim() ?? '',
          outline: cs.outlineStyle,
          width: parseFloat(cs.outlineWidth),
        };
      });
      expect(focus?.outline).not.toBe('none');
      expect(focus?.width ?? 0).toBeGreaterThanOrEqual(3);
      seen.push(focus?.tender ?? '');
    }
    expect(seen).toContain('credit');
    // The keyed-card form, by keyboard: K opens it with the number field focused, Esc goes back.
    await page.focus('#sale-amount');
    await typeAmount(page, '1500');
    // Tax and tip as the manager set them: 8.25 % of 15.00 is 1.24; the tip choices are offered.
    expect(await page.textContent('[data-testid="total-tax"]')).toBe('$1.24');
    await page.getByRole('radio', { name: /^15% \(\$2\.25\)/ }).waitFor();
    await page.keyboard.press('k');
    await page.waitForSelector('#keyed-number');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('keyed-number');
    await checkA11y(page, 'sale: keyed card form');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#keyed-number', { state: 'detached' });
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('[data-testid="total-total"]')).toBe('$16.24');
    await screenshot(page, '11-keyboard-cash-sale');
    await page.keyboard.press('n');
    await page.waitForSelector('[data-outcome]', { state: 'detached' });
  }, 60_000);

  it('no screen has a serious or critical accessibility violation (axe-core)', () => {
    expect([...a11y.keys()].sort()).toEqual([...SCANNED_SCREENS].sort());
    expect(describeViolations(a11y)).toEqual([]);
  });
});
