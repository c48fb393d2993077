import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import { cardWords } from '../../format/card-words';
import { formatCents, formatTime, parseMoney } from '../../format/money';
import {
  groupBySale,
  groupTitle,
  isPayment,
  isTicket,
  operationWord,
  statusWord,
} from '../../format/transaction-groups';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSale, useSaleStore, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { DigitsField, ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { ReceiptDialog } from './ReceiptPanel';
import './transactions.css';

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
  const { t } = useTranslation(['transactions', 'common']);
  const bridge = useBridge();
  const app = useAppStore();
  const zone = useStoreZone();
  const max = refundableCents(action.tx);
  const [amount, setAmount] = useState((max / 100).toFixed(2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isVoid = action.kind === 'void';
  const isCash = action.kind === 'cash-refund';
  const card = isCash ? '' : cardWords(action.tx);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const cents = isVoid ? max : parseMoney(amount);
    if (cents === undefined || cents <= 0 || cents > max) {
      setError(t('dialog.amountRange', { amount: formatCents(max) }));
      return;
    }
    const srn = action.tx.serviceReferenceNumber ?? '';
    setBusy(true);
    if (isCash) {
      // The cash comes out of the till in the drawer (the till records the refund; the sale learns it).
      const utn = action.tx.userTransactionNumber;
      const cashR = await app
        .getState()
        .withManager(t('dialog.approveCash', { amount: formatCents(cents) }), (approval) =>
          bridge.send('till.refund', {
            userTransactionNumber: utn,
            ...(cents === max ? {} : { amountCents: cents }),
            ...(approval ? { approval } : {}),
          }),
        );
      setBusy(false);
      if (!cashR) return;
      if (!cashR.ok) return setError(describeError(cashR.error));
      onDone(t('dialog.cashDone', { amount: formatCents(cashR.value.movement.amountCents) }));
      return;
    }
    const reason = isVoid
      ? t('dialog.approveVoid', { amount: formatCents(takenCents(action.tx)), card })
      : t('dialog.approveRefund', { amount: formatCents(cents), card });
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
      onDone(
        isVoid ? t('dialog.voidDone') : t('dialog.refundDone', { amount: formatCents(shownCents(tx)) }),
        {
          kind: isVoid ? 'void' : 'refund',
          tx,
          card,
        },
      );
    else
      setError(
        tx.message ?? t(isVoid ? 'dialog.endedVoid' : 'dialog.endedRefund', { state: statusWord(tx) }),
      );
  };
  return (
    <Dialog
      title={isVoid ? t('dialog.voidTitle') : isCash ? t('dialog.cashTitle') : t('dialog.refundTitle')}
      onClose={() => onDone()}
      initialFocus={isVoid ? 'confirm-action' : 'refund-amount'}
    >
      <form onSubmit={(e) => void submit(e)} className="stack">
        <p>
          {t(isCash ? 'dialog.whatCash' : 'dialog.what', {
            operation: operationWord(action.tx.operation),
            card,
            amount: formatCents(shownCents(action.tx)),
            time: formatTime(action.tx.createdAt, zone),
          })}
          {action.tx.cashBackCents > 0
            ? t('dialog.cashBackApart', { amount: formatCents(action.tx.cashBackCents) })
            : ''}
        </p>
        {isVoid ? (
          <p>{t('dialog.voidWhole')}</p>
        ) : (
          <InputField
            id="refund-amount"
            label={t('dialog.amount', { amount: formatCents(max) })}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        )}
        <p className="hint">{isCash ? t('dialog.cashHint') : t('dialog.managerHint')}</p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={() => onDone()}>
            {t('common:back')}
          </button>
          <button id="confirm-action" type="submit" className="btn btn-danger" disabled={busy}>
            {isVoid ? t('dialog.voidTitle') : t('refund')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The refund or void just done, with its receipt: printed by itself where a printer is, offered always. */
function DonePanel({ done, onClose }: { done: Done; onClose: () => void }) {
  const { t } = useTranslation(['transactions', 'common']);
  const bridge = useBridge();
  const sale = useSaleStore();
  const [note, setNote] = useState<string | null>(null);
  const utn = done.tx.userTransactionNumber;
  useEffect(
    () =>
      bridge.on('receipt.printed', (r) => {
        if (r.userTransactionNumber === utn)
          setNote(
            r.printed
              ? t('done.printed')
              : t('done.notPrinted', { reason: r.reason ?? t('done.printerUnavailable') }),
          );
      }),
    [bridge, utn, t],
  );
  return (
    <section aria-labelledby="tx-done-title" className="card">
      <h2 id="tx-done-title">
        {t(done.kind === 'void' ? 'done.voided' : 'done.refunded', {
          amount: formatCents(shownCents(done.tx)),
          card: done.card,
        })}
      </h2>
      <p role="status">{note ?? ''}</p>
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().printTransactionReceipt(utn)}
        >
          {t('done.print')}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().showTransactionReceipt(utn)}
        >
          {t('done.show')}
        </button>
        <button type="button" className="btn" onClick={onClose}>
          {t('common:done')}
        </button>
      </div>
    </section>
  );
}

function AmountCell({ tx }: { tx: TransactionView }) {
  const { t } = useTranslation(['transactions', 'common']);
  return (
    <td className="num">
      <span data-testid="tx-amount">{formatCents(shownCents(tx))}</span>
      {tx.state === 'partial' ? (
        <div className="hint">{t('asked', { amount: formatCents(askedCents(tx)) })}</div>
      ) : null}
      {tx.cashBackCents > 0 && takenCents(tx) > 0 ? (
        <div className="hint">
          {t('cashBack', {
            cashBack: formatCents(tx.cashBackCents),
            charged: formatCents(cardChargedCents(tx)),
          })}
        </div>
      ) : null}
      {tx.refundedCents > 0 ? (
        <div className="hint">{t('refundedSoFar', { amount: formatCents(tx.refundedCents) })}</div>
      ) : null}
    </td>
  );
}

/** The list's columns, in order (their words: the `transactions` catalog's `columns`). */
const COLUMNS = ['time', 'type', 'card', 'amount', 'status', 'by', 'auth', 'actions'] as const;

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
  const { t } = useTranslation(['transactions', 'common']);
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
      if (!/^\d{4}$/.test(last4)) return setFormError(t('search.last4Shape'));
      q.last4 = last4;
    }
    if (amount.trim().length > 0) {
      const cents = parseMoney(amount);
      if (cents === undefined) return setFormError(t('search.amountShape'));
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
      <h1 tabIndex={-1}>{t('title')}</h1>
      <form className="row card" onSubmit={search} role="search" aria-label={t('search.label')}>
        <DigitsField
          id="search-last4"
          label={t('search.last4')}
          maxLength={4}
          value={last4}
          onDigits={setLast4}
        />
        <InputField
          id="search-amount"
          label={t('search.amount')}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {t('search.submit')}
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
          {t('search.showAll')}
        </button>
        <button type="button" className="btn" onClick={() => void sale.getState().reprintLast()}>
          {t('search.reprint')}
        </button>
      </form>
      {done ? (
        <DonePanel key={done.tx.userTransactionNumber} done={done} onClose={() => setDone(null)} />
      ) : null}
      {/* The sale store's note on a receipt printed or not (its words come with the sale screen's). */}
      {receiptNote ? (
        <p role="status" className="receipt-note">
          {receiptNote}
        </p>
      ) : null}
      <ErrorAlert message={formError} />
      <ErrorAlert message={list.error} />
      <table className="data" aria-describedby="tx-count">
        <caption id="tx-count" className="hint" style={{ textAlign: 'left' }}>
          {list.loading
            ? t('common:loading')
            : t(earlier.more ? 'countMore' : 'count', { count: rows.length })}
        </caption>
        <TableHead columns={COLUMNS.map((c) => t(`columns.${c}`))} numeric={[t('columns.amount')]} />
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
              {g.rows.map((tx) => (
                <tr key={tx.userTransactionNumber} data-utn={tx.userTransactionNumber} data-state={tx.state}>
                  <td>{formatTime(tx.createdAt, zone)}</td>
                  <td>{operationWord(tx.operation)}</td>
                  <td>{tx.last4 ? cardWords(tx) : '—'}</td>
                  <AmountCell tx={tx} />
                  <td>
                    <span className={`badge ${stateTone[tx.state] ?? 'badge-muted'}`}>{statusWord(tx)}</span>
                    {tx.message && explained.has(tx.state) ? <div className="hint">{tx.message}</div> : null}
                  </td>
                  <td>
                    {tx.employeeName ?? '—'}
                    {tx.approvedByName ? (
                      <div className="hint">{t('approvedBy', { name: tx.approvedByName })}</div>
                    ) : null}
                  </td>
                  {/* The auth code and the lane's number share a cell: a 1024 px counter has no room for
                      both beside the names, and the buttons must stay on screen. */}
                  <td>
                    {tx.authCode ?? '—'}
                    <div className="hint tx-number">{tx.userTransactionNumber}</div>
                  </td>
                  <td className="tx-actions">
                    <div className="row">
                      {tx.ticketId || !isPayment(tx) ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() =>
                            void (tx.ticketId
                              ? sale.getState().printFor(tx.ticketId)
                              : sale.getState().printTransactionReceipt(tx.userTransactionNumber))
                          }
                          aria-label={t('receiptFor', { number: tx.userTransactionNumber })}
                        >
                          {t('receipt')}
                        </button>
                      ) : null}
                      {cashRefundable(tx) ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => setAction({ kind: 'cash-refund', tx })}
                          aria-label={t('refundCashLabel', { amount: formatCents(refundableCents(tx)) })}
                        >
                          {t('refundCash')}
                        </button>
                      ) : null}
                      {refundable(tx) ? (
                        <>
                          {cardRefundOperations.has(tx.operation) ? (
                            <button
                              type="button"
                              className="btn btn-small"
                              onClick={() => setAction({ kind: 'refund', tx })}
                              aria-label={t('refundLabel', {
                                amount: formatCents(refundableCents(tx)),
                                card: cardWords(tx),
                              })}
                            >
                              {t('refund')}
                            </button>
                          ) : null}
                          {/* A settled payment can only be refunded: the gateway refuses its void. */}
                          {tx.refundedCents === 0 && tx.settled !== true ? (
                            <button
                              type="button"
                              className="btn btn-small"
                              onClick={() => setAction({ kind: 'void', tx })}
                              aria-label={t('voidLabel', {
                                amount: formatCents(takenCents(tx)),
                                card: cardWords(tx),
                              })}
                            >
                              {t('void')}
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
            {earlier.loading ? t('common:loading') : t('showEarlier')}
          </button>
        </div>
      ) : earlier.asked ? (
        <p className="hint" data-testid="tx-no-earlier">
          {query.last4 || query.amountCents !== undefined ? t('noEarlierMatch') : t('noEarlierToday')}
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
