import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogItemView } from '../../../common/bridge/catalog';
import {
  centsFromDecimal,
  decimalOfCents,
  guardFormula,
  unguardFormula,
} from '../../../electron/catalog/catalog-csv';
import { CatalogProblem } from '../../../electron/catalog/catalog-problem';
import { CatalogService } from '../../../electron/catalog/catalog-service';
import { CatalogStore } from '../../../electron/catalog/catalog-store';
import { gs1CheckDigit } from '../../../native/protocols/gs1-check-digit';

const now = 1_790_000_000_000;
const HEADER = 'sku,name,price,tax_class,category,barcodes,open_price,quick_key,price_embedded_code,active';

let dir = '';
let serial = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-catalog-csv-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh catalog file with the two tax classes every file here names. */
function freshCatalog(): { store: CatalogStore; service: CatalogService } {
  serial += 1;
  const store = CatalogStore.open(join(dir, `catalog-${serial}.sqlite`));
  store.saveTaxClass({ code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' }, now);
  store.saveTaxClass({ code: 'exempt', name: 'Exempt', ratePercent: 0, mode: 'exempt' }, now);
  return { store, service: new CatalogService(store) };
}

/** Writes `text` to a real file and reads it back, as the screen's file chooser hands it over. */
function viaFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, 'utf8');
  return readFileSync(path, 'utf8');
}

/** Every page of the export, joined: the file a manager downloads. */
function exportAll(service: CatalogService): string {
  let text = '';
  let after = 0;
  for (;;) {
    const page = service.exportCsv(after, '2026-12-01');
    text += page.csv;
    if (page.next === undefined) return text;
    after = page.next;
  }
}

/** The whole catalog as data (ids aside): what an import must reproduce. */
function snapshot(store: CatalogStore): unknown[] {
  const out: unknown[] = [];
  let after: { key: string; id: number } | undefined;
  do {
    const page = store.listItems({ activeOnly: false, after, limit: 200 });
    const categories = new Map(store.categories().map((c) => [c.id, c.name]));
    const taxes = new Map(store.taxClasses().map((t) => [t.id, t.code]));
    out.push(
      ...page.items.map((i: CatalogItemView) => ({
        sku: i.sku,
        name: i.name,
        priceCents: i.priceCents,
        taxClass: taxes.get(i.taxClassId),
        category: i.categoryId === null ? null : categories.get(i.categoryId),
        barcodes: i.barcodes,
        openPrice: i.openPrice,
        active: i.active,
        quickKey: i.quickKey,
        embeddedCode: i.embeddedCode,
      })),
    );
    after = page.next;
  } while (after);
  return out;
}

function refusal(f: () => unknown): CatalogProblem {
  try {
    f();
  } catch (e) {
    if (e instanceof CatalogProblem) return e;
    throw e;
  }
  throw new Error('expected the import to be refused');
}

describe('money in the CSV is decimal text read to the cent, never through a float', () => {
  it('reads and writes prices exactly', () => {
    expect(centsFromDecimal('12.34')).toBe(1234);
    expect(centsFromDecimal('0.1')).toBe(10);
    expect(centsFromDecimal('7')).toBe(700);
    expect(centsFromDecimal('1.005')).toBeUndefined();
    for (const bad of ['-1.00', '$1.00', '1,000.00', '1e3', ' 1.00', '.5', '1.', ''])
      expect(centsFromDecimal(bad), bad).toBeUndefined();
    expect(decimalOfCents(5)).toBe('0.05');
    expect(decimalOfCents(99_999_999)).toBe('999999.99');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (c) => centsFromDecimal(decimalOfCents(c)) === c),
    );
  });

  it('guards spreadsheet formulas on export and reads them back as they were', () => {
    expect(guardFormula('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(guardFormula("'Tis the season")).toBe("'Tis the season");
    expect(guardFormula("'=x")).toBe("''=x");
    fc.assert(fc.property(fc.string(), (s) => unguardFormula(guardFormula(s)) === s));
  });
});

