import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  FIGURE_LABELS,
  moneyFigures,
  tenderLines,
  tillFigures,
  type FigureRow,
  type MoneyFigures,
  type MovementRow,
  type TillFigures,
} from '../../common/money-figures';
import { formatReceiptTime } from '../../common/store-time';
import { connectBridge, readBridgeFile, type RemoteBridge } from '../../electron/bridge/ws-client';
import { printable } from '../../electron/till/till-report-lines';
import { formatCents, formatDateTime } from '../../renderer/src/format/money';
import { overShortWords } from '../../renderer/src/screens/till/till-words';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  describeViolations,
  go,
  launchBrowser,
  pageText,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type AxeViolation,
  type Browser,
  type Terminal,
} from './harness';

/**
 * Issue 20, "Cash" — Done when: two cashiers each open a till, sell, take a cash refund, a paid-out and a
 * "No sale", hand over; the manager closes both with blind counts (one over, one short) and prints the Z
 * report, whose figures match the journal to the cent. In real Chromium against the real `npm start`
 * (browser mode, embedded sandbox gateway, simulated devices and ESC/POS printer).
 *
 * Who signs in: the sandbox's demo employees — the second cashier rings the second till with the demo
 * manager's PIN, and the tills and reports name them by their names, `Cashier` and `Manager`.
 */
const CASHIER_A = { pin: '1111', employee: 'Cashier' };
const CASHIER_B = { pin: '9999', employee: 'Manager' };
const MANAGER = { pin: '9999' };
const VISA = '4111111111111111';

let terminal: Terminal;
let browser: Browser;
let page: Page;
let tool: RemoteBridge;
let zone = '';
const a11y = new Map<string, AxeViolation[]>();
const SCANNED = [
  'till: open form',
  'till: in the drawer',
  'till: paid out',
  'transactions: a cash sale to refund',
  'transactions: cash refund',
  'tills: blind count',
  'tills: count over, sign-off',
  'tills: Z report',
] as const;
async function checkA11y(p: Page, screen: (typeof SCANNED)[number]): Promise<void> {
  a11y.set(screen, await axeSerious(p));
}

async function shots(p: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 900 },
  ]) {
    await p.setViewportSize(size);
    await screenshot(p, `20-${name}-${size.width}x${size.height}`);
  }
}

async function simulator() {
  const s = await tool.send('simulator.state', {});
  if (!s.ok) throw new Error(s.error.message);
  return s.value.receiptPrinter;
}

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function newSale(p: Page): Promise<void> {
  await p.keyboard.press('n');
  await p.waitForSelector('[data-outcome]', { state: 'detached' });
}

/** A cash sale on the sale screen: `handed` typed into the cash form (empty: the amount due, exact). */
async function cashSale(p: Page, amount: string, handed: string): Promise<void> {
  await typeAmount(p, amount);
  await p.keyboard.press('h');
  await p.waitForSelector('#cash-tendered');
  for (const d of handed) await p.keyboard.press(d);
  await p.keyboard.press('Enter');
  await p.waitForSelector('[data-outcome="approved"]');
  await newSale(p);
}

async function cardSale(p: Page, amount: string): Promise<void> {
  await chooseCard(p, VISA);
  await typeAmount(p, amount);
  await p.keyboard.press('c');
  await p.waitForSelector('[data-step="waiting-for-card"]');
  await p.click('[data-sim="swipe"]');
  await p.waitForSelector('[data-outcome="approved"]');
  await newSale(p);
}

/** A cash refund from Today's transactions: the cash sale's button, the amount, the manager's PIN if asked. */
async function cashRefund(p: Page, saleAmount: string, refund: string, pin?: string): Promise<void> {
  await go(p, 'Transactions');
  await p.getByRole('button', { name: `Refund cash ${saleAmount}` }).click();
  const dialog = p.getByRole('dialog', { name: 'Cash refund' });
  await dialog.waitFor();
  await p.fill('#refund-amount', refund);
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  if (pin) {
    await p.waitForSelector('#manager-pin');
    await p.keyboard.type(pin);
    await p.keyboard.press('Enter');
  }
  await p.getByText(`Refunded $${refund} in cash: the drawer is open.`).first().waitFor();
}

