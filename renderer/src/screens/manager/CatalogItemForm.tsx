import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CATALOG_LIMITS,
  type CatalogItemView,
  type CategoryView,
  type ScanView,
  type TaxClassView,
} from '../../../../common/bridge/contract';
import { formatCents, parseMoney } from '../../format/money';
import { problemTexts } from '../../i18n/problem-words';
import { describeError } from '../../state/app-store';
import { useBridge } from '../../state/context';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField, type SelectOption } from '../../ui/fields';

/** Cents as the price field shows them: 4.99 (integer arithmetic, no float). */
function decimalText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export type ItemFormProps = {
  item: CatalogItemView | null;
  taxClasses: readonly TaxClassView[];
  categories: readonly CategoryView[];
  onSaved: (item: CatalogItemView) => void;
  onDeleted: (item: CatalogItemView) => void;
  onClose: () => void;
  /** A new item's first barcode (the sale screen's unknown code a manager adds). */
  initialBarcode?: string;
  /** A new item's price-embedded code (the sale screen's unknown scale label a manager adds). */
  initialEmbeddedCode?: string;
};

/**
 * Adds or edits one item. The core checks it (a barcode by the scan rule: a wrong check digit is refused
 * with its reason; a SKU, barcode, quick key or code another item holds is named); a scan while the form
 * is open — any scanner, a keyboard wedge typing into a barcode field included — fills the next barcode.
 */
