import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  MessageWords,
  ReconciliationRow,
  ReconciliationView,
  SettlementView,
} from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, formatIsoDateTime } from '../../format/money';
import { i18n, messageFor } from '../../i18n/i18n';
import { problemTexts, refusalText } from '../../i18n/problem-words';
import { describeError } from '../../state/app-store';
import { useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { FigureLinesTable, MoneyFiguresTables } from '../../ui/MoneyFiguresTables';
import { Stat } from '../../ui/Stat';
import { TableHead } from '../../ui/TableHead';

/** A row's note by its id in `batch:rec.notes`, else as the core wrote it. */
function noteText(r: ReconciliationRow): string {
  const words = r.noteWords;
  return (
    (words && messageFor(`batch:rec.notes.${words.messageId}`, stateParams(words.params))) ?? r.note ?? ''
  );
}

/** A journal state named in a note ("declined") in the window's language. */
function stateParams(params: MessageWords['params']): Record<string, string | number> {
  const out = { ...params };
  if (typeof out['state'] === 'string')
    out['state'] = messageFor(`batch:states.${out['state']}`) ?? out['state'];
  return out;
}

/** What blocks the close, by each one's id in the `errors` catalog, else as the core wrote it. */
function blockersOf(v: ReconciliationView): string[] {
  return problemTexts({
    code: 'conflict',
    message: '',
    problems: v.blockers,
    ...(v.blockerWords ? { problemWords: v.blockerWords } : {}),
  });
}

function journalText(j: NonNullable<ReconciliationRow['journal']>): string {
  return i18n.t('batch:rec.journalLine', {
    operation: i18n.t(`batch:operations.${j.operation}`),
    state: i18n.t(`batch:states.${j.state}`),
    amount: formatCents(j.amountCents),
  });
}

function gatewayText(g: NonNullable<ReconciliationRow['gateway']>): string {
  const status = g.status === 'approved' ? i18n.t('batch:rec.approved') : g.status;
  return i18n.t(g.inOpenBatch ? 'batch:rec.gatewayLineOpen' : 'batch:rec.gatewayLine', {
    status,
    amount: formatCents(g.amountCents),
  });
}

const verdictTone: Record<ReconciliationRow['verdict'], string> = {
  match: 'badge-ok',
  orphan: 'badge-bad',
  mismatch: 'badge-bad',
  'pending-reversal': 'badge-warn',
  'local-only': 'badge-muted',
};

function Reconciliation({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation(['batch', 'figures', 'common']);
  const rec = useCommand('batch.reconcile', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [error, setError] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const resolve = async (utn: string, action: 'keep' | 'reverse') => {
    const r = await app
      .getState()
      .withManager(t(action === 'keep' ? 'rec.whyKeep' : 'rec.whyReverse', { number: utn }), (approval) =>
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
      <h2 id="rec-title">{t('rec.title')}</h2>
      <ErrorAlert message={rec.error} />
      {v ? (
        <>
          <div className="stats">
            <Stat label={t('rec.orphans')} value={v.orphans} testId="rec-orphans" />
            <Stat label={t('rec.mismatches')} value={v.mismatches} />
            <Stat label={t('rec.reversalsPending')} value={v.pendingReversals} />
            <Stat
              label={t('rec.canClose')}
              value={v.canClose ? t('rec.yes') : t('rec.no')}
              testId="rec-can-close"
            />
          </div>
          {v.blockers.length > 0 ? (
            <ul aria-label={t('rec.blockers')}>
              {blockersOf(v).map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
          <label className="check">
            <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
            {t('rec.showAll', { count: v.rows.length })}
          </label>
          <table className="data">
            <TableHead
              columns={[
                t('rec.columns.number'),
                t('rec.columns.journal'),
                t('rec.columns.gateway'),
                t('rec.columns.verdict'),
                t('rec.columns.resolve'),
              ]}
            />
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={5}>{t('rec.agree')}</td>
                </tr>
              ) : (
                rows.map((r) => (
                  <tr key={r.userTransactionNumber}>
                    <td>{r.userTransactionNumber}</td>
                    <td>{r.journal ? journalText(r.journal) : t('rec.missing')}</td>
                    <td>{r.gateway ? gatewayText(r.gateway) : t('rec.missing')}</td>
                    <td>
                      <span className={`badge ${verdictTone[r.verdict]}`}>
                        {t(`rec.verdicts.${r.verdict}`)}
                      </span>
                      {r.note ? <div className="hint">{noteText(r)}</div> : null}
                    </td>
                    <td>
                      {r.verdict === 'orphan' || r.verdict === 'mismatch' ? (
                        <div className="row">
                          <button
                            type="button"
                            className="btn btn-small"
                            onClick={() => void resolve(r.userTransactionNumber, 'keep')}
                          >
                            {t('rec.keep')}
                          </button>
                          <button
                            type="button"
                            className="btn btn-small btn-danger"
                            onClick={() => void resolve(r.userTransactionNumber, 'reverse')}
                          >
                            {t('rec.reverse')}
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
        <p>{t('rec.comparing')}</p>
      ) : null}
      <button type="button" className="btn" onClick={() => void rec.reload()}>
        {t('rec.again')}
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}

function AutoClose() {
  const { t } = useTranslation(['batch', 'figures', 'common']);
  const auto = useCommand('batch.autoClose.get', {});
  const bridge = useBridge();
  const app = useAppStore();
  const [time, setTime] = useState('');
  const [error, setError] = useState<string | null>(null);
  const current = auto.data;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const at = time || current?.time || '17:00';
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(at)) return setError(t('auto.badTime'));
    const r = await app
      .getState()
      .withManager(t('auto.whySet', { time: at }), (approval) =>
        bridge.send('batch.autoClose.set', { time: at, ...(approval ? { approval } : {}) }),
      );
    if (!r) return;
    if (r.ok) {
      auto.setData(r.value);
      setError(null);
      app.getState().notify('success', t('auto.set', { time: r.value.time ?? at }));
    } else setError(describeError(r.error));
  };
  const remove = async () => {
    const r = await app
      .getState()
      .withManager(t('auto.whyRemove'), (approval) =>
        bridge.send('batch.autoClose.remove', approval ? { approval } : {}),
      );
    if (!r) return;
    if (r.ok) {
      auto.setData(r.value);
      app.getState().notify('success', t('auto.removed'));
    } else setError(describeError(r.error));
  };
  return (
    <section aria-labelledby="auto-title" className="card">
      <h2 id="auto-title">{t('auto.title')}</h2>
      <p data-testid="auto-close-state">
        {current
          ? current.enrolled
            ? t('auto.enrolled', { time: current.time ?? t('auto.defaultTime') })
            : t('auto.notEnrolled')
          : t('common:loading')}
      </p>
      <form className="row" onSubmit={(e) => void save(e)}>
        <InputField
          id="auto-time"
          label={t('auto.time')}
          type="time"
          value={time || current?.time || '17:00'}
          onChange={(e) => setTime(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {current?.enrolled ? t('auto.change') : t('auto.enroll')}
        </button>
        {current?.enrolled ? (
          <button type="button" className="btn btn-danger" onClick={() => void remove()}>
            {t('auto.remove')}
          </button>
        ) : null}
      </form>
      <ErrorAlert message={error} />
    </section>
  );
}

/** Open batch totals, reconciliation, settle now, automatic close and the last settlements. */
export function BatchScreen() {
  const { t } = useTranslation(['batch', 'figures', 'common']);
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
      .withManager(t('settle.why'), (approval) => bridge.send('batch.settle', approval ? { approval } : {}));
    setSettling(false);
    if (!r) return;
    if (r.ok) {
      setResult(r.value);
      setError(null);
      app.getState().notify('success', t('settle.done', { amount: formatCents(r.value.amountSettledCents) }));
      setVersion((v) => v + 1);
    } else setError(refusalText(r.error));
  };

  const open = totals.data;
  return (
    <div>
      <h1 tabIndex={-1}>{t('title')}</h1>
      <ErrorAlert message={totals.error} />
      {open ? (
        <section aria-labelledby="open-title">
          <h2 id="open-title">{t('openTitle')}</h2>
          <p className="hint" data-testid="batch-since">
            {open.since > 0 ? t('since', { time: formatDateTime(open.since, zone) }) : t('sinceNever')}{' '}
            {open.gateway
              ? t('gatewayHolds', { count: open.gateway.laneCount, all: open.gateway.allLanesCount })
              : t('gatewaySilent')}
          </p>
          <MoneyFiguresTables figures={open.figures} />
          <div className="row" style={{ alignItems: 'flex-start', marginBottom: 16 }}>
            <div style={{ flex: 1, minWidth: 280 }}>
              <FigureLinesTable
                title={t('byCardType')}
                first={t('cardType')}
                lines={open.figures.card.byCardType}
              />
            </div>
            <div style={{ flex: 1, minWidth: 280 }}>
              <FigureLinesTable
                title={t('byTender')}
                first={t('tender')}
                lines={open.figures.card.byTender}
              />
            </div>
          </div>
        </section>
      ) : null}
      <Reconciliation key={version} onChanged={() => setVersion((v) => v + 1)} />
      <section aria-labelledby="settle-title" className="card">
        <h2 id="settle-title">{t('settle.title')}</h2>
        <p>{t('settle.intro')}</p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={settling}
          onClick={() => setConfirm(true)}
        >
          {settling ? t('settle.settling') : t('settle.button')}
        </button>
        <ErrorAlert message={error} />
        {result ? (
          <div role="status" data-testid="settle-result">
            <table className="data">
              <caption>
                {result.completedAt
                  ? t('settle.captionAt', { time: formatIsoDateTime(result.completedAt, zone) })
                  : t('settle.caption')}
              </caption>
              <tbody>
                <tr>
                  <th scope="row">{t('settle.settled')}</th>
                  <td className="num">{formatCents(result.amountSettledCents)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('figures:cardNet')}</th>
                  <td className="num">{formatCents(result.laneCardNetCents)}</td>
                </tr>
              </tbody>
            </table>
            {result.amountSettledCents !== result.laneCardNetCents ? (
              <p className="hint">{t('settle.otherLanes')}</p>
            ) : null}
            <ul>
              {result.batches.map((b) => (
                <li key={b.batchNumber}>
                  {t('settle.batchLine', {
                    batch: b.batchNumber,
                    count: b.count,
                    sales: formatCents(b.saleCents),
                    refunds: formatCents(b.returnCents),
                    net: formatCents(b.netCents),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <AutoClose />
      <section aria-labelledby="last-title" className="card">
        <h2 id="last-title">{t('last.title')}</h2>
        <ErrorAlert message={last.error} />
        <table className="data">
          <TableHead
            columns={[t('last.completed'), t('last.amount'), t('last.batches')]}
            numeric={[t('last.amount')]}
          />
          <tbody>
            {(last.data ?? []).length === 0 ? (
              <tr>
                <td colSpan={3}>{t('last.none')}</td>
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
        <Dialog title={t('confirm.title')} onClose={() => setConfirm(false)} initialFocus="settle-confirm">
          <p>
            {open
              ? t('confirm.figures', {
                  label: t('figures:cardNet'),
                  amount: formatCents(open.figures.card.netCents),
                  sales: t('confirm.sales', { count: open.figures.card.sales.count }),
                  refunds: t('confirm.refunds', { count: open.figures.card.refunds.count }),
                })
              : ''}{' '}
            {t('confirm.final')}
          </p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              {t('confirm.back')}
            </button>
            <button
              id="settle-confirm"
              type="button"
              className="btn btn-primary"
              onClick={() => void settle()}
            >
              {t('confirm.close')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