describe('importing a catalog CSV from a real file (electron/catalog/catalog-csv.ts + catalog-store.ts)', () => {
  let store: CatalogStore;
  let service: CatalogService;
  beforeEach(() => ({ store, service } = freshCatalog()));

  it('imports quoted fields, several barcodes in one cell and exact prices; categories are created', () => {
    const csv = viaFile(
      'good.csv',
      [
        HEADER,
        'T-1,"Towels, paper ""jumbo""",8.99,standard,General,036000241457|TP-TOWEL,no,,,yes',
        'OIL,Olive oil,7.5,exempt,Grocery,6291041500213,,,,',
        'HAM,Deli ham,0,exempt,Deli,,yes,,04711,yes',
        'BAN,Banana,0.29,exempt,Grocery,,no,1,,no',
      ].join('\r\n') + '\r\n',
    );
    expect(service.importCsv(csv, now)).toEqual({
      rows: 4,
      created: 4,
      updated: 0,
      unchanged: 0,
      categoriesCreated: 3,
    });
    expect(store.itemBySku('T-1')).toMatchObject({
      name: 'Towels, paper "jumbo"',
      priceCents: 899,
      barcodes: ['036000241457', 'TP-TOWEL'],
    });
    expect(store.itemBySku('OIL')).toMatchObject({ priceCents: 750, openPrice: false, active: true });
    expect(store.itemBySku('HAM')).toMatchObject({ priceCents: 0, openPrice: true, embeddedCode: '04711' });
    expect(store.itemBySku('BAN')).toMatchObject({ quickKey: 1, active: false });
    expect(store.categories().map((c) => c.name)).toEqual(['Deli', 'General', 'Grocery']);
  });

  it('a bad row on line 7 is named, and nothing of the file is imported', () => {
    service.importCsv([HEADER, 'KEEP,Kept item,1.00,standard,,,,,,'].join('\n'), now);
    const before = snapshot(store);
    const csv = viaFile(
      'bad-line-7.csv',
      [
        HEADER,
        'A,Apple,0.50,exempt,Fruit,,,,,',
        'B,Bread,3.99,exempt,Bakery,,,,,',
        'KEEP,Changed name,9.99,standard,,,,,,',
        'C,Cheese,4.25,exempt,Deli,,,,,',
        'D,Donut,1.25,standard,Bakery,,,,,',
        'E,Eggs,3.4.5,exempt,Grocery,,,,,',
        'F,Flour,2.00,exempt,Grocery,,,,,',
      ].join('\n'),
    );
    const p = refusal(() => service.importCsv(csv, now));
    expect(p.code).toBe('invalid');
    expect(p.message).toBe('Nothing was imported: the file has 1 problem.');
    expect(p.problems).toEqual([
      'Line 7: the price "3.4.5" is not written like 12.34 (digits, a dot, at most two decimals).',
    ]);
    expect(snapshot(store)).toEqual(before);
    expect(store.categories()).toEqual([]);
  });

  it('names each row by the line it starts on, across quoted line breaks and blank lines', () => {
    const csv = [
      HEADER,
      'A,Apple,0.50,exempt,,,,,,',
      'B,"Bread',
      'with a break",3.99,exempt,,,,,,',
      '',
      'C,Cheese,4.255,exempt,,,,,,',
      'D,Donut,1.25,nothing,,,,,,',
      'E,Eggs,1.00,exempt,,036000241458,maybe,,,',
    ].join('\r\n');
    const p = refusal(() => service.importCsv(csv, now));
    expect(p.problems).toEqual([
      'Line 3: the name holds a line break or another control character.',
      'Line 6: the price "4.255" is not written like 12.34 (digits, a dot, at most two decimals).',
      'Line 8: Barcode 036000241458: the check digit does not match: check the number.',
      'Line 8: open_price "maybe" is yes or no.',
    ]);
    // Line 7's unknown tax class is found once the fields are good: after this file is fixed, on re-import.
    const fixed = csv
      .replace('"Bread\r\nwith a break"', 'Bread')
      .replace('4.255', '4.25')
      .replace('036000241458', '036000241457')
      .replace('maybe', 'no');
    expect(refusal(() => service.importCsv(fixed, now)).problems).toEqual([
      'Line 6: there is no tax class nothing (the codes are exempt, standard).',
    ]);
    expect(snapshot(store)).toEqual([]);
  });

  it('refuses a file that is not CSV, a header it does not know, rows of the wrong width, duplicates', () => {
    expect(
      refusal(() => service.importCsv(`${HEADER}\nA,"Apple,0.50,exempt,,,,,,\n`, now)).problems?.[0],
    ).toMatch(/^Line 2: the file cannot be read as CSV/);
    expect(refusal(() => service.importCsv('sku,name,cost,tax_class\nA,B,1,exempt', now)).problems).toEqual([
      'Line 1: unknown column "cost" (the columns are sku, name, price, tax_class, category, barcodes, open_price, quick_key, price_embedded_code, active).',
      'Line 1: the header has no price column.',
    ]);
    expect(
      refusal(() => service.importCsv('sku,name,price,tax_class\nA,B,1,exempt,extra', now)).problems,
    ).toEqual(['Line 2: the row has 5 fields, the header has 4.']);
    expect(
      refusal(() =>
        service.importCsv(
          'sku,name,price,tax_class,barcodes,quick_key\nA,B,1,exempt,036000241457,1\nA,C,1,exempt,0036000241457,1',
          now,
        ),
      ).problems,
    ).toEqual([
      'Line 3: SKU A is also on line 2.',
      'Line 3: barcode 0036000241457 is also on line 2.',
      'Line 3: quick key 1 is also on line 2.',
    ]);
    expect(refusal(() => service.importCsv('', now)).problems?.[0]).toMatch(/^The file is empty/);
  });

  it('refuses a barcode held by an item the file does not mention, naming the line and the item', () => {
    service.importCsv('sku,name,price,tax_class,barcodes\nOLD,Old item,1.00,standard,036000241457', now);
    const before = snapshot(store);
    const p = refusal(() =>
      service.importCsv(
        'sku,name,price,tax_class,barcodes\nNEW1,New,1.00,standard,\nNEW2,Newer,1.00,standard,036000241457',
        now,
      ),
    );
    expect(p.problems).toEqual(['Line 3: Barcode 036000241457 is already on Old item (SKU OLD).']);
    expect(snapshot(store)).toEqual(before);
  });

  it('updates by SKU: a re-import of the same file changes nothing; absent columns keep their values', () => {
    const file = [
      HEADER,
      'A,Apple,0.50,exempt,Fruit,036000241457,no,2,,yes',
      'B,Bread,3.99,exempt,,,no,,,yes',
    ].join('\n');
    expect(service.importCsv(file, now)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const first = snapshot(store);
    const updatedAt = store.itemBySku('A')?.updatedAt;
    expect(service.importCsv(file, now + 1000)).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(snapshot(store)).toEqual(first);
    expect(store.itemBySku('A')?.updatedAt).toBe(updatedAt);
    // Only the price changes: barcodes, quick key, category stay.
    expect(service.importCsv('sku,name,price,tax_class\nA,Apple,0.55,exempt', now)).toMatchObject({
      updated: 1,
      unchanged: 0,
    });
    expect(store.itemBySku('A')).toMatchObject({ priceCents: 55, barcodes: ['036000241457'], quickKey: 2 });
  });

  it('moves a barcode and a quick key from one item to another within one file', () => {
    service.importCsv(
      'sku,name,price,tax_class,barcodes,quick_key\nA,Apple,1,exempt,036000241457,1\nB,Bread,1,exempt,,2',
      now,
    );
    expect(
      service.importCsv(
        'sku,name,price,tax_class,barcodes,quick_key\nB,Bread,1,exempt,036000241457,1\nA,Apple,1,exempt,,2',
        now,
      ),
    ).toMatchObject({ updated: 2 });
    expect(service.lookup({ barcode: '036000241457' }).item.sku).toBe('B');
    expect(store.quickKeys().map((i) => i.sku)).toEqual(['B', 'A']);
  });

  it('exports in pages that join into one file, which imports back to the same catalog', () => {
    const rows = Array.from({ length: 2300 }, (_, i) => `S${i},Item ${i},${i}.0${i % 10},standard,,,,,,`);
    service.importCsv([HEADER, ...rows].join('\n'), now);
    const first = service.exportCsv(0, '2026-12-01');
    expect(first).toMatchObject({ rows: 2000, fileName: 'tillpoint-catalog-2026-12-01.csv' });
    expect(first.next).toBeGreaterThan(0);
    expect(first.csv.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    const text = exportAll(service);
    expect(text.split('\r\n').filter((l) => l !== '')).toHaveLength(2301);
    const copy = freshCatalog();
    expect(copy.service.importCsv(viaFile('export.csv', text), now)).toMatchObject({ created: 2300 });
    expect(snapshot(copy.store)).toEqual(snapshot(store));
    expect(exportAll(copy.service)).toBe(text);
    copy.store.close();
  });
});

// --- properties

const nameChars = fc.constantFrom(...'abcXYZ 09,;"\'=+-@|éñ€日本'.split(''));
const textArb = (min: number, max: number) =>
  fc
    .array(nameChars, { minLength: min, maxLength: max })
    .map((cs) => cs.join('').trim())
    .filter((s) => s.length > 0);
const gtinArb = fc
  .tuple(
    fc.constantFrom(7, 11, 12),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 }),
  )
  .map(([n, digits]) => {
    const payload = digits.slice(0, n).join('');
    return `${payload}${gs1CheckDigit(payload)}`;
  })
  // A number-system-2 UPC-A is a price label, not an item's barcode.
  .filter(
    (code) => !(code.length === 12 && code.startsWith('2')) && !(code.length === 13 && code.startsWith('02')),
  );