export function CatalogItemForm({
  item,
  taxClasses,
  categories,
  onSaved,
  onDeleted,
  onClose,
  initialBarcode,
  initialEmbeddedCode,
}: ItemFormProps) {
  const { t } = useTranslation(['catalog', 'common']);
  const bridge = useBridge();
  const [sku, setSku] = useState(item?.sku ?? '');
  const [name, setName] = useState(item?.name ?? '');
  const [price, setPrice] = useState(item ? decimalText(item.priceCents) : '');
  const [taxClassId, setTaxClassId] = useState<number>(item?.taxClassId ?? taxClasses[0]?.id ?? 0);
  const [categoryId, setCategoryId] = useState<number>(item?.categoryId ?? 0);
  const [barcodes, setBarcodes] = useState<string[]>(
    item && item.barcodes.length > 0 ? item.barcodes : [initialBarcode ?? ''],
  );
  const [quickKey, setQuickKey] = useState(item?.quickKey ? String(item.quickKey) : '');
  const [embedded, setEmbedded] = useState(item?.embeddedCode ?? initialEmbeddedCode ?? '');
  const [openPrice, setOpenPrice] = useState(item?.openPrice ?? false);
  const [active, setActive] = useState(item?.active ?? true);
  const [problems, setProblems] = useState<string[]>([]);
  const [scanNote, setScanNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const barcodesRef = useRef(barcodes);
  barcodesRef.current = barcodes;

  // A scan fills the first empty barcode field (or a new one); a price label fills the item code.
  useEffect(
    () =>
      bridge.on('scanner.scanned', (scan: ScanView) => {
        if (!scan.validated) {
          setScanNote(t('form.refusedScan', { data: scan.data, why: scan.problem ?? t('form.unreadable') }));
          return;
        }
        if (scan.priceEmbedded) {
          const { itemCode, priceCents } = scan.priceEmbedded;
          setEmbedded(itemCode);
          setScanNote(t('form.scannedEmbedded', { code: itemCode, price: formatCents(priceCents) }));
          return;
        }
        const now = barcodesRef.current;
        if (now.includes(scan.data)) {
          setScanNote(t('form.scannedTwice', { data: scan.data }));
          return;
        }
        setScanNote(t('form.scanned', { data: scan.data }));
        const empty = now.findIndex((b) => b.trim() === '');
        if (empty >= 0) setBarcodes(now.map((b, i) => (i === empty ? scan.data : b)));
        else if (now.length < CATALOG_LIMITS.barcodesPerItem) setBarcodes([...now, scan.data]);
      }),
    [bridge],
  );
  const wedge = useWedgeScan({ onError: (m) => setScanNote(m) });
  // A refusal is read where the form ends: on a short window the dialog scrolls, so bring it into view.
  const problemsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problems.length > 0) problemsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [problems]);

  const taxOptions: SelectOption<number>[] = taxClasses.map((tc) => [
    tc.id,
    tc.mode === 'exempt'
      ? t('form.taxOptionExempt', { name: tc.name })
      : t(tc.mode === 'inclusive' ? 'form.taxOptionIncluded' : 'form.taxOption', {
          name: tc.name,
          rate: tc.ratePercent,
        }),
  ]);
  const categoryOptions: SelectOption<number>[] = [
    [0, t('form.noCategory')],
    ...categories.map((c): SelectOption<number> => [c.id, c.name]),
  ];

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const cents = parseMoney(price);
    const local: string[] = [];
    if (cents === undefined || cents > CATALOG_LIMITS.maxPriceCents) local.push(t('form.badPrice'));
    const key = quickKey.trim() === '' ? null : Number(quickKey);
    if (key !== null && (!Number.isInteger(key) || key < 1 || key > CATALOG_LIMITS.maxQuickKey))
      local.push(t('form.badQuickKey', { max: CATALOG_LIMITS.maxQuickKey }));
    if (embedded.trim() !== '' && !/^\d{5}$/.test(embedded.trim())) local.push(t('form.badEmbedded'));
    if (local.length > 0) return setProblems(local);
    setBusy(true);
    const r = await bridge.send('catalog.items.save', {
      ...(item ? { id: item.id } : {}),
      sku,
      name,
      priceCents: cents ?? 0,
      taxClassId,
      categoryId: categoryId === 0 ? null : categoryId,
      barcodes: barcodes.filter((b) => b.trim() !== ''),
      openPrice,
      active,
      quickKey: key,
      embeddedCode: embedded.trim() === '' ? null : embedded.trim(),
    });
    setBusy(false);
    if (!r.ok)
      return setProblems(
        r.error.problems && r.error.problems.length > 0 ? problemTexts(r.error) : [describeError(r.error)],
      );
    onSaved(r.value);
  };

  const remove = async () => {
    if (!item) return;
    setBusy(true);
    const r = await bridge.send('catalog.items.delete', { id: item.id });
    setBusy(false);
    if (!r.ok) return setProblems([describeError(r.error)]);
    onDeleted(item);
  };

  return (
    <Dialog
      title={item ? t('form.editTitle') : t('form.addTitle')}
      onClose={onClose}
      initialFocus="item-sku"
      wide
    >
      <form className="stack" onSubmit={(e) => void save(e)} aria-describedby="item-problems">
        <div className="row">
          <InputField
            id="item-sku"
            label={t('form.sku')}
            value={sku}
            maxLength={CATALOG_LIMITS.skuLength}
            autoComplete="off"
            onChange={(e) => setSku(e.target.value)}
          />
          <InputField
            id="item-name"
            label={t('form.name')}
            value={name}
            maxLength={CATALOG_LIMITS.nameLength}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
            style={{ minWidth: '18rem' }}
          />
        </div>
        <div className="row">
          <InputField
            id="item-price"
            label={t('form.price')}
            inputMode="decimal"
            autoComplete="off"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            aria-describedby="item-price-hint"
          >
            <span id="item-price-hint" className="hint">
              {t('form.priceHint')}
            </span>
          </InputField>
          <SelectField
            id="item-tax"
            label={t('form.taxClass')}
            value={taxClassId}
            options={taxOptions}
            onChange={setTaxClassId}
          />
          <SelectField
            id="item-category"
            label={t('form.category')}
            value={categoryId}
            options={categoryOptions}
            onChange={setCategoryId}
          />
        </div>
        <fieldset className="stack" aria-describedby="item-barcodes-hint">
          <legend>{t('form.barcodes')}</legend>
          <span id="item-barcodes-hint" className="hint">
            {t('form.barcodesHint')}
          </span>
          <div className="row">
            {barcodes.map((b, i) => (
              <div className="row" key={i} style={{ gap: '0.3rem' }}>
                <InputField
                  id={`item-barcode-${i}`}
                  label={t('form.barcode', { n: i + 1 })}
                  value={b}
                  autoComplete="off"
                  maxLength={CATALOG_LIMITS.barcodeLength}
                  style={{ fontFamily: 'monospace' }}
                  onKeyDown={(e) => {
                    // A keyboard-wedge scanner types here: its scan arrives as scanner.scanned (and fills
                    // this field, the first empty one once its typed characters are taken back).
                    const step = wedge.onKeyDown(e);
                    if (step.kind === 'scan') {
                      const typed = barcodesRef.current.map((x, j) =>
                        j === i ? x.slice(0, Math.max(0, x.length - step.typedChars)) : x,
                      );
                      barcodesRef.current = typed;
                      setBarcodes(typed);
                    }
                  }}
                  onChange={(e) => setBarcodes((now) => now.map((x, j) => (j === i ? e.target.value : x)))}
                />
                {barcodes.length > 1 ? (
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('form.removeBarcode', { n: i + 1 })}
                    onClick={() => setBarcodes((now) => now.filter((_, j) => j !== i))}
                  >
                    ✕
                  </button>
                ) : null}
              </div>
            ))}
            {barcodes.length < CATALOG_LIMITS.barcodesPerItem ? (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setBarcodes((now) => [...now, ''])}
              >
                {t('form.addBarcode')}
              </button>
            ) : null}
          </div>
          <p className="hint" role="status" aria-live="polite" data-testid="item-scan-note">
            {scanNote ?? ''}
          </p>
        </fieldset>
        <div className="row">
          <InputField
            id="item-quick-key"
            label={t('form.quickKey')}
            inputMode="numeric"
            autoComplete="off"
            value={quickKey}
            onChange={(e) => setQuickKey(e.target.value.replace(/\D/g, ''))}
            aria-describedby="item-quick-key-hint"
          >
            <span id="item-quick-key-hint" className="hint">
              {t('form.quickKeyHint')}
            </span>
          </InputField>
          <InputField
            id="item-embedded"
            label={t('form.embeddedCode')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            value={embedded}
            onChange={(e) => setEmbedded(e.target.value.replace(/\D/g, ''))}
            aria-describedby="item-embedded-hint"
          >
            <span id="item-embedded-hint" className="hint">
              {t('form.embeddedHint')}
            </span>
          </InputField>
        </div>
        <div className="row" style={{ gap: '0.3rem 1.5rem' }}>
          <label className="check">
            <input type="checkbox" checked={openPrice} onChange={(e) => setOpenPrice(e.target.checked)} />
            {t('form.openPrice')}
          </label>
          <label className="check">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
            {t('form.active')}
          </label>
        </div>
        <div id="item-problems" role="alert" ref={problemsRef}>
          {problems.length > 0 ? (
            <ul className="field-error problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('form.save')}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t('form.cancel')}
          </button>
          {item && !item.sold ? (
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void remove()}>
              {t('form.delete')}
            </button>
          ) : null}
          {item?.sold ? <span className="hint">{t('form.soldHint')}</span> : null}
        </div>
      </form>
    </Dialog>
  );
}