async function moveCash(p: Page, button: string, amount: string | null, reason: string): Promise<void> {
  await p.getByRole('group', { name: 'Drawer' }).getByRole('button', { name: button, exact: true }).click();
  const dialog = p.getByRole('dialog', { name: button });
  await dialog.waitFor();
  if (amount !== null) await p.fill('#move-amount', amount);
  await p.fill('#move-reason', reason);
  await dialog.getByRole('button', { name: /^(Record|Open the drawer)/ }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function handOver(p: Page): Promise<void> {
  await p.getByRole('button', { name: 'Hand over', exact: true }).click();
  await p
    .getByRole('dialog', { name: 'Hand over the till?' })
    .getByRole('button', { name: 'Hand over' })
    .click();
  await p.getByRole('heading', { name: 'Open a till' }).waitFor();
}

/** The figure a labelled row of a table shows (its last cell). */
async function figure(table: Locator, label: string): Promise<string> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });
  return ((await row.getByRole('cell').last().textContent()) ?? '').trim();
}

/** The journal as the terminal wrote it (its own file, read-only): the Z's period, rows, movements, counts. */
function journal(): {
  z: { from: number; until: number };
  money: MoneyFigures;
  drawer: TillFigures;
  counted: number;
  overShort: number;
  byEmployeeSales: Record<string, number>;
} {
  const db = new Database(join(terminal.dataDir, 'journal.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const z = db
      .prepare<[], { from_at: number; until_at: number }>(
        'SELECT from_at, until_at FROM z_reports WHERE number = 1',
      )
      .get();
    if (!z) throw new Error('no Z report in the journal');
    type Row = {
      operation: string;
      state: string;
      approved_cents: number;
      cashback_cents: number;
      tip_cents: number;
      card_type: string | null;
    };
    const toFigure = (r: Row): FigureRow => ({
      operation: r.operation,
      state: r.state,
      approvedCents: r.approved_cents,
      cashBackCents: r.cashback_cents,
      tipCents: r.tip_cents,
      cardType: r.card_type,
    });
    const rowsOf = (from: number, until: number) =>
      db
        .prepare<[number, number], Row>(
          'SELECT operation, state, approved_cents, cashback_cents, tip_cents, card_type FROM journal WHERE created_at >= ? AND created_at < ?',
        )
        .all(from, until)
        .map(toFigure);
    const rows = rowsOf(z.from_at, z.until_at);
    const moves: MovementRow[] = db
      .prepare<[], { kind: MovementRow['kind']; amount_cents: number }>(
        'SELECT kind, amount_cents FROM till_movements',
      )
      .all()
      .map((m) => ({ kind: m.kind, amountCents: m.amount_cents }));
    const tills = db
      .prepare<
        [],
        {
          employee: string;
          opened_at: number;
          ended_at: number;
          counted_cents: number;
          over_short_cents: number;
        }
      >('SELECT employee, opened_at, ended_at, counted_cents, over_short_cents FROM tills WHERE z_number = 1')
      .all();
    const byEmployeeSales: Record<string, number> = {};
    for (const t of tills)
      byEmployeeSales[t.employee] =
        (byEmployeeSales[t.employee] ?? 0) +
        tenderLines(moneyFigures(rowsOf(t.opened_at, t.ended_at))).reduce((s, l) => s + l.amountCents, 0);
    return {
      z: { from: z.from_at, until: z.until_at },
      money: moneyFigures(rows),
      drawer: tillFigures(rows, moves),
      counted: tills.reduce((s, t) => s + t.counted_cents, 0),
      overShort: tills.reduce((s, t) => s + t.over_short_cents, 0),
      byEmployeeSales,
    };
  } finally {
    db.close();
  }
}

/** A printed figure: the line that starts with its label (and its count in brackets), its amount at the end. */
function printedFigure(paper: string, label: string): string | undefined {
  const escaped = printable(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}(?: \\(\\d+(?: tills?)?\\))?\\s+([+-]?\\d+\\.\\d\\d)$`, 'm').exec(paper)?.[1];
}

const paperCents = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

describe('issue 20: two cashiers, two tills, blind counts and the Z (Chromium, sandbox gateway, simulated devices)', () => {
  beforeAll(async () => {
    buildRenderer();
    // The machine's own zone is UTC (the terminal and Chromium inherit it); the merchant's is New York.
    process.env['TZ'] = 'UTC';
    terminal = await startTerminal();
    const b = readBridgeFile(terminal.dataDir);
    tool = await connectBridge(b.wsUrl, b.secret);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(terminal.url);
  }, 180_000);

  afterAll(async () => {
    await tool?.close();
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('the first cashier: cash refused with no till; opens a till counted by denomination; sells; a cash refund, a paid-out and a "No sale"; hands over', async () => {
    await signIn(page, CASHIER_A.pin);
    await expect.poll(() => page.getByTestId('till-chip').innerText()).toBe('No till open');
    // Cash with no till in the drawer is refused, and says where to go.
    await typeAmount(page, '2340');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.keyboard.press('Enter');
    await page
      .getByText('No till is open on this lane: open a till on the Till screen to take cash.')
      .waitFor();
    await shots(page, '01-sale-cash-refused');
    const kicks = (await simulator()).drawerKicks;

    await go(page, 'Till');
    await page.getByRole('heading', { name: 'Open a till' }).waitFor();
    await page.getByLabel('By denomination').check();
    await page.fill('#float-bill-2000', '3');
    await page.fill('#float-bill-1000', '2');
    await page.fill('#float-bill-500', '3');
    await page.fill('#float-bill-100', '5');
    await expect.poll(() => page.getByTestId('float-total').innerText()).toBe('$100.00');
    await checkA11y(page, 'till: open form');
    await shots(page, '02-till-open-form');
    await page.getByRole('button', { name: 'Open the till' }).click();
    await page.getByRole('heading', { name: 'Till 1 (Cashier) is in the drawer' }).waitFor();
    expect(await page.getByTestId('till-chip').innerText()).toBe('Till 1 open');
    await expect.poll(async () => (await simulator()).drawerKicks).toBe(kicks + 1);

    // The ticket waited on the sale screen: now the cash goes in. 30.00 handed over, 6.60 change.
    await go(page, 'Sale');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    for (const d of '3000') await page.keyboard.press(d);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    await newSale(page);
    await cardSale(page, '4567');

    await cashRefund(page, '$23.40', '5.00', MANAGER.pin);
    await go(page, 'Transactions');
    await page.getByRole('button', { name: 'Refund cash $18.40' }).waitFor();
    await checkA11y(page, 'transactions: a cash sale to refund');
    await page.getByRole('button', { name: 'Refund cash $18.40' }).click();
    await page.getByRole('dialog', { name: 'Cash refund' }).waitFor();
    await checkA11y(page, 'transactions: cash refund');
    await shots(page, '03-cash-refund-dialog');
    await page.getByRole('dialog', { name: 'Cash refund' }).getByRole('button', { name: 'Back' }).click();

    await go(page, 'Till');
    await page
      .getByRole('group', { name: 'Drawer' })
      .getByRole('button', { name: 'Paid out', exact: true })
      .click();
    await page.getByRole('dialog', { name: 'Paid out' }).waitFor();
    await checkA11y(page, 'till: paid out');
    await shots(page, '04-paid-out-dialog');
    await page.getByRole('dialog', { name: 'Paid out' }).getByRole('button', { name: 'Back' }).click();
    await moveCash(page, 'Paid out', '12.00', 'Window cleaner');
    await moveCash(page, 'No sale', null, 'Change for lane 2');
    const movements = page.getByRole('table', { name: /Cash moved in and out/ });
    await expect.poll(() => movements.getByRole('row').count()).toBe(5);
    const moved = await movements.innerText();
    expect(moved).toMatch(/No sale\s+Change for lane 2\s+Cashier/);
    expect(moved).toMatch(/Paid out\s+\$12\.00\s+Window cleaner\s+Cashier/);
    expect(moved).toMatch(/Cash refund\s+\$5\.00\s+On sale L1-\S+\s+approved by Manager\s+Cashier/);
    expect(moved).toMatch(/Opening float\s+\$100\.00/);
    // The cashier never sees what the drawer should hold.
    expect(await pageText(page)).not.toMatch(/\$106\.40|Expected/);
    await checkA11y(page, 'till: in the drawer');
    await shots(page, '05-till-in-the-drawer');
    // Open, refund, paid out, No sale — and the sale's change: each opened the drawer.
    await expect.poll(async () => (await simulator()).drawerKicks).toBeGreaterThanOrEqual(kicks + 5);

    await handOver(page);
    expect(await page.getByRole('table', { name: 'Tills out of the drawer' }).innerText()).toMatch(
      /Till 1\s+Cashier\s+.+\s+Waiting for its count/,
    );
    await shots(page, '06-till-handed-over');
    await signOut(page);
  }, 180_000);

  it('the second cashier: opens the second till with a total, sells in cash, a cash refund, a paid-out and a "No sale"; hands over', async () => {
    await signIn(page, CASHIER_B.pin);
    await go(page, 'Till');
    await page.getByRole('heading', { name: 'Open a till' }).waitFor();
    // The usual float is offered; this drawer starts with 150.00.
    expect(await page.inputValue('#float-total')).toBe('100.00');
    await page.fill('#float-total', '150.00');
    await page.getByRole('button', { name: 'Open the till' }).click();
    await page.getByRole('heading', { name: `Till 2 (${CASHIER_B.employee}) is in the drawer` }).waitFor();
    await go(page, 'Sale');
    await cashSale(page, '1000', '');
    await cashRefund(page, '$10.00', '2.50');
    await go(page, 'Till');
    await moveCash(page, 'Paid out', '3.00', 'Stamps');
    await moveCash(page, 'No sale', null, 'Wrong change check');
    await handOver(page);
    await signOut(page);
  }, 120_000);

  it('the manager counts both blind — one over and signed off, one short within the tolerance — and closes the day', async () => {
    await signIn(page, MANAGER.pin);
    await go(page, 'Tills');
    const today = page.getByRole('table', { name: 'Today’s tills (since the last Z)' });
    await expect.poll(() => today.getByRole('row').count()).toBe(3);
    await shots(page, '07-tills-to-count');

    // Till 1: 100.00 + 23.40 − 5.00 − 12.00 = 106.40 expected; counted 113.40, by denomination.
    await page.getByRole('button', { name: 'Count Till 1 (Cashier)' }).click();
    await page.getByRole('heading', { name: 'Count Till 1 (Cashier)' }).waitFor();
    // Blind: nothing on the page tells what the tray should hold before the count is entered.
    expect(await pageText(page)).not.toMatch(/\$106\.40|Expected/);
    await page.fill('#count-1-bill-10000', '1');
    await page.fill('#count-1-bill-1000', '1');
    await page.fill('#count-1-bill-100', '3');
    await page.fill('#count-1-coin-25', '1');
    await page.fill('#count-1-coin-10', '1');
    await page.fill('#count-1-coin-5', '1');
    await expect.poll(() => page.getByTestId('count-1-total').innerText()).toBe('$113.40');
    expect(await pageText(page)).not.toMatch(/\$106\.40|Expected/);
    await checkA11y(page, 'tills: blind count');
    await shots(page, '08-blind-count');
    await page.getByRole('button', { name: 'Record the count' }).click();
    const result = page.getByRole('table', { name: 'Count of till 1' });
    await result.waitFor();
    expect(await figure(result, FIGURE_LABELS.expectedInDrawer)).toBe('$106.40');
    expect(await figure(result, FIGURE_LABELS.counted)).toBe('$113.40');
    expect(await figure(result, FIGURE_LABELS.overShort)).toBe('Over $7.00');
    await page.getByText('Beyond the store’s tolerance').waitFor();
    await checkA11y(page, 'tills: count over, sign-off');
    await shots(page, '09-count-over-sign-off');
    await page.fill('#signoff-note-1', 'Counted twice');
    await page.getByRole('button', { name: 'Sign off', exact: true }).click();
    await page.getByText('Till 1 (Cashier) is closed.').waitFor();
    await page.getByRole('button', { name: 'Done', exact: true }).click();

    // Till 2: 150.00 + 10.00 − 2.50 − 3.00 = 154.50 expected; counted 153.25 as a total.
    await page.getByRole('button', { name: `Count Till 2 (${CASHIER_B.employee})` }).click();
    await page.getByRole('heading', { name: `Count Till 2 (${CASHIER_B.employee})` }).waitFor();
    expect(await pageText(page)).not.toMatch(/\$154\.50|Expected/);
    await page.getByLabel('As a total').check();
    await page.fill('#count-2-total', '153.25');
    await page.getByRole('button', { name: 'Record the count' }).click();
    const second = page.getByRole('table', { name: 'Count of till 2' });
    await second.waitFor();
    expect(await figure(second, FIGURE_LABELS.expectedInDrawer)).toBe('$154.50');
    expect(await figure(second, FIGURE_LABELS.overShort)).toBe('Short $1.25');
    await page.getByText(`Till 2 (${CASHIER_B.employee}) is closed.`).waitFor();
    await page.getByRole('button', { name: 'Done', exact: true }).click();

    const printed = (await simulator()).receipts.length;
    await page.getByRole('button', { name: 'Close the day (Z report)' }).click();
    await page
      .getByRole('dialog', { name: 'Close the day?' })
      .getByRole('button', { name: 'Close the day' })
      .click();
    await page.getByRole('heading', { name: 'Z report 1' }).waitFor();
    await page.getByText('Printed on the receipt printer.').waitFor();
    await checkA11y(page, 'tills: Z report');
    await shots(page, '10-z-report');
    await expect.poll(async () => (await simulator()).receipts.length).toBeGreaterThan(printed);
  }, 180_000);

  it('the Z on screen and on paper: every figure the journal’s computation gives, to the cent, in the store’s time', async () => {
    const status = await tool.send('terminal.status', {});
    if (!status.ok) throw new Error(status.error.message);
    zone = status.value.timeZone ?? '';
    const j = journal();
    // Worked by hand, then by the one computation over the journal.
    expect(j.drawer.expectedCents).toBe(10_640 + 15_450);
    expect(j.counted).toBe(11_340 + 15_325);
    expect(j.overShort).toBe(700 - 125);
    expect(j.money.card.netCents).toBe(4567);

    const report = page.getByTestId('till-report');
    const byTender = report.getByRole('table', { name: 'Sales by tender' });
    for (const l of tenderLines(j.money))
      expect(await figure(byTender, l.key)).toBe(formatCents(l.amountCents));
    const sales = tenderLines(j.money).reduce((s, l) => s + l.amountCents, 0);
    expect(await figure(byTender, FIGURE_LABELS.allSales)).toBe(formatCents(sales));
    const card = report.getByRole('table', { name: 'Card batch' });
    expect(await figure(card, FIGURE_LABELS.cardSales)).toBe(formatCents(j.money.card.sales.cents));
    expect(await figure(card, FIGURE_LABELS.cardNet)).toBe(formatCents(j.money.card.netCents));
    const drawer = report.getByRole('table', { name: 'Drawer' });
    const d = j.drawer;
    const onScreen: [string, number][] = [
      [FIGURE_LABELS.float, d.float.cents],
      [FIGURE_LABELS.cashTaken, d.cashTaken.cents],
      [FIGURE_LABELS.cashBackPaid, d.cashBackPaidCents],
      [FIGURE_LABELS.cashRefunds, d.cashRefunds.cents],
      [FIGURE_LABELS.paidIn, d.paidIn.cents],
      [FIGURE_LABELS.paidOut, d.paidOut.cents],
      [FIGURE_LABELS.safeDrops, d.safeDrops.cents],
      [FIGURE_LABELS.expectedInDrawer, d.expectedCents],
      [FIGURE_LABELS.counted, j.counted],
    ];
    for (const [label, cents] of onScreen)
      expect(await figure(drawer, label), label).toBe(formatCents(cents));
    const noSales = drawer
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: FIGURE_LABELS.noSales, exact: true }) });
    expect(await noSales.getByRole('cell').first().innerText()).toBe(String(d.noSales));
    expect(d.noSales).toBe(2);
    expect(await figure(drawer, FIGURE_LABELS.overShort)).toBe(overShortWords(j.overShort));
    const returns = report.getByRole('table', { name: 'Returns' });
    expect(await figure(returns, FIGURE_LABELS.cashRefunds)).toBe(formatCents(750));
    const employees = report.getByRole('table', { name: 'By employee' });
    for (const [employee, cents] of Object.entries(j.byEmployeeSales)) {
      const row = employees
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: employee, exact: true }) });
      expect(await row.getByRole('cell').nth(1).innerText()).toBe(formatCents(cents));
    }
    expect(await page.getByTestId('till-report-period').innerText()).toContain(
      `from ${formatDateTime(j.z.from, zone)} to ${formatDateTime(j.z.until, zone)}`,
    );

    // On paper: the lines the simulated printer decoded from the ESC/POS it received.
    const receipts = (await simulator()).receipts;
    const paper = (receipts.find((r) => r.some((l) => l.includes('Z REPORT 1'))) ?? []).join('\n');
    expect(paper).toContain('Z REPORT 1');
    for (const l of tenderLines(j.money))
      expect(printedFigure(paper, l.key), l.key).toBe(paperCents(l.amountCents));
    const printedFigures: [string, number][] = [
      [FIGURE_LABELS.allSales, sales],
      [FIGURE_LABELS.cardSales, j.money.card.sales.cents],
      [FIGURE_LABELS.cardNet, j.money.card.netCents],
      ...onScreen,
    ];
    for (const [label, cents] of printedFigures)
      expect(printedFigure(paper, label), label).toBe(paperCents(cents));
    expect(printedFigure(paper, FIGURE_LABELS.overShort)).toBe(`+${paperCents(j.overShort)}`);
    expect(paper).toMatch(
      new RegExp(
        `^From\\s+${formatReceiptTime(j.z.from, zone).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
        'm',
      ),
    );
    expect(paper).toMatch(
      new RegExp(`^To\\s+${formatReceiptTime(j.z.until, zone).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
    );
    // In the store's zone: the sandbox merchant's (New York), not the machine's UTC.
    expect(zone).toBe('America/New_York');
    expect(formatReceiptTime(j.z.until, zone)).toMatch(/E[SD]T$/);
  }, 60_000);

  it('a past Z is reprinted as it was closed; the batch screen still counts only the cards, and says so', async () => {
    const before = (await simulator()).receipts;
    const first = before.find((r) => r.some((l) => l.includes('Z REPORT 1'))) ?? [];
    await page.getByRole('button', { name: 'Close the report' }).click();
    await page.getByRole('button', { name: 'View Z 1' }).click();
    await page.getByRole('heading', { name: 'Z report 1' }).waitFor();
    await page.getByRole('button', { name: 'Reprint Z report 1' }).click();
    await page.getByText('Printed on the receipt printer.').waitFor();
    await expect.poll(async () => (await simulator()).receipts.length).toBe(before.length + 1);
    const again = (await simulator()).receipts.at(-1) ?? [];
    // The same report, but for the moment it was printed.
    expect(again.filter((l) => !l.startsWith('Printed'))).toEqual(
      first.filter((l) => !l.startsWith('Printed')),
    );

    await go(page, 'Batch');
    const cardBatch = page.getByRole('table', { name: 'Card batch', exact: true });
    await cardBatch.waitFor();
    expect(await figure(cardBatch, FIGURE_LABELS.cardNet)).toBe(formatCents(4567));
    expect(await page.getByText(/Cash never enters it/).count()).toBeGreaterThan(0);
    expect(await page.getByText(/the tills count the drawer itself/i).count()).toBeGreaterThan(0);
    await shots(page, '11-batch-says-what-it-counts');
  }, 60_000);

  it('every till screen and state scanned has no serious or critical axe-core violation', () => {
    expect([...a11y.keys()].sort()).toEqual([...SCANNED].sort());
    expect(describeViolations(a11y)).toEqual([]);
  });
});
