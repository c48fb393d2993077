import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BridgeResult, CatalogExportPage } from '../../common/bridge/contract';
import { connectBridge, readBridgeFile, type RemoteBridge } from '../../electron/bridge/ws-client';
import {
  axeSerious,
  buildRenderer,
  go,
  launchBrowser,
  openTillFor,
  screenshot,
  signIn,
  signOut,
  startTerminal,
  type Browser,
  type Terminal,
} from './harness';

/**
 * The manager's Catalog screen and the receipt's header and footer, in real Chromium against the real
 * `npm start` (sandbox: the demo catalog, the simulated scanner and printer). A barcode scanned while the
 * item form is open fills it; a wrong check digit is refused; a CSV with a bad row on line 7 names line 7
 * and imports nothing; a good one imports; the export downloads the catalog as the core exports it. The
 * store's name, address, phone and return policy set on the Settings screen head a sale's receipt, on the
 * simulated printer and on screen.
 */

const HEADER = 'sku,name,price,tax_class,category,barcodes,open_price,quick_key,price_embedded_code,active';
const GOOD_ROWS = [
  'E2E-APPLE,Apple (each),0.65,exempt,Produce e2e,,no,,,yes',
  'E2E-PEAR,"Pear, Bartlett",0.85,exempt,Produce e2e,,no,,,yes',
  'E2E-SOAP,Hand soap,3.49,standard,Produce e2e,5012345678900,no,,,yes',
  'E2E-MUG,"Mug ""Tillpoint""",9.00,standard,Produce e2e,,no,,,yes',
  'E2E-SALAD,Salad bar (price on label),0.00,exempt,Produce e2e,,yes,,24680,yes',
  'E2E-CANDLE,Old candle,4.00,standard,Produce e2e,,no,,,no',
];
/** Six good rows with a price that is not a price on line 7 (the header is line 1). */
const BAD_FILE = [HEADER, ...GOOD_ROWS.slice(0, 5), 'E2E-BAD,Broken price,12.3.4,standard,,,no,,,yes'].join(
  '\r\n',
);
const GOOD_FILE = [HEADER, ...GOOD_ROWS].join('\r\n') + '\r\n';

let terminal: Terminal;
let browser: Browser;
let page: Page;
let tool: RemoteBridge;

async function shots(p: Page, name: string, locator?: string): Promise<void> {
  for (const [w, h] of [
    [1366, 900],
    [1024, 768],
  ] as const) {
    await p.setViewportSize({ width: w, height: h });
    if (locator) await p.locator(locator).first().scrollIntoViewIfNeeded();
    await screenshot(p, `${name}-${w}`);
    await p.screenshot({ path: `test-artifacts/e2e/${name}-${w}-view.png` });
  }
  await p.setViewportSize({ width: 1366, height: 900 });
}

const row = (p: Page, sku: string) => p.locator(`table[aria-label="Catalog items"] tr[data-sku="${sku}"]`);

async function search(p: Page, text: string): Promise<void> {
  await p.fill('#catalog-search', text);
  await p.waitForTimeout(300);
  await p.waitForSelector('table[aria-label="Catalog items"][aria-busy="false"]');
}

