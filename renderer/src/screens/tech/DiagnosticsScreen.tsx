import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/context';
import { useAction } from '../../state/use-command';
import { ErrorAlert } from '../../ui/fields';
import { download } from '../manager/ReportsScreen';

/** Terminal status at a glance and the diagnostics bundle (logs, replays, journal summary; card data masked). */
export function DiagnosticsScreen() {
  const { t } = useTranslation('tech');
  const status = useApp((s) => s.status);
  const { run, busy, error } = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const exportBundle = async () => {
    const b = await run('diagnostics.bundle', {});
    if (!b) return;
    download(b.fileName, b.json, 'application/json');
    setSaved(t('diagnostics.saved', { file: b.fileName, kib: Math.round(b.json.length / 1024) }));
  };
  return (
    <div>
      <h1 tabIndex={-1}>{t('diagnostics.title')}</h1>
      {status ? (
        <section className="card" aria-labelledby="status-title">
          <h2 id="status-title">{t('diagnostics.terminal')}</h2>
          <dl className="facts">
            <dt>{t('diagnostics.lane')}</dt>
            <dd>{status.laneId}</dd>
            <dt>{t('diagnostics.merchant')}</dt>
            <dd>
              {status.mid} / {status.cid}
            </dd>
            <dt>{t('diagnostics.version')}</dt>
            <dd>
              {t('diagnostics.versionIs', { version: status.version, contract: status.contractVersion })}
            </dd>
            <dt>{t('diagnostics.mode')}</dt>
            <dd>{status.sandbox ? t('diagnostics.sandbox') : t('diagnostics.live')}</dd>
            <dt>{t('diagnostics.gateway')}</dt>
            <dd>
              {status.gateway.online
                ? t('diagnostics.online')
                : status.gateway.lastError
                  ? t('diagnostics.offlineBecause', { error: status.gateway.lastError })
                  : t('diagnostics.offline')}
            </dd>
            <dt>{t('diagnostics.reversals')}</dt>
            <dd>{status.reversals.pending}</dd>
            <dt>{t('diagnostics.saf')}</dt>
            <dd>{status.saf.count}</dd>
            {status.devices.map((d) => (
              <div key={d.role} style={{ display: 'contents' }}>
                <dt>{t(`devices.roles.${d.role}`)}</dt>
                <dd>
                  {t(`devices.states.${d.state}`)}
                  {d.lastError ? ` — ${d.lastError}` : ''}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <section className="card" aria-labelledby="bundle-title">
        <h2 id="bundle-title">{t('diagnostics.bundle')}</h2>
        <p>{t('diagnostics.bundleIntro')}</p>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void exportBundle()}>
          {busy ? t('diagnostics.collecting') : t('diagnostics.export')}
        </button>
        {saved ? <p role="status">{saved}</p> : null}
        <ErrorAlert message={error} />
      </section>
    </div>
  );
}
