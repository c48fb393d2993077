import Database from 'better-sqlite3';
import type {
  CatalogCursor,
  CatalogImportResult,
  CatalogItemInput,
  CatalogItemView,
  CatalogPage,
  CategoryInput,
  CategoryView,
  TaxClassInput,
  TaxClassRateView,
  TaxClassView,
} from '../../common/bridge/catalog';
import { CATALOG_LIMITS as L } from '../../common/bridge/retail-limits';
import type { Migration } from '../journal/migrations/types';
import { isExactRate, rateUnits } from '../../common/percent';
import { catalogBarcode, type BarcodeKey, type CatalogBarcode } from './catalog-barcode';
import type { CsvColumn, CsvExportRecord, CsvItemRow, ParsedCsv } from './catalog-csv';
import { CatalogProblem, importRefused, Problems, refusedFor } from './catalog-problem';
import { catalogMigrations } from './migrations/index';
import { hasControlCharacter } from './plain-text';

/**
 * The catalog's synchronous store (catalog.sqlite). It runs in the catalog worker thread
 * (catalog-worker.ts), never on the core's event loop, and each request is one transaction there: a
 * refused save or import changes nothing. Every query is a prepared statement with bound values, read
 * along an index (test/electron/catalog/catalog-plans.test.ts reads SQLite's plan of each one).
 */

export class CatalogSchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`catalog schema version ${found} is newer than this build knows (${known}); refusing to open it`);
    this.name = 'CatalogSchemaTooNewError';
  }
}

/** Applies the pending migrations, each in its own transaction; refuses a database from a newer build. */
export function migrateCatalog(
  db: Database.Database,
  migrations: readonly Migration[] = catalogMigrations,
): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (current > known) throw new CatalogSchemaTooNewError(current, known);
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      // user_version cannot take a bound parameter; the value is an integer from our own list.
      db.pragma(`user_version = ${Math.trunc(m.version)}`);
    })();
  }
}

export function openCatalogDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // A manager's saved edit or import must survive a power cut as the journal's commits do.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateCatalog(db);
  return db;
}

