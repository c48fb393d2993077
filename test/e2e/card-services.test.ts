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
  screenshot,
  startTerminal,
  type AxeViolation,
  type Browser,
  type Terminal,
  inViewUncovered,
} from './harness';

/**
 * The screens for card operations outside a plain sale — gift and EBT balances, gift reload,
 * pre-authorization and its completion — and the manager's audit log, in real Chromium against the real
 * `npm start` (browser mode, embedded sandbox gateway, simulated devices), as test/e2e/terminal.test.ts
 * drives the others. The tests run in order on one terminal.
 */

const VISA = '4111111111111111';
const GIFT = '6035710000000018'; // active with 100.00 at a merchant's first use (docs/gateway-tenders.md)
const EBT = '5077010000000014'; // food 150.00, cash 80.00; PIN 1234
const PIN = '1234';

let terminal: Terminal;
let browser: Browser;
let page: Page;
const a11y = new Map<string, AxeViolation[]>();

/** Every screen the journeys below scan; the verdict counts them, so a skipped scan cannot pass as clean. */
const SCANNED_SCREENS = [
  'cashier: gift & EBT',
  'cashier: gift balance',
  'cashier: gift reload',
  'cashier: gift load manager PIN',
  'cashier: EBT PIN prompt',
  'cashier: EBT balance',
  'cashier: card wait with Cancel',
  'sale: pre-authorized',
  'cashier: pre-authorizations',
  'cashier: complete pre-authorization dialog',
  'manager: audit log',
] as const;

async function checkA11y(p: Page, screen: string): Promise<void> {
  a11y.set(screen, await axeSerious(p));
}

/** Tabs through the screen from its heading: every control reached shows a focus ring at least 3 px wide. */
async function tabThroughMain(p: Page, presses: number): Promise<string[]> {
  await p.focus('main h1');
  const reached: string[] = [];
  for (let i = 0; i < presses; i++) {
    await p.keyboard.press('Tab');
    const focus = await p.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || !el.closest('main')) return null;
      const cs = getComputedStyle(el);
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      return { name: name || el.id, outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth) };
    });
    if (!focus) break;
    expect(focus.outline, `focus ring on ${focus.name}`).not.toBe('none');
    expect(focus.width, `focus ring width on ${focus.name}`).toBeGreaterThanOrEqual(3);
    reached.push(focus.name);
  }
  return reached;
}

async function typePinOnPad(p: Page, pin: string): Promise<void> {
  const pad = p.getByRole('group', { name: 'Simulated PIN pad keys' });
  for (const d of pin) await pad.getByRole('button', { name: d, exact: true }).click();
  await p.click('[data-sim="pin-enter"]');
}

