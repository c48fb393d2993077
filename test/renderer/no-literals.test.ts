import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RemoteBridge } from '../../electron/bridge/ws-client';
import {
  buildRenderer,
  launchBrowser,
  startTerminal,
  toolBridge,
  type Browser,
  type Terminal,
} from '../e2e/harness';

/**
 * Issue 20: no words shown to a person outside the message catalogs — proved with the pseudo-locale. The
 * real app runs in Chromium against the real terminal with every window's language set to `en-XA`, whose
 * catalogs wrap each message in ⟦…⟧ (renderer/src/i18n/pseudo.ts). In every state of the translated
 * screens this test reaches, each visible text node and each aria-label, title and placeholder is either
 * a wrapped message or data (money, numbers, times, the names and words this test typed), else the test
 * names it.
 *
 * Scoped to the screens translated so far; the rest is the remainder below, checked to still show words
 * of its own (so a screen that gets translated is moved out of the list, not forgotten in it).
 */

/** Screens not translated yet: their tab's title is translated (the nav), their content is not. */
const NOT_YET_TRANSLATED = {
  manager: [
    'transactions', // TransactionsScreen (and the cash refund dialog)
    'returns', // ReturnsScreen (returns from a receipt)
    'cards', // CardServicesScreen: gift and EBT
    'preauths', // PreauthScreen
    'batch', // BatchScreen and the money figures tables
    'reports', // ReportsScreen and its charts
    'catalog', // CatalogScreen, CatalogItemForm
    'links', // PaymentLinksScreen
    'saf', // SafScreen and the email queue (Offline & queues)
    'audit', // AuditScreen
  ],
  tech: ['devices', 'gateway', 'diagnostics'],
} as const;
/** Also not translated: the sandbox's device simulator beside every screen (a test tool, not the store's). */
const OUT_OF_SCOPE = ['.simulator'];

/** Data a screen shows as it is: amounts, counts, times, and what this test typed or the sandbox named. */
const DATA: readonly RegExp[] = [
  /^-?\$[\d,]+\.\d\d$/, // money (en-XA writes en-US)
  /^[\d\s.,:%×+−-]+$/, // counts, digits, PINs, percentages
  /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{1,2}:\d\d(:\d\d)? (AM|PM)$/,
  /^\d{1,2}:\d\d (AM|PM)$/,
  /^(Cashier|Manager|Tech|Nina Prueba|Tillpoint Demo Market|L1|Visa|Sales tax)$/, // sandbox names
  /^(Window cleaner|Change for lane 2|Counted twice)$/, // reasons typed here
  /^(Banana|Sourdough loaf|Hot coffee|Breakfast sandwich|Gift wrap \(open price\)|Reusable bag)$/, // the demo catalog's quick keys (the store's own words)
  /^[—✕⌫•·|/]$/,
  /^([A-Z]|Esc|Enter)$/, // a key's name on its button (the keyboard's, in every language)
  /^[A-Z0-9]{6}$/, // an issuer's authorization code
  /^\d{4}-\d{2}-\d{2}$/, // a certificate's date
];
const WRAPPED = /^⟦[\s\S]*⟧$/;

let terminal: Terminal;
let browser: Browser;
let page: Page;
let tool: RemoteBridge;

/**
 * What in `scopes` (CSS selectors) a person reads that is neither a catalog's message nor data: each
 * text node's trimmed text, and aria-label, title and placeholder values. Hidden elements are skipped.
 */
async function unwrapped(
  p: Page,
  scopes: readonly string[],
  skip: readonly string[] = OUT_OF_SCOPE,
): Promise<string[]> {
  return p.evaluate(
    ({ scopes, skip, data, wrapped }) => {
      const isData = (t: string) => new RegExp(wrapped).test(t) || data.some((d) => new RegExp(d).test(t));
      const out = new Set<string>();
      const skipped = (el: Element | null) => !!el && skip.some((s) => el.closest(s));
      const visible = (el: Element | null) => !!el && (el as HTMLElement).checkVisibility?.() !== false;
      for (const scope of scopes)
        for (const root of document.querySelectorAll(scope)) {
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            // A field's value (a textarea's text) is what someone typed: data, as an input's value is.
            if (!el || skipped(el) || !visible(el) || el.closest('script,style,textarea')) continue;
            const t = (n.textContent ?? '').trim();
            if (t !== '' && !isData(t)) out.add(t);
          }
          for (const el of [root, ...root.querySelectorAll('*')]) {
            if (skipped(el) || !visible(el)) continue;
            for (const a of ['aria-label', 'title', 'placeholder']) {
              const v = el.getAttribute(a)?.trim();
              if (v && !isData(v)) out.add(`[${a}] ${v}`);
            }
          }
        }
      return [...out];
    },
    {
      scopes,
      skip,
      data: DATA.map((d) => d.source),
      wrapped: WRAPPED.source,
    },
  );
}

