import { useState, type FormEvent } from 'react';
import type { JournalState, TransactionQuery, TransactionView } from '../../../../electron/bridge/contract';
import { cardLabel, formatCents, formatTime, parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSale, useSaleStore } from '../../state/context';
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

const operationWords: Record<TransactionView['operation'], string> = {
  sale: 'Credit sale',
  preauth: 'Pre-authorization',
  'preauth-complete': 'Completion',
  debit: 'Debit sale',
  'ebt-food': 'EBT food',
  'ebt-cash': 'EBT cash',
  'gift-sale': 'Gift sale',
  'gift-reload': 'Gift reload',
  check: 'Check',
  'token-sale': 'Card on file',
  cash: 'Cash',
  refund: 'Refund',
  void: 'Void',
};

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
    t.operation !== 'refund' &&
    t.operation !== 'void' &&
    t.operation !== 'cash' &&
    t.amountCents + t.tipCents - t.refundedCents > 0
  );
}

type Action = { kind: 'refund' | 'void'; tx: TransactionView };

function RefundDialog({ action, onDone }: { action: Action; onDone: (message?: string) => void }) {
  const bridge = useBridge();
  const app = useAppStore();
  const max = action.tx.amountCents + action.tx.tipCents - action.tx.refundedCents;
  const [amount, setAmount] = useState((max / 100).toFixed(2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isVoid = action.kind === 'void';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const cents = isVoid ? max : parseMoney(amount);
    if (cents === undefined || cents <= 0 || cents > max) {
      setError(`Enter an amount from 0.01 to ${formatCents(max)}.`);
      return;
    }
    const srn = action.tx.serviceReferenceNumber ?? '';
    setBusy(true);
    const reason = isVoid
      ? `Void the ${formatCents(max)} ${cardLabel(action.tx)} payment.`
      : `Refund ${formatCents(cents)} to ${cardLabel(action.tx)}.`;
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
    const state = r.value.transaction.state;
    if (state === 'approved' || state === 'refunded' || state === 'voided')
      onDone(isVoid ? 'Payment voided.' : `Refunded ${formatCents(r.value.transaction.amountCents)}.`);
    else setError(r.value.transaction.message ?? `The ${action.kind} ended ${state}.`);
  };
  return (
    <Dialog
      title={isVoid ? 'Void payment' : 'Refund'}
      onClose={() => onDone()}
      initialFocus={isVoid ? 'confirm-action' : 'refund-amount'}
    >
      <form onSubmit={(e) => void submit(e)} className="stack">
        <p>
          {operationWords[action.tx.operation]} · {cardLabel(action.tx)} ·{' '}
          {formatCents(action.tx.amountCents + action.tx.tipCents)} at {formatTime(action.tx.createdAt)}
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
        <p className="hint">A manager must approve this.</p>
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

/** Today's transactions on this lane, searchable by last four or amount, with refund and void. */
export function TransactionsScreen() {
  const [last4, setLast4] = useState('');
  const [amount, setAmount] = useState('');
  const [query, setQuery] = useState<TransactionQuery>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [action, setAction] = useState<Action | null>(null);
  const list = useCommand('transactions.list', query, JSON.stringify(query));
  const app = useAppStore();
  const sale = useSaleStore();
  const receiptNote = useSale((s) => s.receiptNote);

  const search = (e: FormEvent) => {
    e.preventDefault();
    const q: TransactionQuery = {};
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

  const rows = list.data ?? [];
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
            setQuery({});
          }}
        >
          Show all
        </button>
        <button type="button" className="btn" onClick={() => void sale.getState().reprintLast()}>
          Reprint last receipt
        </button>
      </form>
      {receiptNote ? <p role="status">{receiptNote}</p> : null}
      <ErrorAlert message={formError} />
      <ErrorAlert message={list.error} />
      <table className="data" aria-describedby="tx-count">
        <caption id="tx-count" className="hint" style={{ textAlign: 'left' }}>
          {list.loading ? 'Loading…' : `${rows.length} transaction${rows.length === 1 ? '' : 's'}`}
        </caption>
        <TableHead
          columns={['Time', 'Type', 'Card', 'Amount', 'Status', 'By', 'Auth', 'Number', 'Actions']}
          numeric={['Amount']}
        />
        <tbody>
          {rows.map((t) => (
            <tr key={t.userTransactionNumber} data-utn={t.userTransactionNumber} data-state={t.state}>
              <td>{formatTime(t.createdAt)}</td>
              <td>{operationWords[t.operation]}</td>
              <td>{t.last4 ? cardLabel(t) : '—'}</td>
              <td className="num">
                {formatCents(t.amountCents + t.tipCents)}
                {t.refundedCents > 0 ? (
                  <div className="hint">refunded {formatCents(t.refundedCents)}</div>
                ) : null}
              </td>
              <td>
                <span className={`badge ${stateTone[t.state] ?? 'badge-muted'}`}>{t.state}</span>
                {t.message && t.state !== 'approved' ? <div className="hint">{t.message}</div> : null}
              </td>
              <td>
                {t.employeeName ?? '—'}
                {t.approvedByName ? <div className="hint">approved by {t.approvedByName}</div> : null}
              </td>
              <td>{t.authCode ?? ''}</td>
              <td>{t.userTransactionNumber}</td>
              <td>
                <div className="row">
                  {t.ticketId ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => void sale.getState().printFor(t.ticketId ?? '')}
                      aria-label={`Receipt for ${t.userTransactionNumber}`}
                    >
                      Receipt
                    </button>
                  ) : null}
                  {refundable(t) ? (
                    <>
                      {cardRefundOperations.has(t.operation) ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => setAction({ kind: 'refund', tx: t })}
                          aria-label={`Refund ${formatCents(t.amountCents + t.tipCents)} ${cardLabel(t)}`}
                        >
                          Refund
                        </button>
                      ) : null}
                      {t.refundedCents === 0 ? (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => setAction({ kind: 'void', tx: t })}
                          aria-label={`Void ${formatCents(t.amountCents + t.tipCents)} ${cardLabel(t)}`}
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
      </table>
      {action ? (
        <RefundDialog
          action={action}
          onDone={(message) => {
            setAction(null);
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
