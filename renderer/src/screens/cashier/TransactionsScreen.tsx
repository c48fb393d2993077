import { useEffect, useState, type FormEvent } from 'react';
import type {
  JournalState,
  TransactionListRow,
  TransactionQuery,
  TransactionView,
} from '../../../../common/bridge/contract';
import {
  askedCents,
  cardChargedCents,
  refundableCents,
  shownCents,
  takenCents,
} from '../../../../common/transaction-amounts';
import { cardLabel, formatCents, formatTime, parseMoney } from '../../format/money';
import {
  groupBySale,
  groupTitle,
  isPayment,
  isTicket,
  operationWords,
  statusWord,
} from '../../format/transaction-groups';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSale, useSaleStore, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { DigitsField, ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { ReceiptDialog } from './ReceiptPanel';

const stateTone: Partial<Record<JournalState, string>> = {
  approved: 'badge-ok',
  partial: 'badge-warn',
  declined: 'badge-bad',
  failed: 'badge-bad',
  unknown: 'badge-bad',
  reversing: 'badge-warn',
  reversed: 'badge-muted',
  voided: 'badge-muted',
  refunded: 'badge-muted',
  stored: 'badge-warn',
};

/** States whose journal message explains something; an approved or settled row's message is stale. */
const explained: ReadonlySet<JournalState> = new Set([
  'sending',
  'declined',
  'unknown',
  'awaiting-card',
  'reversing',
  'reversed',
  'stored',
  'failed',
]);

/**
 * The tenders whose money goes back to the card through the gateway's DoRefund. A hold charged nothing
 * (only the hold is voided); gift, EBT and check money have refunds of their own that the gateway refuses
 * here, so offering the button would only end in an error at the counter.
 */
const cardRefundOperations: ReadonlySet<TransactionView['operation']> = new Set([
  'sale',
  'preauth-complete',
  'debit',
  'token-sale',
]);

/** Card money that can still be given back: approved at the gateway, with something left to refund. */
function refundable(t: TransactionView): boolean {
  return (
    (t.state === 'approved' || t.state === 'partial') &&
    t.serviceReferenceNumber !== undefined &&
    isPayment(t) &&
    t.operation !== 'cash' &&
    refundableCents(t) > 0
  );
}

/** A cash sale with money left to give back: refunded in cash from the till in the drawer. */
function cashRefundable(t: TransactionView): boolean {
  return t.operation === 'cash' && t.state === 'approved' && refundableCents(t) > 0;
}

type Action = { kind: 'refund' | 'void' | 'cash-refund'; tx: TransactionView };

/** The refund or void just done: what it gave back, and its receipt (printed by itself, or offered). */
type Done = { kind: 'refund' | 'void'; tx: TransactionView; card: string };

function RefundDialog({
  action,
  onDone,
}: {
  action: Action;
  onDone: (message?: string, done?: Done) => void;
}) {
  const bridge = useBridge();
  const app = useAppStore();
  const zone = useStoreZone();
  const max = refundableCents(action.tx);
  const [amount, setAmount] = useState((max / 100).toFixed(2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isVoid = action.kind === 'void';
  const isCash = action.kind === 'cash-refund';
  const card = isCash ? 'cash' : cardLabel(action.tx);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const cents = isVoid ? max : parseMoney(amount);
    if (cents === undefined || cents <= 0 || cents > max) {
      setError(`Enter an amount from 0.01 to ${formatCents(max)}.`);
      return;
    }
    const srn = action.tx.serviceReferenceNumber ?? '';
    setBusy(true);
    if (isCash) {
      // The cash comes out of the till in the drawer (the till records the refund; the sale learns it).
      const utn = action.tx.userTransactionNumber;
      const cashR = await app.getState().withManager(`Refund ${formatCents(cents)} in cash.`, (approval) =>
        bridge.send('till.refund', {
          userTransactionNumber: utn,
          ...(cents === max ? {} : { amountCents: cents }),
          ...(approval ? { approval } : {}),
        }),
      );
      setBusy(false);
      if (!cashR) return;
      if (!cashR.ok) return setError(describeError(cashR.error));
      onDone(`Refunded ${formatCents(cashR.value.movement.amountCents)} in cash: the drawer is open.`);
      return;
    }
    const reason = isVoid
      ? `Void the ${formatCents(takenCents(action.tx))} ${card} payment.`
      : `Refund ${formatCents(cents)} to ${card}.`;
    const r = await app.getState().withManager(reason, (approval) =>
      isVoid
        ? bridge.send('transactions.void', { serviceReferenceNumber: srn, ...(approval ? { approval } : {}) })
        : bridge.send('transactions.refund', {
            serviceReferenceNumber: srn,
            ...(cents === max ? {} : { amountCents: cents }),
            ...(approval ? { approval } : {}),
          }),
    );
    setBusy(false);
    if (!r) return;
    if (!r.ok) {
      setError(describeError(r.error));
      return;
    }
    const tx = r.value.transaction;
    if (tx.state === 'approved' || tx.state === 'refunded' || tx.state === 'voided')
      onDone(isVoid ? 'Payment voided.' : `Refunded ${formatCents(shownCents(tx))}.`, {
        kind: isVoid ? 'void' : 'refund',
        tx,
        card,
      });
    else setError(tx.message ?? `The ${action.kind} ended ${tx.state}.`);
  };
  return (
    <Dialog
      title={isVoid ? 'Void payment' : isCash ? 'Cash refund' : 'Refund'}
      onClose={() => onDone()}
      initialFocus={isVoid ? 'confirm-action' : 'refund-amount'}
    >
      <form onSubmit={(e) => void submit(e)} className="stack">
        <p>
          {operationWords[action.tx.operation]} · {isCash ? '' : `${card} · `}
          {formatCents(shownCents(action.tx))} at {formatTime(action.tx.createdAt, zone)}
          {action.tx.cashBackCents > 0 ? ` (cash back ${formatCents(action.tx.cashBackCents)} apart)` : ''}
        </p>
        {isVoid ? (
          <p>The whole payment is cancelled before settlement.</p>
        ) : (
          <InputField
            id="refund-amount"
            label={`Refund amount (up to ${formatCents(max)})`}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        )}
        <p className="hint">
          {isCash ? 'The cash comes out of the till in the drawer. ' : ''}A manager must approve this.
        </p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={() => onDone()}>
            Back
          </button>
          <button id="confirm-action" type="submit" className="btn btn-danger" disabled={busy}>
            {isVoid ? 'Void payment' : 'Refund'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The refund or void just done, with its receipt: printed by itself where a printer is, offered always. */
function DonePanel({ done, onClose }: { done: Done; onClose: () => void }) {
  const bridge = useBridge();
  const sale = useSaleStore();
  const [note, setNote] = useState<string | null>(null);
  const utn = done.tx.userTransactionNumber;
  useEffect(
    () =>
      bridge.on('receipt.printed', (r) => {
        if (r.userTransactionNumber === utn)
          setNote(
            r.printed ? 'Receipt printed.' : `Receipt not printed: ${r.reason ?? 'printer unavailable'}.`,
          );
      }),
    [bridge, utn],
  );
  const what = done.kind === 'void' ? 'Voided' : 'Refunded';
  return (
    <section aria-labelledby="tx-done-title" className="card">
      <h2 id="tx-done-title">
        {what} {formatCents(shownCents(done.tx))} {done.kind === 'void' ? 'on' : 'to'} {done.card}
      </h2>
      <p role="status">{note ?? ''}</p>
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().printTransactionReceipt(utn)}
        >
          Print receipt
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().showTransactionReceipt(utn)}
        >
          Show receipt
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Done
        </button>
      </div>
    </section>
  );
}

function AmountCell({ t }: { t: TransactionView }) {
  return (
    <td className="num">
      <span data-testid="tx-amount">{formatCents(shownCents(t))}</span>
      {t.state === 'partial' ? <div className="hint">{formatCents(askedCents(t))} asked</div> : null}
      {t.cashBackCents > 0 && takenCents(t) > 0 ? (
        <div className="hint">
          + cash back {formatCents(t.cashBackCents)} · card charged {formatCents(cardChargedCents(t))}
        </div>
      ) : null}
      {t.refundedCents > 0 ? <div className="hint">refunded {formatCents(t.refundedCents)}</div> : null}
    </td>
  );
}

/** Rows per page: a busy day's list arrives a page at a time (transactions.list is keyset-paged). */
export const TRANSACTIONS_PAGE = 50;

/**
 * The pages after the first one, asked with the last row's cursor; cleared whenever the first page is
 * read again (a new search, Show all, a refund), so a page never sits under a first page it did not follow.
 */
function useEarlierPages(query: TransactionQuery, first: readonly TransactionListRow[] | undefined) {
  const bridge = useBridge();
  const [pages, setPages] = useState<TransactionListRow[][]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setPages([]);
    setError(null);
  }, [first]);
  const last = pages.at(-1) ?? first ?? [];
  const more = last.length === TRANSACTIONS_PAGE;
  const showEarlier = async () => {
    const cursor = last.at(-1)?.cursor;
    if (!cursor) return;
    setLoading(true);
    const r = await bridge.send('transactions.list', { ...query, limit: TRANSACTIONS_PAGE, before: cursor });
    setLoading(false);
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    setPages((p) => [...p, r.value]);
  };
  return { rows: pages.flat(), more, loading, error, showEarlier, asked: pages.length > 0 };
}

/** Today's transactions on this lane, grouped by sale, searchable by last four or amount, with refund and void. */
export function TransactionsScreen() {
  const [last4, setLast4] = useState('');
  const [amount, setAmount] = useState('');
  const [query, setQuery] = useState<TransactionQuery>({ limit: TRANSACTIONS_PAGE });
  const [formError, setFormError] = useState<string | null>(null);
  const [action, setAction] = useState<Action | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const list = useCommand('transactions.list', query, JSON.stringify(query));
  const app = useAppStore();
  const sale = useSaleStore();
  const zone = useStoreZone();
  const receiptNote = useSale((s) => s.receiptNote);

  const search = (e: FormEvent) => {
    e.preventDefault();
    const q: TransactionQuery = { limit: TRANSACTIONS_PAGE };
    if (last4.length > 0) {
      if (!/^\d{4}$/.test(last4)) return setFormError('Last four is exactly four digits.');
      q.last4 = last4;
    }
    if (amount.trim().length > 0) {
      const cents = parseMoney(amount);
      if (cents === undefined) return setFormError('Type the amount like 12.50.');
      q.amountCents = cents;
    }
    setFormError(null);
    setQuery(q);
  };

  const earlier = useEarlierPages(query, list.data);
  const rows = [...(list.data ?? []), ...earlier.rows];
  const groups = groupBySale(rows);
  return (
    <div>
      <h1 tabIndex={-1}>Today’s transactions</h1>
      <form className="row card" onSubmit={search} role="search" aria-label="Find a transaction">
        <DigitsField id="search-last4" label="Last four" maxLength={4} value={last4} onDigits={setLast4} />
        <InputField
          id="search-amount"
          label="Amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setLast4('');
            setAmount('');
            setQuery({ limit: TRANSACTIONS_PAGE });
            void list.reload();
          }}
        >
          Show all
        </button>
        <button type="button" className="btn" onClick={() => void sale.getState().reprintLast()}>
          Reprint last receipt
        </button>
      </form>
      {done ? (
        <DonePanel key={done.tx.userTransactionNumber} done={done} onClose={() => setDone(null)} />
      ) : null}
      {receiptNote ? <p role="status">{receiptNote}</p> : null}
      <ErrorAlert message={formError} />
      <ErrorAlert message={list.error} />
      <table className="data" aria-describedby="tx-count">
        <caption id="tx-count" className="hint" style={{ textAlign: 'left' }}>
          {list.loading
            ? 'Loading…'
            : `${rows.length} transaction${rows.length === 1 ? '' : 's'}${earlier.more ? ', newest first: earlier ones below' : ''}`}
        </caption>
        <TableHead
          columns={['Time', 'Type', 'Card', 'Amount', 'Status', 'By', 'Auth / number', 'Actions']}
          numeric={['Amount']}
        />
        {groups.map((g) => {
          const title = groupTitle(g, zone);
          return (
            <tbody key={g.key} aria-label={title} className="tx-group">
              {/* A ticket's tenders under one heading; a payment outside a ticket is its own row. */}
              {isTicket(g) ? (
                <tr className="tx-group-head">
                  <th scope="rowgroup" colSpan={8}>
                    {title}
                  </th>
                </tr>
              ) : null}
              {g.rows.map((t) => (
                <tr key={t.userTransactionNumber} data-utn={t.userTransactionNumber} data-state={t.state}>
                  <td>{formatTime(t.createdAt, zone)}</td>
                  <td>{operationWords[t.operation]}</td>
                  <td>{t.last4 ? cardLabel(t) : '—'}</td>
                  <AmountCell t={t} />
                  <td>
                    <span className={`badge ${stateTone[t.state] ?? 'badge-muted'}`}>{statusWord(t)}</span>
                    {t.message && explained.has(t.state) ? <div className="hint">{t.message}</div> : null}
                  </td>
                  <td>
                    {t.employeeName ?? '—'}
                    {t.approvedByName ? <div className="hint">approved by {t.approvedByName}</div> : null}
                  </td>
                  {/* The auth code and the lane's number share a cell: a 1024 px counter has no room for
                      both beside the names, and the buttons must stay on screen. */}
                  <td>
                    {t.authCode ?? '—'}
                    <div className="hint tx-number">{t.userTransactionNumber}</div>
                  </td>
                  <td>
                    <div className="row">
                      {t.ticketId || !isPayment(t) ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() =>
                            void (t.ticketId
                              ? sale.getState().printFor(t.ticketId)
                              : sale.getState().printTransactionReceipt(t.userTransactionNumber))
                          }
                          aria-label={`Receipt for ${t.userTransactionNumber}`}
                        >
                          Receipt
                        </button>
                      ) : null}
                      {cashRefundable(t) ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => setAction({ kind: 'cash-refund', tx: t })}
                          aria-label={`Refund cash ${formatCents(refundableCents(t))}`}
                        >
                          Refund cash
                        </button>
                      ) : null}
                      {refundable(t) ? (
                        <>
                          {cardRefundOperations.has(t.operation) ? (
                            <button
                              type="button"
                              className="btn btn-small"
                              onClick={() => setAction({ kind: 'refund', tx: t })}
                              aria-label={`Refund ${formatCents(refundableCents(t))} ${cardLabel(t)}`}
                            >
                              Refund
                            </button>
                          ) : null}
                          {/* A settled payment can only be refunded: the gateway refuses its void. */}
                          {t.refundedCents === 0 && t.settled !== true ? (
                            <button
                              type="button"
                              className="btn btn-small"
                              onClick={() => setAction({ kind: 'void', tx: t })}
                              aria-label={`Void ${formatCents(takenCents(t))} ${cardLabel(t)}`}
                            >
                              Void
                            </button>
                          ) : null}
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
      <ErrorAlert message={earlier.error} />
      {earlier.more ? (
        <div className="row">
          <button
            type="button"
            className="btn"
            disabled={earlier.loading}
            onClick={() => void earlier.showEarlier()}
          >
            {earlier.loading ? 'Loading…' : 'Show earlier'}
          </button>
        </div>
      ) : earlier.asked ? (
        <p className="hint" data-testid="tx-no-earlier">
          No earlier transactions{query.last4 || query.amountCents !== undefined ? ' match' : ' today'}.
        </p>
      ) : null}
      {action ? (
        <RefundDialog
          action={action}
          onDone={(message, finished) => {
            setAction(null);
            if (finished) setDone(finished);
            if (message) {
              app.getState().notify('success', message);
              void list.reload();
            }
          }}
        />
      ) : null}
      <ReceiptDialog />
    </div>
  );
}
