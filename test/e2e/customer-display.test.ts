import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { maxCustomTipCents } from '../../common/tip-choice';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  freshLane,
  launchBrowser,
  screenshot,
  signIn,
  startTerminal,
  toolBridge,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The customer's side in Chromium, two pages on one terminal: the cashier's (its launch token) and the
 * customer display (a token of its own). The cashier rings a sale with tips on; the customer picks a
 * custom tip, signs and chooses a receipt on the customer display while the cashier's screen follows;
 * the pole display shows the line and the total; the customer display reloads into the sale; its token
 * runs no cashier command.
 */

const SIGNATURE_CHIP = '4012888888881881'; // its CVM list asks for a signature
const VISA = '4111111111111111';

let terminal: Terminal;
let browser: Browser;
let cashier: Page;
let customer: Page;

function tipRow(dataDir: string, utn: string): { amount: number; tip: number } | undefined {
  const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT amount_cents AS amount, tip_cents AS tip FROM journal WHERE utn = ?')
      .get(utn) as { amount: number; tip: number } | undefined;
  } finally {
    db.close();
  }
}

function lastUtn(dataDir: string): string {
  const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT utn FROM journal ORDER BY seq DESC LIMIT 1').get() as { utn: string }).utn;
  } finally {
    db.close();
  }
}

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.getByRole('textbox', { name: 'Amount' }).waitFor();
  for (const d of digits) await p.keyboard.press(d);
}

const pole = (p: Page) => p.getByTestId('sim-pole');

/** Draws a signature on the customer display's box with the mouse, as a finger would. */
async function signOnDisplay(p: Page): Promise<void> {
  const box = await p.getByRole('img', { name: /Signature box/ }).boundingBox();
  if (!box) throw new Error('no signature box on the customer display');
  await p.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
  await p.mouse.down();
  for (const [fx, fy] of [
    [0.25, 0.3],
    [0.4, 0.7],
    [0.55, 0.35],
    [0.75, 0.6],
  ] as const)
    await p.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 4 });
  await p.mouse.up();
}

