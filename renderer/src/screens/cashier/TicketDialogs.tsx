import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  CatalogItemView,
  CategoryView,
  TaxClassView,
  TicketDiscount,
} from '../../../../common/bridge/contract';
import { isExactRate } from '../../../../common/percent';
import { formatCents, popDigit, pushDigit } from '../../format/money';
import { useBridge, useSale, useSaleStore } from '../../state/context';
import { useRing, useTicketChange } from '../../state/use-ticket-change';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { Dialog } from '../../ui/Dialog';
import { figureFontSize } from '../../ui/figure';
import { Keypad } from '../../ui/Keypad';
import { CatalogItemForm } from '../manager/CatalogItemForm';

/**
 * The scanner's burst guard for a keypad field in a dialog: a keyboard-wedge scan's digits reach the field
 * before its Enter says it was a scan; then the field goes back to what it held before the burst and the
 * Enter submits nothing (the scan itself arrives as `scanner.scanned`).
 */
function useBurstGuard<T>(value: T, restore: (v: T) => void) {
  const wedge = useWedgeScan({});
  const before = useRef(value);
  const lastAt = useRef(-Infinity);
  return (e: KeyboardEvent): 'scan' | 'key' => {
    const gap = wedge.settings?.maxGapMs ?? 50;
    if (e.key.length === 1 && e.timeStamp - lastAt.current > gap) before.current = value;
    if (e.key.length === 1) lastAt.current = e.timeStamp;
    if (wedge.onKeyDown(e).kind !== 'scan') return 'key';
    restore(before.current);
    return 'scan';
  };
}

type AmountDialogProps = {
  title: string;
  label: string;
  confirm: string;
  initialCents?: number;
  /** Offers a description (an open item's name). */
  named?: boolean;
  onSubmit: (cents: number, name: string) => Promise<boolean>;
  onClose: () => void;
};

