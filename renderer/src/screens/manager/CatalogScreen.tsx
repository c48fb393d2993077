import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CATALOG_LIMITS,
  type BridgeError,
  type BridgeResult,
  type CatalogCursor,
  type CatalogExportPage,
  type CatalogImportResult,
  type CatalogItemView,
  type TaxClassView,
  type TaxModeName,
} from '../../../../common/bridge/contract';
import { isExactRate } from '../../../../common/percent';
import { formatCents } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CatalogItemForm } from './CatalogItemForm';
import { download } from './ReportsScreen';

/** The words of the Catalog screen, in one place (a later change moves them into the translation catalogs). */
const words = {
  title: 'Catalog',
  addItem: 'Add item',
  search: 'Search by name, SKU or barcode',
  showInactive: 'Show inactive items',
  columns: ['Item', 'Barcodes', 'Price', 'Tax class', 'Status', 'Actions'],
  loading: 'Loading…',
  none: 'No items match.',
  more: 'Show more items',
  openPrice: 'open price',
  active: 'Active',
  inactive: 'Inactive',
  edit: (name: string) => `Edit ${name}`,
  deactivate: (name: string) => `Deactivate ${name}`,
  activate: (name: string) => `Activate ${name}`,
  exact: 'Found by SKU or barcode',
  sku: (sku: string) => `SKU ${sku}`,
  quickKey: (n: number) => `quick key ${n}`,
  embedded: (code: string) => `label code ${code}`,
  saved: (name: string) => `${name} saved.`,
  deleted: (name: string) => `${name} deleted.`,
  csvTitle: 'Import and export (CSV)',
  csvHint:
    'Columns: sku, name, price, tax_class, category, barcodes (several separated by |), open_price, quick_key, price_embedded_code, active. A row updates the item with its SKU or adds one; a file with any bad row imports nothing.',
  chooseFile: 'Import a CSV file',
  importing: 'Importing…',
  imported: (r: CatalogImportResult) =>
    `Imported ${r.rows} row${r.rows === 1 ? '' : 's'}: ${r.created} added, ${r.updated} changed, ${r.unchanged} unchanged${r.categoriesCreated > 0 ? `, ${r.categoriesCreated} new categor${r.categoriesCreated === 1 ? 'y' : 'ies'}` : ''}.`,
  export: 'Export CSV',
  exporting: 'Exporting…',
  exported: (rows: number) => `Exported ${rows} item${rows === 1 ? '' : 's'}.`,
  taxTitle: 'Tax classes',
  taxColumns: ['Name', 'Code', 'Rate', 'Tax is', 'Items', 'Actions'],
  modes: { exclusive: 'added to the price', inclusive: 'included in the price', exempt: 'exempt' },
  taxCode: 'Code (used in the CSV)',
  taxName: 'Name (printed on receipts)',
  taxRate: 'Rate (%)',
  taxMode: 'Tax is',
  saveTax: 'Save tax class',
  newTax: 'New tax class',
  badRate: `A rate is 0 to ${CATALOG_LIMITS.maxTaxRatePercent} %, with at most four decimals.`,
  categoriesTitle: 'Categories',
  categoryColumns: ['Name', 'Items', 'Actions'],
  categoryName: 'Category name',
  saveCategory: 'Save category',
  rename: (name: string) => `Rename ${name}`,
  remove: (name: string) => `Delete ${name}`,
  cancelEdit: 'Cancel',
  editWord: 'Edit',
  deleteWord: 'Delete',
  renameWord: 'Rename',
} as const;

const modeOptions: readonly SelectOption<TaxModeName>[] = [
  ['exclusive', 'Added to the price'],
  ['inclusive', 'Included in the price'],
  ['exempt', 'Exempt'],
];

