import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogItemInput } from '../../../common/bridge/catalog';
import { catalogBarcode } from '../../../electron/catalog/catalog-barcode';
import { CatalogProblem } from '../../../electron/catalog/catalog-problem';
import { CatalogService } from '../../../electron/catalog/catalog-service';
import { CatalogStore, migrateCatalog, openCatalogDatabase } from '../../../electron/catalog/catalog-store';

let dir = '';
let store: CatalogStore;
let service: CatalogService;
let standard = 0;
let exempt = 0;

const now = 1_790_000_000_000;

function item(over: Partial<CatalogItemInput> = {}): CatalogItemInput {
  return {
    sku: 'SKU-1',
    name: 'Paper towels',
    priceCents: 899,
    taxClassId: standard,
    barcodes: [],
    openPrice: false,
    active: true,
    ...over,
  };
}

/** The problem a store call refused with (the test fails if it did not refuse). */
function refusal(f: () => unknown): CatalogProblem {
  try {
    f();
  } catch (e) {
    if (e instanceof CatalogProblem) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-catalog-'));
  store = CatalogStore.open(join(dir, 'catalog.sqlite'));
  service = new CatalogService(store);
  standard = store.saveTaxClass(
    { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
    now,
  ).id;
  exempt = store.saveTaxClass({ code: 'exempt', name: 'Exempt', ratePercent: 0, mode: 'exempt' }, now).id;
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('catalog barcodes: one key whether typed, imported or scanned (electron/catalog/catalog-barcode.ts)', () => {
  it('keys UPC/EAN by their 14-digit GTIN and Code 128 text as it is', () => {
    expect(catalogBarcode('036000241457')).toEqual({
      ok: true,
      barcode: { kind: 'gtin', code: '00036000241457', label: '036000241457' },
    });
    // The same UPC-A written as an EAN-13 (a leading 0): the same key.
    expect(catalogBarcode('0036000241457')).toMatchObject({
      barcode: { kind: 'gtin', code: '00036000241457' },
    });
    expect(catalogBarcode('96385074')).toMatchObject({ barcode: { code: '00000096385074' } }); // EAN-8
    // A UPC-E is keyed by the UPC-A it expands to (042100005264).
    expect(catalogBarcode('04252614')).toMatchObject({ barcode: { code: '00042100005264' } });
    expect(catalogBarcode('10036000241454')).toMatchObject({
      barcode: { kind: 'gtin', code: '10036000241454' },
    });
    expect(catalogBarcode(' TP-BAG-01 ')).toEqual({
      ok: true,
      barcode: { kind: 'text', code: 'TP-BAG-01', label: 'TP-BAG-01' },
    });
  });

  it('refuses a wrong check digit, a price-embedded label and what a CSV cell cannot hold, in words', () => {
    // The words, and their id in the screens' catalogs with the label, so a screen says them in Spanish.
    expect(catalogBarcode('036000241458')).toEqual({
      ok: false,
      problem: 'Barcode 036000241458: the check digit does not match: check the number.',
      messageId: 'barcodeCheckDigit',
      params: { label: '036000241458' },
    });
    expect(catalogBarcode('6291041500214')).toMatchObject({ ok: false, messageId: 'barcodeCheckDigit' });
    expect(catalogBarcode('10036000241455')).toMatchObject({ ok: false, messageId: 'barcodeCheckDigit' });
    expect(JSON.stringify(catalogBarcode('212345928752'))).toMatch(
      /"ok":false.*price-embedded label: give the item its 5-digit price-embedded code.*"messageId":"barcodePriceEmbedded"/,
    );
    expect(catalogBarcode('A|B')).toMatchObject({ ok: false, messageId: 'barcodeCharacters' });
    expect(catalogBarcode('')).toMatchObject({ ok: false, messageId: 'barcodeEmpty' });
  });
});

describe('the catalog store on a real SQLite file (electron/catalog/catalog-store.ts)', () => {
  it('adds an item and finds it by SKU, by barcode as a scanner reads it, and by name', () => {
    const saved = store.saveItem(item({ barcodes: ['036000241457', 'TP-TOWEL'] }), now);
    expect(saved).toMatchObject({
      sku: 'SKU-1',
      priceCents: 899,
      barcodes: ['036000241457', 'TP-TOWEL'],
      sold: false,
    });
    // A UPC-A scanned as an EAN-13 (the scanner's AIM ]E0 with 13 digits) finds the same item.
    expect(service.lookup({ barcode: ']E00036000241457' }).item.id).toBe(saved.id);
    expect(service.lookup({ barcode: '036000241457' }).item.id).toBe(saved.id);
    expect(service.lookup({ barcode: 'TP-TOWEL' }).item.id).toBe(saved.id);
    expect(service.lookup({ sku: 'SKU-1' }).taxClass).toMatchObject({ code: 'standard', ratePercent: 8.25 });
    expect(store.listItems({ prefix: 'PAP', activeOnly: true, limit: 10 }).items.map((i) => i.id)).toEqual([
      saved.id,
    ]);
  });

  it('finds a UPC-A item from its UPC-E label, and a weighed item from its price-embedded label', () => {
    const gum = store.saveItem(item({ sku: 'GUM', name: 'Gum', barcodes: ['042100005264'] }), now);
    expect(service.lookup({ barcode: '04252614' }).item.id).toBe(gum.id);
    const ham = store.saveItem(
      item({ sku: 'HAM', name: 'Ham', embeddedCode: '04711', taxClassId: exempt }),
      now,
    );
    const found = service.lookup({ barcode: '204711804999' });
    expect(found.item.id).toBe(ham.id);
    expect(found.priceEmbedded).toEqual({ itemCode: '04711', priceCents: 499 });
  });

  it('never looks a misread up, and says when nothing has the code', () => {
    store.saveItem(item({ barcodes: ['036000241457'] }), now);
    expect(() => service.lookup({ barcode: '036000241458' })).toThrow(/check digit does not match/);
    expect(refusal(() => service.lookup({ barcode: '96385074' })).code).toBe('not-found');
    expect(refusal(() => service.lookup({ barcode: '212345928752' })).message).toBe(
      'No item has the price-embedded code 12345.',
    );
  });

  it('refuses a wrong check digit with the reason, and changes nothing', () => {
    const p = refusal(() => store.saveItem(item({ barcodes: ['036000241458'] }), now));
    expect(p.code).toBe('invalid');
    expect(p.problems).toEqual(['Barcode 036000241458: the check digit does not match: check the number.']);
    expect(store.itemBySku('SKU-1')).toBeUndefined();
  });

  it('refuses a SKU, barcode, quick key or price-embedded code another item holds, naming that item', () => {
    store.saveItem(item({ barcodes: ['036000241457'], quickKey: 3, embeddedCode: '04711' }), now);
    const p = refusal(() =>
      store.saveItem(
        item({ name: 'Other', barcodes: ['0036000241457'], quickKey: 3, embeddedCode: '04711' }),
        now,
      ),
    );
    expect(p.code).toBe('conflict');
    expect(p.problems).toEqual([
      'The SKU SKU-1 is already Paper towels (SKU SKU-1).',
      'Barcode 0036000241457 is already on Paper towels (SKU SKU-1).',
      'Quick key 3 is already Paper towels (SKU SKU-1).',
      'The price-embedded code 04711 is already Paper towels (SKU SKU-1).',
    ]);
  });

  it('edits an item in place, its barcodes replaced', () => {
    const a = store.saveItem(item({ barcodes: ['036000241457'] }), now);
    const b = store.saveItem(
      item({ id: a.id, name: 'Towels', barcodes: ['96385074'], priceCents: 999 }),
      now + 1,
    );
    expect(b).toMatchObject({
      id: a.id,
      name: 'Towels',
      barcodes: ['96385074'],
      priceCents: 999,
      updatedAt: now + 1,
    });
    expect(refusal(() => service.lookup({ barcode: '036000241457' })).code).toBe('not-found');
  });

  it('never deletes an item a sale refers to: it is deactivated instead', () => {
    const sold = store.saveItem(item(), now);
    const unsold = store.saveItem(item({ sku: 'SKU-2', name: 'Typo' }), now);
    store.markSold(sold.id);
    const p = refusal(() => store.deleteItem(sold.id));
    expect(p.code).toBe('conflict');
    expect(p.message).toMatch(/has been on a sale.*deactivate it instead/);
    expect(store.setActive(sold.id, false, now)).toMatchObject({ active: false, sold: true });
    expect(store.listItems({ activeOnly: true, limit: 10 }).items.map((i) => i.sku)).toEqual(['SKU-2']);
    store.deleteItem(unsold.id);
    expect(refusal(() => store.item(unsold.id)).code).toBe('not-found');
  });

  it('keeps a tax class that items use, and lets a category go (its items stay, uncategorised)', () => {
    const cat = store.saveCategory({ name: 'Grocery' }, now);
    const a = store.saveItem(item({ categoryId: cat.id }), now);
    expect(refusal(() => store.deleteTaxClass(standard)).message).toMatch(
      /1 item is in the tax class Sales tax/,
    );
    expect(refusal(() => store.saveCategory({ name: 'grocery' }, now)).code).toBe('conflict');
    store.deleteCategory(cat.id);
    expect(store.item(a.id).categoryId).toBeNull();
    store.deleteTaxClass(exempt);
    expect(store.taxClasses().map((t) => t.code)).toEqual(['standard']);
  });

  it('keeps a tax rate exactly (four decimals) and an exempt class at no rate', () => {
    const t = store.saveTaxClass(
      { code: 'odd', name: 'Odd rate', ratePercent: 8.875, mode: 'inclusive' },
      now,
    );
    expect(t).toMatchObject({ ratePercent: 8.875, mode: 'inclusive' });
    expect(
      refusal(() =>
        store.saveTaxClass({ code: 'bad', name: 'Bad', ratePercent: 8.87501, mode: 'exclusive' }, now),
      ).code,
    ).toBe('invalid');
    expect(store.taxClass(exempt).ratePercent).toBe(0);
  });

  it('pages through a large catalog by name with a keyset: every item once, in order', () => {
    const names = Array.from({ length: 450 }, (_, i) => `Item ${String(449 - i).padStart(3, '0')}`);
    store.db.transaction(() =>
      names.forEach((name, i) => store.saveItem(item({ sku: `S${i}`, name }), now)),
    )();
    const seen: string[] = [];
    let after: { key: string; id: number } | undefined;
    let pages = 0;
    do {
      const page = store.listItems({ activeOnly: false, after, limit: 200 });
      seen.push(...page.items.map((i) => i.name));
      after = page.next;
      pages += 1;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toEqual([...names].sort());
  });

  it('searches names by prefix, ignoring case and accents', () => {
    store.saveItem(item({ sku: 'A', name: 'Café crème' }), now);
    store.saveItem(item({ sku: 'B', name: 'Cafeteria tray' }), now);
    store.saveItem(item({ sku: 'C', name: 'Cake' }), now);
    expect(store.listItems({ prefix: 'cafe', activeOnly: true, limit: 10 }).items.map((i) => i.sku)).toEqual([
      'A',
      'B',
    ]);
    expect(
      store.listItems({ prefix: 'CAFÉ C', activeOnly: true, limit: 10 }).items.map((i) => i.sku),
    ).toEqual(['A']);
    expect(store.listItems({ prefix: 'zz', activeOnly: true, limit: 10 }).items).toEqual([]);
  });

  it('lists the active quick keys in key order', () => {
    store.saveItem(item({ sku: 'Q2', name: 'Bread', quickKey: 2 }), now);
    store.saveItem(item({ sku: 'Q1', name: 'Banana', quickKey: 1 }), now);
    store.saveItem(item({ sku: 'Q3', name: 'Gone', quickKey: 3, active: false }), now);
    expect(store.quickKeys().map((i) => [i.quickKey, i.name])).toEqual([
      [1, 'Banana'],
      [2, 'Bread'],
    ]);
  });

  it('keeps what it saved across a reopen, and refuses a file from a newer build', () => {
    store.saveItem(item({ barcodes: ['036000241457'] }), now);
    store.close();
    store = CatalogStore.open(join(dir, 'catalog.sqlite'));
    expect(store.itemBySku('SKU-1')?.barcodes).toEqual(['036000241457']);
    const newer = new Database(join(dir, 'newer.sqlite'));
    newer.pragma('user_version = 99');
    expect(() => migrateCatalog(newer)).toThrow(/newer than this build/);
    newer.close();
    const db = openCatalogDatabase(join(dir, 'fresh.sqlite'));
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    db.close();
  });

  it('seeds the sandbox demo catalog once, through the CSV import', () => {
    const fresh = CatalogStore.open(join(dir, 'demo.sqlite'));
    const demo = new CatalogService(fresh);
    expect(demo.seedDemo(now)).toBe(true);
    expect(demo.seedDemo(now)).toBe(false);
    expect(
      fresh
        .taxClasses()
        .map((t) => t.mode)
        .sort(),
    ).toEqual(['exclusive', 'exclusive', 'exempt', 'inclusive']);
    expect(demo.lookup({ barcode: '036000241457' }).item.name).toBe('Paper towels 6 roll');
    expect(demo.lookup({ barcode: '6291041500213' }).item.name).toBe('Olive oil 500 ml');
    expect(demo.lookup({ barcode: '96385074' }).item.name).toBe('Chocolate bar');
    expect(demo.lookup({ barcode: '04252614' }).item.name).toBe('Chewing gum');
    expect(demo.lookup({ barcode: '212345928752' }).item.sku).toBe('DL-CHEDDAR');
    expect(demo.lookup({ barcode: '204711804999' }).item.sku).toBe('DL-HAM');
    expect(demo.lookup({ barcode: '738000001238' }).item.sku).toBe('GM-CARD'); // stored as its EAN-13 form
    expect(fresh.quickKeys().map((i) => i.sku)).toEqual([
      'PR-BANANA',
      'BK-SOURDOUGH',
      'CF-COFFEE',
      'CF-SANDWICH',
      'GM-GIFTWRAP',
      'GM-BAG',
    ]);
    expect(fresh.itemBySku('GM-GIFTWRAP')?.openPrice).toBe(true);
    expect(fresh.itemBySku('GM-CANDLE')?.active).toBe(false);
    fresh.close();
  });
});
