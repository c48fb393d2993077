import { useState, type FormEvent } from 'react';
import { FIGURE_LABELS } from '../../../../common/money-figures';
import type { ReconciliationRow, SettlementView } from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, formatIsoDateTime } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { FigureLinesTable, MoneyFiguresTables } from '../../ui/MoneyFiguresTables';
import { Stat } from '../../ui/Stat';
import { TableHead } from '../../ui/TableHead';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const verdictTone: Record<ReconciliationRow['verdict'], string> = {
  match: 'badge-ok',
  orphan: 'badge-bad',
  mismatch: 'badge-bad',
  'pending-reversal': 'badge-warn',
  'local-only': 'badge-muted',
};

function Reconciliation({ onChanged }: { onChanged: () => void }) {
  const rec = useCommand('batch.reconcile', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [error, setError] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const resolve = async (utn: string, action: 'keep' | 'reverse') => {
    const r = await app.getState().withManager(`Resolve ${utn}: ${action}.`, (approval) =>
      bridge.send('batch.resolveOrphan', {
        userTransactionNumber: utn,
        action,
        ...(approval ? { approval } : {}),
      }),
    );
    if (!r) return;
    if (!r.ok) setError(describeError(r.error));
    else {
      rec.setData(r.value);
      onChanged();
    }
  };
  const v = rec.data;
  const rows = v
    ? showAll
      ? v.rows
      : v.rows.filter((r) => r.verdict !== 'match' && r.verdict !== 'local-only')
    : [];
  return (
    <section aria-labelledby="rec-title" className="card">
      <h2 id="rec-title">Reconciliation: journal vs gateway</h2>
      <ErrorAlert message={rec.error} />
      {v ? (
        <>
          <div className="stats">
            <Stat label="Orphans" value={v.orphans} testId="rec-orphans" />
            <Stat label="Mismatches" value={v.mismatches} />
            <Stat label="Reversals pending" value={v.pendingReversals} />
            <Stat label="Can close" value={v.canClose ? 'Yes' : 'No'} testId="rec-can-close" />
          </div>
          {v.blockers.length > 0 ? (
            <ul aria-label="What blocks the batch close">
              {v.blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
          <label className="check">
            <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
            Show matching rows too ({v.rows.length} in all)
          </label>
          <table className="data">
            <TableHead columns={['Number', 'Journal', 'Gateway (base amount)', 'Verdict', 'Resolve']} />
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={5}>Nothing to resolve: the journal and the gateway agree.</td>
                </tr>
              ) : (
                rows.map((r) => (
                  <tr key={r.userTransactionNumber}>
                    <td>{r.userTransactionNumber}</td>
                    <td>
                      {r.journal
                        ? `${r.journal.operation} ${r.journal.state} ${formatCents(r.journal.amountCents)}`
                        : 'missing'}
                    </td>
                    <td>
                      {r.gateway
                        ? `${r.gateway.status} ${formatCents(r.gateway.amountCents)}${r.gateway.inOpenBatch ? ' (open batch)' : ''}`
                        : 'missing'}
                    </td>
                    <td>
                      <span className={`badge ${verdictTone[r.verdict]}`}>{r.verdict}</span>
                      {r.note ? <div className="hint">{r.note}</div> : null}
                    </td>
                    <td>
                      {r.verdict === 'orphan' || r.verdict === 'mismatch' ? (
                        <div className="row">
                          <button
                            type="button"
                            className="btn btn-small"
                            onClick={() => void resolve(r.userTransactionNumber, 'keep')}
                          >
                            Keep
                          </button>
                          <button
                            type="button"
                            className="btn btn-small btn-danger"
                            onClick={() => void resolve(r.userTransactionNumber, 'reverse')}
                          >
                            Reverse
                          </button>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </>
      ) : rec.loading ? (
        <p>Comparing with the gateway…</p>
      ) : null}
      <button type="button" className="btn" onClick={() => void rec.reload()}>
        Compare again
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}

function AutoClose() {
  const auto = useCommand('batch.autoClose.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [time, setTime] = useState('');
  const [error, setError] = useState<string | null>(null);
  const current = auto.data;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const t = time || current?.time || '17:00';
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(t)) return setError('The time is HH:MM, 24-hour.');
    const r = await app
      .getState()
      .withManager(`Close the batch automatically at ${t}.`, (approval) =>
        bridge.send('batch.autoClose.set', { time: t, ...(approval ? { approval } : {}) }),
      );
    if (!r) return;
    if (r.ok) {
      auto.setData(r.value);
      setError(null);
      app.getState().notify('success', `Automatic close at ${r.value.time ?? t}.`);
    } else setError(describeError(r.error));
  };
  const remove = async () => {
    const r = await app
      .getState()
      .withManager('Stop closing the batch automatically.', (approval) =>
        bridge.send('batch.autoClose.remove', approval ? { approval } : {}),
      );
    if (!r) return;
    if (r.ok) {
      auto.setData(r.value);
      app.getState().notify('success', 'Automatic close removed.');
    } else setError(describeError(r.error));
  };
  return (
    <section aria-labelledby="auto-title" className="card">
      <h2 id="auto-title">Automatic close</h2>
      <p data-testid="auto-close-state">
        {current
          ? current.enrolled
            ? `Enrolled: the batch closes every day at ${current.time ?? 'the gateway’s default time'}.`
            : 'Not enrolled: close the batch by hand.'
          : 'Loading…'}
      </p>
      <form className="row" onSubmit={(e) => void save(e)}>
        <InputField
          id="auto-time"
          label="Close time (merchant local)"
          type="time"
          value={time || current?.time || '17:00'}
          onChange={(e) => setTime(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {current?.enrolled ? 'Change time' : 'Enroll'}
        </button>
        {current?.enrolled ? (
          <button type="button" className="btn btn-danger" onClick={() => void remove()}>
            Remove
          </button>
        ) : null}
      </form>
      <ErrorAlert message={error} />
    </section>
  );
}

/** Open batch totals, reconciliation, settle now, automatic close and the last settlements. */
export function BatchScreen() {
  const zone = useStoreZone();
  const [version, setVersion] = useState(0);
  const totals = useCommand('batch.totals', {}, String(version));
  const last = useCommand('batch.lastSettlements', {}, String(version));
  const bridge = useBridge();
  const app = useAppStore();
  const [confirm, setConfirm] = useState(false);
  const [settling, setSettling] = useState(false);
  const [result, setResult] = useState<SettlementView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const settle = async () => {
    setConfirm(false);
    setSettling(true);
    const r = await app
      .getState()
      .withManager('Close the batch and settle now.', (approval) =>
        bridge.send('batch.settle', approval ? { approval } : {}),
      );
    setSettling(false);
    if (!r) return;
    if (r.ok) {
      setResult(r.value);
      setError(null);
      app.getState().notify('success', `Batch closed: ${formatCents(r.value.amountSettledCents)} settled.`);
      setVersion((v) => v + 1);
    } else setError(describeError(r.error));
  };

  const t = totals.data;
  return (
    <div>
      <h1 tabIndex={-1}>Batch</h1>
      <ErrorAlert message={totals.error} />
      {t ? (
        <section aria-labelledby="open-title">
          <h2 id="open-title">Open batch (this lane)</h2>
          <p className="hint" data-testid="batch-since">
            {t.since > 0
              ? `Since the last close, ${formatDateTime(t.since, zone)}.`
              : 'Since this lane began: no close yet.'}{' '}
            {t.gateway
              ? `The gateway’s open batch holds ${t.gateway.laneCount} of this lane’s card payments (${t.gateway.allLanesCount} from every lane).`
              : 'The gateway did not answer: these are the journal’s figures alone.'}
          </p>
          <MoneyFiguresTables figures={t.figures} />
          <div className="row" style={{ alignItems: 'flex-start', marginBottom: 16 }}>
            <div style={{ flex: 1, minWidth: 280 }}>
              <FigureLinesTable
                title="Card batch by card type"
                first="Card type"
                lines={t.figures.card.byCardType}
              />
            </div>
            <div style={{ flex: 1, minWidth: 280 }}>
              <FigureLinesTable title="Card batch by tender" first="Tender" lines={t.figures.card.byTender} />
            </div>
          </div>
        </section>
      ) : null}
      <Reconciliation key={version} onChanged={() => setVersion((v) => v + 1)} />
      <section aria-labelledby="settle-title" className="card">
        <h2 id="settle-title">Settle now</h2>
        <p>Closes the open batch at the gateway; the money moves to the merchant’s account.</p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={settling}
          onClick={() => setConfirm(true)}
        >
          {settling ? 'Settling…' : 'Close batch now'}
        </button>
        <ErrorAlert message={error} />
        {result ? (
          <div role="status" data-testid="settle-result">
            <table className="data">
              <caption>
                Settlement{result.completedAt ? ` at ${formatIsoDateTime(result.completedAt, zone)}` : ''}
              </caption>
              <tbody>
                <tr>
                  <th scope="row">Settled by the gateway</th>
                  <td className="num">{formatCents(result.amountSettledCents)}</td>
                </tr>
                <tr>
                  <th scope="row">{FIGURE_LABELS.cardNet}</th>
                  <td className="num">{formatCents(result.laneCardNetCents)}</td>
                </tr>
              </tbody>
            </table>
            {result.amountSettledCents !== result.laneCardNetCents ? (
              <p className="hint">
                The gateway settled every lane of the store; this lane’s card net is its part.
              </p>
            ) : null}
            <ul>
              {result.batches.map((b) => (
                <li key={b.batchNumber}>
                  Batch {b.batchNumber}: {b.count} card payments, card sales {formatCents(b.saleCents)}, card
                  refunds {formatCents(b.returnCents)}, card net {formatCents(b.netCents)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <AutoClose />
      <section aria-labelledby="last-title" className="card">
        <h2 id="last-title">Last settlements</h2>
        <ErrorAlert message={last.error} />
        <table className="data">
          <TableHead columns={['Completed', 'Amount', 'Batches']} numeric={['Amount']} />
          <tbody>
            {(last.data ?? []).length === 0 ? (
              <tr>
                <td colSpan={3}>No settlements yet.</td>
              </tr>
            ) : (
              (last.data ?? []).map((s, i) => (
                <tr key={`${s.completedOn}-${i}`}>
                  <td>
                    <time dateTime={s.completedOn}>{formatIsoDateTime(s.completedOn, zone)}</time>
                  </td>
                  <td className="num">{formatCents(s.amountSettledCents)}</td>
                  <td>{s.batches.join(', ')}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
      {confirm ? (
        <Dialog title="Close the batch?" onClose={() => setConfirm(false)} initialFocus="settle-confirm">
          <p>
            {t
              ? `${FIGURE_LABELS.cardNet}: ${formatCents(t.figures.card.netCents)} (${count(t.figures.card.sales.count, 'card sale')}, ${count(t.figures.card.refunds.count, 'card refund')} on this lane). Cash stays in the drawer.`
              : ''}{' '}
            Once closed, these payments can only be refunded, not voided.
          </p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              Back
            </button>
            <button
              id="settle-confirm"
              type="button"
              className="btn btn-primary"
              onClick={() => void settle()}
            >
              Close batch
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
