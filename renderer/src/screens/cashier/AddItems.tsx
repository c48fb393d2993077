import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogItemView } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { useApp, useBridge, useSale, useSaleStore } from '../../state/context';
import { useRing, useTicketChange } from '../../state/use-ticket-change';
import { useWedgeScan } from '../../state/use-wedge-scan';

/** How many items a search shows: enough to choose from, few enough to touch without scrolling. */
const SEARCH_LIMIT = 6;

/** Items by the start of their name (the core's catalog search), for items without a barcode. */
function ItemSearch({ onPick }: { onPick: (item: CatalogItemView) => void }) {
  const { t } = useTranslation('sale');
  const bridge = useBridge();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; items: CatalogItemView[] } | null>(null);
  const asked = useRef(0);
  const wedge = useWedgeScan({});
  const q = query.trim();
  useEffect(() => {
    if (q === '') {
      setFound(null);
      return;
    }
    const n = ++asked.current;
    const timer = setTimeout(() => {
      void bridge.send('catalog.search', { query: q, limit: SEARCH_LIMIT }).then((r) => {
        // Only the answer to the latest search is shown.
        if (n === asked.current) setFound({ query: q, items: r.ok ? r.value.items : [] });
      });
    }, 150);
    return () => clearTimeout(timer);
  }, [q, bridge]);
  const pick = (item: CatalogItemView) => {
    setQuery('');
    setFound(null);
    onPick(item);
  };
  const items = found && found.query === q ? found.items : [];
  return (
    <div className="item-search">
      <input
        id="item-search"
        type="search"
        aria-label={t('addItems.search')}
        placeholder={t('addItems.searchHint')}
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          // A keyboard-wedge scan typed here is a scan (it arrives as scanner.scanned), not a search.
          const step = wedge.onKeyDown(e);
          if (step.kind === 'scan') {
            setQuery((v) => v.slice(0, Math.max(0, v.length - step.typedChars)));
            return;
          }
          if (e.key === 'Enter' && items[0]) {
            e.preventDefault();
            pick(items[0]);
          } else if (e.key === 'Escape' && query !== '') {
            e.preventDefault();
            setQuery('');
          }
        }}
      />
      {q !== '' && found?.query === q ? (
        items.length > 0 ? (
          <ul className="search-results" aria-label={t('addItems.found')}>
            {items.map((item) => (
              <li key={item.id}>
                <button type="button" className="btn" onClick={() => pick(item)}>
                  <span>{item.name}</span>
                  <span>{item.openPrice ? t('addItems.openPrice') : formatCents(item.priceCents)}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="hint search-results" role="status">
            {t('addItems.none', { query: q })}
          </p>
        )
      ) : null}
    </div>
  );
}

/**
 * What the last scan or pick came to: added (a status), refused with the core's or the scanner's words
 * (a misread, an inactive item), or an unknown code, which offers an open item to anyone and adding the
 * item to the catalog to a manager.
 */
function ScanNotice() {
  const { t } = useTranslation('sale');
  const note = useSale((s) => s.scanNote);
  const role = useApp((s) => s.session?.role);
  const sale = useSaleStore();
  if (!note) return null;
  if (note.tone === 'ok')
    return (
      <p className="scan-note hint" role="status" data-testid="scan-note">
        {note.text}
      </p>
    );
  if (note.tone === 'bad')
    return (
      <p className="scan-note outcome outcome-bad" role="alert" data-testid="scan-note">
        {note.text}
      </p>
    );
  return (
    <div className="scan-note outcome outcome-warn" role="alert" data-testid="scan-note">
      <p>{note.text}</p>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => sale.getState().openDialog({ kind: 'openItem', barcode: note.barcode })}
        >
          {t('addItems.openItem')}
        </button>
        {role === 'manager' ? (
          <button
            type="button"
            className="btn"
            onClick={() => sale.getState().openDialog({ kind: 'addItem', barcode: note.barcode })}
          >
            {t('addItems.addItem')}
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => sale.getState().setScanNote(null)}>
          {t('addItems.dismiss')}
        </button>
      </div>
    </div>
  );
}

/** Ringing items up besides the scanner: the search, an open item, the quick keys, the last scan's note. */
export function AddItems() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const ring = useRing();
  const run = useTicketChange();
  const quickKeys = useSale((s) => s.quickKeys);
  const hasCatalog = useSale((s) => s.hasCatalog);
  const typed = useSale((s) => (s.ticket?.itemized ? 0 : (s.ticket?.subtotalCents ?? s.subtotalCents)));
  // An unknown code's notice offers its own open item.
  const unknown = useSale((s) => s.scanNote?.tone === 'unknown');
  return (
    <section aria-label={t('addItems.title')} className="add-items stack">
      <ScanNotice />
      <div className="row add-items-row">
        {hasCatalog ? <ItemSearch onPick={(item) => void ring.pick(item)} /> : null}
        {unknown ? null : (
          <button
            type="button"
            className="btn"
            aria-label={typed > 0 ? t('addItems.addTypedLabel', { amount: formatCents(typed) }) : undefined}
            onClick={() =>
              typed > 0
                ? void run({ kind: 'keypadAmount' })
                : sale.getState().openDialog({ kind: 'openItem' })
            }
          >
            {typed > 0 ? t('addItems.addTyped') : t('addItems.openItem')}
          </button>
        )}
      </div>
      {quickKeys.length > 0 ? (
        <div className="quick-keys" role="group" aria-label={t('addItems.quickKeys')}>
          {quickKeys.map((item) => (
            <button
              key={item.id}
              type="button"
              className="btn quick-key"
              onClick={() => void ring.pick(item)}
            >
              <span className="quick-key-name">{item.name}</span>
              <span className="quick-key-price">
                {item.openPrice ? t('addItems.openPrice') : formatCents(item.priceCents)}
              </span>
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
