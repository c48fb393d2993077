import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import { i18n } from '../../i18n/i18n';
import { headlineText, problemTexts, refusalText } from '../../i18n/problem-words';
import { useAppStore, useBridge } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CatalogItemForm } from './CatalogItemForm';
import { download } from './ReportsScreen';

const modeOptions = (): readonly SelectOption<TaxModeName>[] =>
  TAX_MODES.map((m) => [m, i18n.t(`catalog:modeOptions.${m}`)]);

const TAX_MODES: readonly TaxModeName[] = ['exclusive', 'inclusive', 'exempt'];

/** The import's summary in the window's language. */
function importedText(r: CatalogImportResult): string {
  const counts = { created: r.created, updated: r.updated, unchanged: r.unchanged };
  return r.categoriesCreated > 0
    ? i18n.t('catalog:importedCategories', { ...counts, rows: r.rows, count: r.categoriesCreated })
    : i18n.t('catalog:imported', { ...counts, count: r.rows });
}

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
  const { t } = useTranslation(['catalog', 'common']);
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
    setReport({ ok: true, text: importedText(done.value) });
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
    setExported(t('exported', { count: rows }));
  };

  return (
    <section className="card stack" aria-labelledby="csv-title">
      <h2 id="csv-title">{t('csvTitle')}</h2>
      <p className="hint" id="csv-hint">
        {t('csvHint')}
      </p>
      <div className="row">
        <div className="field">
          <label htmlFor="catalog-import-file">{t('chooseFile')}</label>
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
          {busy === 'export' ? t('exporting') : t('export')}
        </button>
      </div>
      <div role="status" aria-live="polite" data-testid="catalog-csv-status">
        {busy === 'import' ? t('importing') : null}
        {report?.ok ? report.text : null}
        {exported}
      </div>
      {report && !report.ok ? (
        <div role="alert" className="import-problems" data-testid="catalog-import-problems">
          <p className="field-error">{headlineText(report.error)}</p>
          {report.error.problems && report.error.problems.length > 0 ? (
            <ul className="field-error problems">
              {problemTexts(report.error).map((p) => (
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
  const { t } = useTranslation(['catalog', 'common']);
  const bridge = useBridge();
  const [editing, setEditing] = useState<TaxClassView | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [rate, setRate] = useState('');
  const [mode, setMode] = useState<TaxModeName>('exclusive');
  const [error, setError] = useState<string | null>(null);
  const edit = (tc: TaxClassView | null) => {
    setEditing(tc);
    setCode(tc?.code ?? '');
    setName(tc?.name ?? '');
    setRate(tc ? String(tc.ratePercent) : '');
    setMode(tc?.mode ?? 'exclusive');
    setError(null);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const ratePercent = mode === 'exempt' ? 0 : Number(rate);
    if (
      mode !== 'exempt' &&
      (rate.trim() === '' || !isExactRate(ratePercent) || ratePercent > CATALOG_LIMITS.maxTaxRatePercent)
    )
      return setError(t('badRate', { max: CATALOG_LIMITS.maxTaxRatePercent }));
    const r = await bridge.send('catalog.taxClasses.save', {
      ...(editing ? { id: editing.id } : {}),
      code: code.trim(),
      name,
      ratePercent,
      mode,
    });
    if (!r.ok) return setError(refusalText(r.error));
    edit(null);
    reload();
  };
  const remove = async (tc: TaxClassView) => {
    const r = await bridge.send('catalog.taxClasses.delete', { id: tc.id });
    if (!r.ok) return setError(refusalText(r.error));
    reload();
  };
  return (
    <section className="card" aria-labelledby="tax-title">
      <h2 id="tax-title">{t('taxTitle')}</h2>
      <table className="data">
        <TableHead
          columns={[
            t('taxColumns.name'),
            t('taxColumns.code'),
            t('taxColumns.rate'),
            t('taxColumns.mode'),
            t('taxColumns.items'),
            t('taxColumns.actions'),
          ]}
          numeric={[t('taxColumns.rate'), t('taxColumns.items')]}
        />
        <tbody>
          {classes.map((tc) => (
            <tr key={tc.id}>
              <td>{tc.name}</td>
              <td style={{ fontFamily: 'monospace' }}>{tc.code}</td>
              <td className="num">{tc.mode === 'exempt' ? '—' : t('rate', { rate: tc.ratePercent })}</td>
              <td>{t(`modes.${tc.mode}`)}</td>
              <td className="num">{tc.itemCount}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('editOf', { name: tc.name })}
                    onClick={() => edit(tc)}
                  >
                    {t('edit')}
                  </button>
                  {tc.itemCount === 0 ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={t('deleteOf', { name: tc.name })}
                      onClick={() => void remove(tc)}
                    >
                      {t('delete')}
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
        aria-label={editing ? t('editOf', { name: editing.name }) : t('newTax')}
      >
        <h3>{editing ? t('editOf', { name: editing.name }) : t('newTax')}</h3>
        <div className="row">
          <InputField
            id="tax-code"
            label={t('taxCode')}
            value={code}
            maxLength={CATALOG_LIMITS.taxClassCodeLength}
            autoComplete="off"
            onChange={(e) => setCode(e.target.value.toLowerCase())}
          />
          <InputField
            id="tax-name"
            label={t('taxName')}
            value={name}
            maxLength={CATALOG_LIMITS.taxClassNameLength}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <InputField
            id="tax-rate"
            label={t('taxRate')}
            inputMode="decimal"
            autoComplete="off"
            value={mode === 'exempt' ? '' : rate}
            disabled={mode === 'exempt'}
            onChange={(e) => setRate(e.target.value)}
          />
          <SelectField
            id="tax-mode"
            label={t('taxMode')}
            value={mode}
            options={modeOptions()}
            onChange={setMode}
          />
        </div>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="submit" className="btn">
            {t('saveTax')}
          </button>
          {editing ? (
            <button type="button" className="btn" onClick={() => edit(null)}>
              {t('cancel')}
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
  const { t } = useTranslation(['catalog', 'common']);
  const bridge = useBridge();
  const [editing, setEditing] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const r = await bridge.send('catalog.categories.save', { ...(editing ? { id: editing } : {}), name });
    if (!r.ok) return setError(refusalText(r.error));
    setEditing(null);
    setName('');
    setError(null);
    reload();
  };
  const remove = async (id: number) => {
    const r = await bridge.send('catalog.categories.delete', { id });
    if (!r.ok) return setError(refusalText(r.error));
    reload();
  };
  return (
    <section className="card" aria-labelledby="categories-title">
      <h2 id="categories-title">{t('categoriesTitle')}</h2>
      <table className="data">
        <TableHead
          columns={[t('categoryColumns.name'), t('categoryColumns.items'), t('categoryColumns.actions')]}
          numeric={[t('categoryColumns.items')]}
        />
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
                    aria-label={t('renameOf', { name: c.name })}
                    onClick={() => {
                      setEditing(c.id);
                      setName(c.name);
                    }}
                  >
                    {t('rename')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('deleteOf', { name: c.name })}
                    onClick={() => void remove(c.id)}
                  >
                    {t('delete')}
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
          label={t('categoryName')}
          value={name}
          maxLength={CATALOG_LIMITS.categoryNameLength}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn">
          {t('saveCategory')}
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
            {t('cancel')}
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
  const { t } = useTranslation(['catalog', 'common']);
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
      if (!r.ok) return setError(refusalText(r.error));
      setError(null);
      setItems((now) => (after ? [...now, ...r.value.items] : r.value.items));
      if (!after) setExact(r.value.exact);
      setNext(r.value.next);
    },
    [bridge, query, showInactive],
  );

  useEffect(() => {
    // Typing in the search box asks again once the typing pauses.
    const timer = setTimeout(() => void load(), 200);
    return () => clearTimeout(timer);
  }, [load]);

  const reloadAll = () => {
    void load();
    void taxClasses.reload();
    void categories.reload();
  };

  const setActive = async (item: CatalogItemView, active: boolean) => {
    const r = await bridge.send('catalog.items.setActive', { id: item.id, active });
    if (!r.ok) return setError(refusalText(r.error));
    reloadAll();
  };

  const taxName = new Map((taxClasses.data ?? []).map((t) => [t.id, t.name]));
  const categoryName = new Map((categories.data ?? []).map((c) => [c.id, c.name]));
  const columns = [
    t('columns.item'),
    t('columns.barcodes'),
    t('columns.price'),
    t('columns.taxClass'),
    t('columns.status'),
    t('columns.actions'),
  ];
  const rows = exact ? [exact, ...items.filter((i) => i.id !== exact.id)] : items;

  return (
    <div>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 tabIndex={-1}>{t('title')}</h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing('new')}
          disabled={(taxClasses.data ?? []).length === 0}
        >
          {t('addItem')}
        </button>
      </div>
      <section className="card stack" aria-label={t('items')}>
        <div className="row">
          <InputField
            id="catalog-search"
            label={t('search')}
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
            {t('showInactive')}
          </label>
        </div>
        <ErrorAlert message={error ?? taxClasses.error ?? categories.error} />
        <table className="data" aria-label={t('itemsTable')} aria-busy={loading}>
          <TableHead columns={columns} numeric={[t('columns.price')]} />
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length}>{loading ? t('common:loading') : t('none')}</td>
              </tr>
            ) : (
              rows.map((i) => (
                <tr key={i.id} data-sku={i.sku}>
                  <td>
                    <strong>{i.name}</strong>
                    <br />
                    <span className="hint">
                      {[
                        t('sku', { sku: i.sku }),
                        i.categoryId !== null ? categoryName.get(i.categoryId) : undefined,
                        i.quickKey !== null ? t('quickKey', { key: i.quickKey }) : undefined,
                        i.embeddedCode !== null ? t('embedded', { code: i.embeddedCode }) : undefined,
                        exact?.id === i.id ? t('exact') : undefined,
                      ]
                        .filter((part): part is string => Boolean(part))
                        // Each part its own node: the store's category name stays apart from the words.
                        .flatMap((part, n) => (n === 0 ? [part] : [' · ', part]))
                        .map((part, n) => (
                          <span key={n}>{part}</span>
                        ))}
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
                        <span className="hint">{t('openPrice')}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{taxName.get(i.taxClassId) ?? '—'}</td>
                  <td>
                    <span className={`badge ${i.active ? 'badge-ok' : 'badge-muted'}`}>
                      {i.active ? t('active') : t('inactive')}
                    </span>
                  </td>
                  <td>
                    <div className="row">
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={t('editOf', { name: i.name })}
                        onClick={() => setEditing(i)}
                      >
                        {t('edit')}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={
                          i.active ? t('deactivateOf', { name: i.name }) : t('activateOf', { name: i.name })
                        }
                        onClick={() => void setActive(i, !i.active)}
                      >
                        {i.active ? t('deactivate') : t('activate')}
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
              {t('more')}
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
            app.getState().notify('success', t('saved', { name: item.name }));
            reloadAll();
          }}
          onDeleted={(item) => {
            setEditing(null);
            app.getState().notify('success', t('deleted', { name: item.name }));
            reloadAll();
          }}
        />
      ) : null}
    </div>
  );
}
