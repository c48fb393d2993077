import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransactionView } from '../../../../common/bridge/contract';
import { cardWords } from '../../format/card-words';
import { formatCents, formatDateTime, parseMoney, tipOf } from '../../format/money';
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

/** The list's columns, in order (their words: the `preauths` catalog's `columns`). */
const COLUMNS = ['time', 'card', 'held', 'auth', 'number', 'actions'] as const;

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
  const { t } = useTranslation(['preauths', 'common']);
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
      return setError(t('dialog.amountRange', { amount: formatCents(hold.amountCents) }));
    if (tipCents === undefined) return setError(t('dialog.tipShape'));
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
          t('dialog.approveTip', { tip: formatCents(tipCents), amount: formatCents(hold.amountCents) }),
          (approval) => bridge.send('preauth.complete', { ...payload, ...(approval ? { approval } : {}) }),
        );
      if (!approved) {
        setBusy(false);
        return setError(t('dialog.notApproved'));
      }
      r = approved;
    }
    setBusy(false);
    if (!r.ok) return setError(describeError(r.error));
    const done = r.value;
    const words = { amount: formatCents(done.amountCents + done.tipCents), card: cardWords(done) };
    onDone(
      done.tipCents > 0
        ? t('dialog.doneTip', { ...words, tip: formatCents(done.tipCents) })
        : t('dialog.done', words),
    );
  };

  return (
    <Dialog title={t('dialog.title')} onClose={() => onDone()} initialFocus="preauth-amount">
      <form onSubmit={(e) => void submit(e)} className="stack">
        <p>
          {t('dialog.held', {
            card: cardWords(hold),
            amount: formatCents(hold.amountCents),
            time: formatDateTime(hold.createdAt, zone),
          })}
          {hold.authCode ? t('dialog.auth', { code: hold.authCode }) : ''}
        </p>
        <InputField
          id="preauth-amount"
          label={t('dialog.amount', { amount: formatCents(hold.amountCents) })}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <InputField
          id="preauth-tip"
          label={t('dialog.tip')}
          inputMode="decimal"
          autoComplete="off"
          value={tip}
          onChange={(e) => setTip(e.target.value)}
        />
        {amountCents !== undefined && amountCents > 0 ? (
          <div className="row" role="group" aria-label={t('dialog.presets')}>
            <button type="button" className="btn btn-small" onClick={() => setTip('')}>
              {t('dialog.noTip')}
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
                  {t('dialog.preset', { percent: p, amount: formatCents(cents) })}
                </button>
              );
            })}
          </div>
        ) : null}
        <p className="hint">{t('dialog.hint')}</p>
        <p aria-live="polite" data-testid="preauth-total">
          {total !== undefined ? t('dialog.total', { amount: formatCents(total) }) : t('dialog.check')}
        </p>
        <ErrorAlert message={error} />
        <div className="row">
          <button type="button" className="btn" onClick={() => onDone()}>
            {t('dialog.back')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {total !== undefined
              ? t('dialog.submitAmount', { amount: formatCents(total) })
              : t('dialog.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Holds taken with the Pre-auth tender, and their completion with the final amount and the tip. */
export function PreauthScreen() {
  const { t } = useTranslation(['preauths', 'common']);
  const zone = useStoreZone();
  // Read once per visit: the week's start does not need to move while the screen is open.
  const [since] = useState(() => Date.now() - LOOK_BACK_MS);
  const list = useCommand('transactions.list', { since, limit: 1000 });
  const app = useAppStore();
  const [hold, setHold] = useState<TransactionView | null>(null);
  const holds = openHolds(list.data ?? []);
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <p className="hint">{t('intro')}</p>
      <div className="row">
        <button type="button" className="btn" onClick={() => void list.reload()} disabled={list.loading}>
          {t('refresh')}
        </button>
      </div>
      <ErrorAlert message={list.error} />
      <table className="data" aria-describedby="preauth-count">
        <caption id="preauth-count" className="hint" style={{ textAlign: 'left' }}>
          {list.loading && !list.data ? t('common:loading') : t('count', { count: holds.length })}
        </caption>
        <TableHead columns={COLUMNS.map((c) => t(`columns.${c}`))} numeric={[t('columns.held')]} />
        <tbody>
          {holds.map((h) => (
            <tr key={h.userTransactionNumber} data-utn={h.userTransactionNumber}>
              <td>{formatDateTime(h.createdAt, zone)}</td>
              <td>{h.last4 ? cardWords(h) : '—'}</td>
              <td className="num">{formatCents(h.amountCents)}</td>
              <td>{h.authCode ?? ''}</td>
              <td>{h.userTransactionNumber}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  onClick={() => setHold(h)}
                  aria-label={t('completeLabel', { amount: formatCents(h.amountCents), card: cardWords(h) })}
                >
                  {t('complete')}
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