describe('the customer display beside the cashier (Chromium, two pages, sandbox)', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    const manager = await toolBridge(terminal.dataDir, '9999');
    try {
      const r = await manager.send('business.update', { tipPrompt: true, tipPresetsPercent: [15, 18, 20] });
      if (!r.ok) throw new Error(r.error.message);
    } finally {
      await manager.close();
    }
    browser = await launchBrowser();
    cashier = await browser.context.newPage();
    await cashier.setViewportSize({ width: 1024, height: 768 });
    await cashier.goto(terminal.url);
    await signIn(cashier, '1111');
    customer = await browser.context.newPage();
    await customer.setViewportSize({ width: 1024, height: 768 });
    await customer.goto(await terminal.customerLaunchUrl());
    await customer.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
  }, 180_000);

  beforeEach(() => freshLane(terminal, cashier), 60_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('the customer picks a custom tip and signs on the customer display; the cashier’s screen follows', async () => {
    await customer.setViewportSize({ width: 800, height: 600 });
    await customer.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await screenshot(customer, 'customer-01-welcome-800x600');
    // With a customer display attached, the tip radios give way to the customer's choice.
    await cashier.getByText('The customer chooses the tip on the customer display.').waitFor();
    await cashier.getByRole('button', { name: 'Customer display: connected' }).waitFor();
    expect(await cashier.getByRole('radio').count()).toBe(0);
    await screenshot(cashier, 'customer-00-cashier-entry-1024x768');

    await chooseCard(cashier, SIGNATURE_CHIP);
    await typeAmount(cashier, '2000');
    await cashier.getByRole('button', { name: /^Credit/ }).click();
    await cashier.getByText('Waiting for the customer to choose a tip').waitFor();
    await expect
      .poll(async () => (await pole(cashier).textContent()) ?? '')
      .toMatch(/Sale\s+\$20\.00\s+Total\s+\$2\d\.\d\d/);
    await screenshot(cashier, 'customer-02-cashier-waits-for-tip-1024x768');

    // The customer's screen: the line as rung, the total, the presets with what each adds.
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customer.getByRole('listitem').filter({ hasText: 'Sale' }).waitFor();
    for (const [label, amount] of [
      ['15%', '$3.00'],
      ['18%', '$3.60'],
      ['20%', '$4.00'],
    ])
      await customer.getByRole('button', { name: `${label} ${amount}` }).waitFor();
    await screenshot(customer, 'customer-03-tip-800x600');
    expect(await axeSerious(customer)).toEqual([]);
    await customer.setViewportSize({ width: 1024, height: 768 });
    await screenshot(customer, 'customer-03-tip-1024x768');
    await customer.setViewportSize({ width: 1366, height: 900 });
    await screenshot(customer, 'customer-03-tip-1366x900');
    await customer.setViewportSize({ width: 800, height: 600 });

    await customer.getByRole('button', { name: 'Custom amount' }).click();
    const keypad = customer.getByRole('group', { name: 'Tip keypad' });
    // A slip past the bound is caught on the display before the core would refuse it.
    for (const d of ['9', '9', '9', '9']) await keypad.getByRole('button', { name: d, exact: true }).click();
    await customer.getByRole('alert').filter({ hasText: 'more than this sale allows' }).waitFor();
    expect(await customer.getByRole('button', { name: /^Add .* tip$/ }).isDisabled()).toBe(true);
    for (let i = 0; i < 4; i++) await keypad.getByRole('button', { name: 'Delete last digit' }).click();
    for (const d of ['3', '7', '5']) await keypad.getByRole('button', { name: d, exact: true }).click();
    await customer.getByText('Total with tip').waitFor();
    await screenshot(customer, 'customer-04-custom-tip-800x600');
    await customer.getByRole('button', { name: 'Add $3.75 tip' }).click();
    expect(maxCustomTipCents(2000)).toBeLessThan(9999);

    // The cashier's screen goes on to the card; both show the new total.
    await expect.poll(() => cashier.locator('#prompt-text').textContent()).toContain('Insert, tap or swipe');
    await customer.getByRole('heading', { name: 'Insert, tap or swipe your card' }).waitFor();
    expect(await customer.getByTestId('cd-tip').textContent()).toBe('$3.75');
    const total = await customer.getByTestId('cd-total').textContent();
    expect(await cashier.getByTestId('total-total').textContent()).toBe(total);
    // The pole display: the total the customer pays now, tip in.
    await expect
      .poll(async () => (await pole(cashier).textContent()) ?? '')
      .toMatch(new RegExp(`Total\\s+\\${(total ?? 'no total').replace('.', '\\.')}`));
    await screenshot(customer, 'customer-05-present-card-800x600');

    await cashier.getByRole('button', { name: 'Insert chip' }).click();
    await customer.getByRole('heading', { name: 'Please sign' }).first().waitFor();
    await cashier.getByText('The customer can also sign on the customer display.').waitFor();
    await screenshot(customer, 'customer-06-sign-800x600');
    await signOnDisplay(customer);
    await screenshot(customer, 'customer-06-signed-800x600');
    await customer.getByRole('button', { name: 'Done' }).click();

    // Paid: the customer chooses the receipt; the cashier sees the choice.
    await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
    await customer.getByRole('heading', { name: 'Approved' }).waitFor();
    expect(await customer.getByText('•••• 1881').count()).toBe(1);
    await cashier.getByRole('heading', { name: 'Receipt' }).waitFor();
    await cashier.getByText('The customer is choosing a receipt.').waitFor();
    await screenshot(customer, 'customer-07-receipt-800x600');
    await customer.setViewportSize({ width: 1366, height: 900 });
    await screenshot(customer, 'customer-07-receipt-1366x900');
    await customer.setViewportSize({ width: 800, height: 600 });
    await customer.getByRole('button', { name: 'Email' }).click();
    await customer.getByText('Email receipts are not set up here').waitFor();
    await customer.getByRole('button', { name: 'Print' }).click();
    await customer.getByText('Your receipt is printing.').waitFor();
    await customer.getByText('Thank you').first().waitFor();
    await cashier.getByText('The customer chose a printed receipt.').waitFor();
    await expect.poll(async () => (await pole(cashier).textContent()) ?? '').toContain('Thank you');
    await screenshot(customer, 'customer-08-thanks-800x600');
    await screenshot(cashier, 'customer-08-cashier-done-1024x768');

    // The journal row carries the customer's tip apart from the amount.
    const totalCents = Number((total ?? '').replace(/[$,.]/g, ''));
    expect(tipRow(terminal.dataDir, lastUtn(terminal.dataDir))).toEqual({
      amount: totalCents - 375,
      tip: 375,
    });
    await customer.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor({ timeout: 20_000 });
    await cashier.getByRole('button', { name: /^New sale/ }).click();
    await cashier.getByRole('heading', { name: 'Choose the tender' }).waitFor();
  }, 120_000);

  it('a reload of the customer display mid-sale re-attaches to the tip question', async () => {
    await customer.setViewportSize({ width: 1024, height: 768 });
    await chooseCard(cashier, VISA);
    await typeAmount(cashier, '1000');
    await cashier.getByRole('button', { name: /^Credit/ }).click();
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customer.reload();
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customer.getByRole('button', { name: '18% $1.80' }).click();
    await customer.getByRole('heading', { name: 'Insert, tap or swipe your card' }).waitFor();
    await expect.poll(() => cashier.locator('#prompt-text').textContent()).toContain('Insert, tap or swipe');
    expect(await customer.getByTestId('cd-tip').textContent()).toBe('$1.80');
    // Reloaded again while the card is awaited: the same prompt is back.
    await customer.reload();
    await customer.getByRole('heading', { name: 'Insert, tap or swipe your card' }).waitFor();
    await screenshot(customer, 'customer-09-reattached-1024x768');
    await cashier.getByRole('button', { name: 'Cancel', exact: true }).click();
    await cashier.getByRole('heading', { level: 2, name: 'Cancelled' }).waitFor();
  }, 60_000);

  it('the cashier skips the tip: the sale goes on with none', async () => {
    await chooseCard(cashier, VISA);
    await typeAmount(cashier, '1500');
    await cashier.getByRole('button', { name: /^Credit/ }).click();
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await cashier.setViewportSize({ width: 1366, height: 900 });
    await cashier.getByText('Waiting for the customer to choose a tip').waitFor();
    await screenshot(cashier, 'customer-10-cashier-waits-for-tip-1366x900');
    expect(await axeSerious(cashier)).toEqual([]);
    await cashier.setViewportSize({ width: 1024, height: 768 });
    await cashier.getByRole('button', { name: 'Skip tip' }).click();
    await expect.poll(() => cashier.locator('#prompt-text').textContent()).toContain('Insert, tap or swipe');
    await customer.getByRole('heading', { name: 'Insert, tap or swipe your card' }).waitFor();
    expect(await customer.getByTestId('cd-tip').count()).toBe(0);
    await cashier.getByRole('button', { name: 'Cancel', exact: true }).click();
    await cashier.getByRole('heading', { level: 2, name: 'Cancelled' }).waitFor();
  }, 60_000);

  it('the cashier’s Customer display button gives a working address with its own token', async () => {
    await cashier.getByRole('button', { name: 'Customer display: connected' }).click();
    const address = (await cashier.getByTestId('customer-display-url').textContent()) ?? '';
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/customer#launch=[\w-]{32,}$/);
    await screenshot(cashier, 'customer-11-cashier-display-address-1024x768');
    await cashier.getByRole('button', { name: 'Close' }).click();
    const another = await browser.context.newPage();
    try {
      await another.setViewportSize({ width: 800, height: 600 });
      await another.goto(address);
      await another.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
      await cashier.getByRole('button', { name: 'Customer displays: 2 connected' }).waitFor();
    } finally {
      await another.close();
    }
    await cashier.getByRole('button', { name: 'Customer display: connected' }).waitFor();
  }, 60_000);

  it('the customer display’s own connection runs no cashier command, signed in or not', async () => {
    // The page's own key, on the real socket: what any script in the customer display could try.
    const answers = await customer.evaluate(async () => {
      const key = sessionStorage.getItem('tillpoint.pageKey');
      const ws = new WebSocket(`ws://${location.host}/bridge`);
      const replies = new Map<number, unknown>();
      await new Promise<void>((resolve, reject) => {
        ws.onopen = () => resolve();
        ws.onerror = () => reject(new Error('socket'));
      });
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data)) as { type: string; id?: number; result?: unknown };
        if (m.type === 'result' && m.id !== undefined) replies.set(m.id, m.result);
      };
      ws.send(JSON.stringify({ type: 'hello', pageKey: key, contractVersion: 1 }));
      const calls: [string, unknown][] = [
        ['session.signIn', { pin: '1111' }],
        ['sale.open', { subtotalCents: 100 }],
        ['sale.setTip', { ticketId: 'T-x', tipCents: 100 }],
        ['transactions.list', {}],
        ['simulator.state', {}],
        ['terminal.status', {}],
        ['customer.view', {}],
      ];
      await new Promise((r) => setTimeout(r, 200));
      calls.forEach(([command, payload], id) =>
        ws.send(JSON.stringify({ type: 'call', id, command, payload })),
      );
      for (let i = 0; i < 100 && replies.size < calls.length; i++)
        await new Promise((r) => setTimeout(r, 50));
      ws.close();
      return calls.map(([command], id) => {
        const r = replies.get(id) as { ok: boolean; error?: { code: string } } | undefined;
        return `${command}: ${r ? (r.ok ? 'ok' : (r.error?.code ?? '?')) : 'no answer'}`;
      });
    });
    expect(answers).toEqual([
      'session.signIn: forbidden',
      'sale.open: forbidden',
      'sale.setTip: forbidden',
      'transactions.list: forbidden',
      'simulator.state: forbidden',
      'terminal.status: forbidden',
      'customer.view: ok',
    ]);
  }, 60_000);
});