async function importFile(p: Page, name: string, text: string): Promise<void> {
  await p.setInputFiles('#catalog-import-file', {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

beforeAll(async () => {
  buildRenderer();
  terminal = await startTerminal();
  // The cashier's cash sale below goes through a till.
  await openTillFor(terminal);
  const b = readBridgeFile(terminal.dataDir);
  tool = await connectBridge(b.wsUrl, b.secret);
  // The tool looks into the catalog as a manager would (the simulator's commands need no one signed in).
  const signed = await tool.send('session.signIn', { pin: '9999' });
  if (!signed.ok) throw new Error(signed.error.message);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(terminal.url);
  await signIn(page, '9999');
  await go(page, 'Catalog');
}, 240_000);

afterAll(async () => {
  await tool?.close();
  await browser?.close();
  await terminal?.stop();
});

describe('the manager’s Catalog screen', () => {
  it('lists the sandbox’s demo catalog, searched by name, SKU or barcode', async () => {
    await row(page, 'GM-TOWEL-6').waitFor();
    expect(await row(page, 'GM-TOWEL-6').innerText()).toMatch(
      /Paper towels 6 roll[\s\S]*036000241457[\s\S]*\$8\.99[\s\S]*Sales tax[\s\S]*Active/,
    );
    await search(page, 'choc');
    expect(await page.locator('table[aria-label="Catalog items"] tbody tr').count()).toBe(1);
    await row(page, 'GR-CHOC-BAR').waitFor();
    // A UPC-A typed as its EAN-13 form finds its item first.
    await search(page, '0036000241457');
    expect(await row(page, 'GM-TOWEL-6').innerText()).toContain('Found by SKU or barcode');
    await search(page, '');
    await shots(page, 'catalog-list');
    expect(await axeSerious(page)).toEqual([]);
  });

  it('adds an item: a scan fills its barcode, a wrong check digit is refused with the reason', async () => {
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.waitForSelector('#item-sku');
    await page.fill('#item-sku', 'E2E-TEST-1');
    await page.fill('#item-name', 'Loyalty card sleeve');
    await page.fill('#item-price', '2.75');
    await page.selectOption('#item-tax', { label: 'Sales tax (8.25% added)' });
    // The scanner is outside the page, like a real one: its scan arrives as `scanner.scanned`.
    await tool.send('simulator.scan', { symbology: 'code-128', data: 'TP-LOYALTY-00042', via: 'serial' });
    await expect.poll(() => page.inputValue('#item-barcode-0'), { timeout: 10_000 }).toBe('TP-LOYALTY-00042');
    expect(await page.textContent('[data-testid="item-scan-note"]')).toBe('Scanned TP-LOYALTY-00042.');
    await page.getByRole('button', { name: 'Add a barcode' }).click();
    await page.fill('#item-barcode-1', '012345678904');
    await page.getByRole('button', { name: 'Save item' }).click();
    await expect
      .poll(() => page.textContent('#item-problems'), { timeout: 10_000 })
      .toBe('Barcode 012345678904: the check digit does not match: check the number.');
    await shots(page, 'catalog-item-refused', '#item-problems');
    expect(await axeSerious(page)).toEqual([]);
    const notSaved = await tool.send('catalog.lookup', { sku: 'E2E-TEST-1' });
    expect(notSaved.ok ? 'saved' : notSaved.error.code).toBe('not-found');
    await page.fill('#item-barcode-1', '012345678905');
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.waitForSelector('#item-sku', { state: 'detached' });
    await search(page, 'loyalty');
    expect(await row(page, 'E2E-TEST-1').innerText()).toMatch(
      /TP-LOYALTY-00042\s+012345678905[\s\S]*\$2\.75/,
    );
    await search(page, '');
  });

  it('a CSV with a bad row on line 7 names line 7 and imports nothing', async () => {
    await importFile(page, 'catalog-bad.csv', BAD_FILE);
    const problems = page.locator('[data-testid="catalog-import-problems"]');
    await problems.waitFor();
    expect(await problems.locator('p').innerText()).toBe('Nothing was imported: the file has 1 problem.');
    expect(await problems.locator('li').allInnerTexts()).toEqual([
      'Line 7: the price "12.3.4" is not written like 12.34 (digits, a dot, at most two decimals).',
    ]);
    await shots(page, 'catalog-import-refused', '[data-testid="catalog-import-problems"]');
    expect(await axeSerious(page)).toEqual([]);
    await search(page, 'apple');
    expect(await row(page, 'E2E-APPLE').count()).toBe(0);
    const lookup = await tool.send('catalog.lookup', { sku: 'E2E-APPLE' });
    expect(lookup.ok ? 'found' : lookup.error.code).toBe('not-found');
    await search(page, '');
  });

  it('imports a good CSV, and exports a file that is the catalog as the core exports it', async () => {
    await importFile(page, 'catalog-good.csv', GOOD_FILE);
    await expect
      .poll(() => page.textContent('[data-testid="catalog-csv-status"]'), { timeout: 15_000 })
      .toBe('Imported 6 rows: 6 added, 0 changed, 0 unchanged, 1 new category.');
    expect(await page.locator('[data-testid="catalog-import-problems"]').count()).toBe(0);
    await search(page, 'pear');
    expect(await row(page, 'E2E-PEAR').innerText()).toMatch(/Pear, Bartlett[\s\S]*Produce e2e[\s\S]*\$0\.85/);
    await search(page, '');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tillpoint-catalog-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    // The core's own export, page by page, as a manager's tool would read it.
    const manager = await connectBridge(
      readBridgeFile(terminal.dataDir).wsUrl,
      readBridgeFile(terminal.dataDir).secret,
    );
    await manager.send('session.signIn', { pin: '9999' });
    let expected = '';
    let after: number | undefined = 0;
    while (after !== undefined) {
      const r: BridgeResult<CatalogExportPage> = await manager.send('catalog.export', { after });
      if (!r.ok) throw new Error(r.error.message);
      expected += r.value.csv;
      after = r.value.next;
    }
    await manager.close();
    expect(text).toBe(expected);
    expect(text.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    for (const line of GOOD_ROWS) expect(text).toContain(`${line}\r\n`);
    expect(text).toContain(
      'E2E-TEST-1,Loyalty card sleeve,2.75,standard,,TP-LOYALTY-00042|012345678905,no,,,yes\r\n',
    );
    await expect
      .poll(() => page.textContent('[data-testid="catalog-csv-status"]'))
      .toMatch(/^Exported \d+ items\.$/);
    // And the download imports back as it is: every row unchanged.
    await importFile(page, 'catalog-export.csv', text);
    await expect
      .poll(() => page.textContent('[data-testid="catalog-csv-status"]'), { timeout: 15_000 })
      .toMatch(/^Imported (\d+) rows: 0 added, 0 changed, \1 unchanged\.$/);
  });

  it('edits tax classes and categories beside the items', async () => {
    await page.locator('#tax-title').scrollIntoViewIfNeeded();
    await page.fill('#tax-code', 'e2e-luxury');
    await page.fill('#tax-name', 'Luxury tax');
    await page.fill('#tax-rate', '11.125');
    await page.getByRole('button', { name: 'Save tax class' }).click();
    await page.getByRole('cell', { name: 'Luxury tax', exact: true }).waitFor();
    expect(await page.getByRole('row', { name: /Luxury tax/ }).innerText()).toMatch(
      /e2e-luxury\s+11\.125%\s+added to the price\s+0/,
    );
    await page.fill('#tax-rate', '8.12345');
    await page.fill('#tax-code', 'e2e-bad');
    await page.fill('#tax-name', 'Bad');
    await page.getByRole('button', { name: 'Save tax class' }).click();
    expect(await page.locator('section[aria-labelledby="tax-title"] [role="alert"]').innerText()).toBe(
      'A rate is 0 to 30 %, with at most four decimals.',
    );
    await shots(page, 'catalog-tax-classes', '#tax-title');
    expect(await axeSerious(page)).toEqual([]);
  });
});

describe('the receipt’s header and footer are the manager’s settings', () => {
  it('settings → a sale’s receipt carries them, on the simulated printer and on screen', async () => {
    await go(page, 'Settings');
    // The sandbox's demo store until the manager names it (the form is filled once it has loaded).
    await expect
      .poll(() => page.inputValue('#store-name'), { timeout: 10_000 })
      .toBe('Tillpoint Demo Market');
    await page.fill('#store-name', 'Harbor Hardware');
    await page.fill('#store-address-1', '42 Wharf Road');
    await page.fill('#store-address-2', 'Portland, ME 04101');
    await page.fill('#store-address-3', '');
    await page.fill('#store-phone', '207-555-0142');
    await page.fill(
      '#store-return-policy',
      'Returns within 60 days with this receipt. Store credit after that.',
    );
    await page.getByRole('button', { name: 'Save receipt header and footer' }).click();
    await page.getByText('Receipt header and footer saved.').waitFor();
    await shots(page, 'settings-receipt-header', '#receipt-set-title');
    await shots(page, 'settings-discount-limits', '#limits-set-title');
    expect(await axeSerious(page)).toEqual([]);

    // A cashier's cash sale (through the bridge, as the sale screen does); the printer prints it at once.
    const cashier = await connectBridge(
      readBridgeFile(terminal.dataDir).wsUrl,
      readBridgeFile(terminal.dataDir).secret,
    );
    await cashier.send('session.signIn', { pin: '1111' });
    const before = await tool.send('simulator.state', {});
    const printedBefore = before.ok ? before.value.receiptPrinter.receipts.length : -1;
    const opened = await cashier.send('sale.open', { subtotalCents: 1234 });
    if (!opened.ok) throw new Error(opened.error.message);
    const paid = await cashier.send('sale.pay', {
      ticketId: opened.value.ticketId,
      tender: { kind: 'cash', tenderedCents: 2000 },
    });
    expect(paid.ok && paid.value.ticket.status).toBe('paid');
    await cashier.close();
    let printed: string[] = [];
    await expect
      .poll(
        async () => {
          const s = await tool.send('simulator.state', {});
          printed = s.ok ? (s.value.receiptPrinter.receipts.at(-1) ?? []) : [];
          return s.ok ? s.value.receiptPrinter.receipts.length : -1;
        },
        { timeout: 10_000 },
      )
      .toBe(printedBefore + 1);
    const paper = printed.map((l) => l.trim());
    expect(paper.slice(0, 4)).toEqual([
      'Harbor Hardware',
      '42 Wharf Road',
      'Portland, ME 04101',
      '207-555-0142',
    ]);
    expect(paper.join('\n')).toContain('Returns within 60 days with this receipt.');
    expect(paper.join('\n')).not.toContain('TILLPOINT STORE');

    // On screen: with the printer unplugged, the receipt is shown instead of printed.
    await tool.send('simulator.unplug', { role: 'receiptPrinter' });
    await signOut(page);
    await signIn(page, '1111');
    await go(page, 'Transactions');
    await page.locator('button[aria-label^="Receipt for"]').first().click();
    const receipt = page.locator('dialog[open] .receipt');
    await receipt.waitFor();
    const text = await receipt.innerText();
    expect(
      text
        .split('\n')
        .map((l) => l.trim())
        .slice(0, 4),
    ).toEqual(['Harbor Hardware', '42 Wharf Road', 'Portland, ME 04101', '207-555-0142']);
    expect(text).toContain('Returns within 60 days with this receipt.\nStore credit after that.');
    expect(text).toMatch(/SUBTOTAL\s+12\.34/);
    await shots(page, 'receipt-header-on-screen', 'dialog[open] .receipt');
    expect(await axeSerious(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await tool.send('simulator.replug', { role: 'receiptPrinter' });
  });
});
