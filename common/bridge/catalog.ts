import { Type, type Static } from 'typebox';
import type { TaxMode } from '../ticket-pricing';
import { CATALOG_LIMITS as L } from './retail-limits';
import { Cents } from './schema-kit';

/**
 * The lane's catalog (docs/catalog.md): items with name, SKU, barcodes, price, tax class, category,
 * open-price and active flags, quick keys; tax classes and categories. Kept in the terminal's own SQLite
 * file (catalog.sqlite in the data folder). Money is integer cents; a tax rate is a percent with at most
 * four decimals.
 */

export type TaxModeName = TaxMode;

/** A tax class as a lookup answers it (what a ticket line copies). */
export type TaxClassRateView = {
  id: number;
  /** What an item's CSV row names it by (`standard`, `exempt`). */
  code: string;
  name: string;
  ratePercent: number;
  /** `exclusive`: tax added to the price; `inclusive`: the price holds it; `exempt`: none. */
  mode: TaxModeName;
};

/** A tax class on the manager's list. */
export type TaxClassView = TaxClassRateView & {
  /** Items in the class (a class with items cannot be deleted). */
  itemCount: number;
};

export type CategoryView = { id: number; name: string; itemCount: number };

export type CatalogItemView = {
  id: number;
  sku: string;
  name: string;
  priceCents: number;
  taxClassId: number;
  categoryId: number | null;
  /** As entered: UPC-A, EAN-13, EAN-8, UPC-E digits with their check digit, or Code 128 text. */
  barcodes: string[];
  /** The cashier types the price at the sale (the catalog price, if any, is only a suggestion). */
  openPrice: boolean;
  active: boolean;
  /** Its key's position among the sale screen's quick keys (items without a barcode), if it has one. */
  quickKey: number | null;
  /** The five-digit item code of its price-embedded labels (UPC-A number system 2), if it is weighed. */
  embeddedCode: string | null;
  /** It has been on a ticket: it can be deactivated, never deleted. */
  sold: boolean;
  updatedAt: number;
};

/** Where the next page of an item list starts (keyset paging: the list's order is name, then id). */
export const CatalogCursorSchema = Type.Object(
  {
    key: Type.String({ maxLength: 4 * L.nameLength }),
    id: Type.Integer({ minimum: 0 }),
  },
  { problem: 'The page cursor is the one the previous page gave.' },
);
export type CatalogCursor = Static<typeof CatalogCursorSchema>;

export type CatalogPage = { items: CatalogItemView[]; next?: CatalogCursor };

const Id = (what: string) => Type.Integer({ minimum: 1, problem: `Choose ${what}.` });

export const CatalogListQuerySchema = Type.Object({
  /** Items whose name starts with this (case and accents ignored). */
  query: Type.Optional(Type.String({ maxLength: L.nameLength, problem: 'The search is too long.' })),
  includeInactive: Type.Optional(Type.Boolean()),
  after: Type.Optional(CatalogCursorSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, problem: 'The limit is a positive integer.' })),
});
export type CatalogListQuery = Static<typeof CatalogListQuerySchema>;

export const CatalogItemInputSchema = Type.Object({
  /** Absent: a new item. */
  id: Type.Optional(Id('an item')),
  sku: Type.String({ maxLength: L.skuLength, problem: `A SKU is 1 to ${L.skuLength} characters.` }),
  name: Type.String({ maxLength: L.nameLength, problem: `A name is 1 to ${L.nameLength} characters.` }),
  priceCents: Cents({ minimum: 0, problem: 'The price is zero or a positive number of cents.' }),
  taxClassId: Id('a tax class'),
  categoryId: Type.Optional(Type.Union([Id('a category'), Type.Null()])),
  barcodes: Type.Array(Type.String({ maxLength: L.barcodeLength + 16 }), {
    maxItems: L.barcodesPerItem,
    problem: `An item has at most ${L.barcodesPerItem} barcodes.`,
  }),
  openPrice: Type.Boolean(),
  active: Type.Boolean(),
  quickKey: Type.Optional(
    Type.Union([
      Type.Integer({
        minimum: 1,
        maximum: L.maxQuickKey,
        problem: `A quick key is 1 to ${L.maxQuickKey}.`,
      }),
      Type.Null(),
    ]),
  ),
  embeddedCode: Type.Optional(
    Type.Union([
      Type.String({ pattern: '^[0-9]{5}$', problem: 'A price-embedded item code is 5 digits.' }),
      Type.Null(),
    ]),
  ),
});
export type CatalogItemInput = Static<typeof CatalogItemInputSchema>;

export const TaxClassInputSchema = Type.Object({
  id: Type.Optional(Id('a tax class')),
  code: Type.String({
    pattern: `^[a-z0-9][a-z0-9-]{0,${L.taxClassCodeLength - 1}}$`,
    problem: `A tax class code is 1 to ${L.taxClassCodeLength} lower-case letters, digits or dashes.`,
  }),
  name: Type.String({
    maxLength: L.taxClassNameLength,
    problem: `A tax class name is 1 to ${L.taxClassNameLength} characters.`,
  }),
  ratePercent: Type.Number({
    minimum: 0,
    maximum: L.maxTaxRatePercent,
    problem: `A tax rate is 0 to ${L.maxTaxRatePercent} %, with at most four decimals.`,
  }),
  mode: Type.Enum(['exclusive', 'inclusive', 'exempt'], {
    problem: 'A tax class adds its tax (exclusive), is included in prices (inclusive) or is exempt.',
  }),
});
export type TaxClassInput = Static<typeof TaxClassInputSchema>;

export const CategoryInputSchema = Type.Object({
  id: Type.Optional(Id('a category')),
  name: Type.String({
    maxLength: L.categoryNameLength,
    problem: `A category name is 1 to ${L.categoryNameLength} characters.`,
  }),
});
export type CategoryInput = Static<typeof CategoryInputSchema>;

/**
 * A barcode or SKU to look up: `barcode` is read by the scan rule (a UPC-A finds its item whether it came
 * as 12 digits or as an EAN-13; a price-embedded label finds the item of its code and carries its price).
 */
export const CatalogLookupSchema = Type.Object(
  {
    barcode: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    /** The AIM identifier the scanner sent apart from the data (HID POS), if any. */
    aimId: Type.Optional(Type.String({ maxLength: 3 })),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: L.skuLength })),
  },
  { problem: 'Look up a barcode or a SKU.' },
);
export type CatalogLookup = Static<typeof CatalogLookupSchema>;

export type CatalogLookupView = {
  item: CatalogItemView;
  taxClass: TaxClassRateView;
  /** A price-embedded label: its item code and the price printed on it (the line's price). */
  priceEmbedded?: { itemCode: string; priceCents: number };
};

export type CatalogImportResult = {
  /** Data rows in the file. */
  rows: number;
  created: number;
  updated: number;
  /** Rows identical to the item already there (a re-import changes nothing). */
  unchanged: number;
  categoriesCreated: number;
};

export type CatalogImportStaged = { importId: string; chars: number };

/** One page of the CSV export: the header and the first rows first, then `next` until it is absent. */
export type CatalogExportPage = { csv: string; rows: number; next?: number; fileName: string };
