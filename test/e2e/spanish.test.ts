import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { tillFigures, type FigureRow, type MovementRow } from '../../common/money-figures';
import { formatMoney, formatMoneyOnPaper } from '../../common/money-format';
import { formatReceiptTime } from '../../common/store-time';
import { connectBridge, readBridgeFile, type RemoteBridge } from '../../electron/bridge/ws-client';
import {
  axeSerious,
  buildRenderer,
  chooseCard,
  describeViolations,
  launchBrowser,
  pageText,
  screenshot,
  startTerminal,
  toolBridge,
  type AxeViolation,
  type Browser,
  type Terminal,
  ringSales,
  signIn,
} from './harness';

/**
 * Issue 20, "Languages and locale" — a day at the counter in Spanish, in real Chromium against the real
 * `npm start` (browser mode, sandbox gateway, simulated devices and ESC/POS printer). A manager sets the
 * store's language on Settings (Español (México), US dollars); the sign-in screen, the top bar, the Till
 * and Tills screens speak Spanish; the sale screen (not translated yet) shows its amounts in the store's
 * locale and currency; the cashier opens a till counted by denomination, takes cash, records a paid-out
 * and a "No sale" and hands over; the manager counts blind (over, signed off) and closes the day, and the
 * Z report on the simulated printer is in Spanish with the journal's figures to the cent. Then two pages:
 * the customer display in Spanish while the cashier switched their own screen to English.
 *
 * es-MX: a Mexican store's Spanish (its dates "27 nov, 11:54 a.m."; on paper its zone as "GMT-5"). Money
 * is written by the one rule in the store's locale and currency, compared here as that rule writes it.
 */

const LOCALE = 'es-MX';
const CURRENCY = 'USD';
const SIGNATURE_CHIP = '4012888888881881'; // its CVM list asks for a signature

let terminal: Terminal;
let browser: Browser;
let page: Page;
let tool: RemoteBridge;
const a11y = new Map<string, AxeViolation[]>();

/** An amount as the store's Spanish writes it on screen, by the one rule. */
const money = (cents: number) => plain(formatMoney(cents, LOCALE, CURRENCY));
/** Text as a test compares it: the no-break spaces Intl puts in amounts read as spaces. */
function plain(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

async function shots(p: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 900 },
  ]) {
    await p.setViewportSize(size);
    await screenshot(p, `es-${name}-${size.width}x${size.height}`);
    // What the window shows without scrolling (a dialog is as tall as the window at most).
    await p.screenshot({ path: `test-artifacts/e2e/es-${name}-${size.width}x${size.height}-view.png` });
  }
}

/** Nothing on the page is wider than the window (a Spanish word ~30 % longer must wrap, not run off). */
async function noSidewaysScroll(p: Page, what: string): Promise<void> {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1366, height: 900 },
  ]) {
    await p.setViewportSize(size);
    const over = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(over, `${what} at ${size.width}x${size.height}`).toBeLessThanOrEqual(0);
  }
}

/** The top bar keeps one row at 1024 px in Spanish too (docs/screens.md "At a counter"). */
async function oneHeaderRow(p: Page): Promise<void> {
  await p.setViewportSize({ width: 1024, height: 768 });
  const tops = await p.evaluate(() =>
    [...document.querySelectorAll('.topbar > *')]
      .filter((e) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().width > 0)
      .map((e) => Math.round(e.getBoundingClientRect().top)),
  );
  expect(tops.length).toBeGreaterThan(3);
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(20);
}

async function signOut(p: Page): Promise<void> {
  await p.getByRole('button', { name: 'Salir' }).click();
  await p.waitForSelector('#pin:enabled');
}

async function go(p: Page, tab: string, heading = tab): Promise<void> {
  await p.locator('nav[aria-label="Pantallas"]').getByRole('button', { name: tab, exact: true }).click();
  await p.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

async function typeAmount(p: Page, digits: string): Promise<void> {
  await p.waitForSelector('#sale-amount');
  for (const d of digits) await p.keyboard.press(d);
}

async function moveCash(p: Page, button: string, submit: string, amount: string | null, reason: string) {
  await p.getByRole('group', { name: 'Cajón' }).getByRole('button', { name: button, exact: true }).click();
  const dialog = p.getByRole('dialog', { name: button });
  await dialog.waitFor();
  if (amount !== null) await p.fill('#move-amount', amount);
  await p.fill('#move-reason', reason);
  await dialog.getByRole('button', { name: submit }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The figure a labelled row of a table shows (its last cell). */
async function figure(table: Locator, label: string): Promise<string> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) });
  return plain(await row.getByRole('cell').last().textContent());
}

async function printer() {
  const s = await tool.send('simulator.state', {});
  if (!s.ok) throw new Error(s.error.message);
  return s.value.receiptPrinter;
}

