import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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

const METHOD_WORDS: Readonly<Record<ReturnMethod, string>> = {
  refund: 'refund to the card',
  void: 'payment voided (not settled yet)',
  drawer: 'cash from the drawer',
  'gift-card': 'credited to the gift card',
};

function legWords(l: ReturnLegView): string {
  if (l.state === 'done')
    return l.kind === 'cash'
      ? 'Cash given from the drawer'
      : l.method === 'void'
        ? `${l.label}: payment voided`
        : `${l.label}: refunded`;
  if (l.state === 'unknown') return `${l.label}: no answer — check the reconciliation view`;
  if (l.state === 'cancelled') return `${l.label}: not needed`;
  return `${l.label}: not refunded yet`;
}

export function ReturnsScreen() {
  const [stage, setStage] = useState<Stage>({ kind: 'find' });
  return (
    <section className="returns" aria-labelledby="returns-title">
      <h1 id="returns-title" tabIndex={-1}>
        Returns
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
      if (q.receipt !== undefined && r.value.sales.length === 0)
        setError('No sale with that receipt number on this lane.');
    },
    [bridge, onSale],
  );

  // A scanned receipt (any scanner: serial, USB HID, or a keyboard wedge typing into the page).
  useEffect(
    () =>
      bridge.on('scanner.scanned', (scan) => {
        if (!scan.validated)
          return setError(`The scan could not be read (${scan.problem ?? 'scan it again'}).`);
        setReceipt(scan.data);
        void search({ receipt: scan.data });
      }),
    [bridge, search],
  );
  const wedge = useWedgeScan({ onError: setError });

  const findReceipt = (e: FormEvent) => {
    e.preventDefault();
    if (receipt.trim() === '') return setError('Scan the receipt, or type its number (TICKET …).');
    void search({ receipt: receipt.trim() });
  };
  const findBy = (e: FormEvent) => {
    e.preventDefault();
    const cents = amount.trim() === '' ? undefined : parseMoney(amount);
    if (amount.trim() !== '' && (cents === undefined || cents <= 0))
      return setError('Type the amount, like 12.34.');
    if (last4 !== '' && last4.length !== 4) return setError('The last four digits of the card.');
    void search({
      ...(fromDay ? { fromDay } : {}),
      ...(toDay ? { toDay } : {}),
      ...(last4 ? { last4 } : {}),
      ...(cents !== undefined ? { amountCents: cents } : {}),
    });
  };

  return (
    <div className="stack">
      <form className="row" onSubmit={findReceipt} aria-label="Find the sale by its receipt">
        <InputField
          id="return-receipt"
          label="Receipt number — scan the receipt or type it"
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
          Find sale
        </button>
      </form>
      <form onSubmit={findBy} aria-label="Search sales">
        <fieldset className="return-search">
          <legend>No receipt number? Search the sales of any day</legend>
          <InputField
            id="return-from"
            label="From day"
            type="date"
            value={fromDay}
            onChange={(e) => setFromDay(e.target.value)}
          />
          <InputField
            id="return-to"
            label="To day"
            type="date"
            value={toDay}
            onChange={(e) => setToDay(e.target.value)}
          />
          <DigitsField
            id="return-last4"
            label="Card last four"
            maxLength={4}
            value={last4}
            onDigits={setLast4}
          />
          <InputField
            id="return-amount"
            label="Sale total"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <button type="submit" className="btn" disabled={busy}>
            Search
          </button>
        </fieldset>
      </form>
      <ErrorAlert message={error} />
      {sales ? (
        sales.length === 0 && !error ? (
          <p role="status">No sale found.</p>
        ) : sales.length > 0 ? (
          <table className="data returns-found">
            <caption>Sales found, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Receipt</th>
                <th scope="col">Items</th>
                <th scope="col">Paid by</th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s) => (
                <tr key={s.ticketId}>
                  <td>{formatDateTime(s.closedAt, zone)}</td>
                  <td className="tx-number">{s.ticketId}</td>
                  <td>{s.units}</td>
                  <td>{s.tenders.map((t) => t.label).join(', ')}</td>
                  <td className="num">{formatCents(s.totalCents)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Return items of ${s.ticketId}`}
                      onClick={() => onSale(s.ticketId)}
                    >
                      Return items
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
          Return without a receipt
        </button>
        <span className="hint">A manager approves it.</span>
      </div>
      {next && query ? (
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => void search({ ...query, after: next }, true)}
        >
          More sales
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
  return (
    <div className="stepper" role="group" aria-label={`Return how many of ${name}`}>
      <button
        type="button"
        className="btn"
        aria-label={`One less ${name}`}
        disabled={value <= 0}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <output aria-live="polite" aria-label={`${name} returned`}>
        {value}
      </output>
      <button
        type="button"
        className="btn"
        aria-label={`One more ${name}`}
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
  const keyed = value?.entry === 'keyed' ? value.cardNumber : '';
  return (
    <fieldset className="stack">
      <legend>Gift card to credit</legend>
      <div className="row">
        <button
          type="button"
          className={`btn ${value?.entry === 'swipe' ? 'btn-primary' : ''}`}
          aria-pressed={value?.entry === 'swipe'}
          onClick={() => onChange({ entry: 'swipe' })}
        >
          Swipe it at the reader
        </button>
        <DigitsField
          id="return-gift-number"
          label="or type its number"
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
  if (!s) return <p role="status">Loading the sale…</p>;

  const move = (key: string, by: -1 | 1) => {
    const o = [...currentOrder];
    const i = o.indexOf(key);
    const j = i + by;
    if (i < 0 || j < 0 || j >= o.length) return;
    [o[i], o[j]] = [o[j] ?? key, o[i] ?? key];
    setOrder(o);
  };
  const tenderOf = (key: string) => s.tenders.find((t) => t.key === key);
  const planned = (key: string) => quote?.legs.find((l) => l.key === key);
  const needsGift = quote?.legs.some((l) => l.kind === 'gift-card') ?? false;

  const give = async () => {
    if (!quote) return;
    if (needsGift && !giftCard) return setError('Swipe the gift card or type its number first.');
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
          Back
        </button>
        <p>
          <strong>Sale {s.ticketId}</strong> · {formatDateTime(s.closedAt, zone)} ·{' '}
          {formatCents(s.totalCents)}
          {s.employeeName ? ` · sold by ${s.employeeName}` : ''}
        </p>
      </div>
      <div className="return-columns">
        <table className="data return-lines">
          <caption>What comes back</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Return</th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((l) => {
              const left = l.quantity - l.returnedQuantity;
              return (
                <tr key={l.lineNo}>
                  <th scope="row">
                    <span className="return-line-name">{l.name}</span>
                    <span className="hint">
                      {l.quantity} sold · paid {formatCents(l.totalCents)}
                      {l.discountCents > 0 ? ` after ${formatCents(l.discountCents)} off` : ''}
                      {l.returnedQuantity > 0 ? ` · ${l.returnedQuantity} returned before` : ''}
                    </span>
                  </th>
                  <td>
                    {left > 0 ? (
                      <Stepper
                        name={l.name}
                        value={counts[l.lineNo] ?? 0}
                        max={left}
                        onChange={(n) => setCounts({ ...counts, [l.lineNo]: n })}
                      />
                    ) : (
                      <span className="hint">All returned</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>

        <div className="return-money stack">
          <h2>Money back</h2>
          {quote ? (
            <table className="data return-totals">
              <tbody>
                <tr>
                  <th scope="row">Items</th>
                  <td className="num">{formatCents(quote.netCents)}</td>
                </tr>
                <tr>
                  <th scope="row">Tax</th>
                  <td className="num">{formatCents(quote.taxCents)}</td>
                </tr>
                <tr className="figure-total">
                  <th scope="row">Back to the customer</th>
                  <td className="num">{formatCents(quote.totalCents)}</td>
                </tr>
              </tbody>
            </table>
          ) : (
            <p className="hint">{quoteError ? '' : 'Choose what comes back with + and −.'}</p>
          )}
          <ErrorAlert message={quoteError} />
          <ol className="return-order" aria-label="Refund to, in this order">
            {currentOrder.map((key, i) => {
              const t = tenderOf(key);
              if (!t) return null;
              const leg = planned(key);
              return (
                <li key={key}>
                  <span className="return-order-what">
                    <strong>{t.label}</strong>
                    <span className="hint">
                      {leg
                        ? `${formatCents(leg.amountCents)} · ${METHOD_WORDS[leg.method]}`
                        : `up to ${formatCents(t.refundableCents)}`}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Move ${t.label} up`}
                    disabled={i === 0}
                    onClick={() => move(key, -1)}
                  >
                    ▲
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Move ${t.label} down`}
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
            .filter((t) => t.unavailable)
            .map((t) => (
              <p key={t.key} className="hint">
                {t.label}: {t.unavailable}
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
            {quote ? `Give back ${formatCents(quote.totalCents)}` : 'Give back'}
          </button>
          <InputField
            id="return-reason"
            label="Reason (optional)"
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
    if (r.value.printed) app.getState().notify('success', 'The return’s receipt is printing.');
    else if (r.value.receipt) setReceipt(r.value.receipt);
  };

  return (
    <div className="stack return-done">
      <div className={`outcome ${owed ? 'outcome-warn' : 'outcome-ok'}`} role="status">
        <h2>
          {owed
            ? `Return ${view.returnId}: ${formatCents(view.owedCents)} still owed`
            : `Return ${view.returnId}: ${formatCents(view.refundedCents)} given back`}
        </h2>
        {cash ? <p>The drawer is open: give the cash back.</p> : null}
      </div>
      <table className="data">
        <caption>Where the money went</caption>
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
        {view.lines.map((l) => `${l.quantity} × ${l.name}`).join(', ')} · tax {formatCents(view.taxCents)} ·
        total {formatCents(view.totalCents)}
        {view.approvedByName ? ` · approved by ${view.approvedByName}` : ''}
      </p>
      {owed && view.legs.some((l) => l.kind === 'gift-card' && l.state !== 'done') ? (
        <GiftCardInput value={giftCard} onChange={setGiftCard} />
      ) : null}
      <ErrorAlert message={error} />
      <div className="row">
        {owed ? (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void retry()}>
            Try again
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => void show()}>
          Show receipt
        </button>
        <button type="button" className="btn" onClick={() => void print()}>
          Print receipt
        </button>
        <button type="button" className={`btn ${owed ? '' : 'btn-primary'}`} onClick={onNext}>
          Next return
        </button>
      </div>
      {receipt ? (
        <Dialog
          title="Return receipt"
          onClose={() => setReceipt(null)}
          initialFocus="return-receipt-close"
          wide
        >
          <ReceiptDocument receipt={receipt} />
          <div className="row">
            <button id="return-receipt-close" type="button" className="btn" onClick={() => setReceipt(null)}>
              Close
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
  const bridge = useBridge();
  const app = useAppStore();
  const settings = useCommand('returns.settings.get', {});
  const business = useCommand('business.get', {});
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
          return setError(`The scan could not be read (${scan.problem ?? 'scan it again'}).`);
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
    [bridge],
  );

  const add = (e: FormEvent) => {
    e.preventDefault();
    const cents = parseMoney(price);
    if (cents === undefined || cents <= 0) return setError('Type the item’s price, like 12.34.');
    setError(null);
    setItems([
      ...items,
      {
        key: ++keys.current,
        name: name.trim() || 'Returned item',
        quantity: 1,
        unitPriceCents: cents,
        typedPrice: cents,
        taxClass: {
          code: 'lane',
          name: 'Tax',
          ratePercent: business.data?.taxRatePercent ?? 0,
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
    if (reason.trim() === '') return setError('Give the reason for the return.');
    if (toGift && !giftCard) return setError('Swipe the gift card or type its number first.');
    setError(null);
    setBusy(true);
    const requestId = newRequestId();
    const r = await app
      .getState()
      .withManager(
        `Return ${formatCents(priced.totalCents)} without a receipt, ${toGift ? 'to a gift card' : 'in cash'}.`,
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
          Back
        </button>
        <p>
          <strong>Return without a receipt.</strong> A manager approves it; the money goes back{' '}
          {toGift ? 'on a gift card (store credit)' : 'in cash from the drawer'}.
        </p>
      </div>
      <div className="return-columns">
        <div className="stack">
          <form className="row" onSubmit={add} aria-label="Add an item">
            <InputField
              id="noreceipt-name"
              label="Item"
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <InputField
              id="noreceipt-price"
              label="Price"
              inputMode="decimal"
              autoComplete="off"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
            />
            <button type="submit" className="btn">
              Add item
            </button>
            <span className="hint">or scan the item</span>
          </form>
          {items.length > 0 && priced ? (
            <table className="data return-lines">
              <caption>Items coming back</caption>
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
                  <th scope="row">Back to the customer (tax {formatCents(priced.taxCents)})</th>
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
            label="Reason"
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
              {priced ? `Give back ${formatCents(priced.totalCents)}` : 'Give back'}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}