const code128Arb = fc
  .array(fc.constantFrom(...'ABC-_/. 129'.split('')), { minLength: 3, maxLength: 12 })
  .map((cs) => `X${cs.join('').trim()}`);

const itemArb = fc.record({
  name: textArb(1, 30),
  priceCents: fc.integer({ min: 0, max: 99_999_999 }),
  taxClass: fc.constantFrom('standard', 'exempt'),
  category: fc.option(fc.constantFrom('Grocery', 'Deli', '=Formula', 'Café'), { nil: null }),
  barcodes: fc.array(fc.oneof(gtinArb, code128Arb), { maxLength: 3 }),
  openPrice: fc.boolean(),
  quick: fc.boolean(),
  embedded: fc.boolean(),
  active: fc.boolean(),
});

const catalogArb = fc.array(itemArb, { maxLength: 25 });

type Item = typeof itemArb extends fc.Arbitrary<infer T> ? T : never;

/** A catalog built through the manager's form (the store), codes made unique by position. */
function build(items: Item[]) {
  const c = freshCatalog();
  const taxes = new Map(c.store.taxClasses().map((t) => [t.code, t.id]));
  const seen = new Set<string>();
  items.forEach((it, i) => {
    const category =
      it.category === null ? null : c.store.categories().find((x) => x.name === it.category)?.id;
    const categoryId =
      it.category === null ? null : (category ?? c.store.saveCategory({ name: it.category }, now).id);
    const barcodes = it.barcodes.filter((b) => {
      const key = b.replace(/^0+/, '');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    c.store.saveItem(
      {
        sku: `${i % 2 === 0 ? '=' : ''}SKU-${i}`,
        name: it.name,
        priceCents: it.priceCents,
        taxClassId: taxes.get(it.taxClass) ?? 0,
        categoryId,
        barcodes,
        openPrice: it.openPrice,
        active: it.active,
        quickKey: it.quick ? i + 1 : null,
        embeddedCode: it.embedded ? String(10000 + i) : null,
      },
      now,
    );
  });
  return c;
}

describe('export then import is the identity; any bad row aborts the whole import (properties)', () => {
  it('a catalog exported to a file and imported into an empty one is the same catalog, and exports alike', () => {
    fc.assert(
      fc.property(catalogArb, (items) => {
        const a = build(items);
        const text = exportAll(a.service);
        const b = freshCatalog();
        b.service.importCsv(viaFile(`round-${serial}.csv`, text), now);
        expect(snapshot(b.store)).toEqual(snapshot(a.store));
        expect(exportAll(b.service)).toBe(text);
        // And importing it over itself changes nothing.
        expect(a.service.importCsv(text, now)).toMatchObject({
          created: 0,
          updated: 0,
          unchanged: items.length,
        });
        a.store.close();
        b.store.close();
      }),
      { seed: 1919, numRuns: 40 },
    );
  });

  it('a file with one bad row anywhere is refused naming that row’s line, and the catalog is unchanged', () => {
    const corruptions: ((fields: string[]) => void)[] = [
      (f) => (f[2] = '1.234'), // price with three decimals
      (f) => (f[2] = '-1.00'), // negative price
      (f) => (f[3] = 'no-such-class'), // unknown tax class
      (f) => (f[0] = ''), // no SKU
      (f) => (f[5] = '036000241458'), // wrong check digit
      (f) => (f[6] = 'perhaps'), // not yes or no
      (f) => (f[7] = '9999'), // quick key out of range
      (f) => (f[8] = '12a45'), // not a price-embedded code
      (f) => f.push('extra'), // a field too many
    ];
    fc.assert(
      fc.property(
        fc.array(itemArb, { minLength: 1, maxLength: 15 }),
        fc.nat(),
        fc.integer({ min: 0, max: corruptions.length - 1 }),
        (items, where, how) => {
          const source = build(items);
          const text = exportAll(source.service);
          source.store.close();
          // The file's rows as fields (csv-parse, as the import reads them); one row gets one corruption.
          const records: string[][] = parse(text, { bom: true });
          const row = 1 + (where % (records.length - 1));
          const fields = records[row] ?? [];
          corruptions[how]?.(fields);
          // Each row is one line (names hold no line break): the header is line 1, row n is line n + 1.
          const bad = stringify(records, { record_delimiter: '\r\n' });
          const target = freshCatalog();
          target.service.importCsv(`${HEADER}\nKEEP,Kept,1.00,standard,Keepers,TP-KEEP,no,500,,yes`, now);
          const before = snapshot(target.store);
          const categories = target.store.categories();
          const p = refusal(() => target.service.importCsv(viaFile(`bad-${serial}.csv`, bad), now));
          expect(p.message).toMatch(/^Nothing was imported/);
          expect(p.problems?.some((x) => x.startsWith(`Line ${row + 1}: `))).toBe(true);
          expect(snapshot(target.store)).toEqual(before);
          expect(target.store.categories()).toEqual(categories);
          target.store.close();
        },
      ),
      { seed: 77, numRuns: 60 },
    );
  });
});
