import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ReceiptView,
  ReturnCursor,
  ReturnFind,
  ReturnGiftCard,
  ReturnLegView,
  ReturnMethod,
  ReturnQuoteView,
  ReturnSaleSummaryView,
  ReturnView,
  ReturnableSaleView,
} from '../../../../common/bridge/contract';
import { priceTicket, type PricingLine } from '../../../../common/ticket-pricing';
import { formatCents, formatDateTime, parseMoney } from '../../format/money';
import { i18n, messageFor } from '../../i18n/i18n';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { Dialog } from '../../ui/Dialog';
import { DigitsField, ErrorAlert, InputField } from '../../ui/fields';
import { ReceiptDocument } from './ReceiptPanel';
import './returns.css';

/**
 * Returns from a receipt (docs/screens.md "Returns"): find the sale — scan its receipt or type its number,
 * or search by store days, the card's last four or the amount, any day — choose what comes back with a
 * stepper per line, read the money back by tender in the order it goes (which the cashier can change),
 * then give it back; the return's own receipt is offered (and prints by itself where receipts do). A
 * return without a receipt asks for the manager's PIN. Every figure is the core's (returns.quote): the
 * screen never works out a refund of its own.
 */

type Stage =
  | { kind: 'find' }
  | { kind: 'sale'; ticketId: string }
  | { kind: 'done'; view: ReturnView }
  | { kind: 'no-receipt' };

/** A key for one press of a confirm button: sent again after a lost answer, it finds the same return. */
function newRequestId(): string {
  return crypto.randomUUID();
}

function methodWords(method: ReturnMethod): string {
  return i18n.t(`returns:method.${method}`);
}

/** The core's label of a tender ("Cash", "Visa ****1111", "Check (refunded in cash)") in the window's language. */
const CARD_LABEL = /^(.+) \*{4}(\d{4})$/;
function tenderWords(x: { tender: string; label: string }): string {
  if (x.label === 'Check (refunded in cash)') return i18n.t('returns:tender.checkInCash');
  const card = CARD_LABEL.exec(x.label);
  if (card?.[1] && card[2]) {
    const brand =
      messageFor(`transactions:card.brand.${card[1]}`) ?? messageFor(`figures:tenders.${card[1]}`) ?? card[1];
    return i18n.t('returns:tender.card', { brand, last4: card[2] });
  }
  return messageFor(`figures:tenders.${x.label}`) ?? x.label;
}

/**
 * Why a tender takes nothing back: the core's fixed reasons (electron/returns/return-rules.ts) in the
 * window's language; a reason naming a payment's state is shown as the core wrote it.
 */
const UNAVAILABLE: Readonly<Record<string, 'ebt' | 'hold' | 'notHere'>> = {
  'An EBT payment goes back to the EBT card, which this lane cannot do: refund it another way.': 'ebt',
  'A hold is completed or voided, not returned.': 'hold',
  'This payment cannot be refunded here.': 'notHere',
};
function unavailableWords(reason: string): string {
  const key = UNAVAILABLE[reason];
  return key ? i18n.t(`returns:unavailable.${key}`) : reason;
}

/** A line's name: an open-amount sale's one line is the core's "Sale amount" (return-rules.ts), in words here. */
function lineName(name: string): string {
  return name === 'Sale amount' ? i18n.t('returns:lines.saleAmount') : name;
}

function legWords(l: ReturnLegView): string {
  const label = tenderWords(l);
  if (l.state === 'done')
    return l.kind === 'cash'
      ? i18n.t('returns:leg.cashDone')
      : l.method === 'void'
        ? i18n.t('returns:leg.voided', { label })
        : i18n.t('returns:leg.refunded', { label });
  if (l.state === 'unknown') return i18n.t('returns:leg.unknown', { label });
  if (l.state === 'cancelled') return i18n.t('returns:leg.cancelled', { label });
  return i18n.t('returns:leg.pending', { label });
}

