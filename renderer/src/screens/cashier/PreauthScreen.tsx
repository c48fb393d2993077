import { useState, type FormEvent } from 'react';
import type { TransactionView } from '../../../../common/bridge/contract';
import { cardLabel, formatCents, formatDateTime, parseMoney, tipOf } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useSale, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

/**
 * How far back the screen looks for holds. transactions.list reads today by default; a hold is usually
 * completed within days (card brands release an unused one after about a week), so a week covers it.
 */
const LOOK_BACK_MS = 7 * 24 * 60 * 60 * 1000;

/** States of a completion that still stand against its hold (a declined or failed one leaves it open). */
const completionStands = new Set<TransactionView['state']>([
  'sending',
  'approved',
  'partial',
  'unknown',
  'reversing',
  'stored',
]);

/**
 * The lane's holds not yet completed. The journal does not mark a hold as completed: its completion is a
 * separate row naming the hold's gateway id, so the screen pairs them (docs/screens.md, proposals).
 */
export function openHolds(rows: readonly TransactionView[]): TransactionView[] {
  const completed = new Set(
    rows
      .filter((t) => t.operation === 'preauth-complete' && completionStands.has(t.state))
      .map((t) => t.originalServiceReferenceNumber),
  );
  return rows.filter(
    (t) =>
      t.operation === 'preauth' &&
      t.state === 'approved' &&
      t.serviceReferenceNumber !== undefined &&
      !completed.has(t.serviceReferenceNumber),
  );
}

function CompleteDialog({ hold, onDone }: { hold: TransactionView; onDone: (message?: string) => void }) {
  const zone = useStoreZone();
  const bridge = useBridge();
  const app = useAppStore();
  const presets = useSale((s) => s.settings?.tipPresetsPercent) ?? [15, 18, 20];
  const [amount, setAmount] = useState((hold.amountCents / 100).toFixed(2));
  const [tip, setTip] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const amountCents = parseMoney(amount);
  const tipCents = tip.trim() === '' ? 0 : parseMoney(tip);
  const total = amountCents !== undefined && tipCents !== undefined ? amountCents + tipCents : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (amountCents === undefined || amountCents <= 0 || amountCents > hold.amountCents)
      return setError(`Enter a final amount from 0.01 to ${formatCents(hold.amountCents)}.`);
    if (tipCents === undefined) return setError('Type the tip like 3.00, or leave it empty.');
    setBusy(true);
    setError(null);
    const payload = {
      serviceReferenceNumber: hold.serviceReferenceNumber ?? '',
      amountCents,
      ...(tipCents > 0 ? { tipCents } : {}),
    };
    let r = await bridge.send('preauth.complete', payload);
    // A tip above the lane's share of the hold needs a manager (the core says so): ask for the PIN.
    if (!r.ok && r.error.code === 'forbidden') {
      const approved = await app
        .getState()
        .withManager(
          `Approve a tip of ${formatCents(tipCents)} on a hold of ${formatCents(hold.amountCents)}.`,
          (approval) => bridge.send('preauth.complete', { ...payload, ...(approval ? { approval } : {}) }),
        );
      if (!approved) {
        setBusy(false);
        return setError('Not completed: a manager must approve this tip.');
      }
      r = approved;
    }
    setBusy(false);
    if (!r.ok) return setError(describeError(r.error));
    const done = r.value;
    onDone(
      `Completed ${formatCents(done.amountCents + done.tipCents)}` +
        (done.tipCents > 0 ? ` (tip ${formatCents(done.tipCents)})` : '') +
        ` on ${cardLabel(done)}.`,
    );
  };

  return (
    <Dialog title="Complete pre-authorization" onClose={() => onDone()} initialFocus="preauth-amount">
      <form onSubmit={(e) => void submit(e)} className="stack">
        <p>
          {cardLabel(hold)} · held {formatCents(hold.amountCents)} at {formatDateTime(hold.createdAt, zone)}
          {hold.authCode ? ` · auth ${hold.authCode}` : ''}
        </p>
        <InputField
          id="preauth-amount"
          label={`Final amount (up to ${formatCents(hold.amountCents)})`}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <InputField
          id="preauth-tip"
          label="Tip (empty: no tip)"
          inputMode="decimal"
          autoComplete="off"
          value={tip}
          onChange={(e) => setTip(e.target.value)}
        />
        {amountCents !== undefined && amountCents > 0 ? (
          <div className="row" role="group" aria-label="Tip presets">
            <button type="button" className="btn btn-small" onClick={() => setTip('')}>
              No tip
            </button>
            {presets.map((p) => {
              const cents = tipOf(amountCents, p);
              return (
                <button
                  key={p}
                  type="button"
                  className="btn btn-small"
                  onClick={() => setTip((cents / 100).toFixed(2))}
                >
                  {p}% ({formatCents(cents)})
                </button>
              );
            })}
          </div>
        ) : null}
        <p className="hint">
          A large tip (more than the lane allows on a hold, 20 % unless changed) needs a manager’s PIN.
        </p>
        <p aria-live="polite" data-testid="preauth-total">
          {total !== undefined ? `Total to charge: ${formatCents(total)}` : 'Check the amounts.'}
        </p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={() => onDone()}>
            Back
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {total !== undefined ? `Complete ${formatCents(total)}` : 'Complete'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Holds taken with the Pre-auth tender, and their completion with the final amount and the tip. */
export function PreauthScreen() {
  const zone = useStoreZone();
  // Read once per visit: the week's start does not need to move while the screen is open.
  const [since] = useState(() => Date.now() - LOOK_BACK_MS);
  const list = useCommand('transactions.list', { since, limit: 1000 });
  const app = useAppStore();
  const [hold, setHold] = useState<TransactionView | null>(null);
  const holds = openHolds(list.data ?? []);
  return (
    <div>
      <h1 tabIndex={-1}>Pre-authorizations</h1>
      <p className="hint">
        Open holds of the last 7 days on this lane. A hold is taken on the Sale screen with Pre-auth (A); it
        charges nothing until it is completed here.
      </p>
      <div className="row">
        <button type="button" className="btn" onClick={() => void list.reload()} disabled={list.loading}>
          Refresh
        </button>
      </div>
      <ErrorAlert message={list.error} />
      <table className="data" aria-describedby="preauth-count">
        <caption id="preauth-count" className="hint" style={{ textAlign: 'left' }}>
          {list.loading && !list.data
            ? 'Loading…'
            : `${holds.length} open hold${holds.length === 1 ? '' : 's'}`}
        </caption>
        <TableHead columns={['Time', 'Card', 'Held', 'Auth', 'Number', 'Actions']} numeric={['Held']} />
        <tbody>
          {holds.map((t) => (
            <tr key={t.userTransactionNumber} data-utn={t.userTransactionNumber}>
              <td>{formatDateTime(t.createdAt, zone)}</td>
              <td>{t.last4 ? cardLabel(t) : '—'}</td>
              <td className="num">{formatCents(t.amountCents)}</td>
              <td>{t.authCode ?? ''}</td>
              <td>{t.userTransactionNumber}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  onClick={() => setHold(t)}
                  aria-label={`Complete ${formatCents(t.amountCents)} ${cardLabel(t)}`}
                >
                  Complete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {hold ? (
        <CompleteDialog
          hold={hold}
          onDone={(message) => {
            setHold(null);
            if (message) {
              app.getState().notify('success', message);
              void list.reload();
            }
          }}
        />
      ) : null}
    </div>
  );
}