describe('gift, EBT, pre-authorization and audit log screens in Chromium (sandbox, simulated devices)', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    await openTillFor(terminal);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
    await signIn(page, '1111');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
    console.log(
      [
        `axe-core serious/critical violations by screen (${a11y.size} screens):`,
        ...[...a11y.entries()].map(
          ([screen, v]) =>
            `  ${screen}: ${v.length === 0 ? 'ok' : v.map((x) => `${x.id} (${x.impact})`).join(', ')}`,
        ),
      ].join('\n'),
    );
  }, 60_000);

  it('gift card balance inquiry, then a reload paid in cash, typed and sent from the keyboard', async () => {
    await go(page, 'Gift & EBT');
    await checkA11y(page, 'cashier: gift & EBT');
    const reached = await tabThroughMain(page, 8);
    expect(reached).toEqual(
      expect.arrayContaining(['Check gift balance', 'reload-amount', 'Food (SNAP) balance']),
    );

    await chooseCard(page, GIFT);
    await page.getByRole('button', { name: 'Check gift balance' }).click();
    await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
    expect(await page.textContent('#card-prompt')).toContain('Swipe');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('[data-testid="card-balance"]');
    expect(await page.textContent('#card-result-title')).toBe('Gift card balance');
    expect(await page.textContent('[data-testid="card-balance"]')).toBe('$100.00');
    expect(await page.textContent('[data-testid="card-card"]')).toBe('Gift •••• 0018');
    // The result takes the focus, so a screen reader reads it and Tab continues from there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('card-result-title');
    await checkA11y(page, 'cashier: gift balance');
    await screenshot(page, 'cards-01-gift-balance');

    // The customer pays for the load first (cash, the default), then the gift card is swiped.
    await page.focus('#reload-amount');
    await page.keyboard.type('25.00');
    await page.getByRole('button', { name: 'Take $25.00 and reload' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('text=Gift card reloaded');
    expect(await page.textContent('[data-testid="reload-amount"]')).toBe('$25.00');
    expect(await page.textContent('[data-testid="card-balance"]')).toBe('$125.00');
    expect(await page.textContent('[data-testid="reload-basis"]')).toBe('Paid on this lane before the load.');
    await checkA11y(page, 'cashier: gift reload');
    await screenshot(page, 'cards-02-gift-reload');
    expect(await pageText(page)).not.toContain(GIFT);

    // With no payment, the load is a manager's decision: the cashier is asked for the manager's PIN.
    await page.fill('#reload-amount', '10.00');
    await page.getByRole('button', { name: 'Load without payment (manager)' }).click();
    await page.waitForSelector('#manager-pin');
    await checkA11y(page, 'cashier: gift load manager PIN');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('[data-testid="reload-basis"]');
    expect(await page.textContent('[data-testid="reload-basis"]')).toContain('manager’s approval');
    expect(await page.textContent('[data-testid="card-balance"]')).toBe('$135.00');
  }, 60_000);

  it('EBT food balance: card, then the PIN on the PIN pad', async () => {
    await chooseCard(page, EBT);
    await page.getByRole('button', { name: 'Food (SNAP) balance' }).click();
    await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('#card-prompt[data-step="pin-entry"]');
    await checkA11y(page, 'cashier: EBT PIN prompt');
    await typePinOnPad(page, PIN);
    await page.waitForSelector('text=EBT food (SNAP) balance');
    expect(await page.textContent('[data-testid="card-balance"]')).toBe('$150.00');
    expect(await page.textContent('[data-testid="card-card"]')).toBe('EBT •••• 0014');
    await checkA11y(page, 'cashier: EBT balance');
    await screenshot(page, 'cards-03-ebt-food-balance');
    expect(await pageText(page)).not.toContain(EBT);
  }, 60_000);

  it('Cancel stops a gift balance waiting for a swipe and an EBT balance waiting for the PIN, at both sizes', async () => {
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.scrollTo(0, 0));
      // Every service's first button is on screen as the tab opens: the EBT ones stood below the fold.
      for (const name of ['Check gift balance', 'Food (SNAP) balance', 'Cash benefit balance'])
        expect(await inViewUncovered(page.getByRole('button', { name })), `${name} at ${size.width}`).toBe(
          true,
        );
      await chooseCard(page, GIFT);
      await page.getByRole('button', { name: 'Check gift balance' }).click();
      await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
      const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
      // The button is on screen without scrolling, where the cashier looks while the card is awaited.
      const box = await cancel.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(size.height);
      if (size.width === 1024) await checkA11y(page, 'cashier: card wait with Cancel');
      await screenshot(page, `cards-03a-gift-wait-cancel-${size.width}`);
      await cancel.click();
      await page.locator('#card-prompt').waitFor({ state: 'detached' });
      expect(await page.getByRole('alert').textContent()).toContain('Cancelled');
      expect(await page.getByRole('button', { name: 'Check gift balance' }).isEnabled()).toBe(true);
      // The reader stopped: a swipe now reaches no one, and the screen stays as it was.
      await page.click('[data-sim="swipe"]');
      expect(await page.locator('[data-testid="card-balance"]').count()).toBe(0);

      // EBT: the card is read, the PIN pad asks; Cancel on the screen stops the PIN pad.
      await chooseCard(page, EBT);
      await page.getByRole('button', { name: 'Food (SNAP) balance' }).click();
      await page.waitForSelector('#card-prompt[data-step="waiting-for-card"]');
      await page.click('[data-sim="swipe"]');
      await page.waitForSelector('#card-prompt[data-step="pin-entry"]');
      await page.getByText('Asking for the PIN').waitFor();
      await screenshot(page, `cards-03b-ebt-pin-cancel-${size.width}`);
      await cancel.click();
      await page.locator('#card-prompt').waitFor({ state: 'detached' });
      await page.getByText('Not asking for a PIN').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('Cancelled');
      expect(await page.getByRole('button', { name: 'Food (SNAP) balance' }).isEnabled()).toBe(true);
      await screenshot(page, `cards-03c-cancelled-${size.width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 90_000);

  it('pre-authorization on the sale screen, completed with a tip; the completion is in today’s transactions', async () => {
    await go(page, 'Sale');
    await chooseCard(page, VISA);
    await page.waitForSelector('#sale-amount');
    for (const d of '2000') await page.keyboard.press(d);
    await page.keyboard.press('a');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await page.click('[data-sim="swipe"]');
    await page.waitForSelector('[data-outcome="approved"]');
    expect(await page.textContent('#outcome-title')).toBe('Pre-authorized (held)');
    expect(await page.textContent('[data-testid="outcome-card"]')).toContain('Visa •••• 1111');
    await checkA11y(page, 'sale: pre-authorized');
    await screenshot(page, 'cards-04-preauth-held');
    await page.keyboard.press('n');
    await page.waitForSelector('[data-outcome]', { state: 'detached' });

    await go(page, 'Pre-authorizations');
    const complete = page.getByRole('button', { name: 'Complete $20.00 Visa •••• 1111' });
    await complete.waitFor();
    await checkA11y(page, 'cashier: pre-authorizations');
    await complete.click();
    await page.waitForSelector('dialog[open] #preauth-amount');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('preauth-amount');
    await page.fill('#preauth-amount', '18.50');
    // A tip above 20 % of the $20.00 hold needs the manager: the cashier is asked for the PIN.
    await page.fill('#preauth-tip', '5.00');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#manager-pin');
    expect(await page.textContent('.dialog-reason')).toContain('tip of $5.00 on a hold of $20.00');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Not completed: a manager must approve this tip.').waitFor();
    await page.fill('#preauth-tip', '3.00');
    expect(await page.textContent('[data-testid="preauth-total"]')).toBe('Total to charge: $21.50');
    await checkA11y(page, 'cashier: complete pre-authorization dialog');
    await screenshot(page, 'cards-05-preauth-complete');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Completed $21.50 (tip $3.00) on Visa •••• 1111.');
    await page.waitForSelector('text=0 open holds');

    await go(page, 'Transactions');
    const row = page.locator('table.data tbody tr', { hasText: 'Completion' });
    await row.waitFor();
    expect(await row.textContent()).toContain('$21.50');
    expect(await row.getAttribute('data-state')).toBe('approved');
    // The hold itself charged nothing: it offers no refund.
    const held = page.locator('table.data tbody tr', { hasText: 'Pre-authorization' });
    expect(await held.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    // Nor do the gift reloads of the first test: gift money is not refunded through DoRefund.
    const reload = page.locator('table.data tbody tr', { hasText: 'Gift reload' });
    await expect.poll(() => reload.count()).toBe(2);
    expect(await reload.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    // The paid load's payment is its own row: the cash taken for it.
    await page.locator('table.data tbody tr', { hasText: 'Cash' }).first().waitFor();
    await screenshot(page, 'cards-06-completion-in-transactions');

    // A manager-approved action for the audit log: part of the completion refunded with the manager's PIN.
    await page.getByRole('button', { name: 'Refund $21.50 Visa •••• 1111' }).click();
    await page.fill('#refund-amount', '1.00');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.waitForSelector('#manager-pin');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Refunded $1.00.');
  }, 60_000);

  it('audit log: the manager’s settings change and a manager-approved refund, with who and when', async () => {
    await signOut(page);
    await signIn(page, '9999');
    await go(page, 'Settings');
    await page.waitForSelector('#set-tax');
    await expect.poll(() => page.inputValue('#set-tax')).toBe('0');
    await page.getByRole('button', { name: 'Save sale settings' }).click();
    await page.waitForSelector('text=Settings saved.');

    await go(page, 'Audit log');
    const row = page.locator('tr[data-action="settings-changed"]').first();
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('Manager');
    expect(cells[2]).toBe('Settings changed');
    // The cashier's refund, with the manager who approved it.
    const refund = await page.locator('tr[data-action="refund"]').first().locator('td').allTextContents();
    expect(refund.slice(1, 3)).toEqual(['Cashier', 'Refund']);
    expect(refund[4]).toBe('Manager');
    // Both gift loads are audited; the one without a payment names the manager who approved it.
    const loads = page.locator('tr[data-action="gift-reload"]');
    await expect.poll(() => loads.count()).toBe(2);
    const approvers = await loads.locator('td:nth-child(5)').allTextContents();
    expect(approvers.map((a) => a.trim())).toEqual(expect.arrayContaining(['Manager']));
    // Sign-ins are there too, newest first: the manager's before the cashier's.
    await page.locator('tr[data-action="sign-in"]').nth(1).waitFor();
    expect(await page.locator('tr[data-action="sign-in"] td:nth-child(2)').allTextContents()).toEqual(
      expect.arrayContaining(['Manager', 'Cashier']),
    );
    // Narrowed to one action by the filter.
    await page.selectOption('#audit-action', 'settings-changed');
    await expect.poll(() => page.locator('table.data tbody tr').count()).toBe(1);
    await checkA11y(page, 'manager: audit log');
    await screenshot(page, 'cards-07-audit-log');
    for (const pan of [VISA, GIFT, EBT]) expect(await pageText(page)).not.toContain(pan);
  }, 60_000);

  it('no new screen has a serious or critical accessibility violation (axe-core)', () => {
    expect([...a11y.keys()].sort()).toEqual([...SCANNED_SCREENS].sort());
    expect(describeViolations(a11y)).toEqual([]);
  });
});
