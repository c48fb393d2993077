import type { Migration } from '../../journal/migrations/types';

/**
 * The catalog (docs/catalog.md). Its own file beside the journal, so that a manager's import of 50,000
 * rows in one transaction never holds the journal's writer while a sale waits to commit.
 *
 * - `name_key` is the name folded for search (lower case, accents removed): a name search is a range on
 *   it, read along `items_name` (or `items_active_name`, the active items alone) in (name, id) order,
 *   which is also the keyset a page continues from.
 * - Barcodes are keyed by kind and code: a GTIN by its 14 digits, Code 128 text as it is
 *   (catalog-barcode.ts); `label` is the code as entered, what the screens show and the export writes.
 * - `sold` is set the first time an item goes on a ticket: such an item is deactivated, never deleted.
 * - Quick keys and price-embedded codes are unique where present (partial indexes).
 */
export const catalogMigration001: Migration = {
  version: 1,
  name: 'catalog',
  up(db) {
    db.exec(`
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE tax_classes (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        rate_units INTEGER NOT NULL CHECK (rate_units BETWEEN 0 AND 300000),
        mode TEXT NOT NULL CHECK (mode IN ('exclusive', 'inclusive', 'exempt')),
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE categories (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE items (
        id INTEGER PRIMARY KEY,
        sku TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
        tax_class_id INTEGER NOT NULL REFERENCES tax_classes (id),
        category_id INTEGER REFERENCES categories (id) ON DELETE SET NULL,
        open_price INTEGER NOT NULL DEFAULT 0 CHECK (open_price IN (0, 1)),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        quick_key INTEGER CHECK (quick_key IS NULL OR quick_key >= 1),
        embedded_code TEXT CHECK (
          embedded_code IS NULL OR (length(embedded_code) = 5 AND embedded_code NOT GLOB '*[^0-9]*')
        ),
        sold INTEGER NOT NULL DEFAULT 0 CHECK (sold IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX items_name ON items (name_key, id);
      CREATE INDEX items_active_name ON items (name_key, id) WHERE active = 1;
      CREATE UNIQUE INDEX items_quick_key ON items (quick_key) WHERE quick_key IS NOT NULL;
      CREATE UNIQUE INDEX items_embedded_code ON items (embedded_code) WHERE embedded_code IS NOT NULL;
      CREATE INDEX items_tax_class ON items (tax_class_id);
      CREATE INDEX items_category ON items (category_id);
      CREATE TABLE barcodes (
        kind TEXT NOT NULL CHECK (kind IN ('gtin', 'text')),
        code TEXT NOT NULL,
        label TEXT NOT NULL,
        item_id INTEGER NOT NULL REFERENCES items (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        PRIMARY KEY (kind, code)
      ) WITHOUT ROWID;
      CREATE INDEX barcodes_item ON barcodes (item_id, position);
    `);
  },
};
