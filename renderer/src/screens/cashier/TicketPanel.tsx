import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketDiscount, TicketLineView, TicketView } from '../../../../common/bridge/contract';
import { formatCents } from '../../format/money';
import { useSale, useSaleStore } from '../../state/context';
import { useTicketChange } from '../../state/use-ticket-change';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { figureFontSize } from '../../ui/figure';

/** A discount as the cashier gave it: "10%" or "$5.00". */
function discountText(d: TicketDiscount): string {
  return d.kind === 'percent' ? `${d.percent}%` : formatCents(d.amountCents);
}

/** Lines change only while nothing is paid (the core enforces it; the screen does not offer it). */
function editableTicket(t: TicketView): boolean {
  return t.status === 'open' && t.tenders.every((x) => x.status === 'declined' || x.status === 'cancelled');
}

function LineRows({
  line,
  selected,
  editable,
}: {
  line: TicketLineView;
  selected: boolean;
  editable: boolean;
}) {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const note =
    line.kind === 'weighed'
      ? t('ticket.weighed')
      : line.listPriceCents !== undefined && line.listPriceCents !== line.unitPriceCents && !line.openPrice
        ? t('ticket.overridden', { amount: formatCents(line.listPriceCents) })
        : null;
  return (
    <>
      <tr data-line={line.lineId} className={selected ? 'selected' : undefined}>
        <th scope="row">
          {editable ? (
            <button
              type="button"
              className="line-pick"
              aria-pressed={selected}
              aria-describedby="line-pick-hint"
              onClick={() => sale.getState().selectLine(selected ? null : line.lineId)}
            >
              {line.name}
              {note ? <span className="hint line-note">{note}</span> : null}
            </button>
          ) : (
            <span className="line-static">
              {line.name}
              {note ? <span className="hint line-note">{note}</span> : null}
            </span>
          )}
        </th>
        <td>{line.quantity}</td>
        <td>{formatCents(line.unitPriceCents)}</td>
        <td>{formatCents(line.priced.grossCents)}</td>
      </tr>
      {line.discount && line.priced.lineDiscountCents > 0 ? (
        <tr className="line-discount" data-discount-of={line.lineId}>
          <th scope="row" colSpan={3}>
            {t('ticket.discount', { discount: discountText(line.discount) })}
          </th>
          <td>{formatCents(-line.priced.lineDiscountCents)}</td>
        </tr>
      ) : null}
    </>
  );
}

