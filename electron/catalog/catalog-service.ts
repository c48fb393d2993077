import type {
  CatalogExportPage,
  CatalogImportResult,
  CatalogItemView,
  CatalogLookupView,
} from '../../common/bridge/catalog';
import { CATALOG_LIMITS } from '../../common/bridge/retail-limits';
import { readBarcodeScan } from '../../native/protocols/barcode-scan';
import { catalogBarcode, scanKey } from './catalog-barcode';
import { catalogCsv, parseCatalogCsv } from './catalog-csv';
import { CatalogProblem } from './catalog-problem';
import type { CatalogStore } from './catalog-store';
import { DEMO_CATALOG_CSV, DEMO_TAX_CLASSES } from './demo-catalog';

/**
 * What the catalog worker serves beyond the store's own reads and writes: lookups by scan or SKU, the
 * CSV import and export, the sandbox's demo catalog. Each runs inside the worker's one transaction per
 * request, so an import that throws leaves the catalog as it was.
 */
export class CatalogService {
  constructor(readonly store: CatalogStore) {}

  /** A barcode as a scanner sent it (or typed), or a SKU: the item, its tax class, a label's price. */
  lookup(query: { barcode?: string; aimId?: string; sku?: string }): CatalogLookupView {
    let item: CatalogItemView | undefined;
    let priceEmbedded: CatalogLookupView['priceEmbedded'];
    if (query.barcode !== undefined) {
      const scan = readBarcodeScan(query.barcode, query.aimId ? { aimId: query.aimId } : {});
      if (!scan.validated)
        throw new CatalogProblem('invalid', `Barcode ${scan.data}: ${scan.problem ?? 'it cannot be read'}.`);
      if (scan.priceEmbedded) {
        item = this.store.itemByEmbeddedCode(scan.priceEmbedded.itemCode);
        priceEmbedded = scan.priceEmbedded;
        if (!item)
          throw new CatalogProblem(
            'not-found',
            `No item has the price-embedded code ${scan.priceEmbedded.itemCode}.`,
          );
      } else {
        const key = scanKey(scan);
        // A code typed in a search field takes the manager's rule (14 digits are a GTIN-14 there too).
        const typed = catalogBarcode(query.barcode);
        item =
          (key ? this.store.itemByBarcode(key) : undefined) ??
          (typed.ok ? this.store.itemByBarcode(typed.barcode) : undefined);
        if (!item) throw new CatalogProblem('not-found', `No item has the barcode ${scan.data}.`);
      }
    } else if (query.sku !== undefined) {
      item = this.store.itemBySku(query.sku.trim());
      if (!item) throw new CatalogProblem('not-found', `No item has the SKU ${query.sku.trim()}.`);
    } else throw new CatalogProblem('invalid', 'Look up a barcode or a SKU.');
    return {
      item,
      taxClass: this.store.taxClassRate(item.taxClassId),
      ...(priceEmbedded ? { priceEmbedded: { ...priceEmbedded } } : {}),
    };
  }

  /** A CSV file, whole or not at all: the worker's transaction rolls everything back on a problem. */
  importCsv(csv: string, now: number): CatalogImportResult {
    return this.store.applyImport(parseCatalogCsv(csv), now);
  }

  /** One page of the export; `afterId` 0 starts the file (byte order mark and header row). */
  exportCsv(afterId: number, fileDate: string): CatalogExportPage {
    const { records, lastId } = this.store.exportRecords(afterId, CATALOG_LIMITS.exportPageRows);
    const more = records.length === CATALOG_LIMITS.exportPageRows && lastId !== undefined;
    return {
      csv: catalogCsv(records, afterId === 0),
      rows: records.length,
      fileName: `tillpoint-catalog-${fileDate}.csv`,
      ...(more ? { next: lastId } : {}),
    };
  }

  /**
   * The sandbox's demo catalog, once per data folder (a manager who empties it later does not get it
   * back): its tax classes, then its items through the CSV import itself.
   */
  seedDemo(now: number): boolean {
    if (this.store.getMeta('demo-seeded') !== undefined || !this.store.isEmpty()) return false;
    this.store.db.transaction(() => {
      for (const t of DEMO_TAX_CLASSES) this.store.saveTaxClass(t, now);
      this.importCsv(DEMO_CATALOG_CSV, now);
      this.store.setMeta('demo-seeded', String(now));
    })();
    return true;
  }
}