export function ReturnsScreen() {
  const { t } = useTranslation('returns');
  const [stage, setStage] = useState<Stage>({ kind: 'find' });
  return (
    <section className="returns" aria-labelledby="returns-title">
      <h1 id="returns-title" tabIndex={-1}>
        {t('title')}
      </h1>
      {stage.kind === 'find' ? (
        <FindSale
          onSale={(ticketId) => setStage({ kind: 'sale', ticketId })}
          onNoReceipt={() => setStage({ kind: 'no-receipt' })}
        />
      ) : stage.kind === 'sale' ? (
        <ReturnLines
          ticketId={stage.ticketId}
          onBack={() => setStage({ kind: 'find' })}
          onDone={(view) => setStage({ kind: 'done', view })}
        />
      ) : stage.kind === 'done' ? (
        <ReturnDone initial={stage.view} onNext={() => setStage({ kind: 'find' })} />
      ) : (
        <NoReceipt
          onBack={() => setStage({ kind: 'find' })}
          onDone={(view) => setStage({ kind: 'done', view })}
        />
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------
// Finding the sale

function FindSale({ onSale, onNoReceipt }: { onSale: (ticketId: string) => void; onNoReceipt: () => void }) {
  const { t } = useTranslation('returns');
  const bridge = useBridge();
  const zone = useStoreZone();
  const [receipt, setReceipt] = useState('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const [last4, setLast4] = useState('');
  const [amount, setAmount] = useState('');
  const [sales, setSales] = useState<ReturnSaleSummaryView[] | null>(null);
  const [next, setNext] = useState<ReturnCursor | undefined>(undefined);
  const [query, setQuery] = useState<ReturnFind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const search = useCallback(
    async (q: ReturnFind, more = false) => {
      setBusy(true);
      setError(null);
      const r = await bridge.send('returns.find', q);
      setBusy(false);
      if (!r.ok) return setError(describeError(r.error));
      // A receipt number names one sale: straight to its lines.
      const only = r.value.sales[0];
      if (q.receipt !== undefined && r.value.sales.length === 1 && only) return onSale(only.ticketId);
      setQuery(q);
      setSales((before) => (more && before ? [...before, ...r.value.sales] : r.value.sales));
      setNext(r.value.next);
      if (q.receipt !== undefined && r.value.sales.length === 0) setError(t('find.noSuchReceipt'));
    },
    [bridge, onSale, t],
  );

  // A scanned receipt (any scanner: serial, USB HID, or a keyboard wedge typing into the page).
  useEffect(
    () =>
      bridge.on('scanner.scanned', (scan) => {
        if (!scan.validated)
          return setError(t('find.unreadableScan', { problem: scan.problem ?? t('find.scanAgain') }));
        setReceipt(scan.data);
        void search({ receipt: scan.data });
      }),
    [bridge, search, t],
  );
  const wedge = useWedgeScan({ onError: setError });

  const findReceipt = (e: FormEvent) => {
    e.preventDefault();
    if (receipt.trim() === '') return setError(t('find.receiptMissing'));
    void search({ receipt: receipt.trim() });
  };
  const findBy = (e: FormEvent) => {
    e.preventDefault();
    const cents = amount.trim() === '' ? undefined : parseMoney(amount);
    if (amount.trim() !== '' && (cents === undefined || cents <= 0)) return setError(t('find.amountShape'));
    if (last4 !== '' && last4.length !== 4) return setError(t('find.last4Shape'));
    void search({
      ...(fromDay ? { fromDay } : {}),
      ...(toDay ? { toDay } : {}),
      ...(last4 ? { last4 } : {}),
      ...(cents !== undefined ? { amountCents: cents } : {}),
    });
  };

  return (
    <div className="stack">
      <form className="row" onSubmit={findReceipt} aria-label={t('find.byReceipt')}>
        <InputField
          id="return-receipt"
          label={t('find.receipt')}
          autoComplete="off"
          value={receipt}
          data-autofocus
          className="return-receipt"
          onChange={(e) => setReceipt(e.target.value)}
          onKeyDown={(e) => {
            // A keyboard-wedge scan arrives as scanner.scanned: the keys it typed here go.
            if (wedge.onKeyDown(e).kind === 'scan') setReceipt('');
          }}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('find.submit')}
        </button>
      </form>
      <form onSubmit={findBy} aria-label={t('find.search')}>
        <fieldset className="return-search">
          <legend>{t('find.legend')}</legend>
          <InputField
            id="return-from"
            label={t('find.from')}
            type="date"
            value={fromDay}
            onChange={(e) => setFromDay(e.target.value)}
          />
          <InputField
            id="return-to"
            label={t('find.to')}
            type="date"
            value={toDay}
            onChange={(e) => setToDay(e.target.value)}
          />
          <DigitsField
            id="return-last4"
            label={t('find.last4')}
            maxLength={4}
            value={last4}
            onDigits={setLast4}
          />
          <InputField
            id="return-amount"
            label={t('find.total')}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <button type="submit" className="btn" disabled={busy}>
            {t('find.searchButton')}
          </button>
        </fieldset>
      </form>
      <ErrorAlert message={error} />
      {sales ? (
        sales.length === 0 && !error ? (
          <p role="status">{t('find.none')}</p>
        ) : sales.length > 0 ? (
          <table className="data returns-found">
            <caption>{t('find.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('find.when')}</th>
                <th scope="col">{t('find.receiptColumn')}</th>
                <th scope="col">{t('find.items')}</th>
                <th scope="col">{t('find.paidBy')}</th>
                <th scope="col" className="num">
                  {t('find.totalColumn')}
                </th>
                <th scope="col">
                  <span className="sr-only">{t('find.action')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s) => (
                <tr key={s.ticketId}>
                  <td>{formatDateTime(s.closedAt, zone)}</td>
                  <td className="tx-number">{s.ticketId}</td>
                  <td>{s.units}</td>
                  <td>{s.tenders.map((x) => tenderWords(x)).join(', ')}</td>
                  <td className="num">{formatCents(s.totalCents)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={t('find.returnItemsOf', { ticketId: s.ticketId })}
                      onClick={() => onSale(s.ticketId)}
                    >
                      {t('find.returnItems')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null
      ) : null}
      <div className="row">
        <button type="button" className="btn" onClick={onNoReceipt}>
          {t('find.noReceipt')}
        </button>
        <span className="hint">{t('find.managerApproves')}</span>
      </div>
      {next && query ? (
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => void search({ ...query, after: next }, true)}
        >
          {t('find.more')}
        </button>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Choosing what comes back, and where the money goes

function Stepper({
  name,
  value,
  max,
  onChange,
}: {
  name: string;
  value: number;
  max: number;
  onChange: (n: number) => void;
}) {
  const { t } = useTranslation('returns');
  return (
    <div className="stepper" role="group" aria-label={t('stepper.group', { name })}>
      <button
        type="button"
        className="btn"
        aria-label={t('stepper.less', { name })}
        disabled={value <= 0}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <output aria-live="polite" aria-label={t('stepper.count', { name })}>
        {value}
      </output>
      <button
        type="button"
        className="btn"
        aria-label={t('stepper.more', { name })}
        disabled={value >= max}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}

function GiftCardInput({
  value,
  onChange,
}: {
  value: ReturnGiftCard | null;
  onChange: (g: ReturnGiftCard | null) => void;
}) {
  const { t } = useTranslation('returns');
  const keyed = value?.entry === 'keyed' ? value.cardNumber : '';
  return (
    <fieldset className="stack">
      <legend>{t('gift.legend')}</legend>
      <div className="row">
        <button
          type="button"
          className={`btn ${value?.entry === 'swipe' ? 'btn-primary' : ''}`}
          aria-pressed={value?.entry === 'swipe'}
          onClick={() => onChange({ entry: 'swipe' })}
        >
          {t('gift.swipe')}
        </button>
        <DigitsField
          id="return-gift-number"
          label={t('gift.typed')}
          maxLength={19}
          value={keyed}
          onDigits={(d) => onChange(d === '' ? null : { entry: 'keyed', cardNumber: d })}
        />
      </div>
    </fieldset>
  );
}

function ReturnLines({
  ticketId,
  onBack,
  onDone,
}: {
  ticketId: string;
  onBack: () => void;
  onDone: (view: ReturnView) => void;
}) {
  const { t } = useTranslation('returns');
  const bridge = useBridge();
  const zone = useStoreZone();
  const sale = useCommand('returns.sale', { ticketId }, ticketId);
  const [counts, setCounts] = useState<Record<number, number>>({});
  const [order, setOrder] = useState<string[] | null>(null);
  const [quote, setQuote] = useState<ReturnQuoteView | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [giftCard, setGiftCard] = useState<ReturnGiftCard | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);

  const s: ReturnableSaleView | undefined = sale.data;
  const lines = Object.entries(counts)
    .map(([lineNo, quantity]) => ({ lineNo: Number(lineNo), quantity }))
    .filter((l) => l.quantity > 0);
  const currentOrder = order ?? s?.order ?? [];
  const linesKey = JSON.stringify(lines);
  const orderKey = JSON.stringify(currentOrder);

  // The money back, worked out by the core as the return will be, after each change.
  useEffect(() => {
    const mine = ++asked.current;
    const wanted = JSON.parse(linesKey) as { lineNo: number; quantity: number }[];
    if (wanted.length === 0) {
      setQuote(null);
      setQuoteError(null);
      return;
    }
    void bridge
      .send('returns.quote', {
        ticketId,
        lines: wanted,
        ...(order ? { order: JSON.parse(orderKey) as string[] } : {}),
      })
      .then((r) => {
        if (mine !== asked.current) return;
        if (r.ok) {
          setQuote(r.value);
          setQuoteError(null);
        } else {
          setQuote(null);
          setQuoteError(describeError(r.error));
        }
      });
  }, [bridge, ticketId, linesKey, orderKey, order]);

  if (sale.error) return <ErrorAlert message={sale.error} />;
  if (!s) return <p role="status">{t('lines.loading')}</p>;

  const move = (key: string, by: -1 | 1) => {
    const o = [...currentOrder];
    const i = o.indexOf(key);
    const j = i + by;
    if (i < 0 || j < 0 || j >= o.length) return;
    [o[i], o[j]] = [o[j] ?? key, o[i] ?? key];
    setOrder(o);
  };
  const tenderOf = (key: string) => s.tenders.find((x) => x.key === key);
  const planned = (key: string) => quote?.legs.find((l) => l.key === key);
  const needsGift = quote?.legs.some((l) => l.kind === 'gift-card') ?? false;

  const give = async () => {
    if (!quote) return;
    if (needsGift && !giftCard) return setError(t('gift.first'));
    setBusy(true);
    setError(null);
    const r = await bridge.send('returns.create', {
      requestId: newRequestId(),
      ticketId,
      lines,
      ...(order ? { order } : {}),
      ...(giftCard ? { giftCard } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    });
    setBusy(false);
    if (!r.ok) {
      setError(describeError(r.error));
      void sale.reload();
      return;
    }
    onDone(r.value);
  };

  return (
    <div className="return-sale">
      <div className="return-sale-head row">
        <button type="button" className="btn" onClick={onBack}>
          {t('lines.back')}
        </button>
        <p>
          <strong>{t('lines.sale', { ticketId: s.ticketId })}</strong>
          {t('lines.saleAt', { when: formatDateTime(s.closedAt, zone), total: formatCents(s.totalCents) })}
          {s.employeeName ? t('lines.soldBy', { name: s.employeeName }) : ''}
        </p>
      </div>
      <div className="return-columns">
        <table className="data return-lines">
          <caption>{t('lines.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('lines.item')}</th>
              <th scope="col">{t('lines.returnColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((l) => {
              const left = l.quantity - l.returnedQuantity;
              return (
                <tr key={l.lineNo}>
                  <th scope="row">
                    <span className="return-line-name">{lineName(l.name)}</span>
                    <span className="hint">
                      {t('lines.sold', { count: l.quantity, amount: formatCents(l.totalCents) })}
                      {l.discountCents > 0
                        ? t('lines.afterOff', { amount: formatCents(l.discountCents) })
                        : ''}
                      {l.returnedQuantity > 0 ? t('lines.returnedBefore', { count: l.returnedQuantity }) : ''}
                    </span>
                  </th>
                  <td>
                    {left > 0 ? (
                      <Stepper
                        name={lineName(l.name)}
                        value={counts[l.lineNo] ?? 0}
                        max={left}
                        onChange={(n) => setCounts({ ...counts, [l.lineNo]: n })}
                      />
                    ) : (
                      <span className="hint">{t('lines.allReturned')}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>

        <div className="return-money stack">
          <h2>{t('lines.moneyBack')}</h2>
          {quote ? (
            <table className="data return-totals">
              <tbody>
                <tr>
                  <th scope="row">{t('lines.items')}</th>
                  <td className="num">{formatCents(quote.netCents)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('lines.tax')}</th>
                  <td className="num">{formatCents(quote.taxCents)}</td>
                </tr>
                <tr className="figure-total">
                  <th scope="row">{t('lines.backToCustomer')}</th>
                  <td className="num">{formatCents(quote.totalCents)}</td>
                </tr>
              </tbody>
            </table>
          ) : (
            <p className="hint">{quoteError ? '' : t('lines.choose')}</p>
          )}
          <ErrorAlert message={quoteError} />
          <ol className="return-order" aria-label={t('lines.order')}>
            {currentOrder.map((key, i) => {
              const x = tenderOf(key);
              if (!x) return null;
              const label = tenderWords(x);
              const leg = planned(key);
              return (
                <li key={key}>
                  <span className="return-order-what">
                    <strong>{label}</strong>
                    <span className="hint">
                      {leg
                        ? t('lines.planned', {
                            amount: formatCents(leg.amountCents),
                            method: methodWords(leg.method),
                          })
                        : t('lines.upTo', { amount: formatCents(x.refundableCents) })}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('lines.moveUp', { label })}
                    disabled={i === 0}
                    onClick={() => move(key, -1)}
                  >
                    ▲
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t('lines.moveDown', { label })}
                    disabled={i === currentOrder.length - 1}
                    onClick={() => move(key, 1)}
                  >
                    ▼
                  </button>
                </li>
              );
            })}
          </ol>
          {s.tenders
            .filter((x) => x.unavailable)
            .map((x) => (
              <p key={x.key} className="hint">
                {`${tenderWords(x)}: ${unavailableWords(x.unavailable ?? '')}`}
              </p>
            ))}
          {needsGift ? <GiftCardInput value={giftCard} onChange={setGiftCard} /> : null}
          <ErrorAlert message={error} />
          <button
            type="button"
            className="btn btn-primary return-give"
            disabled={!quote || busy}
            onClick={() => void give()}
          >
            {quote
              ? t('lines.giveBackAmount', { amount: formatCents(quote.totalCents) })
              : t('lines.giveBack')}
          </button>
          <InputField
            id="return-reason"
            label={t('lines.reason')}
            autoComplete="off"
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// The return made: where the money went, its receipt, what is still owed

function ReturnDone({ initial, onNext }: { initial: ReturnView; onNext: () => void }) {
  const { t } = useTranslation('returns');
  const bridge = useBridge();
  const app = useAppStore();
  const [view, setView] = useState(initial);
  const [receipt, setReceipt] = useState<ReceiptView | null>(null);
  const [giftCard, setGiftCard] = useState<ReturnGiftCard | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const owed = view.owedCents > 0;
  const cash = view.legs.some((l) => l.kind === 'cash' && l.state === 'done');

  const retry = async () => {
    setBusy(true);
    setError(null);
    const r = await bridge.send('returns.retry', {
      returnId: view.returnId,
      ...(giftCard ? { giftCard } : {}),
    });
    const now = await bridge.send('returns.get', { returnId: view.returnId });
    setBusy(false);
    if (now.ok) setView(now.value);
    if (!r.ok) setError(describeError(r.error));
  };
  const show = async () => {
    const r = await bridge.send('returns.receipt.get', { returnId: view.returnId });
    if (r.ok) setReceipt(r.value);
    else setError(describeError(r.error));
  };
  const print = async () => {
    const r = await bridge.send('returns.receipt.print', { returnId: view.returnId });
    if (!r.ok) return setError(describeError(r.error));
    if (r.value.printed) app.getState().notify('success', t('done.printing'));
    else if (r.value.receipt) setReceipt(r.value.receipt);
  };

  return (
    <div className="stack return-done">
      <div className={`outcome ${owed ? 'outcome-warn' : 'outcome-ok'}`} role="status">
        <h2>
          {owed
            ? t('done.owed', { returnId: view.returnId, amount: formatCents(view.owedCents) })
            : t('done.given', { returnId: view.returnId, amount: formatCents(view.refundedCents) })}
        </h2>
        {cash ? <p>{t('done.drawerOpen')}</p> : null}
      </div>
      <table className="data">
        <caption>{t('done.caption')}</caption>
        <tbody>
          {view.legs
            .filter((l) => l.state !== 'cancelled')
            .map((l) => (
              <tr key={l.position}>
                <th scope="row">{legWords(l)}</th>
                <td className="num">{formatCents(l.amountCents)}</td>
                <td>{l.message ?? ''}</td>
              </tr>
            ))}
        </tbody>
      </table>
      <p>
        {t('done.summary', {
          lines: view.lines
            .map((l) => t('done.line', { quantity: l.quantity, name: lineName(l.name) }))
            .join(', '),
          tax: formatCents(view.taxCents),
          total: formatCents(view.totalCents),
        })}
        {view.approvedByName ? t('done.approvedBy', { name: view.approvedByName }) : ''}
      </p>
      {owed && view.legs.some((l) => l.kind === 'gift-card' && l.state !== 'done') ? (
        <GiftCardInput value={giftCard} onChange={setGiftCard} />
      ) : null}
      <ErrorAlert message={error} />
      <div className="row">
        {owed ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void retry()}>
            {t('done.retry')}
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => void show()}>
          {t('done.show')}
        </button>
        <button type="button" className="btn" onClick={() => void print()}>
          {t('done.print')}
        </button>
        <button type="button" className={`btn ${owed ? '' : 'btn-primary'}`} onClick={onNext}>
          {t('done.next')}
        </button>
      </div>
      {receipt ? (
        <Dialog
          title={t('done.receiptTitle')}
          onClose={() => setReceipt(null)}
          initialFocus="return-receipt-close"
          wide
        >
          <ReceiptDocument receipt={receipt} />
          <div className="row">
            <button id="return-receipt-close" type="button" className="btn" onClick={() => setReceipt(null)}>
              {t('done.close')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Without a receipt: the manager approves; the money goes where the store chose

type Item = PricingLine & { key: number; name: string; barcode?: string; typedPrice?: number };

function NoReceipt({ onBack, onDone }: { onBack: () => void; onDone: (view: ReturnView) => void }) {
  const { t } = useTranslation('returns');
  const bridge = useBridge();
  const app = useAppStore();
  const settings = useCommand('returns.settings.get', {});
  const sale = useCommand('sale.settings', {});
  const [items, setItems] = useState<Item[]>([]);
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [reason, setReason] = useState('');
  const [giftCard, setGiftCard] = useState<ReturnGiftCard | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = useRef(0);
  const toGift = settings.data?.noReceiptRefund === 'gift-card';

  // An item scanned comes back at its catalog price (a price-embedded label at the label's).
  useEffect(
    () =>
      bridge.on('scanner.scanned', (scan) => {
        if (!scan.validated)
          return setError(t('find.unreadableScan', { problem: scan.problem ?? t('find.scanAgain') }));
        void bridge.send('catalog.lookup', { barcode: scan.data }).then((r) => {
          if (!r.ok) return setError(describeError(r.error));
          const { item, taxClass, priceEmbedded } = r.value;
          setItems((all) => [
            ...all,
            {
              key: ++keys.current,
              name: item.name,
              barcode: scan.data,
              quantity: 1,
              unitPriceCents: priceEmbedded?.priceCents ?? item.priceCents,
              taxClass: {
                code: taxClass.code,
                name: taxClass.name,
                ratePercent: taxClass.ratePercent,
                mode: taxClass.mode,
              },
            },
          ]);
        });
      }),
    [bridge, t],
  );

  const add = (e: FormEvent) => {
    e.preventDefault();
    const cents = parseMoney(price);
    if (cents === undefined || cents <= 0) return setError(t('noReceipt.priceShape'));
    setError(null);
    setItems([
      ...items,
      {
        key: ++keys.current,
        name: name.trim() || t('noReceipt.defaultName'),
        quantity: 1,
        unitPriceCents: cents,
        typedPrice: cents,
        taxClass: {
          code: 'lane',
          name: 'Tax',
          ratePercent: sale.data?.taxRatePercent ?? 0,
          mode: 'exclusive',
        },
      },
    ]);
    setName('');
    setPrice('');
  };

  // The preview by the one pricing rule; the core prices the return again by the same rule.
  const priced = items.length > 0 ? priceTicket(items) : null;

  const give = async () => {
    if (!priced) return;
    if (reason.trim() === '') return setError(t('noReceipt.giveReason'));
    if (toGift && !giftCard) return setError(t('gift.first'));
    setError(null);
    setBusy(true);
    const requestId = newRequestId();
    const r = await app.getState().withManager(
      t(toGift ? 'noReceipt.approveGift' : 'noReceipt.approveCash', {
        amount: formatCents(priced.totalCents),
      }),
      (approval) =>
        bridge.send('returns.createWithoutReceipt', {
          requestId,
          items: items.map((i) =>
            // A scanned item is looked up again by the core (a label's price comes with it); a typed one
            // goes back at its typed price.
            i.barcode !== undefined
              ? { barcode: i.barcode, quantity: i.quantity }
              : { name: i.name, priceCents: i.typedPrice ?? i.unitPriceCents, quantity: i.quantity },
          ),
          reason: reason.trim(),
          ...(giftCard ? { giftCard } : {}),
          ...(approval ? { approval } : {}),
        }),
    );
    setBusy(false);
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    onDone(r.value);
  };

  return (
    <div className="stack">
      <div className="row">
        <button type="button" className="btn" onClick={onBack}>
          {t('noReceipt.back')}
        </button>
        <p>
          <strong>{t('noReceipt.title')}</strong> {toGift ? t('noReceipt.toGift') : t('noReceipt.toCash')}
        </p>
      </div>
      <div className="return-columns">
        <div className="stack">
          <form className="row" onSubmit={add} aria-label={t('noReceipt.add')}>
            <InputField
              id="noreceipt-name"
              label={t('noReceipt.item')}
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <InputField
              id="noreceipt-price"
              label={t('noReceipt.price')}
              inputMode="decimal"
              autoComplete="off"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
            />
            <button type="submit" className="btn">
              {t('noReceipt.addItem')}
            </button>
            <span className="hint">{t('noReceipt.orScan')}</span>
          </form>
          {items.length > 0 && priced ? (
            <table className="data return-lines">
              <caption>{t('noReceipt.caption')}</caption>
              <tbody>
                {items.map((i, n) => (
                  <tr key={i.key}>
                    <th scope="row">{i.name}</th>
                    <td className="num">{formatCents(priced.lines[n]?.totalCents ?? 0)}</td>
                    <td>
                      <Stepper
                        name={i.name}
                        value={i.quantity}
                        max={99}
                        onChange={(q) =>
                          setItems(
                            q === 0
                              ? items.filter((x) => x.key !== i.key)
                              : items.map((x) => (x.key === i.key ? { ...x, quantity: q } : x)),
                          )
                        }
                      />
                    </td>
                  </tr>
                ))}
                <tr className="figure-total">
                  <th scope="row">{t('noReceipt.total', { tax: formatCents(priced.taxCents) })}</th>
                  <td className="num">{formatCents(priced.totalCents)}</td>
                  <td />
                </tr>
              </tbody>
            </table>
          ) : null}
        </div>
        <div className="return-money stack">
          <InputField
            id="noreceipt-reason"
            label={t('noReceipt.reason')}
            autoComplete="off"
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          {toGift ? <GiftCardInput value={giftCard} onChange={setGiftCard} /> : null}
          <ErrorAlert message={error} />
          <div className="row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={!priced || busy}
              onClick={() => void give()}
            >
              {priced
                ? t('lines.giveBackAmount', { amount: formatCents(priced.totalCents) })
                : t('lines.giveBack')}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
