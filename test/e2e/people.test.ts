import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  describeViolations,
  go,
  launchBrowser,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type AxeViolation,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Issue 20 "People" in real Chromium against `npm start`: a manager adds two cashiers on the Employees
 * screen (each confirmation by manager PIN, each with a one-time PIN to hand over), each cashier signs in
 * with it, chooses a PIN of their own and sells; the Transactions and the audit log say who did what and
 * who approved the refund; a deactivated employee cannot sign in; the last manager cannot be demoted.
 * Every screen is looked at in both sizes the counters use.
 */

const VISA = '4111111111111111';
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 900 },
] as const;

let terminal: Terminal;
let browser: Browser;
let page: Page;
const a11y = new Map<string, AxeViolation[]>();
const pins: Record<string, string> = {};

/** Both screen sizes, each screenshot under test-artifacts/e2e/people-<name>-<width>.png. */
async function shoot(p: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await p.setViewportSize(size);
    await screenshot(p, `people-${name}-${size.width}`);
  }
  await p.setViewportSize(SIZES[1]);
}

/** The manager's PIN dialog every Employees change asks for, also from a signed-in manager. */
async function confirmWithManagerPin(p: Page, pin: string): Promise<void> {
  const dialog = p.getByRole('dialog', { name: 'Manager approval' });
  await dialog.waitFor();
  await dialog.getByLabel('Manager PIN', { exact: true }).fill(pin);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function addEmployee(p: Page, name: string): Promise<string> {
  await p.getByLabel('Name', { exact: true }).fill(name);
  await p.getByLabel('Role', { exact: true }).selectOption('cashier');
  await p.getByRole('button', { name: 'Add employee' }).click();
  await confirmWithManagerPin(p, '9999');
  const dialog = p.getByRole('dialog', { name: `One-time PIN for ${name}` });
  await dialog.waitFor();
  const pin = ((await dialog.locator('.one-time-pin').textContent()) ?? '').trim();
  expect(pin).toMatch(/^\d{6}$/);
  if (name === 'Ana') await shoot(p, 'one-time-pin');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await p.getByRole('row', { name: new RegExp(`^${name} `) }).waitFor();
  return pin;
}

/** The first sign-in with a one-time PIN: the employee chooses their own, twice on the keypad. */
async function firstSignIn(p: Page, oneTime: string, own: string): Promise<void> {
  await p.waitForSelector('#pin:enabled');
  await p.getByLabel('Your PIN').fill(oneTime);
  await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.getByRole('heading', { level: 1, name: 'Choose your PIN' }).waitFor();
  // Nothing else is reachable before: no screens to switch to.
  expect(await p.locator('nav[aria-label="Screens"]').count()).toBe(0);
  if (!a11y.has('choose PIN')) {
    a11y.set('choose PIN', await axeSerious(p));
    await shoot(p, 'choose-pin');
  }
  await p.getByLabel('Your new PIN').fill(own);
  await p.getByRole('button', { name: 'Next' }).click();
  await p.getByLabel('Type it again').fill(own);
  await p.getByRole('button', { name: 'Save my PIN' }).click();
  await p.waitForSelector('nav[aria-label="Screens"]');
}

async function swipeSale(p: Page, digits: string): Promise<void> {
  await chooseCard(p, VISA);
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
  await p.keyboard.press('c');
  await p.waitForSelector('[data-step="waiting-for-card"]');
  await p.click('[data-sim="swipe"]');
  await p.waitForSelector('[data-outcome="approved"]');
  await p.keyboard.press('n');
  await p.waitForSelector('[data-outcome]', { state: 'detached' });
}

describe('people: named employees in Chromium', () => {
  beforeAll(async () => {
    buildRenderer();
    terminal = await startTerminal();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await terminal?.stop();
    console.log(
      `axe-core serious/critical violations by screen (${a11y.size} screens): ${[...a11y.entries()]
        .map(([s, v]) => `${s}: ${v.length === 0 ? 'ok' : v.map((x) => x.id).join(', ')}`)
        .join('; ')}`,
    );
  });

  it('a manager adds two cashiers on the Employees screen, each with a one-time PIN to hand over', async () => {
    await signIn(page, '9999');
    await go(page, 'Employees');
    const table = page.getByRole('table');
    await table.getByRole('row', { name: /^Manager/ }).waitFor();
    // The demo people are flagged: their PINs are public.
    expect(await table.getByText('Everyone knows it: reset it before the store goes live').count()).toBe(3);
    pins.ana = await addEmployee(page, 'Ana');
    pins.bob = await addEmployee(page, 'Bob');
    expect(pins.ana).not.toBe(pins.bob);
    const ana = table.getByRole('row', { name: /^Ana / });
    expect(await ana.getByRole('cell').allTextContents()).toEqual([
      'Cashier',
      'Active',
      expect.stringMatching(/^One-time PIN issueduntil /) as unknown as string,
      '—',
      expect.any(String) as unknown as string,
    ]);
    a11y.set('manager: employees', await axeSerious(page));
    await shoot(page, 'employees');
    await signOut(page);
  }, 90_000);

  it('each cashier signs in with their own PIN and sells; the Transactions say who, and who approved the refund', async () => {
    await firstSignIn(page, pins.ana ?? '', '2580');
    await swipeSale(page, '1250');
    await signOut(page);
    // The one-time PIN is spent; Ana's own PIN is hers.
    await page.getByLabel('Your PIN').fill(pins.ana ?? '');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong PIN.' }).waitFor();

    await firstSignIn(page, pins.bob ?? '', '3691');
    await swipeSale(page, '2000');
    await go(page, 'Transactions');
    await page.getByRole('button', { name: 'Refund $12.50 Visa •••• 1111' }).click();
    await page.getByLabel(/Refund amount/).fill('2.50');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await confirmWithManagerPin(page, '9999');
    await page.getByText('Refunded $2.50.').waitFor();
    const byOf = async (amount: string, type: string): Promise<string> => {
      // By the type's own cell: a sale's row reads "refunded $2.50" and offers a Refund button too.
      const row = page
        .getByRole('row')
        .filter({ hasText: amount })
        .filter({ has: page.getByRole('cell', { name: type, exact: true }) });
      const header = await page.getByRole('columnheader').allTextContents();
      return (await row.first().getByRole('cell').nth(header.indexOf('By')).textContent()) ?? '';
    };
    await expect.poll(() => byOf('$2.50', 'Refund')).toBe('Bobapproved by Manager');
    expect(await byOf('$12.50', 'Credit sale')).toBe('Ana');
    expect(await byOf('$20.00', 'Credit sale')).toBe('Bob');
    a11y.set('transactions with names', await axeSerious(page));
    await shoot(page, 'transactions');
    await signOut(page);
  }, 120_000);

  it('the audit log names the employee and the approving manager', async () => {
    await signIn(page, '9999');
    await go(page, 'Audit log');
    const refund = page.getByRole('row').filter({ hasText: 'Refund' }).first();
    await refund.waitFor();
    const cells = await refund.getByRole('cell').allTextContents();
    const header = await page.getByRole('columnheader').allTextContents();
    expect(cells[header.indexOf('Who')]).toBe('Bob');
    expect(cells[header.indexOf('Approved by')]).toBe('Manager');
    const added = page.getByRole('row').filter({ hasText: 'Employee added' });
    expect(await added.count()).toBe(2);
    expect(await page.getByRole('row').filter({ hasText: 'Ana signed in' }).count()).toBeGreaterThan(0);
    a11y.set('manager: audit with names', await axeSerious(page));
    await shoot(page, 'audit');
  }, 60_000);

  it('a deactivated employee cannot sign in; the last manager cannot be demoted', async () => {
    await go(page, 'Employees');
    await page.getByRole('button', { name: 'Deactivate Bob' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Bob?' });
    await confirm.waitFor();
    await shoot(page, 'deactivate');
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await confirmWithManagerPin(page, '9999');
    await page.getByRole('row', { name: /^Bob / }).getByText('Inactive').waitFor();
    await page.getByRole('button', { name: 'Reactivate Bob' }).waitFor();

    await page.getByRole('button', { name: 'Edit Manager' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Manager' });
    await edit.getByLabel('Role').selectOption('cashier');
    await edit.getByRole('button', { name: 'Save' }).click();
    await confirmWithManagerPin(page, '9999');
    await edit
      .getByRole('alert')
      .filter({ hasText: 'Manager is the only active manager: make someone else a manager first.' })
      .waitFor();
    await shoot(page, 'last-manager');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    expect(
      await page
        .getByRole('row', { name: /^Manager/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).toBe('Manager');
    await signOut(page);

    await page.getByLabel('Your PIN').fill('3691');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong PIN.' }).waitFor();
    expect(await page.locator('nav[aria-label="Screens"]').count()).toBe(0);
    await shoot(page, 'sign-in-refused');
  }, 90_000);

  it('time clock on: the sign-in screen clocks in and out; the Employees screen shows who is in', async () => {
    await signIn(page, '9999');
    await go(page, 'Employees');
    // A controlled box: it shows the core's answer, so it turns on when the setting is saved.
    await page.getByLabel('Cashiers and managers clock in before they sign in').click();
    await expect
      .poll(() => page.getByLabel('Cashiers and managers clock in before they sign in').isChecked())
      .toBe(true);
    // The manager signed in before: that session goes on; the next sign-in needs the clock.
    await signOut(page);
    await page.getByRole('group', { name: 'Time clock' }).waitFor();
    await shoot(page, 'sign-in-time-clock');

    await page.getByLabel('Your PIN').fill('2580');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Clock in first' }).waitFor();
    await shoot(page, 'clock-in-first');
    await page.getByLabel('Your PIN').fill('2580');
    await page.getByRole('button', { name: 'Clock in' }).click();
    await page.waitForSelector('nav[aria-label="Screens"]');
    await signOut(page);
    await page.getByLabel('Your PIN').fill('9999');
    await page.getByRole('button', { name: 'Clock in' }).click();
    await page.waitForSelector('nav[aria-label="Screens"]');
    await go(page, 'Employees');
    const ana = page.getByRole('row', { name: /^Ana / });
    expect(await ana.getByRole('cell').nth(3).textContent()).toMatch(/^since \d{1,2}:\d\d [AP]MClock out$/);
    await page.getByRole('button', { name: 'Clock out Ana' }).waitFor();
    await shoot(page, 'employees-clocked-in');
  }, 90_000);

  it('My PIN: an employee changes their own PIN; a weak one is refused with the rule; Settings has no PIN form left', async () => {
    await go(page, 'Settings');
    expect(await page.getByRole('heading', { name: 'PINs' }).count()).toBe(0);
    await shoot(page, 'settings');
    await page.getByRole('button', { name: 'Change my PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change my PIN' });
    await dialog.getByLabel('Current PIN').fill('9999');
    await dialog.getByLabel('New PIN (4 to 8 digits)').fill('4321');
    await dialog.getByLabel('New PIN again').fill('4321');
    await dialog.getByRole('button', { name: 'Change PIN' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'too easy to guess' }).waitFor();
    a11y.set('my PIN dialog', await axeSerious(page));
    await shoot(page, 'my-pin');
    await dialog.getByLabel('Current PIN').fill('9999');
    await dialog.getByLabel('New PIN (4 to 8 digits)').fill('4826');
    await dialog.getByLabel('New PIN again').fill('4826');
    await dialog.getByRole('button', { name: 'Change PIN' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Your PIN is changed.').waitFor();
    await signOut(page);
    await signIn(page, '4826');
    await go(page, 'Employees');
    expect(
      await page
        .getByRole('row', { name: /^Manager/ })
        .getByRole('cell')
        .nth(2)
        .textContent(),
    ).toBe('Their own');
    const violations = describeViolations(a11y);
    expect(violations, violations.join('\n')).toEqual([]);
    expect(a11y.size).toBe(5);
  }, 90_000);
});