/** The state's words, every one from a catalog; `what` names the state in the failure. */
async function expectAllWrapped(p: Page, what: string, scopes: readonly string[]): Promise<void> {
  expect(await unwrapped(p, scopes), what).toEqual([]);
}

const CHROME = ['header.topbar', 'nav.nav', '.notices'];
const SCREEN = [...CHROME, 'main'];
const DIALOG = ['dialog[open]'];

async function signIn(p: Page, pin: string): Promise<void> {
  await p.waitForSelector('#pin:enabled');
  await p.focus('#pin');
  await p.keyboard.type(pin);
  await p.keyboard.press('Enter');
  await p.waitForSelector('nav.nav');
}

async function signOut(p: Page): Promise<void> {
  await p.locator('header.topbar button', { hasText: '⟦Sign out⟧' }).click();
  await p.waitForSelector('#pin:enabled');
}

/** A tab by its wrapped title; waits for the screen's wrapped heading. */
async function go(p: Page, title: string, heading = title): Promise<void> {
  await p.locator('nav.nav button', { hasText: `⟦${title}⟧` }).click();
  await p.locator('main h1', { hasText: `⟦${heading}⟧` }).waitFor();
}

const button = (p: Page, text: string) => p.locator('button', { hasText: `⟦${text}⟧` }).first();