/** The journal's own figures for the Z: its period's rows and the tills' movements (read-only). */
function journal() {
  const db = new Database(join(terminal.dataDir, 'journal.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const z = db
      .prepare<[], { from_at: number; until_at: number }>(
        'SELECT from_at, until_at FROM z_reports WHERE number = 1',
      )
      .get();
    if (!z) throw new Error('no Z report in the journal');
    const rows: FigureRow[] = db
      .prepare<
        [number, number],
        {
          operation: string;
          state: string;
          approved_cents: number;
          cashback_cents: number;
          tip_cents: number;
        }
      >(
        'SELECT operation, state, approved_cents, cashback_cents, tip_cents FROM journal WHERE created_at >= ? AND created_at < ?',
      )
      .all(z.from_at, z.until_at)
      .map((r) => ({
        operation: r.operation,
        state: r.state,
        approvedCents: r.approved_cents,
        cashBackCents: r.cashback_cents,
        tipCents: r.tip_cents,
      }));
    const moves: MovementRow[] = db
      .prepare<[], { kind: MovementRow['kind']; amount_cents: number }>(
        'SELECT kind, amount_cents FROM till_movements',
      )
      .all()
      .map((m) => ({ kind: m.kind, amountCents: m.amount_cents }));
    const counted = db
      .prepare<[], { c: number; os: number }>(
        'SELECT sum(counted_cents) AS c, sum(over_short_cents) AS os FROM tills WHERE z_number = 1',
      )
      .get();
    return { z: { from: z.from_at, until: z.until_at }, drawer: tillFigures(rows, moves), counted };
  } finally {
    db.close();
  }
}

/** A printed line: the label (and its count in brackets) at the left, the amount on paper at the right. */
function printed(paper: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}(?: \\(\\d+(?: cajas?)?\\))?\\s+([+-]?\\d+\\.\\d\\d)$`, 'm').exec(paper)?.[1];
}

describe('issue 20: a day at the counter in Spanish (Chromium, sandbox gateway, simulated devices)', () => {
  beforeAll(async () => {
    buildRenderer();
    // The machine's zone is UTC; the sandbox merchant's is New York: times are the store's.
    process.env['TZ'] = 'UTC';
    terminal = await startTerminal();
    const b = readBridgeFile(terminal.dataDir);
    tool = await connectBridge(b.wsUrl, b.secret);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(terminal.url);
  }, 180_000);

  afterAll(async () => {
    await tool?.close();
    await browser?.close();
    await terminal?.stop();
  }, 60_000);

  it('the manager sets the store’s language on Settings: the screen turns Spanish at once, and so does sign-in', async () => {
    await page.waitForSelector('#pin:enabled');
    await page.keyboard.type('9999');
    await page.keyboard.press('Enter');
    await page.locator('nav[aria-label="Screens"]').getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 2, name: 'Language and currency' }).waitFor();
    await page.waitForSelector('#store-locale:enabled');
    await page.selectOption('#store-locale', LOCALE);
    expect(await page.locator('#store-currency').inputValue()).toBe('USD');
    await page.getByRole('button', { name: 'Save language and currency' }).click();
    // No one chose a language at this window: it follows the store's.
    await page.getByRole('heading', { level: 1, name: 'Ajustes', exact: true }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Idioma y moneda' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await shots(page, '01-settings');
    await noSidewaysScroll(page, 'Ajustes');
    a11y.set('settings', await axeSerious(page));

    await go(page, 'Empleados');
    await page.getByText(/^\d+ empleados; activos: \d+$/).waitFor();
    await shots(page, '02-employees');
    await noSidewaysScroll(page, 'Empleados');
    a11y.set('employees', await axeSerious(page));
    await signOut(page);

    // The sign-in screen speaks the store's language; its refusal comes from the core in Spanish.
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await page.focus('#pin');
    await page.keyboard.type('0000');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'PIN incorrecto.' }).waitFor();
    await page.getByText('PIN de prueba: cajero 1111, gerente 9999, técnico 7777.').waitFor();
    await shots(page, '03-sign-in');
    a11y.set('sign-in', await axeSerious(page));
  }, 120_000);

  it('the cashier: cash refused with no till (in Spanish); opens a till by denomination; a cash sale in the store’s currency; a paid-out and a "No sale"; hands over', async () => {
    await signIn(page, '1111');
    const chip = page.getByTestId('till-chip');
    await expect.poll(() => chip.innerText()).toBe('Sin caja abierta');
    await oneHeaderRow(page);
    // The sale screen speaks Spanish: its title, the amount, the tenders.
    await page.getByRole('heading', { level: 1, name: 'Venta', exact: true }).waitFor();
    await typeAmount(page, '2340');
    await page.getByRole('heading', { name: 'Elija la forma de pago' }).waitFor();
    for (const tender of ['Crédito', 'Débito', 'Efectivo', 'Tarjeta tecleada', 'Tarjeta de regalo', 'Cheque'])
      await page.getByRole('button', { name: new RegExp(`^${tender} `) }).waitFor();
    await page.getByRole('button', { name: 'Reimprimir el último ticket' }).waitFor();
    expect(await page.getByRole('table', { name: 'Totales de la cuenta' }).innerText()).toMatch(
      /Subtotal[\s\S]*Impuesto[\s\S]*Propina[\s\S]*Total a cobrar/,
    );
    await shots(page, '04a-sale-amount');
    await noSidewaysScroll(page, 'Venta');
    a11y.set('sale: amount', await axeSerious(page));
    // Cash with no till: the core's refusal, said in Spanish on the sale screen.
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    await page.getByRole('heading', { name: `Efectivo: a cobrar ${money(2340)}` }).waitFor();
    await page.getByLabel('Efectivo recibido').waitFor();
    await page.getByText('Pago exacto: sin cambio.').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).waitFor();
    await shots(page, '04b-sale-cash-form');
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.keyboard.press('Enter');
    await page
      .getByText(
        'No hay una caja abierta en esta terminal: abra una caja en la pantalla Caja para recibir efectivo.',
      )
      .waitFor();
    // The sale screen's figures are in the store's locale and currency.
    expect(plain(await page.getByTestId('total-total').textContent())).toBe(money(2340));
    await shots(page, '04-sale-cash-refused');

    await go(page, 'Caja');
    await page.getByRole('heading', { name: 'Abrir una caja' }).waitFor();
    await page.getByLabel('Por denominación').check();
    await page.fill('#float-bill-2000', '3');
    await page.fill('#float-bill-1000', '2');
    await page.fill('#float-bill-500', '3');
    await page.fill('#float-bill-100', '5');
    await expect
      .poll(async () => plain(await page.getByTestId('float-total').textContent()))
      .toBe(money(10_000));
    await page.getByText('Billetes de $20').waitFor();
    await shots(page, '05-till-open-form');
    await noSidewaysScroll(page, 'Abrir una caja');
    a11y.set('till: open form', await axeSerious(page));
    await page.getByRole('button', { name: 'Abrir la caja' }).click();
    await page.getByRole('heading', { name: 'Caja 1 (Cashier) está en el cajón' }).waitFor();
    await expect.poll(() => chip.innerText()).toBe('Caja 1 abierta');
    await oneHeaderRow(page);

    // The ticket waited on the sale screen: 30.00 handed over, change in the store's currency.
    await go(page, 'Venta');
    await page.keyboard.press('h');
    await page.waitForSelector('#cash-tendered');
    for (const d of '3000') await page.keyboard.press(d);
    await page.getByText('Cambio', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-outcome="approved"]');
    const cashOutcome = page.locator('[data-outcome="approved"]');
    await cashOutcome.getByRole('heading', { name: 'Efectivo recibido' }).waitFor();
    expect(plain(await page.getByTestId('outcome-change').innerText())).toBe(`Cambio ${money(660)}`);
    await page.getByRole('heading', { name: 'Ticket', exact: true }).waitFor();
    for (const b of ['Imprimir ticket', 'Ver ticket / QR / correo', 'Nueva venta'])
      await page.getByRole('button', { name: b }).waitFor();
    await shots(page, '06-sale-cash-change');
    await noSidewaysScroll(page, 'Venta: efectivo y cambio');
    a11y.set('sale: cash change', await axeSerious(page));
    await page.keyboard.press('n');
    await page.waitForSelector('[data-outcome]', { state: 'detached' });

    // A ticket of items in Spanish, paid by a keyed card the customer signs for (above the floor).
    await page
      .getByRole('group', { name: 'Teclas rápidas' })
      .getByRole('button', { name: /^Banana/ })
      .click();
    await page.getByRole('heading', { name: 'Cuenta', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Artículo abierto' }).click();
    const openItem = page.getByRole('dialog', { name: 'Artículo abierto' });
    await openItem.waitFor();
    await openItem.getByText(`Los dígitos entran por la derecha: 4 9 9 es ${money(499)}.`).waitFor();
    // Its action in view beside Cancel at 1024 x 768, not wrapped below the dialog's fold.
    await page.setViewportSize({ width: 1024, height: 768 });
    const add = await openItem.getByRole('button', { name: 'Agregar', exact: true }).boundingBox();
    expect(add && add.y + add.height).toBeLessThanOrEqual(768);
    await shots(page, '06a-sale-open-item');
    a11y.set('sale: open item', await axeSerious(page));
    for (const d of '5500') await page.keyboard.press(d);
    await openItem.getByRole('button', { name: 'Agregar', exact: true }).click();
    await openItem.waitFor({ state: 'detached' });
    const lines = page.getByRole('table', { name: 'Artículos de la cuenta' });
    await expect.poll(() => lines.locator('tr[data-line]').count()).toBe(2);
    expect(plain(await lines.getByRole('row').first().innerText())).toBe('Artículo Cant. Precio Importe');
    await page
      .getByRole('button', { name: /^Banana/ })
      .first()
      .click();
    const change = page.getByRole('group', { name: 'Cambiar Banana' });
    for (const b of ['Descuento', 'Precio', 'Anular', 'Listo'])
      await change.getByRole('button', { name: b }).waitFor();
    await shots(page, '06b-sale-ticket-line');
    await noSidewaysScroll(page, 'Venta: la cuenta');
    a11y.set('sale: ticket', await axeSerious(page));
    await change.getByRole('button', { name: 'Listo' }).click();
    await page.getByRole('button', { name: /^Tarjeta tecleada/ }).click();
    await page.getByRole('heading', { name: 'Tarjeta tecleada' }).waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'El número de tarjeta tiene de 12 a 19 dígitos.' })
      .waitFor();
    await shots(page, '06c-sale-keyed-form');
    await page.fill('#keyed-number', '4111111111111111');
    await page.getByLabel('Vencimiento (MMAA)').fill('1230');
    await page.getByRole('button', { name: 'Continuar' }).click();
    // "Sign here" is said at once (a status): the sandbox's signature pad is connected, the box is the other way.
    await page.getByRole('status').filter({ hasText: 'Firme aquí' }).waitFor();
    await page.getByRole('button', { name: 'El cliente ya firmó en el pad' }).waitFor();
    await page.getByText('O firme en el recuadro de abajo.').waitFor();
    await page.getByRole('heading', { name: 'Aprobado' }).waitFor();
    await shots(page, '06d-sale-signature');
    await noSidewaysScroll(page, 'Venta: firma');
    a11y.set('sale: signature', await axeSerious(page));
    await page.setViewportSize({ width: 1024, height: 768 });
    const sign = await page.getByRole('img', { name: 'Recuadro de firma' }).boundingBox();
    if (!sign) throw new Error('no signature box on the sale screen');
    await page.mouse.move(sign.x + sign.width * 0.1, sign.y + sign.height * 0.6);
    await page.mouse.down();
    await page.mouse.move(sign.x + sign.width * 0.7, sign.y + sign.height * 0.3, { steps: 5 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Aceptar la firma' }).click();
    await page.getByRole('heading', { name: 'Ticket', exact: true }).waitFor();
    const cardOutcome = page.locator('[data-outcome="approved"]');
    await cardOutcome.getByRole('heading', { name: 'Aprobado' }).waitFor();
    expect(plain(await page.getByTestId('outcome-card').textContent())).toBe('Visa •••• 1111 · Tecleada');
    expect(plain(await cardOutcome.innerText())).toMatch(
      /Importe .+ Tarjeta Visa .+ Autorización [A-Z0-9]{6}/,
    );
    await shots(page, '06e-sale-card-approved');
    await noSidewaysScroll(page, 'Venta: tarjeta aprobada');
    a11y.set('sale: card approved', await axeSerious(page));
    await page.getByRole('button', { name: 'Ver ticket / QR / correo' }).click();
    const shown = page.getByRole('dialog', { name: 'Ticket del cliente' });
    await shown.waitFor();
    await shown.getByText('Escanee para tener una copia de este ticket.').waitFor();
    await shown.getByLabel('Enviar el ticket a').fill('cliente@');
    await shown.getByRole('button', { name: 'Enviar correo' }).click();
    await shown
      .getByRole('alert')
      .filter({ hasText: 'Eso no es un correo electrónico. Revíselo con el cliente' })
      .waitFor();
    await shots(page, '06f-sale-receipt-dialog');
    await shown.getByRole('button', { name: 'Cerrar' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Nueva venta' }).click();
    await page.waitForSelector('[data-outcome]', { state: 'detached' });

    // A card the customer never presents: the reader's prompt in Spanish, cancelled at the counter.
    await typeAmount(page, '1500');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Inserte, acerque o deslice' }).waitFor();
    await page.getByText(/^Se agota en \d+ s$/).waitFor();
    await shots(page, '06g-sale-waiting-for-card');
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.waitForSelector('[data-outcome="cancelled"]');
    await page.getByRole('heading', { name: 'Cancelado', exact: true }).waitFor();
    await page.getByText('Elija una forma de pago para intentar de nuevo.').waitFor();
    await shots(page, '06h-sale-card-cancelled');
    a11y.set('sale: card cancelled', await axeSerious(page));
    await page.getByRole('button', { name: 'Cancelar venta' }).click();
    await page.getByText('Venta cancelada.').waitFor();
    await page.waitForSelector('[data-outcome]', { state: 'detached' });

    await go(page, 'Caja');
    await page
      .getByRole('group', { name: 'Cajón' })
      .getByRole('button', { name: 'Salida de efectivo' })
      .click();
    await page.getByRole('dialog', { name: 'Salida de efectivo' }).waitFor();
    await shots(page, '07-paid-out-dialog');
    a11y.set('till: paid out', await axeSerious(page));
    await page
      .getByRole('dialog', { name: 'Salida de efectivo' })
      .getByRole('button', { name: 'Regresar' })
      .click();
    await moveCash(page, 'Salida de efectivo', 'Registrar la salida', '12.00', 'Limpiavidrios');
    await moveCash(page, 'Sin venta', 'Abrir el cajón', null, 'Cambio para la terminal 2');
    const moved = page.getByRole('table', { name: /Efectivo que entró y salió/ });
    await expect.poll(() => moved.getByRole('row').count()).toBe(4);
    const rows = plain(await moved.innerText());
    expect(rows).toMatch(/Sin venta Cambio para la terminal 2 Cashier/);
    expect(rows).toContain(`Salida de efectivo ${money(1200)} Limpiavidrios Cashier`);
    expect(rows).toContain(`Fondo de caja ${money(10_000)}`);
    // Times in the store's Spanish: "a.m." / "p.m.".
    expect(rows).toMatch(/\d{1,2}:\d\d [ap]\. ?m\./);
    // The cashier never sees what the drawer should hold.
    expect(await pageText(page)).not.toMatch(/111\.40|Esperado/);
    await shots(page, '08-till-in-the-drawer');
    await noSidewaysScroll(page, 'Caja');
    a11y.set('till: in the drawer', await axeSerious(page));

    await page.getByRole('button', { name: 'Entregar', exact: true }).click();
    const handOver = page.getByRole('dialog', { name: '¿Entregar la caja?' });
    await handOver.waitFor();
    await shots(page, '09-hand-over-dialog');
    await handOver.getByRole('button', { name: 'Entregar' }).click();
    await page.getByRole('heading', { name: 'Abrir una caja' }).waitFor();
    expect(plain(await page.getByRole('table', { name: 'Cajas fuera del cajón' }).innerText())).toMatch(
      /Caja 1 Cashier .+ Espera su conteo/,
    );
    await signOut(page);
  }, 180_000);

  it('the manager counts blind — over, signed off — and closes the day; the Z prints in Spanish, to the cent', async () => {
    await signIn(page, '9999');
    await go(page, 'Cajas');
    await shots(page, '10-tills-to-count');
    await noSidewaysScroll(page, 'Cajas');
    await page.getByRole('button', { name: 'Contar la Caja 1 (Cashier)' }).click();
    await page.getByRole('heading', { name: 'Contar la Caja 1 (Cashier)' }).waitFor();
    // Blind: nothing tells what the tray should hold (100.00 + 23.40 − 12.00 = 111.40).
    expect(await pageText(page)).not.toMatch(/111\.40|Esperado/);
    for (const [id, n] of [
      ['bill-10000', '1'],
      ['bill-1000', '1'],
      ['bill-500', '1'],
      ['bill-100', '3'],
      ['coin-25', '1'],
      ['coin-10', '1'],
      ['coin-5', '1'],
    ] as const)
      await page.fill(`#count-1-${id}`, n);
    await expect
      .poll(async () => plain(await page.getByTestId('count-1-total').textContent()))
      .toBe(money(11_840));
    await shots(page, '11-blind-count');
    a11y.set('tills: blind count', await axeSerious(page));
    await page.getByRole('button', { name: 'Registrar el conteo' }).click();
    const result = page.getByRole('table', { name: 'Conteo de la caja 1' });
    await result.waitFor();
    expect(await figure(result, 'Esperado en el cajón')).toBe(money(11_140));
    expect(await figure(result, 'Contado')).toBe(money(11_840));
    expect(await figure(result, 'Sobrante (+) / faltante (−)')).toBe(`Sobra ${money(700)}`);
    await page.getByText('Fuera de la tolerancia de la tienda').waitFor();
    await shots(page, '12-count-over-sign-off');
    a11y.set('tills: count over, sign-off', await axeSerious(page));
    await page.fill('#signoff-note-1', 'Contado dos veces');
    await page.getByRole('button', { name: 'Dar el visto bueno', exact: true }).click();
    await page.getByText('Caja 1 (Cashier) está cerrada.').waitFor();
    await page.getByRole('button', { name: 'Listo', exact: true }).click();

    const before = (await printer()).receipts.length;
    await page.getByRole('button', { name: 'Cerrar el día (corte Z)' }).click();
    const close = page.getByRole('dialog', { name: '¿Cerrar el día?' });
    await close.waitFor();
    await close.getByRole('button', { name: 'Cerrar el día' }).click();
    await page.getByRole('heading', { name: 'Corte Z 1' }).waitFor();
    await page.getByText('Impreso en la impresora de tickets.').waitFor();
    const report = page.getByTestId('till-report');
    const drawer = report.getByRole('table', { name: 'Cajón' });
    expect(await figure(drawer, 'Fondo de caja')).toBe(money(10_000));
    expect(await figure(drawer, 'Efectivo recibido')).toBe(money(2_340));
    expect(await figure(drawer, 'Salidas de efectivo')).toBe(money(1_200));
    expect(await figure(drawer, 'Esperado en el cajón')).toBe(money(11_140));
    expect(await figure(report.getByRole('table', { name: 'Ventas por forma de pago' }), 'Efectivo')).toBe(
      money(2_340),
    );
    await shots(page, '13-z-report');
    await noSidewaysScroll(page, 'Corte Z');
    a11y.set('tills: Z report', await axeSerious(page));

    // On paper: what the simulated printer decoded from the ESC/POS it received.
    await expect.poll(async () => (await printer()).receipts.length).toBeGreaterThan(before);
    const receipts = (await printer()).receipts;
    const paper = (receipts.find((r) => r.some((l) => l.includes('CORTE Z 1'))) ?? []).join('\n');
    const j = journal();
    expect(j.drawer.expectedCents).toBe(11_140);
    expect(j.counted?.c).toBe(11_840);
    const onPaper = (cents: number) => formatMoneyOnPaper(cents, LOCALE);
    expect(paper).toContain('CORTE Z 1');
    expect(paper).toContain('VENTAS POR FORMA DE PAGO');
    expect(paper).toContain('MID ');
    expect(paper).toMatch(/TERMINAL L1/);
    expect(printed(paper, 'Efectivo')).toBe(onPaper(2_340));
    expect(printed(paper, 'Fondo de caja')).toBe(onPaper(j.drawer.float.cents));
    expect(printed(paper, 'Efectivo recibido')).toBe(onPaper(j.drawer.cashTaken.cents));
    expect(printed(paper, 'Salidas de efectivo')).toBe(onPaper(j.drawer.paidOut.cents));
    expect(printed(paper, 'Esperado en el cajón')).toBe(onPaper(j.drawer.expectedCents));
    expect(printed(paper, 'Contado')).toBe(onPaper(j.counted?.c ?? -1));
    expect(printed(paper, 'Sobrante (+) / faltante (-)')).toBe(`+${onPaper(j.counted?.os ?? -1)}`);
    expect(paper).toMatch(/^Aperturas sin venta\s+1$/m);
    expect(paper).toMatch(/^Caja 1 - Cashier$/m);
    expect(paper).toMatch(/^ {2}Visto bueno de\s+Manager$/m);
    expect(paper).toContain('FIN DEL CORTE Z 1');
    // In the store's zone and written the store's way.
    const status = await tool.send('terminal.status', {});
    const zone = status.ok ? (status.value.timeZone ?? '') : '';
    expect(zone).toBe('America/New_York');
    expect(paper).toMatch(
      new RegExp(
        `^Desde\\s+${formatReceiptTime(j.z.from, zone, LOCALE).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
        'm',
      ),
    );
    expect(paper).toMatch(/^Hasta\s+\d\d\/\d\d\/\d{4} \d{1,2}:\d\d [ap]\.m\./m);
    // Nothing in English is left, and nothing the printer could not print.
    // (The demo catalog's tax class is named "Sales tax": the store's own words, printed as they are.)
    expect(paper).not.toMatch(/\b(Drawer|Expected|Counted|Paid out|Float|Z REPORT|By employee|Tills)\b/);
    expect(paper).not.toContain('?');
  }, 180_000);

  it('two pages: the customer display in Spanish while the cashier switched their own screen to English', async () => {
    const manager = await toolBridge(terminal.dataDir, '9999');
    try {
      const r = await manager.send('business.update', { tipPrompt: true, tipPresetsPercent: [15, 18, 20] });
      if (!r.ok) throw new Error(r.error.message);
    } finally {
      await manager.close();
    }
    await signOut(page);
    await signIn(page, '1111');
    // The cashier's own choice: English on this window, the store still Spanish.
    // The top bar's last button: "EN" at 1024 px (its title says what it does).
    await page.setViewportSize({ width: 1024, height: 768 });
    const toggle = page.getByRole('button', { name: 'EN', exact: true });
    expect(await toggle.getAttribute('title')).toBe('English (EN): switch this screen to English');
    await toggle.click();
    await page
      .locator('nav[aria-label="Screens"]')
      .getByRole('button', { name: 'Sale', exact: true })
      .waitFor();
    await expect.poll(() => page.getByTestId('till-chip').innerText()).toBe('No till open');
    await oneHeaderRow(page);

    const customer = await browser.context.newPage();
    await customer.setViewportSize({ width: 1024, height: 768 });
    await customer.goto(await terminal.customerLaunchUrl());
    // The cash sale before the Z still asks its customer for a receipt (no display was there to answer).
    await customer.getByRole('heading', { level: 1, name: /^(Bienvenidos|Gracias)$/ }).waitFor();
    if (await customer.getByRole('heading', { name: '¿Desea su ticket?' }).isVisible()) {
      await shots(customer, '14-customer-earlier-receipt');
      await customer.getByRole('button', { name: 'Sin ticket' }).click();
    }
    await customer.getByRole('heading', { level: 1, name: 'Bienvenidos' }).waitFor({ timeout: 30_000 });
    await shots(customer, '14-customer-welcome');

    await chooseCard(page, SIGNATURE_CHIP);
    await page.getByRole('textbox', { name: 'Amount' }).waitFor();
    for (const d of '6000') await page.keyboard.press(d);
    await page.getByRole('button', { name: /^Credit/ }).click();
    await page.getByText('Waiting for the customer to choose a tip').waitFor();

    await customer.getByRole('heading', { name: '¿Desea agregar propina?' }).waitFor();
    await customer.getByRole('listitem').filter({ hasText: 'Venta' }).waitFor();
    await customer.getByRole('button', { name: `15 % ${money(900)}` }).waitFor();
    await shots(customer, '15-customer-tip');
    a11y.set('customer: tip', await axeSerious(customer));
    await customer.getByRole('button', { name: 'Otra cantidad' }).click();
    const keypad = customer.getByRole('group', { name: 'Teclado de la propina' });
    for (const d of ['3', '0', '0']) await keypad.getByRole('button', { name: d, exact: true }).click();
    await customer.getByText('Total con propina').waitFor();
    await shots(customer, '16-customer-custom-tip');
    await customer.getByRole('button', { name: `Agregar ${money(300)} de propina` }).click();

    await customer.getByRole('heading', { name: 'Inserte, acerque o deslice su tarjeta' }).waitFor();
    expect(plain(await customer.getByTestId('cd-tip').textContent())).toBe(money(300));
    // The same total on both pages, each written by the one rule in its own language's locale (the
    // English window en-US, the Spanish display es-MX). No tax in the sandbox.
    expect(plain(await customer.getByTestId('cd-total').textContent())).toBe(money(6_300));
    expect(plain(await page.getByTestId('total-total').textContent())).toBe(
      plain(formatMoney(6_300, 'en-US', CURRENCY)),
    );
    await page.getByRole('button', { name: 'Insert chip' }).click();
    await customer.getByRole('heading', { name: 'Firme, por favor' }).first().waitFor();
    await page.getByText('The customer can also sign on the customer display.').waitFor();
    const box = await customer.getByRole('img', { name: /Recuadro de firma/ }).boundingBox();
    if (!box) throw new Error('no signature box on the customer display');
    await customer.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
    await customer.mouse.down();
    for (const [fx, fy] of [
      [0.3, 0.3],
      [0.5, 0.7],
      [0.8, 0.4],
    ] as const)
      await customer.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 4 });
    await customer.mouse.up();
    await shots(customer, '17-customer-sign');
    await customer.getByRole('button', { name: 'Listo' }).click();

    await customer.getByRole('heading', { name: '¿Desea su ticket?' }).waitFor();
    await customer.getByRole('heading', { name: 'Aprobado' }).waitFor();
    await shots(customer, '18-customer-receipt');
    a11y.set('customer: receipt', await axeSerious(customer));
    // Meanwhile the cashier reads English.
    await page.getByText('The customer is choosing a receipt.').waitFor();
    await shots(page, '19-cashier-in-english');
    await customer.getByRole('button', { name: 'Sin ticket' }).click();
    await customer.getByText('Gracias').first().waitFor();
    await shots(customer, '20-customer-thanks');
    await customer.close();
  }, 180_000);

  it('the tech in Spanish: Dispositivos (estado, pruebas, visor), Pasarela y terminal and its test, Diagnóstico', async () => {
    // This window chose English in the step before: back to the store's language.
    await page.evaluate(() => localStorage.removeItem('tillpoint.cashierLanguage'));
    await page.reload();
    await signIn(page, '7777');
    await go(page, 'Dispositivos');
    await page.waitForSelector('tr[data-role="poleDisplay"] .badge-ok');
    expect(plain(await page.locator('tr[data-role="receiptPrinter"]').innerText())).toMatch(
      /^Impresora de tickets simulado conectado .* Reconectar$/,
    );
    await page.getByRole('button', { name: 'Estado de la impresora' }).click();
    await page.getByRole('button', { name: 'Pitido del lector sin contacto' }).click();
    const results = page.getByRole('list', { name: 'Resultados de las pruebas' }).getByRole('listitem');
    await expect.poll(() => results.count(), { timeout: 20_000 }).toBe(2);
    expect((await results.allInnerTexts()).map(plain)).toEqual([
      'Correcto Pitido sin contacto: pitó',
      'Correcto Estado de la impresora: papel correcto, tapa cerrada, en línea',
    ]);
    await page.fill('#pole-text', 'AÑO NUEVO ¡OFERTA!');
    await page.getByRole('button', { name: 'Mostrar en el visor' }).click();
    // The pole display's table (PC437) has Ñ and ¡: shown as typed, not folded.
    await page.getByText('se muestra: «AÑO NUEVO ¡OFERTA!» / «12345678901234567890»').waitFor();
    await page.locator('#health-title').scrollIntoViewIfNeeded();
    await shots(page, '21-tech-devices');
    await noSidewaysScroll(page, 'Dispositivos');
    a11y.set('tech: devices', await axeSerious(page));

    await go(page, 'Pasarela y terminal');
    await page.getByRole('button', { name: 'Probar la conexión' }).click();
    expect(plain(await page.getByTestId('gateway-test').innerText())).toMatch(
      /^Conectado Conectado a http:\/\/127\.0\.0\.1:\d+\S* como comercio \d+\. \(\d+ ms\)$/,
    );
    await shots(page, '22-tech-gateway');
    await noSidewaysScroll(page, 'Pasarela y terminal');
    a11y.set('tech: gateway', await axeSerious(page));

    await go(page, 'Diagnóstico');
    await page.getByRole('heading', { name: 'Paquete de diagnóstico' }).waitFor();
    expect(plain(await page.locator('dl.facts').innerText())).toContain('Visor de cliente conectado');
    await shots(page, '23-tech-diagnostics');
    await noSidewaysScroll(page, 'Diagnóstico');
    a11y.set('tech: diagnostics', await axeSerious(page));
    await signOut(page);
  }, 180_000);

  it('money back in Spanish: a refund on Transacciones, a return from its receipt on Devoluciones, gift and EBT balances and a reload, a hold completed on Preautorizaciones', async () => {
    // The window back to the store's language (Spanish), whatever the test before chose; the manager signs in.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.evaluate(() => localStorage.removeItem('tillpoint.cashierLanguage'));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await signIn(page, '9999');

    // The day's payments, taken as a tool holding the terminal's secret would: a card sale, a cash sale
    // and a hold, with a till in the drawer for the cash.
    const keyed = { cardNumber: '4111111111111111', expiry: '1230' };
    const tickets = await ringSales(terminal, [
      [2_000, { kind: 'credit', entry: 'keyed', keyed }],
      [1_500, { kind: 'cash', tenderedCents: 1_500 }],
      [3_000, { kind: 'preauth', entry: 'keyed', keyed }],
    ]);

    // Transacciones: the rows in Spanish; a card refund with its dialog, done, its row "Reembolso".
    await go(page, 'Transacciones', 'Transacciones de hoy');
    const sale = page.locator('table.data tbody tr', { hasText: 'Venta a crédito' }).first();
    await sale.waitFor();
    expect(plain(await sale.innerText())).toContain('Aprobada');
    await page.locator('table.data tbody tr', { hasText: 'Preautorización' }).first().waitFor();
    await page.getByRole('button', { name: `Reembolsar efectivo ${money(1_500)}` }).click();
    const cashDialog = page.getByRole('dialog', { name: 'Reembolso en efectivo' });
    await cashDialog.waitFor();
    expect(plain(await cashDialog.innerText())).toContain('El efectivo sale de la caja del cajón.');
    await shots(page, '21-cash-refund-dialog');
    await cashDialog.getByRole('button', { name: 'Regresar' }).click();
    await page.getByRole('button', { name: `Reembolsar ${money(2_000)} a Visa •••• 1111` }).click();
    const refund = page.getByRole('dialog', { name: 'Reembolso' });
    await refund.waitFor();
    expect(plain(await refund.innerText())).toContain(`Importe a reembolsar (hasta ${money(2_000)})`);
    await page.fill('#refund-amount', '50.00');
    await refund.getByRole('button', { name: 'Reembolsar', exact: true }).click();
    await refund.getByText(`Escriba un importe de 0.01 a ${money(2_000)}.`).waitFor();
    a11y.set('transactions: refund dialog', await axeSerious(page));
    await shots(page, '22-refund-dialog');
    await page.fill('#refund-amount', '5.00');
    await refund.getByRole('button', { name: 'Reembolsar', exact: true }).click();
    await page
      .getByRole('heading', { name: `Reembolso de ${money(500)} a Visa •••• 1111`, exact: true })
      .waitFor();
    const back = page.locator('table.data tbody tr[data-state="approved"]', { hasText: 'Reembolso' });
    await back.waitFor();
    expect(plain(await back.innerText())).toContain('Reembolsada');
    expect(plain(await page.locator('table.data').innerText())).toContain(`reembolsado ${money(500)}`);
    a11y.set('transactions: refund done', await axeSerious(page));
    await noSidewaysScroll(page, 'Transacciones');
    await shots(page, '23-transactions-refunded');

    // Devoluciones: the card sale refunded in part cannot take all of its line back (the core's refusal,
    // in Spanish); the cash sale found from its receipt comes back in cash from the drawer.
    await go(page, 'Devoluciones');
    await page.fill('#return-receipt', tickets[0] ?? '');
    await page.getByRole('button', { name: 'Buscar venta' }).click();
    await page.getByRole('button', { name: 'Uno más de Importe de la venta' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText: `Se devuelven ${money(2_000)}, pero los pagos de la venta solo admiten ${money(1_500)} (ya reembolsado o en otra devolución).`,
      })
      .waitFor();
    await shots(page, '24a-return-refused');
    await page.getByRole('button', { name: 'Regresar' }).click();
    await page.fill('#return-receipt', tickets[1] ?? '');
    await page.getByRole('button', { name: 'Buscar venta' }).click();
    await page.getByText(`Venta ${tickets[1] ?? ''}`).waitFor();
    await page.getByRole('button', { name: 'Uno más de Importe de la venta' }).click();
    const give = page.getByRole('button', { name: `Devolver ${money(1_500)}` });
    await give.waitFor();
    expect(
      plain(await page.getByRole('list', { name: 'Reembolsar a, en este orden' }).innerText()),
    ).toContain(`${money(1_500)} · efectivo del cajón`);
    expect(await figure(page.locator('.return-totals'), 'Para el cliente')).toBe(money(1_500));
    await page.setViewportSize({ width: 1024, height: 768 });
    const giveBox = await give.boundingBox();
    expect(giveBox && giveBox.y + giveBox.height, 'Devolver on screen at 1024 × 768').toBeLessThanOrEqual(
      768,
    );
    a11y.set('returns: lines', await axeSerious(page));
    await noSidewaysScroll(page, 'Devoluciones');
    await shots(page, '24-return-lines');
    await give.click();
    await page
      .getByRole('heading', {
        name: new RegExp(`^Devolución \\d+: ${money(1_500).replace('$', '\\$')} devueltos$`),
      })
      .waitFor();
    await page.getByText('El cajón está abierto: entregue el efectivo.').waitFor();
    await page.getByRole('rowheader', { name: 'Efectivo entregado del cajón' }).waitFor();
    await shots(page, '25-return-done');

    // Regalo y EBT: a gift card's balance and a reload paid in cash; an EBT food balance with its PIN.
    await go(page, 'Regalo y EBT');
    await chooseCard(page, '6035710000000018');
    await page.getByRole('button', { name: 'Consultar saldo' }).click();
    await page.locator('#card-prompt', { hasText: 'Deslice la tarjeta' }).waitFor();
    await shots(page, '26-gift-waiting');
    await page.click('[data-sim="swipe"]');
    await page.getByRole('heading', { name: 'Saldo de la tarjeta de regalo' }).waitFor();
    expect(plain(await page.getByTestId('card-balance').textContent())).toBe(money(10_000));
    expect(await page.getByTestId('card-card').textContent()).toBe('Regalo •••• 0018');
    a11y.set('cards: gift balance', await axeSerious(page));
    await shots(page, '27-gift-balance');
    await page.fill('#reload-amount', '25.00');
    await page.getByRole('button', { name: `Cobrar ${money(2_500)} y recargar` }).click();
    await page.locator('#card-prompt[data-step="waiting-for-card"]').waitFor();
    await page.click('[data-sim="swipe"]');
    await page.getByRole('heading', { name: 'Tarjeta de regalo recargada' }).waitFor();
    expect(plain(await page.getByTestId('card-balance').textContent())).toBe(money(12_500));
    expect(await page.getByTestId('reload-basis').textContent()).toBe(
      'Pagada en esta terminal antes de la recarga.',
    );
    await shots(page, '28-gift-reloaded');
    await chooseCard(page, '5077010000000014');
    await page.getByRole('button', { name: 'Saldo de alimentos (SNAP)' }).click();
    await page.locator('#card-prompt[data-step="waiting-for-card"]').waitFor();
    await page.click('[data-sim="swipe"]');
    await page.locator('#card-prompt', { hasText: 'El cliente escribe su PIN' }).waitFor();
    const pad = page.getByRole('group', { name: 'Simulated PIN pad keys' });
    for (const d of '1234') await pad.getByRole('button', { name: d, exact: true }).click();
    await page.click('[data-sim="pin-enter"]');
    await page.getByRole('heading', { name: 'Saldo EBT de alimentos (SNAP)' }).waitFor();
    expect(plain(await page.getByTestId('card-balance').textContent())).toBe(money(15_000));
    a11y.set('cards: EBT balance', await axeSerious(page));
    await noSidewaysScroll(page, 'Regalo y EBT');
    await shots(page, '29-ebt-balance');

    // Preautorizaciones: the hold, completed for less.
    await go(page, 'Preautorizaciones');
    await page.getByText('1 retención abierta').waitFor();
    await page.getByRole('button', { name: `Completar ${money(3_000)} Visa •••• 1111` }).click();
    const complete = page.getByRole('dialog', { name: 'Completar preautorización' });
    await complete.waitFor();
    await page.fill('#preauth-amount', '28.00');
    expect(plain(await page.getByTestId('preauth-total').textContent())).toBe(
      `Total a cobrar: ${money(2_800)}`,
    );
    a11y.set('preauths: completion dialog', await axeSerious(page));
    await shots(page, '30-preauth-complete');
    const charge = complete.getByRole('button', { name: `Cobrar ${money(2_800)}` });
    // The dialog's buttons are on screen at 1024 × 768 (the Spanish words are longer).
    await page.setViewportSize({ width: 1024, height: 768 });
    const box = await charge.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(768);
    await charge.click();
    await page.getByText(`Completada por ${money(2_800)} con Visa •••• 1111.`).waitFor();
    await page.getByText('0 retenciones abiertas').waitFor();
    await noSidewaysScroll(page, 'Preautorizaciones');
    await shots(page, '31-preauths');
  }, 180_000);

  it('the manager’s back office in Spanish: Lote (cierre de lote), Informes, Catálogo and its refusals, Enlaces de pago, Sin conexión y colas, Registro de auditoría', async () => {
    // The window back to the store's language (Spanish), whatever the test before chose; the manager signs in.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.evaluate(() => localStorage.removeItem('tillpoint.cashierLanguage'));
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await signIn(page, '9999');

    // Lote: the open batch's figures in the store's locale, as the core counts them.
    const manager = await toolBridge(terminal.dataDir, '9999');
    const totals = await manager.send('batch.totals', {}).finally(() => manager.close());
    if (!totals.ok) throw new Error(totals.error.message);
    const card = totals.value.figures.card;
    expect(card.sales.count).toBeGreaterThan(0);
    await go(page, 'Lote');
    await page.getByRole('heading', { level: 2, name: 'Lote abierto (esta terminal)' }).waitFor();
    const cardBatch = page.getByRole('table', { name: 'Lote de tarjetas', exact: true });
    expect(await figure(cardBatch, 'Neto de tarjetas (va al banco)')).toBe(money(card.netCents));
    expect(await figure(cardBatch, 'Ventas con tarjeta (cargos)')).toBe(money(card.sales.cents));
    await page.getByRole('table', { name: 'Cajón', exact: true }).waitFor();
    await page
      .getByRole('table', { name: 'Lote de tarjetas por forma de pago' })
      .getByRole('rowheader', { name: 'Crédito', exact: true })
      .waitFor();
    await page.getByRole('heading', { name: 'Conciliación: registro de la terminal y pasarela' }).waitFor();
    await page.getByTestId('rec-can-close').filter({ hasText: 'Sí' }).waitFor();
    await page.getByRole('heading', { name: 'Cierre automático' }).waitFor();
    await shots(page, '21-batch');
    await noSidewaysScroll(page, 'Lote');
    a11y.set('batch', await axeSerious(page));
    await page.getByRole('button', { name: 'Cerrar el lote ahora' }).click();
    const closeBatch = page.getByRole('dialog', { name: '¿Hacer el cierre de lote?' });
    await closeBatch.waitFor();
    expect(plain(await closeBatch.innerText())).toContain(
      `Neto de tarjetas (va al banco): ${money(card.netCents)} (${card.sales.count} venta${card.sales.count === 1 ? '' : 's'} con tarjeta`,
    );
    await shots(page, '22-batch-close-dialog');
    await closeBatch.getByRole('button', { name: 'Cerrar el lote', exact: true }).click();
    await page.getByText(/^Lote cerrado: se liquidaron /).waitFor();
    const settled = page.getByTestId('settle-result');
    expect(await figure(settled, 'Neto de tarjetas (va al banco)')).toBe(money(card.netCents));
    await page.getByRole('heading', { name: 'Últimas liquidaciones' }).waitFor();
    await shots(page, '23-batch-closed');
    await noSidewaysScroll(page, 'Lote cerrado');

    // Informes: the lane's figures and the gateway's rows, in Spanish.
    await go(page, 'Informes');
    await page.getByRole('heading', { name: 'El dinero de esta terminal (su registro)' }).waitFor();
    await page.getByRole('figure').filter({ hasText: 'Ventas por hora' }).waitFor();
    const rows = page.getByRole('table', { name: 'Transacciones', exact: true });
    await rows.getByRole('row').nth(1).waitFor();
    expect(plain(await rows.innerText())).toMatch(/venta aprobada Visa •••• \d{4}/);
    await page.getByLabel('Desde', { exact: true }).waitFor();
    await shots(page, '24-reports');
    await noSidewaysScroll(page, 'Informes');
    a11y.set('reports', await axeSerious(page));

    // Catálogo: the list, the item form, the core's refusal and a refused import, in Spanish.
    await go(page, 'Catálogo');
    await page
      .getByRole('table', { name: 'Artículos del catálogo' })
      .locator('tr[data-sku="GM-TOWEL-6"]')
      .waitFor();
    await page.getByRole('heading', { name: 'Importar y exportar (CSV)' }).waitFor();
    await page.getByRole('heading', { name: 'Impuestos' }).waitFor();
    await shots(page, '25-catalog');
    await noSidewaysScroll(page, 'Catálogo');
    a11y.set('catalog', await axeSerious(page));
    await page.getByRole('button', { name: 'Agregar artículo' }).click();
    const form = page.getByRole('dialog', { name: 'Agregar artículo' });
    await form.waitFor();
    await page.fill('#item-sku', 'GM-TOWEL-6');
    await page.fill('#item-name', 'Toallas');
    await page.fill('#item-price', '2.00');
    await page.fill('#item-barcode-0', '036000241458');
    await form.getByRole('button', { name: 'Guardar artículo' }).click();
    await form
      .getByText('Código de barras 036000241458: el dígito verificador no coincide: revise el número.')
      .waitFor();
    await shots(page, '26-catalog-item-refused');
    a11y.set('catalog: item refused', await axeSerious(page));
    await page.fill('#item-barcode-0', '');
    await form.getByRole('button', { name: 'Guardar artículo' }).click();
    await form.getByText('El SKU GM-TOWEL-6 ya es de Paper towels 6 roll (SKU GM-TOWEL-6).').waitFor();
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await page.setInputFiles('#catalog-import-file', {
      name: 'malo.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('sku,name,price,tax_class\r\nX-1,Pera,1.x,standard\r\nX-2,,1.00,nada\r\n', 'utf8'),
    });
    const problems = page.getByTestId('catalog-import-problems');
    await problems.waitFor();
    expect(await problems.locator('p').innerText()).toBe('No se importó nada: el archivo tiene 2 problemas.');
    expect(await problems.locator('li').allInnerTexts()).toEqual([
      'Línea 2: el precio "1.x" no está escrito como 12.34 (dígitos, un punto y dos decimales como máximo).',
      'Línea 3: el nombre está vacío.',
    ]);
    await shots(page, '27-catalog-import-refused');
    await noSidewaysScroll(page, 'Catálogo: importación rechazada');

    // Enlaces de pago: a link for a customer who is not here.
    await go(page, 'Enlaces de pago');
    await page.getByText('Aún no hay enlaces de pago.').waitFor();
    await page.getByLabel('Importe (vacío: lo escribe el cliente)').fill('25.00');
    await page.getByLabel('Descripción', { exact: true }).fill('Anticipo del pastel');
    await page.getByRole('button', { name: 'Crear enlace' }).click();
    await page.getByText('Se creó el enlace de pago.').waitFor();
    const link = page.getByRole('row').filter({ hasText: 'Anticipo del pastel' });
    expect(plain(await link.innerText())).toContain(money(2_500));
    await link.getByRole('button', { name: 'Copiar enlace Anticipo del pastel' }).waitFor();
    await shots(page, '28-payment-links');
    await noSidewaysScroll(page, 'Enlaces de pago');
    a11y.set('payment links', await axeSerious(page));

    // Sin conexión y colas: the offline policy, the reversal queue, the emailed receipts.
    await go(page, 'Sin conexión y colas');
    await page.getByRole('heading', { name: 'Cola de ventas sin conexión' }).waitFor();
    await page.getByRole('heading', { name: 'Política de ventas sin conexión' }).waitFor();
    await page.getByText('No hay reversiones pendientes.').waitFor();
    await page.getByRole('heading', { name: 'Tickets por correo' }).waitFor();
    await page.getByText(/^Riesgo sin conexión: /).waitFor();
    await shots(page, '29-offline-and-queues');
    await noSidewaysScroll(page, 'Sin conexión y colas');
    a11y.set('offline and queues', await axeSerious(page));

    // Registro de auditoría: the day's actions named in Spanish.
    await go(page, 'Bitácora', 'Registro de auditoría');
    const log = page.locator('main table.data');
    await log.locator('tr[data-action="batch-close"]').waitFor();
    expect(plain(await log.locator('tr[data-action="batch-close"]').first().innerText())).toContain(
      'Cierre de lote',
    );
    expect(plain(await log.locator('tr[data-action="payment-link-created"]').first().innerText())).toContain(
      'Enlace de pago creado',
    );
    await page.getByText(/^\d+ registros, los más recientes primero$/).waitFor();
    await shots(page, '30-audit-log');
    await noSidewaysScroll(page, 'Registro de auditoría');
    a11y.set('audit log', await axeSerious(page));
  }, 240_000);

  it('every Spanish screen scanned has no serious or critical axe-core violation', () => {
    expect([...a11y.keys()].sort()).toEqual(
      [
        'settings',
        'employees',
        'sign-in',
        'till: open form',
        'till: paid out',
        'till: in the drawer',
        'tills: blind count',
        'tills: count over, sign-off',
        'tills: Z report',
        'sale: amount',
        'sale: cash change',
        'sale: open item',
        'sale: ticket',
        'sale: signature',
        'sale: card approved',
        'sale: card cancelled',
        'customer: tip',
        'customer: receipt',
        'tech: devices',
        'tech: gateway',
        'tech: diagnostics',
        'transactions: refund dialog',
        'transactions: refund done',
        'returns: lines',
        'cards: gift balance',
        'cards: EBT balance',
        'preauths: completion dialog',
        'batch',
        'reports',
        'catalog',
        'catalog: item refused',
        'payment links',
        'offline and queues',
        'audit log',
      ].sort(),
    );
    expect(describeViolations(a11y)).toEqual([]);
  });
});