/** The selected line's quantity (−, typed, +), discount, price and void; else the ticket discount. */
function LineActions({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const run = useTicketChange();
  const selectedId = useSale((s) => s.selectedLineId);
  const line = ticket.itemized?.lines.find((l) => l.lineId === selectedId && !l.voided);
  const [qty, setQty] = useState('');
  const wedge = useWedgeScan({});
  useEffect(() => setQty(line ? String(line.quantity) : ''), [line?.lineId, line?.quantity, line]);
  if (!line)
    return (
      <div className="row ticket-actions">
        <button
          type="button"
          className="btn"
          onClick={() => sale.getState().openDialog({ kind: 'discount', lineId: null })}
        >
          {t('ticket.ticketDiscount')}
        </button>
      </div>
    );
  const setQuantity = (quantity: number) => {
    if (!Number.isInteger(quantity) || quantity === line.quantity) return setQty(String(line.quantity));
    void run({ kind: 'quantity', lineId: line.lineId, quantity }).then((done) => {
      if (!done) setQty(String(line.quantity));
    });
  };
  // A weighed line is one label at its price: its quantity is not the cashier's to change.
  const weighed = line.kind === 'weighed';
  return (
    <div className="row ticket-actions" role="group" aria-label={t('ticket.change', { name: line.name })}>
      <button
        type="button"
        className="btn"
        aria-label={t('ticket.less')}
        disabled={weighed || line.quantity <= 1}
        onClick={() => setQuantity(line.quantity - 1)}
      >
        −
      </button>
      <input
        id="line-quantity"
        className="line-quantity"
        aria-label={t('ticket.quantity')}
        inputMode="numeric"
        autoComplete="off"
        disabled={weighed}
        value={qty}
        onChange={(e) => setQty(e.target.value.replace(/\D/g, '').slice(0, 4))}
        onKeyDown={(e) => {
          // A keyboard-wedge scan typed here is a scan (it is rung), never a quantity.
          if (wedge.onKeyDown(e).kind === 'scan') return setQty(String(line.quantity));
          if (e.key === 'Enter') {
            e.preventDefault();
            setQuantity(Number(qty));
          }
        }}
        onBlur={() => {
          if (qty !== String(line.quantity) && qty !== '') setQuantity(Number(qty));
        }}
      />
      <button
        type="button"
        className="btn"
        aria-label={t('ticket.more')}
        disabled={weighed}
        onClick={() => setQuantity(line.quantity + 1)}
      >
        +
      </button>
      <button
        type="button"
        className="btn"
        onClick={() => sale.getState().openDialog({ kind: 'discount', lineId: line.lineId })}
      >
        {t('ticket.lineDiscount')}
      </button>
      <button
        type="button"
        className="btn"
        onClick={() => sale.getState().openDialog({ kind: 'price', lineId: line.lineId })}
      >
        {t('ticket.price')}
      </button>
      <button
        type="button"
        className="btn btn-danger"
        onClick={() => void run({ kind: 'void', lineId: line.lineId })}
      >
        {t('ticket.voidLine')}
      </button>
      <button type="button" className="btn" onClick={() => sale.getState().selectLine(null)}>
        {t('ticket.done')}
      </button>
    </div>
  );
}

/**
 * The ticket's figures exactly as the core priced them (common/ticket-pricing.ts through the TicketView):
 * items, discounts, subtotal, each tax class's tax with its rate (an included tax is shown, not added),
 * tip, and the total. What the customer pays — the total, or what remains once part is paid — is the
 * largest figure on the screen.
 */
function TicketTotals({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation('sale');
  const say = t;
  const p = ticket.itemized?.pricing;
  if (!p) return null;
  const partPaid = ticket.paidCents > 0 && ticket.status === 'open';
  const discounted = p.lineDiscountCents > 0 || p.ticketDiscountCents > 0;
  const d = ticket.itemized?.discount;
  type Row = { id: string; label: string; cents: number; cls?: string };
  const rows: Row[] = [
    ...(discounted ? [{ id: 'items', label: t('totals.items'), cents: p.itemsCents }] : []),
    ...(p.lineDiscountCents > 0
      ? [{ id: 'line-discounts', label: t('totals.lineDiscounts'), cents: -p.lineDiscountCents }]
      : []),
    ...(d && p.ticketDiscountCents > 0
      ? [
          {
            id: 'ticket-discount',
            label: t('totals.ticketDiscount', { discount: discountText(d) }),
            cents: -p.ticketDiscountCents,
          },
        ]
      : []),
    { id: 'subtotal', label: t('totals.subtotal'), cents: p.subtotalCents },
    ...p.taxes
      // An exempt class, or one at 0 %, has no tax to show (as on the receipt).
      .filter((t) => t.mode !== 'exempt' && t.ratePercent !== 0)
      .map((t) => ({
        id: `tax-${t.code}`,
        label: say(t.mode === 'inclusive' ? 'totals.taxIncluded' : 'totals.taxClass', {
          name: t.name,
          rate: t.ratePercent,
        }),
        cents: t.taxCents,
        cls: t.mode === 'inclusive' ? 'included' : undefined,
      })),
    ...(ticket.tipCents > 0 ? [{ id: 'tip', label: t('totals.tip'), cents: ticket.tipCents }] : []),
    {
      id: 'total',
      label: t('totals.total'),
      cents: ticket.totalCents,
      cls: partPaid ? 'total' : 'total pay',
    },
    ...(ticket.paidCents > 0
      ? [
          { id: 'paid', label: t('totals.paid'), cents: ticket.paidCents },
          {
            id: 'remaining',
            label: t('totals.remaining'),
            cents: ticket.remainingCents,
            ...(partPaid ? { cls: 'total pay' } : {}),
          },
        ]
      : []),
  ];
  // Three columns: a figure row's words span the first two, the total's figure the last two, so the big
  // figure's width does not squeeze the words of the rows above it.
  return (
    <table className="totals ticket-totals" aria-label={t('totals.caption')}>
      <colgroup>
        <col className="ticket-totals-words" />
        <col />
        <col className="ticket-totals-figures" />
      </colgroup>
      <tbody>
        {rows.map((r) => {
          const text = formatCents(r.cents);
          const pay = r.cls?.includes('pay') === true;
          const big = r.cls?.includes('total') === true;
          return (
            <tr key={r.id} className={r.cls}>
              <th scope="row" colSpan={big ? 1 : 2}>
                {pay && ticket.status !== 'paid' ? t('totals.toPay', { label: r.label }) : r.label}
              </th>
              <td
                colSpan={big ? 2 : 1}
                data-testid={`total-${r.id}`}
                style={pay ? { fontSize: figureFontSize(text, 2.3) } : undefined}
              >
                {text}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The ticket of lines: its lines (the newest in view), the selected line's changes, its totals. */
export function TicketPanel({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation('sale');
  const selectedId = useSale((s) => s.selectedLineId);
  const phase = useSale((s) => s.phase);
  const editable = phase === 'entry' && editableTicket(ticket);
  const lines = (ticket.itemized?.lines ?? []).filter((l) => !l.voided);
  const scroller = useRef<HTMLDivElement>(null);
  const count = lines.length;
  useEffect(() => {
    // In view: the line being changed (the list is shorter while its buttons show, and shorter still on a
    // smaller screen), else the line just rung — the one the cashier and the customer look for.
    const el = scroller.current;
    if (!el) return;
    const keep = () => {
      const row = selectedId ? el.querySelector(`tr[data-line="${CSS.escape(selectedId)}"]`) : null;
      if (row) row.scrollIntoView({ block: 'nearest' });
      else el.scrollTop = el.scrollHeight;
    };
    const id = requestAnimationFrame(keep);
    const resized = new ResizeObserver(keep);
    resized.observe(el);
    return () => {
      cancelAnimationFrame(id);
      resized.disconnect();
    };
  }, [selectedId, count]);
  return (
    <section className="ticket-panel" aria-labelledby="ticket-title">
      <h2 id="ticket-title" tabIndex={-1} data-autofocus={editable || undefined}>
        {t('ticket.title')}
      </h2>
      <p id="line-pick-hint" className="sr-only">
        {t('ticket.pickHint')}
      </p>
      {/* Focusable: a keyboard scrolls a long ticket too (its lines are buttons only while it can change). */}
      <div className="ticket-lines" ref={scroller} tabIndex={0} role="region" aria-label={t('ticket.lines')}>
        <table className="ticket-table" aria-label={t('ticket.lines')}>
          <thead>
            <tr>
              {(['item', 'qty', 'price', 'amount'] as const).map((c) => (
                <th key={c} scope="col">
                  {t(`ticket.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.length === 0 ? (
              <tr>
                <td colSpan={4} className="hint">
                  {t('ticket.empty')}
                </td>
              </tr>
            ) : (
              lines.map((l) => (
                <Fragment key={l.lineId}>
                  <LineRows line={l} selected={l.lineId === selectedId} editable={editable} />
                </Fragment>
              ))
            )}
          </tbody>
        </table>
      </div>
      {editable ? <LineActions ticket={ticket} /> : null}
      <TicketTotals ticket={ticket} />
    </section>
  );
}