/** A name as a search compares it: lower case, accents removed ("Café" is found by "cafe"). */
export function nameKey(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The first string after every string that starts with `prefix` (UTF-8 orders as code points). */
function prefixEnd(prefix: string): string {
  const points = [...prefix];
  const last = points.pop();
  if (last === undefined) return '\u{10FFFF}';
  const next = (last.codePointAt(0) ?? 0) + 1;
  // A surrogate is not a code point: skip over their range.
  return points.join('') + String.fromCodePoint(next >= 0xd800 && next <= 0xdfff ? 0xe000 : next);
}

type SqlItem = {
  id: number;
  sku: string;
  name: string;
  name_key: string;
  price_cents: number;
  tax_class_id: number;
  category_id: number | null;
  open_price: number;
  active: number;
  quick_key: number | null;
  embedded_code: string | null;
  sold: number;
  created_at: number;
  updated_at: number;
};
type SqlTaxClass = { id: number; code: string; name: string; rate_units: number; mode: TaxClassView['mode'] };

/** An item as it is written: every field decided, barcodes keyed. */
type ItemData = {
  sku: string;
  name: string;
  priceCents: number;
  taxClassId: number;
  categoryId: number | null;
  barcodes: CatalogBarcode[];
  openPrice: boolean;
  active: boolean;
  quickKey: number | null;
  embeddedCode: string | null;
};

function ratePercent(units: number): number {
  // units / 10,000 is the double nearest the four-decimal rate; String() of it is that decimal.
  return units / 10_000;
}

export class CatalogStore {
  readonly db: Database.Database;
  private readonly stmt;
  private readonly shapes = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.db = db;
    this.stmt = {
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      anyItem: db.prepare<[], { id: number }>('SELECT id FROM items LIMIT 1'),
      taxClasses: db.prepare<[number], SqlTaxClass>('SELECT * FROM tax_classes ORDER BY name, id LIMIT ?'),
      taxClass: db.prepare<[number], SqlTaxClass>('SELECT * FROM tax_classes WHERE id = ?'),
      taxClassByCode: db.prepare<[string], SqlTaxClass>('SELECT * FROM tax_classes WHERE code = ?'),
      taxClassCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM tax_classes'),
      taxClassItems: db.prepare<[number], { n: number }>(
        'SELECT count(*) AS n FROM items WHERE tax_class_id = ?',
      ),
      insertTaxClass: db.prepare(
        'INSERT INTO tax_classes (code, name, rate_units, mode, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      updateTaxClass: db.prepare(
        'UPDATE tax_classes SET code = ?, name = ?, rate_units = ?, mode = ?, updated_at = ? WHERE id = ?',
      ),
      deleteTaxClass: db.prepare('DELETE FROM tax_classes WHERE id = ?'),
      categories: db.prepare<[number], { id: number; name: string }>(
        'SELECT id, name FROM categories ORDER BY name_key LIMIT ?',
      ),
      category: db.prepare<[number], { id: number; name: string }>(
        'SELECT id, name FROM categories WHERE id = ?',
      ),
      categoryByKey: db.prepare<[string], { id: number; name: string }>(
        'SELECT id, name FROM categories WHERE name_key = ?',
      ),
      categoryCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM categories'),
      categoryItems: db.prepare<[number], { n: number }>(
        'SELECT count(*) AS n FROM items WHERE category_id = ?',
      ),
      insertCategory: db.prepare('INSERT INTO categories (name, name_key, updated_at) VALUES (?, ?, ?)'),
      updateCategory: db.prepare('UPDATE categories SET name = ?, name_key = ?, updated_at = ? WHERE id = ?'),
      deleteCategory: db.prepare('DELETE FROM categories WHERE id = ?'),
      item: db.prepare<[number], SqlItem>('SELECT * FROM items WHERE id = ?'),
      itemBySku: db.prepare<[string], SqlItem>('SELECT * FROM items WHERE sku = ?'),
      itemByEmbedded: db.prepare<[string], SqlItem>('SELECT * FROM items WHERE embedded_code = ?'),
      itemByQuickKey: db.prepare<[number], SqlItem>('SELECT * FROM items WHERE quick_key = ?'),
      barcodeOwner: db.prepare<[string, string], { item_id: number }>(
        'SELECT item_id FROM barcodes WHERE kind = ? AND code = ?',
      ),
      barcodesOf: db.prepare<[number], { label: string }>(
        'SELECT label FROM barcodes WHERE item_id = ? ORDER BY position',
      ),
      clearBarcodes: db.prepare('DELETE FROM barcodes WHERE item_id = ?'),
      insertBarcode: db.prepare(
        'INSERT INTO barcodes (kind, code, label, item_id, position) VALUES (?, ?, ?, ?, ?)',
      ),
      insertItem: db.prepare(
        `INSERT INTO items (sku, name, name_key, price_cents, tax_class_id, category_id, open_price, active,
           quick_key, embedded_code, created_at, updated_at)
         VALUES (@sku, @name, @name_key, @price_cents, @tax_class_id, @category_id, @open_price, @active,
           @quick_key, @embedded_code, @now, @now)`,
      ),
      updateItem: db.prepare(
        `UPDATE items SET sku = @sku, name = @name, name_key = @name_key, price_cents = @price_cents,
           tax_class_id = @tax_class_id, category_id = @category_id, open_price = @open_price, active = @active,
           quick_key = @quick_key, embedded_code = @embedded_code, updated_at = @now
         WHERE id = @id`,
      ),
      releaseQuickKey: db.prepare('UPDATE items SET quick_key = NULL WHERE id = ?'),
      releaseEmbedded: db.prepare('UPDATE items SET embedded_code = NULL WHERE id = ?'),
      setActive: db.prepare('UPDATE items SET active = ?, updated_at = ? WHERE id = ?'),
      markSold: db.prepare('UPDATE items SET sold = 1 WHERE id = ? AND sold = 0'),
      deleteItem: db.prepare('DELETE FROM items WHERE id = ?'),
      quickKeys: db.prepare<[number], SqlItem>(
        'SELECT * FROM items WHERE quick_key IS NOT NULL AND active = 1 ORDER BY quick_key LIMIT ?',
      ),
      exportPage: db.prepare<[number, number], SqlItem & { tax_code: string; category_name: string | null }>(
        // Each row's class and category by their keys (a join let the planner scan tax_classes per row).
        `SELECT i.*, (SELECT code FROM tax_classes WHERE id = i.tax_class_id) AS tax_code,
           (SELECT name FROM categories WHERE id = i.category_id) AS category_name
         FROM items i
         WHERE i.id > ? ORDER BY i.id LIMIT ?`,
      ),
    };
  }

  static open(path: string): CatalogStore {
    return new CatalogStore(openCatalogDatabase(path));
  }

  close(): void {
    this.db.close();
  }

  // --- meta (the sandbox's seeding flag)

  getMeta(key: string): string | undefined {
    return this.stmt.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  isEmpty(): boolean {
    return this.stmt.anyItem.get() === undefined && this.stmt.taxClassCount.get()?.n === 0;
  }

  // --- tax classes

  taxClasses(): TaxClassView[] {
    return this.stmt.taxClasses.all(L.maxTaxClasses).map((t) => this.taxClassView(t));
  }

  taxClass(id: number): TaxClassView {
    const t = this.stmt.taxClass.get(id);
    if (!t) throw new CatalogProblem('not-found', 'No such tax class.', { messageId: 'noSuchTaxClass' });
    return this.taxClassView(t);
  }

  /**
   * A class's rate, read by its key alone: what a cashier's lookup and a ticket line need (the item count,
   * a count over the class's items, is the manager's list's).
   */
  taxClassRate(id: number): TaxClassRateView {
    const t = this.stmt.taxClass.get(id);
    if (!t) throw new CatalogProblem('not-found', 'No such tax class.', { messageId: 'noSuchTaxClass' });
    return { id: t.id, code: t.code, name: t.name, ratePercent: ratePercent(t.rate_units), mode: t.mode };
  }

  private taxClassView(t: SqlTaxClass): TaxClassView {
    return {
      id: t.id,
      code: t.code,
      name: t.name,
      ratePercent: ratePercent(t.rate_units),
      mode: t.mode,
      itemCount: this.stmt.taxClassItems.get(t.id)?.n ?? 0,
    };
  }

  saveTaxClass(input: TaxClassInput, now: number): TaxClassView {
    const name = input.name.trim();
    const problems = new Problems();
    if (!/^[a-z0-9][a-z0-9-]*$/.test(input.code) || input.code.length > L.taxClassCodeLength)
      problems.add(
        `A tax class code is 1 to ${L.taxClassCodeLength} lower-case letters, digits or dashes.`,
        'taxCodeShape',
        { max: L.taxClassCodeLength },
      );
    if (name === '' || name.length > L.taxClassNameLength || hasControlCharacter(name))
      problems.add(`A tax class name is 1 to ${L.taxClassNameLength} characters.`, 'taxNameShape', {
        max: L.taxClassNameLength,
      });
    if (!['exclusive', 'inclusive', 'exempt'].includes(input.mode))
      problems.add('A tax class adds its tax, includes it in prices, or is exempt.', 'taxMode');
    const exempt = input.mode === 'exempt';
    const units = exempt ? 0n : rateUnits(input.ratePercent);
    if (!exempt && (!isExactRate(input.ratePercent) || input.ratePercent > L.maxTaxRatePercent))
      problems.add(`A tax rate is 0 to ${L.maxTaxRatePercent} %, with at most four decimals.`, 'taxRate', {
        max: L.maxTaxRatePercent,
      });
    if (problems.length > 0) throw refusedFor(problems);
    const other = this.stmt.taxClassByCode.get(input.code);
    if (other && other.id !== input.id)
      throw new CatalogProblem('conflict', `The code ${input.code} is already the tax class ${other.name}.`, {
        messageId: 'taxCodeTaken',
        params: { code: input.code, name: other.name },
      });
    if (input.id !== undefined) {
      this.taxClass(input.id);
      this.stmt.updateTaxClass.run(input.code, name, Number(units), input.mode, now, input.id);
      return this.taxClass(input.id);
    }
    if ((this.stmt.taxClassCount.get()?.n ?? 0) >= L.maxTaxClasses)
      throw new CatalogProblem('conflict', `A catalog has at most ${L.maxTaxClasses} tax classes.`, {
        messageId: 'tooManyTaxClasses',
        params: { max: L.maxTaxClasses },
      });
    const r = this.stmt.insertTaxClass.run(input.code, name, Number(units), input.mode, now);
    return this.taxClass(Number(r.lastInsertRowid));
  }

  deleteTaxClass(id: number): void {
    const t = this.taxClass(id);
    if (t.itemCount > 0)
      throw new CatalogProblem(
        'conflict',
        `${t.itemCount} item${t.itemCount === 1 ? ' is' : 's are'} in the tax class ${t.name}: give ${t.itemCount === 1 ? 'it' : 'them'} another class first.`,
        { messageId: 'taxClassInUse', params: { count: t.itemCount, name: t.name } },
      );
    this.stmt.deleteTaxClass.run(id);
  }

  // --- categories

  categories(): CategoryView[] {
    return this.stmt.categories
      .all(L.maxCategories)
      .map((c) => ({ ...c, itemCount: this.stmt.categoryItems.get(c.id)?.n ?? 0 }));
  }

  category(id: number): CategoryView {
    const c = this.stmt.category.get(id);
    if (!c) throw new CatalogProblem('not-found', 'No such category.', { messageId: 'noSuchCategory' });
    return { ...c, itemCount: this.stmt.categoryItems.get(c.id)?.n ?? 0 };
  }

  saveCategory(input: CategoryInput, now: number): CategoryView {
    const name = input.name.trim();
    if (name === '' || name.length > L.categoryNameLength || hasControlCharacter(name))
      throw new CatalogProblem('invalid', `A category name is 1 to ${L.categoryNameLength} characters.`, {
        messageId: 'categoryName',
        params: { max: L.categoryNameLength },
      });
    const other = this.stmt.categoryByKey.get(nameKey(name));
    if (other && other.id !== input.id)
      throw new CatalogProblem('conflict', `There is already a category ${other.name}.`, {
        messageId: 'categoryTaken',
        params: { name: other.name },
      });
    if (input.id !== undefined) {
      this.category(input.id);
      this.stmt.updateCategory.run(name, nameKey(name), now, input.id);
      return this.category(input.id);
    }
    return this.category(this.createCategory(name, now));
  }

  private createCategory(name: string, now: number): number {
    if ((this.stmt.categoryCount.get()?.n ?? 0) >= L.maxCategories)
      throw new CatalogProblem('conflict', `A catalog has at most ${L.maxCategories} categories.`, {
        messageId: 'tooManyCategories',
        params: { max: L.maxCategories },
      });
    return Number(this.stmt.insertCategory.run(name, nameKey(name), now).lastInsertRowid);
  }

  /** Its items are left without a category (they are not deleted). */
  deleteCategory(id: number): void {
    this.category(id);
    this.stmt.deleteCategory.run(id);
  }

  // --- items: reads

  private view(r: SqlItem): CatalogItemView {
    return {
      id: r.id,
      sku: r.sku,
      name: r.name,
      priceCents: r.price_cents,
      taxClassId: r.tax_class_id,
      categoryId: r.category_id,
      barcodes: this.stmt.barcodesOf.all(r.id).map((b) => b.label),
      openPrice: r.open_price === 1,
      active: r.active === 1,
      quickKey: r.quick_key,
      embeddedCode: r.embedded_code,
      sold: r.sold === 1,
      updatedAt: r.updated_at,
    };
  }

  item(id: number): CatalogItemView {
    const r = this.stmt.item.get(id);
    if (!r) throw new CatalogProblem('not-found', 'No such item.', { messageId: 'noSuchItem' });
    return this.view(r);
  }

  itemBySku(sku: string): CatalogItemView | undefined {
    const r = this.stmt.itemBySku.get(sku);
    return r ? this.view(r) : undefined;
  }

  itemByBarcode(key: BarcodeKey): CatalogItemView | undefined {
    const owner = this.stmt.barcodeOwner.get(key.kind, key.code);
    return owner ? this.item(owner.item_id) : undefined;
  }

  itemByEmbeddedCode(code: string): CatalogItemView | undefined {
    const r = this.stmt.itemByEmbedded.get(code);
    return r ? this.view(r) : undefined;
  }

  /**
   * A page of items in name order, optionally those whose name starts with `prefix` (case and accents
   * ignored) and only the active ones; `after` continues after the previous page's last item.
   */
  listItems(query: {
    prefix?: string | undefined;
    activeOnly: boolean;
    after?: CatalogCursor | undefined;
    limit: number;
  }): CatalogPage {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (query.activeOnly) where.push('active = 1');
    const prefix = query.prefix === undefined ? '' : nameKey(query.prefix.trim());
    if (prefix !== '') {
      where.push('name_key >= ? AND name_key < ?');
      values.push(prefix, prefixEnd(prefix));
    }
    if (query.after) {
      where.push('(name_key, id) > (?, ?)');
      values.push(query.after.key, query.after.id);
    }
    const limit = Math.max(1, Math.min(query.limit, L.pageSize));
    const sql = `SELECT * FROM items ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY name_key, id LIMIT ?`;
    values.push(limit + 1);
    const rows = this.prepared(sql).all(...values) as SqlItem[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((r) => this.view(r)),
      ...(rows.length > limit && last ? { next: { key: last.name_key, id: last.id } } : {}),
    };
  }

  /** The sale screen's quick keys: active items with a key, in key order. */
  quickKeys(): CatalogItemView[] {
    return this.stmt.quickKeys.all(L.maxQuickKey).map((r) => this.view(r));
  }

  private prepared(sql: string): Database.Statement {
    let s = this.shapes.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.shapes.set(sql, s);
    }
    return s;
  }

  // --- items: writes

  /** Adds (no `id`) or changes an item from the manager's form. */
  saveItem(input: CatalogItemInput, now: number): CatalogItemView {
    const problems = new Problems();
    const sku = input.sku.trim();
    const name = input.name.trim();
    if (sku === '' || sku.length > L.skuLength || hasControlCharacter(sku))
      problems.add(`A SKU is 1 to ${L.skuLength} characters.`, 'skuShape', { max: L.skuLength });
    if (name === '' || name.length > L.nameLength || hasControlCharacter(name))
      problems.add(`A name is 1 to ${L.nameLength} characters.`, 'nameShape', { max: L.nameLength });
    if (!Number.isSafeInteger(input.priceCents) || input.priceCents < 0 || input.priceCents > L.maxPriceCents)
      problems.add('A price is 0.00 to 999999.99.', 'priceRange');
    const barcodes: CatalogBarcode[] = [];
    for (const text of input.barcodes) {
      if (text.trim() === '') continue;
      const r = catalogBarcode(text);
      if (!r.ok) problems.add(r.problem, r.messageId, r.params);
      else if (barcodes.some((b) => b.kind === r.barcode.kind && b.code === r.barcode.code))
        problems.add(`Barcode ${r.barcode.label} is listed twice.`, 'barcodeTwice', {
          label: r.barcode.label,
        });
      else barcodes.push(r.barcode);
    }
    if (barcodes.length > L.barcodesPerItem)
      problems.add(`An item has at most ${L.barcodesPerItem} barcodes.`, 'tooManyBarcodes', {
        max: L.barcodesPerItem,
      });
    if (problems.length > 0) throw refusedFor(problems);
    const data: ItemData = {
      sku,
      name,
      priceCents: input.priceCents,
      taxClassId: input.taxClassId,
      categoryId: input.categoryId ?? null,
      barcodes,
      openPrice: input.openPrice,
      active: input.active,
      quickKey: input.quickKey ?? null,
      embeddedCode: input.embeddedCode ?? null,
    };
    if (input.id !== undefined) this.item(input.id);
    const conflicts = this.conflicts(input.id, data);
    if (conflicts.length > 0)
      throw new CatalogProblem('conflict', conflicts.texts.join(' '), { problems: conflicts });
    return this.item(this.db.transaction(() => this.write(input.id, data, now))());
  }

  /** What stops `data` being written as item `id` (a new one when undefined): each in plain words. */
  private conflicts(id: number | undefined, data: ItemData): Problems {
    const problems = new Problems();
    const owner = (r: { id: number; name: string; sku: string } | undefined) =>
      r && r.id !== id ? { text: `${r.name} (SKU ${r.sku})`, name: r.name, sku: r.sku } : undefined;
    const bySku = owner(this.stmt.itemBySku.get(data.sku));
    if (bySku)
      problems.add(`The SKU ${data.sku} is already ${bySku.text}.`, 'skuTaken', {
        value: data.sku,
        name: bySku.name,
        sku: bySku.sku,
      });
    if (!this.stmt.taxClass.get(data.taxClassId)) problems.add('Choose a tax class.', 'chooseTaxClass');
    if (data.categoryId !== null && !this.stmt.category.get(data.categoryId))
      problems.add('No such category.', 'noSuchCategory');
    for (const b of data.barcodes) {
      const holder = this.stmt.barcodeOwner.get(b.kind, b.code);
      const other = holder ? owner(this.stmt.item.get(holder.item_id)) : undefined;
      if (other)
        problems.add(`Barcode ${b.label} is already on ${other.text}.`, 'barcodeTaken', {
          value: b.label,
          name: other.name,
          sku: other.sku,
        });
    }
    if (data.quickKey !== null) {
      if (data.quickKey < 1 || data.quickKey > L.maxQuickKey || !Number.isInteger(data.quickKey))
        problems.add(`A quick key is 1 to ${L.maxQuickKey}.`, 'quickKeyRange', { max: L.maxQuickKey });
      const other = owner(this.stmt.itemByQuickKey.get(data.quickKey));
      if (other)
        problems.add(`Quick key ${data.quickKey} is already ${other.text}.`, 'quickKeyTaken', {
          value: data.quickKey,
          name: other.name,
          sku: other.sku,
        });
    }
    if (data.embeddedCode !== null) {
      if (!/^\d{5}$/.test(data.embeddedCode))
        problems.add('A price-embedded item code is 5 digits.', 'embeddedShape');
      const other = owner(this.stmt.itemByEmbedded.get(data.embeddedCode));
      if (other)
        problems.add(
          `The price-embedded code ${data.embeddedCode} is already ${other.text}.`,
          'embeddedTaken',
          {
            value: data.embeddedCode,
            name: other.name,
            sku: other.sku,
          },
        );
    }
    return problems;
  }

  private write(id: number | undefined, data: ItemData, now: number): number {
    const row = {
      sku: data.sku,
      name: data.name,
      name_key: nameKey(data.name),
      price_cents: data.priceCents,
      tax_class_id: data.taxClassId,
      category_id: data.categoryId,
      open_price: data.openPrice ? 1 : 0,
      active: data.active ? 1 : 0,
      quick_key: data.quickKey,
      embedded_code: data.embeddedCode,
      now,
    };
    let itemId: number;
    if (id === undefined) itemId = Number(this.stmt.insertItem.run(row).lastInsertRowid);
    else {
      this.stmt.updateItem.run({ ...row, id });
      itemId = id;
    }
    this.stmt.clearBarcodes.run(itemId);
    data.barcodes.forEach((b, position) =>
      this.stmt.insertBarcode.run(b.kind, b.code, b.label, itemId, position),
    );
    return itemId;
  }

  setActive(id: number, active: boolean, now: number): CatalogItemView {
    this.item(id);
    this.stmt.setActive.run(active ? 1 : 0, now, id);
    return this.item(id);
  }

  /** Only an item never put on a ticket: one a sale refers to is deactivated instead. */
  deleteItem(id: number): void {
    const item = this.item(id);
    if (item.sold)
      throw new CatalogProblem(
        'conflict',
        `${item.name} has been on a sale, so it stays in the catalog: deactivate it instead.`,
        { messageId: 'itemSold', params: { name: item.name } },
      );
    this.stmt.deleteItem.run(id);
  }

  /** The item went on a ticket: from now on it can only be deactivated. Writes only the first time. */
  markSold(id: number): void {
    this.stmt.markSold.run(id);
  }

  // --- CSV import and export (catalog-csv.ts reads and writes the text)

  /**
   * Applies a parsed file: each row updates the item with its SKU (the columns it has; the others keep
   * their values) or adds one. All or nothing: the worker runs this in one transaction and any problem
   * throws, naming its line, so nothing of the file is kept.
   */
  applyImport(file: ParsedCsv, now: number): CatalogImportResult {
    // Its own transaction (a savepoint inside the worker's): whoever calls it, a throw undoes it all.
    return this.db.transaction(() => this.importRows(file, now))();
  }

  private importRows(file: ParsedCsv, now: number): CatalogImportResult {
    const has = (c: CsvColumn) => file.columns.includes(c);
    const problems = new Problems();
    const taxClasses = new Map(this.stmt.taxClasses.all(L.maxTaxClasses).map((t) => [t.code, t.id]));
    const newCategories = new Map<string, string>();
    const categoryIds = new Map<string, number>();
    const categoryId = (name: string | null | undefined): number | null | undefined => {
      if (name === undefined || name === null) return name;
      const key = nameKey(name);
      const known = categoryIds.get(key) ?? this.stmt.categoryByKey.get(key)?.id;
      if (known === undefined) newCategories.set(key, newCategories.get(key) ?? name);
      else categoryIds.set(key, known);
      return known;
    };

    type Plan = { row: CsvItemRow; existing: SqlItem | undefined; data: ItemData };
    const plans: Plan[] = [];
    for (const row of file.rows) {
      const taxClassId = taxClasses.get(row.taxClass);
      if (taxClassId === undefined) {
        problems.add(
          `Line ${row.line}: there is no tax class ${row.taxClass} (the codes are ${[...taxClasses.keys()].join(', ') || 'none yet: add tax classes first'}).`,
          taxClasses.size > 0 ? 'noTaxClass' : 'noTaxClassYet',
          { line: row.line, code: row.taxClass, codes: [...taxClasses.keys()].join(', ') },
        );
        continue;
      }
      categoryId(row.category);
      const existing = this.stmt.itemBySku.get(row.sku);
      const before = existing ? this.view(existing) : undefined;
      plans.push({
        row,
        existing,
        data: {
          sku: row.sku,
          name: row.name,
          priceCents: row.priceCents,
          taxClassId,
          categoryId: null, // decided once the new categories exist
          barcodes:
            row.barcodes ??
            (before?.barcodes ?? []).flatMap((label) => {
              const r = catalogBarcode(label);
              return r.ok ? [r.barcode] : [];
            }),
          openPrice: row.openPrice ?? (existing ? existing.open_price === 1 : false),
          active: row.active ?? (existing ? existing.active === 1 : true),
          quickKey: row.quickKey !== undefined ? row.quickKey : (existing?.quick_key ?? null),
          embeddedCode: row.embeddedCode !== undefined ? row.embeddedCode : (existing?.embedded_code ?? null),
        },
      });
    }
    if ((this.stmt.categoryCount.get()?.n ?? 0) + newCategories.size > L.maxCategories)
      problems.add(
        `The file names more categories than a catalog holds (${L.maxCategories}).`,
        'importTooManyCategories',
        { max: L.maxCategories },
      );
    if (problems.length > 0) throw importRefused(problems);

    for (const [, name] of newCategories) categoryIds.set(nameKey(name), this.createCategory(name, now));
    for (const p of plans) {
      const c = p.row.category;
      p.data.categoryId =
        c === undefined
          ? (p.existing?.category_id ?? null)
          : c === null
            ? null
            : (categoryIds.get(nameKey(c)) ?? null);
    }

    // Unchanged rows are left alone (a re-import of the same file writes nothing). The others first let go
    // of their unique codes, so codes may move between the file's items in any order.
    const changed = plans.filter((p) => !p.existing || !sameItem(this.view(p.existing), p.data));
    for (const p of changed) {
      if (!p.existing) continue;
      if (has('barcodes')) this.stmt.clearBarcodes.run(p.existing.id);
      if (has('quick_key')) this.stmt.releaseQuickKey.run(p.existing.id);
      if (has('price_embedded_code')) this.stmt.releaseEmbedded.run(p.existing.id);
    }
    let created = 0;
    for (const p of changed) {
      const conflicts = this.conflicts(p.existing?.id, p.data);
      if (conflicts.length > 0) {
        problems.addOnLine(p.row.line, conflicts, (c) => `Line ${p.row.line}: ${c}`);
        continue;
      }
      this.write(p.existing?.id, p.data, now);
      if (!p.existing) created += 1;
    }
    if (problems.length > 0) throw importRefused(problems);
    return {
      rows: file.rows.length,
      created,
      updated: changed.length - created,
      unchanged: plans.length - changed.length,
      categoriesCreated: newCategories.size,
    };
  }

  /** One export page: the items after `afterId` in id order, as the CSV writes them. */
  exportRecords(afterId: number, limit: number): { records: CsvExportRecord[]; lastId?: number } {
    const rows = this.stmt.exportPage.all(afterId, Math.max(1, Math.min(limit, L.exportPageRows)));
    return {
      records: rows.map((r) => ({
        sku: r.sku,
        name: r.name,
        priceCents: r.price_cents,
        taxClass: r.tax_code,
        category: r.category_name,
        barcodes: this.stmt.barcodesOf.all(r.id).map((b) => b.label),
        openPrice: r.open_price === 1,
        quickKey: r.quick_key,
        embeddedCode: r.embedded_code,
        active: r.active === 1,
      })),
      ...(rows.length > 0 ? { lastId: rows.at(-1)?.id } : {}),
    };
  }
}

function sameItem(before: CatalogItemView, after: ItemData): boolean {
  return (
    before.sku === after.sku &&
    before.name === after.name &&
    before.priceCents === after.priceCents &&
    before.taxClassId === after.taxClassId &&
    before.categoryId === after.categoryId &&
    before.openPrice === after.openPrice &&
    before.active === after.active &&
    before.quickKey === after.quickKey &&
    before.embeddedCode === after.embeddedCode &&
    before.barcodes.length === after.barcodes.length &&
    before.barcodes.every((b, i) => b === after.barcodes[i]?.label)
  );
}