/** A file's text in pieces the bridge carries, each ending at a line break where one is near. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    const lineEnd = text.lastIndexOf('\n', end - 1);
    if (end < text.length && lineEnd > at) end = lineEnd + 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

type ImportReport = { ok: true; text: string } | { ok: false; error: BridgeError };

function CsvTools({ onImported }: { onImported: () => void }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState<'import' | 'export' | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const importFile = async (file: File) => {
    setBusy('import');
    setReport(null);
    setExported(null);
    const text = await file.text();
    const fail = (error: BridgeError) => setReport({ ok: false, error });
    const begun = await bridge.send('catalog.import.begin', {});
    if (!begun.ok) {
      setBusy(null);
      return fail(begun.error);
    }
    for (const piece of pieces(text, CATALOG_LIMITS.importChunkChars)) {
      const r = await bridge.send('catalog.import.append', { importId: begun.value.importId, text: piece });
      if (!r.ok) {
        setBusy(null);
        return fail(r.error);
      }
    }
    const done = await bridge.send('catalog.import.commit', { importId: begun.value.importId });
    setBusy(null);
    if (fileRef.current) fileRef.current.value = '';
    if (!done.ok) return fail(done.error);
    setReport({ ok: true, text: words.imported(done.value) });
    onImported();
  };

  const exportFile = async () => {
    setBusy('export');
    setExported(null);
    setReport(null);
    let text = '';
    let rows = 0;
    let after: number | undefined = 0;
    let fileName = 'tillpoint-catalog.csv';
    while (after !== undefined) {
      const r: BridgeResult<CatalogExportPage> = await bridge.send('catalog.export', { after });
      if (!r.ok) {
        setBusy(null);
        return setReport({ ok: false, error: r.error });
      }
      text += r.value.csv;
      rows += r.value.rows;
      fileName = r.value.fileName;
      after = r.value.next;
    }
    setBusy(null);
    download(fileName, text, 'text/csv;charset=utf-8');
    setExported(words.exported(rows));
  };

  return (
    <section className="card stack" aria-labelledby="csv-title">
      <h2 id="csv-title">{words.csvTitle}</h2>
      <p className="hint" id="csv-hint">
        {words.csvHint}
      </p>
      <div className="row">
        <div className="field">
          <label htmlFor="catalog-import-file">{words.chooseFile}</label>
          <input
            ref={fileRef}
            id="catalog-import-file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby="csv-hint"
            disabled={busy !== null}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void importFile(file);
            }}
          />
        </div>
        <button type="button" className="btn" disabled={busy !== null} onClick={() => void exportFile()}>
          {busy === 'export' ? words.exporting : words.export}
        </button>
      </div>
      <div role="status" aria-live="polite" data-testid="catalog-csv-status">
        {busy === 'import' ? words.importing : null}
        {report?.ok ? report.text : null}
        {exported}
      </div>
      {report && !report.ok ? (
        <div role="alert" className="import-problems" data-testid="catalog-import-problems">
          <p className="field-error">{report.error.message}</p>
          {report.error.problems && report.error.problems.length > 0 ? (
            <ul className="field-error problems">
              {report.error.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function TaxClasses({ classes, reload }: { classes: readonly TaxClassView[]; reload: () => void }) {
  const bridge = useBridge();
  const [editing, setEditing] = useState<TaxClassView | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [rate, setRate] = useState('');
  const [mode, setMode] = useState<TaxModeName>('exclusive');
  const [error, setError] = useState<string | null>(null);
  const edit = (t: TaxClassView | null) => {
    setEditing(t);
    setCode(t?.code ?? '');
    setName(t?.name ?? '');
    setRate(t ? String(t.ratePercent) : '');
    setMode(t?.mode ?? 'exclusive');
    setError(null);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const ratePercent = mode === 'exempt' ? 0 : Number(rate);
    if (
      mode !== 'exempt' &&
      (rate.trim() === '' || !isExactRate(ratePercent) || ratePercent > CATALOG_LIMITS.maxTaxRatePercent)
    )
      return setError(words.badRate);
    const r = await bridge.send('catalog.taxClasses.save', {
      ...(editing ? { id: editing.id } : {}),
      code: code.trim(),
      name,
      ratePercent,
      mode,
    });
    if (!r.ok) return setError(describeError(r.error));
    edit(null);
    reload();
  };
  const remove = async (t: TaxClassView) => {
    const r = await bridge.send('catalog.taxClasses.delete', { id: t.id });
    if (!r.ok) return setError(describeError(r.error));
    reload();
  };
  return (
    <section className="card" aria-labelledby="tax-title">
      <h2 id="tax-title">{words.taxTitle}</h2>
      <table className="data">
        <TableHead columns={words.taxColumns} numeric={['Rate', 'Items']} />
        <tbody>
          {classes.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td style={{ fontFamily: 'monospace' }}>{t.code}</td>
              <td className="num">{t.mode === 'exempt' ? '—' : `${t.ratePercent}%`}</td>
              <td>{words.modes[t.mode]}</td>
              <td className="num">{t.itemCount}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={words.edit(t.name)}
                    onClick={() => edit(t)}
                  >
                    {words.editWord}
                  </button>
                  {t.itemCount === 0 ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={words.remove(t.name)}
                      onClick={() => void remove(t)}
                    >
                      {words.deleteWord}
                    </button>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="stack"
        onSubmit={(e) => void save(e)}
        aria-label={editing ? words.edit(editing.name) : words.newTax}
      >
        <h3>{editing ? words.edit(editing.name) : words.newTax}</h3>
        <div className="row">
          <InputField
            id="tax-code"
            label={words.taxCode}
            value={code}
            maxLength={CATALOG_LIMITS.taxClassCodeLength}
            autoComplete="off"
            onChange={(e) => setCode(e.target.value.toLowerCase())}
          />
          <InputField
            id="tax-name"
            label={words.taxName}
            value={name}
            maxLength={CATALOG_LIMITS.taxClassNameLength}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <InputField
            id="tax-rate"
            label={words.taxRate}
            inputMode="decimal"
            autoComplete="off"
            value={mode === 'exempt' ? '' : rate}
            disabled={mode === 'exempt'}
            onChange={(e) => setRate(e.target.value)}
          />
          <SelectField
            id="tax-mode"
            label={words.taxMode}
            value={mode}
            options={modeOptions}
            onChange={setMode}
          />
        </div>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="submit" className="btn">
            {words.saveTax}
          </button>
          {editing ? (
            <button type="button" className="btn" onClick={() => edit(null)}>
              {words.cancelEdit}
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function Categories({
  categories,
  reload,
}: {
  categories: readonly { id: number; name: string; itemCount: number }[];
  reload: () => void;
}) {
  const bridge = useBridge();
  const [editing, setEditing] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const r = await bridge.send('catalog.categories.save', { ...(editing ? { id: editing } : {}), name });
    if (!r.ok) return setError(describeError(r.error));
    setEditing(null);
    setName('');
    setError(null);
    reload();
  };
  const remove = async (id: number) => {
    const r = await bridge.send('catalog.categories.delete', { id });
    if (!r.ok) return setError(describeError(r.error));
    reload();
  };
  return (
    <section className="card" aria-labelledby="categories-title">
      <h2 id="categories-title">{words.categoriesTitle}</h2>
      <table className="data">
        <TableHead columns={words.categoryColumns} numeric={['Items']} />
        <tbody>
          {categories.map((c) => (
            <tr key={c.id}>
              <td>{c.name}</td>
              <td className="num">{c.itemCount}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={words.rename(c.name)}
                    onClick={() => {
                      setEditing(c.id);
                      setName(c.name);
                    }}
                  >
                    {words.renameWord}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={words.remove(c.name)}
                    onClick={() => void remove(c.id)}
                  >
                    {words.deleteWord}
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="row" onSubmit={(e) => void save(e)}>
        <InputField
          id="category-name"
          label={words.categoryName}
          value={name}
          maxLength={CATALOG_LIMITS.categoryNameLength}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn">
          {words.saveCategory}
        </button>
        {editing ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setEditing(null);
              setName('');
            }}
          >
            {words.cancelEdit}
          </button>
        ) : null}
      </form>
      <ErrorAlert message={error} />
    </section>
  );
}

/**
 * The manager's catalog: items (search by name, SKU or barcode; paged), add and edit an item (a scan fills
 * its barcode), deactivate, tax classes and categories, and the CSV import and export (docs/catalog-csv.md).
 */
