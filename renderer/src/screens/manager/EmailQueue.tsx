import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailQueueItemView, EmailQueueState } from '../../../../common/bridge/contract';
import { formatDateTime } from '../../format/money';
import { useBridge, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

const badge: Readonly<Record<EmailQueueState, string>> = {
  queued: 'badge badge-warn',
  sending: 'badge badge-warn',
  sent: 'badge badge-ok',
  failed: 'badge badge-bad',
};

function Row({ item, onRetry, busy }: { item: EmailQueueItemView; onRetry: () => void; busy: boolean }) {
  const { t } = useTranslation('queues');
  const zone = useStoreZone();
  return (
    <tr data-email={item.id} data-state={item.state}>
      <td>{item.receipt}</td>
      <td>{item.to}</td>
      <td className="email-state">
        <span className={badge[item.state]}>{t(`email.state.${item.state}`)}</span>
        <div className="hint">{t('email.asked', { at: formatDateTime(item.createdAt, zone) })}</div>
        {item.state === 'queued' && item.nextAttemptAt !== undefined ? (
          <div className="hint">{t('email.next', { at: formatDateTime(item.nextAttemptAt, zone) })}</div>
        ) : null}
        {item.finishedAt !== undefined ? (
          <div className="hint">
            {t(`email.finished.${item.state}`, { at: formatDateTime(item.finishedAt, zone) })}
          </div>
        ) : null}
      </td>
      <td className="num">{item.attempts}</td>
      <td className="email-reason">{item.lastError ?? ''}</td>
      <td>
        {item.retryable ? (
          <button
            type="button"
            className="btn btn-small"
            disabled={busy}
            aria-label={t('email.retryLabel', { receipt: item.receipt, to: item.to })}
            onClick={onRetry}
          >
            {t('email.retry')}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The emailed-receipt queue on Offline & queues: what waits, what was sent, what was given up and why
 * (addresses masked by the core), with Retry. Live from `email.updated`.
 */
export function EmailQueue() {
  const { t } = useTranslation('queues');
  const columns = [
    t('email.columns.receipt'),
    t('email.columns.to'),
    t('email.columns.state'),
    t('email.columns.tries'),
    t('email.columns.reason'),
    t('email.columns.action'),
  ];
  const bridge = useBridge();
  const loaded = useCommand('email.queue.get', {});
  const { run, busy, error } = useAction();
  const [view, setView] = useState(loaded.data);
  useEffect(() => setView(loaded.data), [loaded.data]);
  useEffect(() => bridge.on('email.updated', setView), [bridge]);
  const retry = async (id: number) => {
    const v = await run('email.queue.retry', { id });
    if (v) setView(v);
  };
  return (
    <section className="card" aria-labelledby="email-queue-title">
      <h2 id="email-queue-title">{t('email.title')}</h2>
      <p>{t('email.intro')}</p>
      <ErrorAlert message={loaded.error} />
      {view ? (
        <>
          <p className="dialog-reason" data-testid="email-queue-summary">
            {t('email.summary', { waiting: view.waiting, failed: view.failed })}
          </p>
          <div className="email-table">
            <table className="data" aria-labelledby="email-queue-title">
              <TableHead columns={columns} numeric={[t('email.columns.tries')]} />
              <tbody>
                {view.items.length === 0 ? (
                  <tr>
                    <td colSpan={columns.length}>{t('email.empty')}</td>
                  </tr>
                ) : (
                  view.items.map((item) => (
                    <Row key={item.id} item={item} busy={busy} onRetry={() => void retry(item.id)} />
                  ))
                )}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <button type="button" className="btn" onClick={() => void loaded.reload()}>
        {t('email.refresh')}
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}