/** An amount on a keypad (touch or keys), as the sale's own amount is typed: an open item, a price. */
function AmountDialog({
  title,
  label,
  confirm,
  initialCents = 0,
  named,
  onSubmit,
  onClose,
}: AmountDialogProps) {
  const { t } = useTranslation('sale');
  const [cents, setCents] = useState(initialCents);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const guard = useBurstGuard(cents, setCents);
  const submit = async () => {
    if (cents <= 0) return setProblem(t('dialogs.needAmount'));
    setBusy(true);
    const done = await onSubmit(cents, name.trim());
    setBusy(false);
    if (done) onClose();
  };
  const text = formatCents(cents);
  return (
    <Dialog title={title} onClose={onClose} initialFocus="ticket-amount">
      <div className="stack">
        <label htmlFor="ticket-amount">{label}</label>
        <input
          id="ticket-amount"
          className="amount"
          readOnly
          inputMode="none"
          value={text}
          style={{ fontSize: figureFontSize(text, 2) }}
          aria-describedby="ticket-amount-hint"
          onKeyDown={(e) => {
            if (guard(e) === 'scan') return;
            if (/^\d$/.test(e.key)) {
              e.preventDefault();
              setCents((c) => pushDigit(c, e.key));
              setProblem(null);
            } else if (e.key === 'Backspace') {
              e.preventDefault();
              setCents((c) => popDigit(c));
            } else if (e.key === 'Delete') {
              e.preventDefault();
              setCents(0);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <p id="ticket-amount-hint" className="hint">
          {t('dialogs.amountHint', { example: formatCents(499) })}
        </p>
        <Keypad
          label={t('dialogs.keypad', { label })}
          onDigit={(d) => {
            setCents((c) => pushDigit(c, d));
            setProblem(null);
          }}
          onBackspace={() => setCents((c) => popDigit(c))}
        />
        {named ? (
          <div className="field">
            <label htmlFor="ticket-item-name">{t('dialogs.description')}</label>
            <input
              id="ticket-item-name"
              value={name}
              maxLength={80}
              autoComplete="off"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
        ) : null}
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="row">
          <button type="button" className="btn" onClick={onClose}>
            {t('dialogs.cancel')}
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void submit()}>
            {confirm}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** Percent typed as it reads: digits, one point, at most four decimals, at most 100. */
function parsePercent(text: string): number | undefined {
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && n <= 100 && isExactRate(n) ? n : undefined;
}

const PRESETS = [5, 10, 15, 20, 25] as const;

/** A line's or the ticket's discount: a percent (presets or typed) or an amount off. */
function DiscountDialog({ lineId }: { lineId: string | null }) {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const run = useTicketChange();
  const ticket = useSale((s) => s.ticket);
  const limits = useSale((s) => s.discountLimits);
  const line = ticket?.itemized?.lines.find((l) => l.lineId === lineId);
  const current: TicketDiscount | undefined = lineId ? line?.discount : ticket?.itemized?.discount;
  const [kind, setKind] = useState<'percent' | 'amount'>(current?.kind ?? 'percent');
  const [percent, setPercent] = useState(current?.kind === 'percent' ? String(current.percent) : '');
  const [cents, setCents] = useState(current?.kind === 'amount' ? current.amountCents : 0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const guard = useBurstGuard(kind === 'percent' ? percent : cents, (v) =>
    typeof v === 'string' ? setPercent(v) : setCents(v),
  );
  const close = () => sale.getState().closeDialog();
  const apply = async (discount: TicketDiscount | null) => {
    setBusy(true);
    const done = await run(
      lineId ? { kind: 'lineDiscount', lineId, discount } : { kind: 'ticketDiscount', discount },
    );
    setBusy(false);
    if (done) close();
  };
  const submit = () => {
    if (kind === 'percent') {
      const p = parsePercent(percent);
      if (p === undefined) return setProblem(t('dialogs.badPercent'));
      return void apply({ kind: 'percent', percent: p });
    }
    if (cents <= 0) return setProblem(t('dialogs.needAmount'));
    return void apply({ kind: 'amount', amountCents: cents });
  };
  const typeKey = (d: string) => {
    setProblem(null);
    if (kind === 'amount') setCents((c) => pushDigit(c, d));
    else setPercent((p) => (/^\d{0,3}(\.\d{0,4})?$/.test(p + d) ? p + d : p));
  };
  const limit = lineId ? limits?.maxLineDiscountPercent : limits?.maxTicketDiscountPercent;
  const shown = kind === 'percent' ? `${percent === '' ? '0' : percent}%` : formatCents(cents);
  const title = lineId ? t('dialogs.discountOn', { name: line?.name ?? '' }) : t('dialogs.ticketDiscount');
  return (
    <Dialog title={title} onClose={close} initialFocus="discount-value">
      <div className="stack">
        <div className="row" role="radiogroup" aria-label={t('dialogs.discountKind')}>
          {(['percent', 'amount'] as const).map((k) => (
            <label key={k} className="check">
              <input
                type="radio"
                name="discount-kind"
                checked={kind === k}
                onChange={() => {
                  setKind(k);
                  setProblem(null);
                  // The keys typed next are the discount's (at once: the next key may already be coming).
                  document.getElementById('discount-value')?.focus();
                }}
              />
              {k === 'percent' ? t('dialogs.percentOff') : t('dialogs.amountOff')}
            </label>
          ))}
        </div>
        <label htmlFor="discount-value">
          {kind === 'percent' ? t('dialogs.percent') : t('dialogs.amount')}
        </label>
        <input
          id="discount-value"
          className="amount"
          readOnly
          inputMode="none"
          value={shown}
          aria-describedby="discount-limit"
          onKeyDown={(e) => {
            if (guard(e) === 'scan') return;
            if (/^\d$/.test(e.key) || (e.key === '.' && kind === 'percent')) {
              e.preventDefault();
              typeKey(e.key);
            } else if (e.key === 'Backspace') {
              e.preventDefault();
              if (kind === 'amount') setCents((c) => popDigit(c));
              else setPercent((p) => p.slice(0, -1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
        />
        {kind === 'percent' ? (
          <div className="row" role="group" aria-label={t('dialogs.presets')}>
            {PRESETS.map((p) => (
              <button
                key={p}
                type="button"
                className="btn"
                aria-pressed={percent === String(p)}
                onClick={() => {
                  setPercent(String(p));
                  setProblem(null);
                }}
              >
                {p}%
              </button>
            ))}
          </div>
        ) : null}
        <Keypad
          label={t('dialogs.discountKeypad')}
          doubleZero={kind === 'amount'}
          onDigit={typeKey}
          onBackspace={() =>
            kind === 'amount' ? setCents((c) => popDigit(c)) : setPercent((p) => p.slice(0, -1))
          }
          onClear={() => setPercent('')}
        />
        {limit !== undefined ? (
          <p id="discount-limit" className="hint">
            {t('dialogs.limit', { percent: limit })}
          </p>
        ) : null}
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="row">
          <button type="button" className="btn" onClick={close}>
            {t('dialogs.cancel')}
          </button>
          {current ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void apply(null)}>
              {t('dialogs.remove')}
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" disabled={busy} onClick={submit}>
            {t('dialogs.apply')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * A manager adds the code just scanned to the catalog (the item form, the code filled in; a scale label's
 * five-digit item code instead of the label), and the saved item is rung.
 */
function AddItemDialog({ barcode }: { barcode: string }) {
  const { t } = useTranslation('sale');
  const bridge = useBridge();
  const sale = useSaleStore();
  const ring = useRing();
  const [lists, setLists] = useState<{ taxClasses: TaxClassView[]; categories: CategoryView[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([
      bridge.send('catalog.taxClasses.list', {}),
      bridge.send('catalog.categories.list', {}),
    ]).then(([t, c]) => {
      if (!live) return;
      if (t.ok && c.ok) setLists({ taxClasses: t.value, categories: c.value });
      else setProblem(t.ok ? (c.ok ? '' : c.error.message) : t.error.message);
    });
    return () => {
      live = false;
    };
  }, [bridge]);
  const close = () => sale.getState().closeDialog();
  if (!lists)
    return (
      <Dialog title={t('dialogs.addItem')} onClose={close}>
        <p role={problem ? 'alert' : 'status'}>{problem ?? t('dialogs.loading')}</p>
        <button type="button" className="btn" onClick={close}>
          {t('dialogs.cancel')}
        </button>
      </Dialog>
    );
  const scaleLabel = /^2\d{11}$/.test(barcode);
  return (
    <CatalogItemForm
      item={null}
      taxClasses={lists.taxClasses}
      categories={lists.categories}
      {...(scaleLabel ? { initialEmbeddedCode: barcode.slice(1, 6) } : { initialBarcode: barcode })}
      onClose={close}
      onDeleted={close}
      onSaved={(item: CatalogItemView) => {
        close();
        sale.getState().setScanNote(null);
        void sale.getState().loadCatalog();
        // A scale label carries its price: ring the label itself; any other code rings the new item.
        void (scaleLabel ? ring.scan({ data: barcode, validated: true }) : ring.pick(item));
      }}
    />
  );
}

/** The ticket's dialog of the moment (one at a time), from the sale store. */
export function TicketDialogs() {
  const { t } = useTranslation('sale');
  const dialog = useSale((s) => s.dialog);
  const sale = useSaleStore();
  const run = useTicketChange();
  const ticket = useSale((s) => s.ticket);
  const close = () => sale.getState().closeDialog();
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'openItem':
      return (
        <AmountDialog
          title={
            dialog.barcode ? t('dialogs.openItemFor', { barcode: dialog.barcode }) : t('dialogs.openItem')
          }
          label={t('dialogs.amount')}
          confirm={t('dialogs.add')}
          named
          onClose={close}
          onSubmit={(priceCents, name) =>
            run({ kind: 'openItem', priceCents, ...(name !== '' ? { name } : {}) }).then((done) => {
              if (done && dialog.barcode) sale.getState().setScanNote(null);
              return done;
            })
          }
        />
      );
    case 'itemPrice':
      return (
        <AmountDialog
          title={t('dialogs.priceOf', { name: dialog.item.name })}
          label={t('dialogs.price')}
          confirm={t('dialogs.add')}
          initialCents={dialog.item.priceCents}
          onClose={close}
          onSubmit={(unitPriceCents) => run({ kind: 'item', itemId: dialog.item.id, unitPriceCents })}
        />
      );
    case 'price': {
      const line = ticket?.itemized?.lines.find((l) => l.lineId === dialog.lineId);
      return (
        <AmountDialog
          title={t('dialogs.priceOf', { name: line?.name ?? '' })}
          label={t('dialogs.price')}
          confirm={t('dialogs.setPrice')}
          initialCents={line?.unitPriceCents ?? 0}
          onClose={close}
          onSubmit={(unitPriceCents) => run({ kind: 'price', lineId: dialog.lineId, unitPriceCents })}
        />
      );
    }
    case 'discount':
      return <DiscountDialog lineId={dialog.lineId} />;
    case 'addItem':
      return <AddItemDialog barcode={dialog.barcode} />;
  }
}
