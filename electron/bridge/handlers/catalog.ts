import type { CatalogImportStaged } from '../../../common/bridge/contract';
import { CATALOG_LIMITS } from '../../../common/bridge/retail-limits';
import { BridgeFailure } from '../../../common/bridge/failure';
import { newId } from '../../util/ids';
import { formatCents } from '../../util/money';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** An import's file while its pieces arrive; dropped after ten idle minutes, two at most. */
type Staged = { text: string[]; chars: number; touched: number };
const STAGED_IDLE_MS = 10 * 60_000;
const MAX_STAGED = 2;

function localDate(now: number): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The catalog (electron/catalog/ does the work in its worker): the cashier's lookups, and the manager's
 * items, tax classes, categories, CSV import and export. A manager's change is audited.
 */
export function catalogHandlers(s: CoreServices) {
  const { catalog } = s;
  const { who } = createApprovals(s);
  const staged = new Map<string, Staged>();

  const stagedImport = (importId: string): Staged => {
    const now = s.clock.now();
    for (const [id, x] of staged) if (now - x.touched > STAGED_IDLE_MS) staged.delete(id);
    const x = staged.get(importId);
    if (!x)
      throw new BridgeFailure('not-found', 'That import is over or was never begun: choose the file again.', {
        messageId: 'catalog.importExpired',
      });
    x.touched = now;
    return x;
  };

  return {
    'catalog.taxClasses.list': () => catalog.taxClasses(),
    async 'catalog.taxClasses.save'(p, ctx) {
      const t = await catalog.saveTaxClass(p, s.clock.now());
      await s.audit(who(ctx), 'catalog-tax-class', `tax class ${t.code}: ${t.mode} ${t.ratePercent}%`);
      return t;
    },
    async 'catalog.taxClasses.delete'(p, ctx) {
      await catalog.deleteTaxClass(p.id);
      await s.audit(who(ctx), 'catalog-tax-class-deleted', `tax class ${p.id}`);
      return null;
    },
    'catalog.categories.list': () => catalog.categories(),
    'catalog.categories.save': (p) => catalog.saveCategory(p, s.clock.now()),
    async 'catalog.categories.delete'(p) {
      await catalog.deleteCategory(p.id);
      return null;
    },

    async 'catalog.items.list'(p) {
      const query = p.query?.trim() ?? '';
      const page = await catalog.listItems({
        prefix: query,
        activeOnly: p.includeInactive !== true,
        after: p.after,
        limit: p.limit ?? CATALOG_LIMITS.pageSize,
      });
      if (query === '' || p.after) return page;
      // A SKU or barcode typed in the search box finds its item first, whatever its name.
      const exact = await catalog
        .lookup(/^[\x20-\x7e]+$/.test(query) && !/\s/.test(query) ? { barcode: query } : { sku: query })
        .then((r) => r.item)
        .catch(() => catalog.itemBySku(query));
      return exact ? { ...page, exact } : page;
    },
    'catalog.items.get': (p) => catalog.item(p.id),
    async 'catalog.items.save'(p, ctx) {
      const before = p.id === undefined ? undefined : await catalog.item(p.id);
      const item = await catalog.saveItem(p, s.clock.now());
      const price =
        before && before.priceCents !== item.priceCents
          ? `, price ${formatCents(before.priceCents)} -> ${formatCents(item.priceCents)}`
          : `, price ${formatCents(item.priceCents)}`;
      await s.audit(
        who(ctx),
        before ? 'catalog-item-changed' : 'catalog-item-added',
        `item ${item.sku}${price}`,
      );
      return item;
    },
    async 'catalog.items.setActive'(p, ctx) {
      const item = await catalog.setActive(p.id, p.active, s.clock.now());
      await s.audit(
        who(ctx),
        p.active ? 'catalog-item-activated' : 'catalog-item-deactivated',
        `item ${item.sku}`,
      );
      return item;
    },
    async 'catalog.items.delete'(p, ctx) {
      const item = await catalog.item(p.id);
      await catalog.deleteItem(p.id);
      await s.audit(who(ctx), 'catalog-item-deleted', `item ${item.sku}`);
      return null;
    },

    'catalog.lookup': (p) => {
      if ((p.barcode === undefined) === (p.sku === undefined))
        throw new BridgeFailure('invalid', 'Look up a barcode or a SKU.');
      return catalog.lookup(p);
    },
    'catalog.search': (p) =>
      catalog.listItems({
        prefix: p.query,
        activeOnly: true,
        after: p.after,
        limit: p.limit ?? CATALOG_LIMITS.pageSize,
      }),
    'catalog.quickKeys': () => catalog.quickKeys(),

    'catalog.import.begin'(): Promise<CatalogImportStaged> {
      const now = s.clock.now();
      for (const [id, x] of staged) if (now - x.touched > STAGED_IDLE_MS) staged.delete(id);
      // The oldest unfinished import gives way: a manager who chose another file meant that one.
      while (staged.size >= MAX_STAGED) staged.delete(staged.keys().next().value ?? '');
      const importId = newId('IMP');
      staged.set(importId, { text: [], chars: 0, touched: now });
      return Promise.resolve({ importId, chars: 0 });
    },
    'catalog.import.append'(p): Promise<CatalogImportStaged> {
      const x = stagedImport(p.importId);
      if (x.chars + p.text.length > CATALOG_LIMITS.importMaxChars) {
        staged.delete(p.importId);
        throw new BridgeFailure(
          'invalid',
          `Nothing was imported: the file is larger than ${CATALOG_LIMITS.importMaxChars / 1024 / 1024} MiB.`,
          {
            messageId: 'catalog.importTooLarge',
            params: { mib: CATALOG_LIMITS.importMaxChars / 1024 / 1024 },
          },
        );
      }
      x.text.push(p.text);
      x.chars += p.text.length;
      return Promise.resolve({ importId: p.importId, chars: x.chars });
    },
    async 'catalog.import.commit'(p, ctx) {
      const x = stagedImport(p.importId);
      staged.delete(p.importId);
      try {
        const r = await catalog.importCsv(x.text.join(''), s.clock.now());
        await s.audit(
          who(ctx),
          'catalog-imported',
          `${r.rows} rows: ${r.created} added, ${r.updated} changed, ${r.unchanged} unchanged`,
        );
        return r;
      } catch (error) {
        if (error instanceof BridgeFailure)
          await s.audit(who(ctx), 'catalog-import-refused', `${error.problems?.length ?? 0} problem(s)`);
        throw error;
      }
    },
    'catalog.export': (p) => catalog.exportCsv(p.after ?? 0, localDate(s.clock.now())),
  } satisfies HandlerSlice<'catalog'>;
}