export function CatalogScreen() {
  const bridge = useBridge();
  const app = useAppStore();
  const taxClasses = useCommand('catalog.taxClasses.list', {});
  const categories = useCommand('catalog.categories.list', {});
  const [query, setQuery] = useState('');
  const [showInactive, setShowInactive] = useState(false);
  const [items, setItems] = useState<CatalogItemView[]>([]);
  const [exact, setExact] = useState<CatalogItemView | undefined>(undefined);
  const [next, setNext] = useState<CatalogCursor | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<CatalogItemView | 'new' | null>(null);
  const seq = useRef(0);

  const load = useCallback(
    async (after?: CatalogCursor) => {
      const mine = ++seq.current;
      setLoading(true);
      const r = await bridge.send('catalog.items.list', {
        ...(query.trim() ? { query: query.trim() } : {}),
        includeInactive: showInactive,
        ...(after ? { after } : {}),
      });
      if (mine !== seq.current) return;
      setLoading(false);
      if (!r.ok) return setError(describeError(r.error));
      setError(null);
      setItems((now) => (after ? [...now, ...r.value.items] : r.value.items));
      if (!after) setExact(r.value.exact);
      setNext(r.value.next);
    },
    [bridge, query, showInactive],
  );

  useEffect(() => {
    // Typing in the search box asks again once the typing pauses.
    const t = setTimeout(() => void load(), 200);
    return () => clearTimeout(t);
  }, [load]);

  const reloadAll = () => {
    void load();
    void taxClasses.reload();
    void categories.reload();
  };

  const setActive = async (item: CatalogItemView, active: boolean) => {
    const r = await bridge.send('catalog.items.setActive', { id: item.id, active });
    if (!r.ok) return setError(describeError(r.error));
    reloadAll();
  };

  const taxName = new Map((taxClasses.data ?? []).map((t) => [t.id, t.name]));
  const categoryName = new Map((categories.data ?? []).map((c) => [c.id, c.name]));
  const rows = exact ? [exact, ...items.filter((i) => i.id !== exact.id)] : items;

  return (
    <div>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 tabIndex={-1}>{words.title}</h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing('new')}
          disabled={(taxClasses.data ?? []).length === 0}
        >
          {words.addItem}
        </button>
      </div>
      <section className="card stack" aria-label="Items">
        <div className="row">
          <InputField
            id="catalog-search"
            label={words.search}
            type="search"
            autoComplete="off"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ minWidth: '16rem' }}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={showInactive}
              onChange={(e) => setShowInactive(e.target.checked)}
            />
            {words.showInactive}
          </label>
        </div>
        <ErrorAlert message={error ?? taxClasses.error ?? categories.error} />
        <table className="data" aria-label="Catalog items" aria-busy={loading}>
          <TableHead columns={words.columns} numeric={['Price']} />
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={words.columns.length}>{loading ? words.loading : words.none}</td>
              </tr>
            ) : (
              rows.map((i) => (
                <tr key={i.id} data-sku={i.sku}>
                  <td>
                    <strong>{i.name}</strong>
                    <br />
                    <span className="hint">
                      {[
                        words.sku(i.sku),
                        i.categoryId !== null ? categoryName.get(i.categoryId) : undefined,
                        i.quickKey !== null ? words.quickKey(i.quickKey) : undefined,
                        i.embeddedCode !== null ? words.embedded(i.embeddedCode) : undefined,
                        exact?.id === i.id ? words.exact : undefined,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </td>
                  <td style={{ fontFamily: 'monospace', fontSize: '0.85rem', wordBreak: 'break-all' }}>
                    {i.barcodes.map((b) => (
                      <div key={b}>{b}</div>
                    ))}
                  </td>
                  <td className="num">
                    {formatCents(i.priceCents)}
                    {i.openPrice ? (
                      <>
                        <br />
                        <span className="hint">{words.openPrice}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{taxName.get(i.taxClassId) ?? '—'}</td>
                  <td>
                    <span className={`badge ${i.active ? 'badge-ok' : 'badge-muted'}`}>
                      {i.active ? words.active : words.inactive}
                    </span>
                  </td>
                  <td>
                    <div className="row" style={{ flexWrap: 'nowrap' }}>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={words.edit(i.name)}
                        onClick={() => setEditing(i)}
                      >
                        {words.editWord}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={i.active ? words.deactivate(i.name) : words.activate(i.name)}
                        onClick={() => void setActive(i, !i.active)}
                      >
                        {i.active ? 'Deactivate' : 'Activate'}
                      </button>
                    </div>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
        {next ? (
          <div>
            <button type="button" className="btn" disabled={loading} onClick={() => void load(next)}>
              {words.more}
            </button>
          </div>
        ) : null}
      </section>
      <CsvTools onImported={reloadAll} />
      <TaxClasses classes={taxClasses.data ?? []} reload={reloadAll} />
      <Categories categories={categories.data ?? []} reload={reloadAll} />
      {editing ? (
        <CatalogItemForm
          item={editing === 'new' ? null : editing}
          taxClasses={taxClasses.data ?? []}
          categories={categories.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(item) => {
            setEditing(null);
            app.getState().notify('success', words.saved(item.name));
            reloadAll();
          }}
          onDeleted={(item) => {
            setEditing(null);
            app.getState().notify('success', words.deleted(item.name));
            reloadAll();
          }}
        />
      ) : null}
    </div>
  );
}
