import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogService } from '../../../electron/catalog/catalog-service';
import { CatalogStore, openCatalogDatabase } from '../../../electron/catalog/catalog-store';

/**
 * A store may have 50,000 items: every query the catalog runs must be read along an index that bounds it
 * (the rule of test/electron/journal/journal-plans.test.ts, applied to catalog.sqlite). SQLite's own plan (EXPLAIN
 * QUERY PLAN) of every statement the store prepares and of every shape of its item list is read; a `SCAN`
 * of items or barcodes is refused unless it reads an index in the list's order up to a LIMIT (no sort),
 * and the statement filters on nothing but what that index holds (`active = 1` for the index of active
 * items, a partial index). Tax classes and categories are bounded lists (50 and 200 at most).
 */

const GROWING = new Set(['items', 'barcodes', 'i']);

type PlanRow = { id: number; parent: number; detail: string };

let dir = '';
let db: Database.Database;
let store: CatalogStore;
const prepared = new Set<string>();

function plan(sql: string): PlanRow[] {
  const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1] ?? '');
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = named.length
    ? explain.all(Object.fromEntries(named.map((n) => [n, null])))
    : explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null));
  return rows as PlanRow[];
}

/** The index names that are partial over the active items (their WHERE is `active = 1`). */
let activeOnlyIndexes = new Set<string>();

function unbounded(sql: string): string[] {
  const rows = plan(sql);
  const sorts = rows.some((r) => r.detail.startsWith('USE TEMP B-TREE'));
  const limited = /\bLIMIT\b/i.test(sql) && !sorts;
  const where = /\bWHERE\b(.*?)(\bORDER BY\b|\bLIMIT\b|$)/is.exec(sql)?.[1]?.trim();
  return rows
    .filter((r) => {
      const m = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(r.detail);
      if (!m?.[1] || !GROWING.has(m[1])) return false;
      const index = m[2];
      const plainNewestN = limited && where === undefined && index !== undefined;
      const activeInIndex =
        limited && where === 'active = 1' && index !== undefined && activeOnlyIndexes.has(index);
      return !(plainNewestN || activeInIndex);
    })
    .map((r) => `${r.detail}  <=  ${sql.replace(/\s+/g, ' ').trim()}`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-catalog-plans-'));
  db = openCatalogDatabase(join(dir, 'catalog.sqlite'));
  const prepare = db.prepare.bind(db);
  db.prepare = (source: string) => {
    prepared.add(source);
    return prepare(source);
  };
  store = new CatalogStore(db);
  // A few hundred items (a third inactive, some with quick keys and barcodes), then the planner's statistics.
  const demo = new CatalogService(store);
  demo.seedDemo(1);
  const standard = store.taxClasses().find((t) => t.code === 'standard')?.id ?? 0;
  db.transaction(() => {
    for (let i = 0; i < 600; i += 1)
      store.saveItem(
        {
          sku: `P${i}`,
          name: `Product ${i}`,
          priceCents: 100 + i,
          taxClassId: standard,
          barcodes: [`TP-${i}`],
          openPrice: false,
          active: i % 3 > 0,
          quickKey: i < 40 ? 100 + i : null,
        },
        1,
      );
  })();
  db.exec('ANALYZE');
  activeOnlyIndexes = new Set(
    (
      db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '%WHERE active = 1%'")
        .all() as {
        name: string;
      }[]
    ).map((r) => r.name),
  );
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the catalog: every query is read along a bounding index (EXPLAIN QUERY PLAN)', () => {
  it('every statement the store prepares up front', () => {
    const statements = Object.entries(
      (store as unknown as { stmt: Record<string, Database.Statement> }).stmt,
    );
    expect(statements.length).toBeGreaterThan(30);
    const problems = statements.flatMap(([name, s]) => unbounded(s.source).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('every shape of the item list (active or all, a name prefix, a page cursor), the lookups, the export', () => {
    const before = prepared.size;
    for (const activeOnly of [true, false])
      for (const prefix of [undefined, 'prod'])
        for (const after of [undefined, { key: 'product 1', id: 5 }])
          store.listItems({ activeOnly, prefix, after, limit: 50 });
    const service = new CatalogService(store);
    service.lookup({ barcode: '036000241457' });
    service.lookup({ barcode: '204711804999' });
    service.lookup({ sku: 'P1' });
    service.exportCsv(0, 'today');
    store.quickKeys();
    const texts = [...prepared].filter((s) => /^\s*(SELECT|UPDATE|DELETE)/i.test(s));
    expect(prepared.size).toBeGreaterThan(before);
    expect(texts.length).toBeGreaterThan(35);
    expect(texts.flatMap((s) => unbounded(s))).toEqual([]);
  });

  it('a cashier’s lookup (scan, label, SKU) reads items by their keys alone, nothing that grows with the catalog', () => {
    // Every statement the lookup runs, as SQLite ran it (better-sqlite3's trace of executed statements).
    const executed: string[] = [];
    const traced = new Database(join(dir, 'catalog.sqlite'), {
      verbose: (sql) => executed.push(String(sql)),
    });
    const service = new CatalogService(new CatalogStore(traced));
    service.lookup({ barcode: '036000241457' });
    service.lookup({ barcode: '204711804999' });
    service.lookup({ sku: 'P1' });
    expect(executed.length).toBeGreaterThan(3);
    const keyRead =
      /^(SEARCH|SCAN) (\w+) USING (INTEGER PRIMARY KEY \(rowid=\?\)|PRIMARY KEY \(kind=\? AND code=\?\)|(COVERING )?INDEX (sqlite_autoindex_items_1|items_embedded_code|barcodes_item|sqlite_autoindex_tax_classes_1) \(\w+=\?\))$/;
    const ranges = executed.flatMap((sql) =>
      (traced.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as PlanRow[])
        .filter((r) => /^(SEARCH|SCAN) (items|barcodes|i)\b/.test(r.detail) && !keyRead.test(r.detail))
        .map((r) => `${r.detail}  <=  ${sql.replace(/\s+/g, ' ')}`),
    );
    traced.close();
    expect(ranges).toEqual([]);
  });

  it('the rule refuses a list that filters while it walks, or sorts what it read', () => {
    const texts = [
      'SELECT * FROM items WHERE open_price = 1 ORDER BY name_key, id LIMIT ?',
      'SELECT * FROM items WHERE name LIKE ? ORDER BY name_key, id LIMIT ?',
      'SELECT * FROM items ORDER BY price_cents LIMIT ?',
      'SELECT * FROM barcodes WHERE label = ? LIMIT 1',
    ];
    for (const sql of texts) expect(unbounded(sql), sql).toHaveLength(1);
  });
});