describe('no literals: the translated screens show catalog words only (pseudo-locale en-XA, Chromium)', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    tool = await toolBridge(terminal.dataDir, '9999');
    const r = await tool.send('business.update', { tipPrompt: true, tipPresetsPercent: [15, 18, 20] });
    if (!r.ok) throw new Error(r.error.message);
    browser = await launchBrowser();
    // Every window of this browser speaks the pseudo-locale (the cashier's and the customer's memory).
    await browser.context.addInitScript(() => {
      localStorage.setItem('tillpoint.cashierLanguage', 'en-XA');
      sessionStorage.setItem('tillpoint.customerLanguage', 'en-XA');
    });
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(terminal.url);
  }, 180_000);

  afterAll(async () => {
    await tool?.close();
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('the pseudo-locale is on: the sign-in screen’s own words are wrapped', async () => {
    await page.locator('main h1', { hasText: '⟦Sign in⟧' }).waitFor();
    await expectAllWrapped(page, 'sign-in', SCREEN);
    // The check itself: a word that is not a catalog's is caught (the simulator's, here in its scope).
    expect(await unwrapped(page, ['.simulator'], [])).toContain('Device simulator');
  });

  it('the cashier: top bar and tabs, the Till screen in each state, its dialogs, the manager’s PIN dialog, My PIN', async () => {
    await signIn(page, '1111');
    await expectAllWrapped(page, 'top bar and tabs (cashier)', CHROME);
    await go(page, 'Till');
    await page.locator('main h2', { hasText: '⟦Open a till⟧' }).waitFor();
    await expectAllWrapped(page, 'Till: open form (total)', SCREEN);
    await page.locator('label', { hasText: '⟦By denomination⟧' }).click();
    await page.fill('#float-bill-2000', '5');
    await expectAllWrapped(page, 'Till: open form (by denomination)', SCREEN);
    await button(page, 'Open the till').click();
    // A message naming another ("Till 1 (Cashier)") wraps it inside its own: ⟦⟦Till 1 (Cashier)⟧ is in …⟧.
    await page.locator('main h2', { hasText: /Till 1 \(Cashier\).* is in the drawer/ }).waitFor();
    await expectAllWrapped(page, 'Till: in the drawer (with the opening notice)', SCREEN);
    for (const move of ['Paid in', 'Paid out', 'Safe drop', 'No sale']) {
      await page.locator('[role="group"] button', { hasText: `⟦${move}⟧` }).click();
      await page.waitForSelector('dialog[open]');
      await expectAllWrapped(page, `Till: ${move} dialog`, DIALOG);
      await page.locator('dialog[open] button', { hasText: '⟦Back⟧' }).click();
      await page.waitForSelector('dialog[open]', { state: 'detached' });
    }
    // A refusal in the dialog: the core's words by their messageId.
    await page.locator('[role="group"] button', { hasText: '⟦Paid out⟧' }).click();
    await page.fill('#move-amount', '12.00');
    await page.locator('dialog[open] button', { hasText: '⟦Record paid out⟧' }).click();
    await page.locator('dialog[open] [role="alert"]').waitFor();
    await expectAllWrapped(page, 'Till: paid out refused (no reason)', DIALOG);
    await page.fill('#move-reason', 'Window cleaner');
    await page.locator('dialog[open] button', { hasText: '⟦Record paid out⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.locator('[role="group"] button', { hasText: '⟦No sale⟧' }).click();
    await page.fill('#move-reason', 'Change for lane 2');
    await page.locator('dialog[open] button', { hasText: '⟦Open the drawer⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.locator('table.till-movements tbody tr').nth(2).waitFor();
    await expectAllWrapped(page, 'Till: movements', SCREEN);

    // Count it here, beyond the tolerance: the sign-off asks for the manager's PIN.
    await button(page, 'Count and close here').click();
    await page.locator('label', { hasText: '⟦As a total⟧' }).click();
    await expectAllWrapped(page, 'Till: count here', SCREEN);
    await page.fill('#count-1-total', '150.00');
    await button(page, 'Record the count').click();
    await page.locator('table.count-result').waitFor();
    await expectAllWrapped(page, 'Till: counted, waiting for a sign-off', SCREEN);
    await button(page, 'Sign off').click();
    await page.waitForSelector('#manager-pin');
    await expectAllWrapped(page, 'Manager approval dialog', DIALOG);
    await page.keyboard.type('1111');
    await page.keyboard.press('Enter');
    await page.locator('dialog[open] [role="alert"]').waitFor();
    await expectAllWrapped(page, 'Manager approval refused (a cashier’s PIN)', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });

    await page.locator('header.topbar button', { hasText: '⟦My PIN⟧' }).click();
    await page.waitForSelector('dialog[open]');
    await expectAllWrapped(page, 'My PIN dialog', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await signOut(page);
    // A refusal on the sign-in screen.
    await page.focus('#pin');
    await page.keyboard.type('0000');
    await page.keyboard.press('Enter');
    await page.locator('main [role="alert"]').waitFor();
    await expectAllWrapped(page, 'sign-in refused', SCREEN);
  }, 180_000);

  it('the manager: Tills (count, sign-off, X and Z reports, past Zs, settings), Employees and its dialogs, Settings', async () => {
    await signIn(page, '9999');
    await expectAllWrapped(page, 'top bar and tabs (manager)', CHROME);
    await go(page, 'Tills');
    await expectAllWrapped(page, 'Tills: the day’s tills', SCREEN);
    await button(page, 'Sign off').click();
    await page.locator('table.count-result').waitFor();
    await expectAllWrapped(page, 'Tills: count waiting for the sign-off', SCREEN);
    await page.fill('#signoff-note-1', 'Counted twice');
    await page.locator('section:has(table.count-result) button', { hasText: '⟦Sign off⟧' }).click();
    await page.locator('main [role="status"]', { hasText: 'is closed.' }).waitFor();
    await expectAllWrapped(page, 'Tills: signed off', SCREEN);
    await button(page, 'Done').click();
    await button(page, 'X report').click();
    await page.locator('[data-testid="till-report"]').waitFor();
    await expectAllWrapped(page, 'Tills: X report of a till', SCREEN);
    await button(page, 'Close the report').click();
    await button(page, 'Close the day (Z report)').click();
    await page.waitForSelector('dialog[open]');
    await expectAllWrapped(page, 'Tills: close the day?', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Close the day⟧' }).click();
    await page.locator('main h2', { hasText: '⟦Z report 1⟧' }).waitFor();
    await expectAllWrapped(page, 'Tills: the Z report and past Zs', SCREEN);

    await go(page, 'Employees');
    await page.locator('caption#employee-count', { hasText: '⟦3 employees' }).waitFor();
    await expectAllWrapped(page, 'Employees', SCREEN);
    await page.fill('#new-name', 'Nina Prueba');
    await button(page, 'Add employee').click();
    await page.waitForSelector('#manager-pin');
    await expectAllWrapped(page, 'Employees: the change asks for a manager PIN', DIALOG);
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#one-time-done');
    await expectAllWrapped(page, 'Employees: one-time PIN', DIALOG);
    await page.click('#one-time-done');
    await page.locator('tr[data-employee="Nina Prueba"]').waitFor();
    await expectAllWrapped(page, 'Employees: with a one-time PIN issued', SCREEN);
    await page.locator('tr[data-employee="Nina Prueba"] button', { hasText: '⟦Edit⟧' }).click();
    await page.waitForSelector('#edit-name');
    await expectAllWrapped(page, 'Employees: edit', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await page.locator('tr[data-employee="Nina Prueba"] button', { hasText: '⟦Deactivate⟧' }).click();
    await page.waitForSelector('#deactivate-cancel');
    await expectAllWrapped(page, 'Employees: deactivate?', DIALOG);
    await page.click('#deactivate-cancel');

    await go(page, 'Settings');
    await page.waitForSelector('#store-locale:enabled');
    await page.waitForSelector('#email-host');
    await expectAllWrapped(page, 'Settings', SCREEN);
  }, 180_000);

  it('the customer display: welcome, the tip (presets and custom), the card prompt, the signature, the receipt, email, thanks', async () => {
    const customer = await browser.context.newPage();
    await customer.setViewportSize({ width: 1024, height: 768 });
    await customer.goto(await terminal.customerLaunchUrl());
    await customer.locator('h1', { hasText: '⟦Welcome⟧' }).waitFor();
    const whole = ['.customer-display'];
    await expectAllWrapped(customer, 'customer: welcome', whole);

    const cashier = await toolBridge(terminal.dataDir, '1111');
    try {
      const opened = await cashier.send('sale.open', { subtotalCents: 6_000 });
      if (!opened.ok) throw new Error(opened.error.message);
      const ticketId = opened.value.ticketId;
      const tip = cashier.send('customerDisplay.askTip', { ticketId });
      await customer.locator('h2', { hasText: '⟦Add a tip?⟧' }).waitFor();
      await expectAllWrapped(customer, 'customer: tip', whole);
      await customer.locator('button', { hasText: '⟦Custom amount⟧' }).click();
      for (const d of ['9', '9', '9', '9'])
        await customer.locator('[role="group"] button', { hasText: new RegExp(`^${d}$`) }).click();
      await customer.locator('[role="alert"]').waitFor();
      await expectAllWrapped(customer, 'customer: custom tip, too high', whole);
      await customer.locator('button', { hasText: '⟦Back⟧' }).click();
      await customer.locator('button', { hasText: '⟦No tip⟧' }).click();
      const asked = await tip;
      if (!asked.ok) throw new Error(asked.error.message);

      const paying = cashier.send('sale.pay', {
        ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
      });
      await customer.locator('h2', { hasText: '⟦Please sign⟧' }).first().waitFor();
      await expectAllWrapped(customer, 'customer: outcome and signature', whole);
      const box = await customer.locator('svg.cd-signature').boundingBox();
      if (!box) throw new Error('no signature box');
      await customer.mouse.move(box.x + 20, box.y + 40);
      await customer.mouse.down();
      await customer.mouse.move(box.x + 200, box.y + 120, { steps: 5 });
      await customer.mouse.up();
      await customer.locator('button', { hasText: '⟦Done⟧' }).click();
      await customer.locator('h2', { hasText: '⟦Would you like a receipt?⟧' }).waitFor();
      await expectAllWrapped(customer, 'customer: approved, receipt choice', whole);
      await customer.locator('button', { hasText: '⟦Email⟧' }).click();
      await customer.locator('[role="status"]', { hasText: '⟦Email receipts are not set up here' }).waitFor();
      await expectAllWrapped(customer, 'customer: email not set up', whole);
      await customer.locator('button', { hasText: '⟦No receipt⟧' }).click();
      await customer.locator('.cd-thanks').waitFor();
      await expectAllWrapped(customer, 'customer: thanks', whole);
      const paid = await paying;
      if (!paid.ok) throw new Error(paid.error.message);
    } finally {
      await cashier.close();
      await customer.close();
    }
  }, 120_000);

  it('the Sale screen: the amount and its tip, a ticket of items and its dialogs, the tenders, cash and its change, a card waiting and cancelled, a keyed card signed for, the receipt', async () => {
    // A till in the drawer (the day before was closed by its Z), so cash is taken.
    const cashier = await toolBridge(terminal.dataDir, '1111');
    try {
      const opened = await cashier.send('till.open', { float: { totalCents: 10_000 } });
      if (!opened.ok) throw new Error(opened.error.message);
    } finally {
      await cashier.close();
    }
    await page.reload();
    await signIn(page, '1111');
    await go(page, 'Sale');
    // The lane may still show its last sale (the customer display's, recovered at sign-in): the next
    // starts from the amount, as a cashier starts it.
    await page.waitForTimeout(500);
    if (await page.locator('#receipt-title').isVisible()) await button(page, 'New sale').click();
    await page.locator('#sale-amount[data-autofocus]').waitFor();
    await expectAllWrapped(page, 'Sale: the amount, empty', SCREEN);
    for (const d of '2500') await page.keyboard.press(d);
    await page.locator('fieldset legend', { hasText: '⟦Tip⟧' }).waitFor();
    await expectAllWrapped(page, 'Sale: an amount typed, the tip choices', SCREEN);
    await page.keyboard.press('Escape');

    // A ticket of lines: two quick keys (one with its tax included), a line picked, its dialogs.
    await page.locator('.quick-key', { hasText: 'Banana' }).click();
    await page.locator('.ticket-table tr[data-line]').first().waitFor();
    await page.locator('.quick-key', { hasText: 'Hot coffee' }).click();
    await page.locator('.ticket-table tr[data-line]').nth(1).waitFor();
    await expectAllWrapped(page, 'Sale: a ticket with items', SCREEN);
    await page.locator('button.line-pick', { hasText: 'Banana' }).click();
    await page.locator('.ticket-actions[role="group"]').waitFor();
    await expectAllWrapped(page, 'Sale: a line picked', SCREEN);
    await page.locator('.ticket-actions button', { hasText: '⟦Discount⟧' }).click();
    await page.waitForSelector('dialog[open]');
    await expectAllWrapped(page, 'Sale: a line’s discount dialog', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.locator('.ticket-actions button', { hasText: '⟦Price⟧' }).click();
    await page.waitForSelector('dialog[open]');
    await expectAllWrapped(page, 'Sale: a line’s price dialog', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.locator('.ticket-actions button', { hasText: '⟦Done⟧' }).click();
    await button(page, 'Open item').click();
    await page.waitForSelector('dialog[open]');
    await expectAllWrapped(page, 'Sale: the open item dialog', DIALOG);
    await page.locator('dialog[open] button', { hasText: '⟦Cancel⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });

    // Cash: the form, a typed amount and its change, then the outcome and the receipt's choices.
    await page.locator('[data-tender="cash"]').click();
    await page.waitForSelector('#cash-tendered');
    await expectAllWrapped(page, 'Sale: the cash form (the amount due)', SCREEN);
    for (const d of '500') await page.keyboard.press(d);
    await page.locator('.figure-hero .figure-label', { hasText: '⟦Change due⟧' }).waitFor();
    await expectAllWrapped(page, 'Sale: the cash form (change due)', SCREEN);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"] [data-testid="outcome-change"]');
    await page.locator('#receipt-title').waitFor();
    await expectAllWrapped(page, 'Sale: cash received, the change, the receipt’s choices', SCREEN);
    await button(page, 'Show receipt / QR / email').click();
    await page.waitForSelector('dialog[open] #receipt-email');
    // The receipt itself is the printer's paper, in the store's language (the receipts' own tests).
    const paper = [...OUT_OF_SCOPE, '.receipt'];
    expect(await unwrapped(page, DIALOG, paper), 'Sale: the receipt dialog').toEqual([]);
    await page.fill('#receipt-email', 'not an address');
    await page.locator('dialog[open] button', { hasText: '⟦Send email⟧' }).click();
    await page.locator('dialog[open] [role="alert"]').waitFor();
    expect(await unwrapped(page, DIALOG, paper), 'Sale: the receipt dialog, a bad address').toEqual([]);
    await page.locator('dialog[open] button', { hasText: '⟦Close⟧' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await button(page, 'New sale').click();

    // A card: waiting for it (the core's prompt, by its words), cancelled at the counter. (Not the
    // customer display's amount: the same card for the same amount would be a suspected duplicate.)
    for (const d of '6500') await page.keyboard.press(d);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-step="waiting-for-card"]');
    await expectAllWrapped(page, 'Sale: waiting for the card', SCREEN);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-outcome="cancelled"]');
    await expectAllWrapped(page, 'Sale: the card cancelled, the next tender', SCREEN);

    // A keyed card: the form, a refusal of its own, then approved with a signature owed.
    await page.locator('[data-tender="keyed"]').click();
    await page.waitForSelector('#keyed-number');
    await button(page, 'Continue').click();
    await page.locator('main [role="alert"]').waitFor();
    await expectAllWrapped(page, 'Sale: the keyed card form, refused', SCREEN);
    await page.fill('#keyed-number', '4111111111111111');
    await page.fill('#keyed-expiry', '1230');
    await button(page, 'Continue').click();
    await page.waitForSelector('svg.signature-box');
    await expectAllWrapped(page, 'Sale: approved, the signature', SCREEN);
    const box = await page.locator('svg.signature-box').boundingBox();
    if (!box) throw new Error('no signature box');
    await page.mouse.move(box.x + 40, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + 300, box.y + 120, { steps: 5 });
    await page.mouse.up();
    await button(page, 'Accept signature').click();
    await page.locator('#receipt-title').waitFor();
    await page.waitForSelector('[data-outcome="approved"] [data-testid="outcome-card"]');
    await expectAllWrapped(page, 'Sale: the card approved, the receipt’s choices', SCREEN);
    await button(page, 'New sale').click();
    await signOut(page);
  }, 180_000);

  it('the remainder is real: each screen listed as not translated still shows words of its own', async () => {
    const still: Record<string, number> = {};
    for (const [pin, views] of [
      ['9999', NOT_YET_TRANSLATED.manager],
      ['7777', NOT_YET_TRANSLATED.tech],
    ] as const) {
      await page.reload();
      await signIn(page, pin);
      for (const view of views) {
        await page.locator(`nav.nav button:nth-child(${navIndex(pin, view)})`).click();
        await page.locator('main h1').first().waitFor();
        await page.waitForTimeout(300);
        still[view] = (await unwrapped(page, ['main'])).length;
      }
      await signOut(page);
    }
    const translatedSince = Object.entries(still)
      .filter(([, n]) => n === 0)
      .map(([v]) => v);
    expect(translatedSince, 'translated now: move them out of NOT_YET_TRANSLATED').toEqual([]);
    expect(Object.keys(still).sort()).toEqual(
      [...NOT_YET_TRANSLATED.manager, ...NOT_YET_TRANSLATED.tech].sort(),
    );
  }, 180_000);
});

/** The tab's place in the role's nav (renderer/src/state/views.ts). */
function navIndex(pin: '9999' | '7777', view: string): number {
  const order =
    pin === '9999'
      ? [
          'sale',
          'till',
          'transactions',
          'returns',
          'cards',
          'preauths',
          'batch',
          'tills',
          'reports',
          'catalog',
          'settings',
          'employees',
          'links',
          'saf',
          'audit',
        ]
      : ['devices', 'gateway', 'diagnostics'];
  const i = order.indexOf(view);
  if (i < 0) throw new Error(`${view} is not a ${pin} tab`);
  return i + 1;
}
