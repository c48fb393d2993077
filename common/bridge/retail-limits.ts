/**
 * Bounds the core enforces and the screens size their fields by: the catalog's and the store profile's.
 *
 * The catalog's bounds, one list the core enforces and the screens size their fields by (docs/catalog.md).
 * A store may have tens of thousands of items: lists are paged, and every list that is not paged (tax
 * classes, categories, quick keys) is bounded here.
 */
export const CATALOG_LIMITS = {
  skuLength: 40,
  nameLength: 80,
  categoryNameLength: 40,
  taxClassCodeLength: 24,
  taxClassNameLength: 40,
  /** A tax rate is 0 to 30 %, at most four decimals (as the lane's own rate). */
  maxTaxRatePercent: 30,
  barcodesPerItem: 10,
  /** Code 128 text as retail labels carry it (GS1-128 stays under 48 data characters). */
  barcodeLength: 48,
  /** The largest price: 999,999.99, what the cashier's keypad can type. */
  maxPriceCents: 99_999_999,
  /** Quick keys are numbered 1 to this (the position of the key on the sale screen). */
  maxQuickKey: 500,
  maxTaxClasses: 50,
  maxCategories: 200,
  /** One page of a list; the handler caps a request's `limit` here. */
  pageSize: 200,
  /** Rows of one export page (about 200 KB of CSV). */
  exportPageRows: 2000,
  /**
   * One piece of an import's file text. The bridge's frames are at most 1 MiB, and JSON writes a control
   * character as six bytes (`\u0001`): 128 Ki characters stay under it whatever the file holds.
   */
  importChunkChars: 128 * 1024,
  /** The largest file an import takes: 32 MiB of text, 200,000 rows. */
  importMaxChars: 32 * 1024 * 1024,
  importMaxRows: 200_000,
  /** Problems listed for a refused import (the count says how many more). */
  importMaxProblems: 100,
} as const;

/** The receipt's header and footer (contract/store-profile.ts). */
export const STORE_PROFILE_LIMITS = {
  storeNameLength: 40,
  addressLines: 3,
  /** A receipt line: 42 columns on the 80 mm printer. */
  addressLineLength: 42,
  phoneLength: 24,
  returnPolicyLength: 400,
} as const;
