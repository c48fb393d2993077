import { useEffect, useState } from 'react';
import type { EmailQueueItemView, EmailQueueState } from '../../../../common/bridge/contract';
import { formatDateTime } from '../../format/money';
import { useBridge, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

/** Every string of the section, in one place (a later change moves them into the translation catalogs). */
const WORDS = {
  title: 'Emailed receipts',
  intro:
    'Receipts customers asked for by email. One waiting for the mail server is tried again on its own, less and less often, for a day; then it is given up and its reason shown here.',
  summary: (waiting: number, failed: number) => `${waiting} waiting · ${failed} given up in the last 7 days`,
  empty: 'No receipt has been emailed yet.',
  state: { queued: 'Waiting', sending: 'Sending', sent: 'Sent', failed: 'Given up' } satisfies Record<
    EmailQueueState,
    string
  >,
  asked: (at: string) => `Asked ${at}`,
  next: (at: string) => `Next try ${at}`,
  finished: { queued: 'Done', sending: 'Done', sent: 'Sent', failed: 'Given up' } satisfies Record<
    EmailQueueState,
    string
  >,
  retry: 'Retry',
  retryLabel: (receipt: string, to: string) => `Retry the email of ${receipt} to ${to}`,
  refresh: 'Refresh',
  columns: ['Receipt', 'To', 'State', 'Tries', 'Reason', 'Action'],
} as const;

const badge: Readonly<Record<EmailQueueState, string>> = {
  queued: 'badge badge-warn',
  sending: 'badge badge-warn',
  sent: 'badge badge-ok',
  failed: 'badge badge-bad',
};

function Row({ item, onRetry, busy }: { item: EmailQueueItemView; onRetry: () => void; busy: boolean }) {
  const zone = useStoreZone();
  return (
    <tr data-email={item.id} data-state={item.state}>
      <td>{item.receipt}</td>
      <td>{item.to}</td>
      <td className="email-state">
        <span className={badge[item.state]}>{WORDS.state[item.state]}</span>
        <div className="hint">{WORDS.asked(formatDateTime(item.createdAt, zone))}</div>
        {item.state === 'queued' && item.nextAttemptAt !== undefined ? (
          <div className="hint">{WORDS.next(formatDateTime(item.nextAttemptAt, zone))}</div>
        ) : null}
        {item.finishedAt !== undefined ? (
          <div className="hint">
            {WORDS.finished[item.state]} {formatDateTime(item.finishedAt, zone)}
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
            aria-label={WORDS.retryLabel(item.receipt, item.to)}
            onClick={onRetry}
          >
            {WORDS.retry}
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
      <h2 id="email-queue-title">{WORDS.title}</h2>
      <p>{WORDS.intro}</p>
      <ErrorAlert message={loaded.error} />
      {view ? (
        <>
          <p className="dialog-reason" data-testid="email-queue-summary">
            {WORDS.summary(view.waiting, view.failed)}
          </p>
          <div className="email-table">
            <table className="data" aria-labelledby="email-queue-title">
              <TableHead columns={WORDS.columns} numeric={['Tries']} />
              <tbody>
                {view.items.length === 0 ? (
                  <tr>
                    <td colSpan={WORDS.columns.length}>{WORDS.empty}</td>
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
        {WORDS.refresh}
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}
