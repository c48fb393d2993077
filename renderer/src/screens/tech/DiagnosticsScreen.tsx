import { useState } from 'react';
import { useApp } from '../../state/context';
import { useAction } from '../../state/use-command';
import { ErrorAlert } from '../../ui/fields';
import { download } from '../manager/ReportsScreen';
import { roleWords } from './DevicesScreen';

/** Terminal status at a glance and the diagnostics bundle (logs, replays, journal summary; card data masked). */
export function DiagnosticsScreen() {
  const status = useApp((s) => s.status);
  const { run, busy, error } = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const exportBundle = async () => {
    const b = await run('diagnostics.bundle', {});
    if (!b) return;
    download(b.fileName, b.json, 'application/json');
    setSaved(`Saved ${b.fileName} (${Math.round(b.json.length / 1024)} KiB).`);
  };
  return (
    <div>
      <h1 tabIndex={-1}>Diagnostics</h1>
      {status ? (
        <section className="card" aria-labelledby="status-title">
          <h2 id="status-title">Terminal</h2>
          <dl className="facts">
            <dt>Lane</dt>
            <dd>{status.laneId}</dd>
            <dt>Merchant / cashier</dt>
            <dd>
              {status.mid} / {status.cid}
            </dd>
            <dt>Version</dt>
            <dd>
              {status.version} (bridge contract {status.contractVersion})
            </dd>
            <dt>Mode</dt>
            <dd>{status.sandbox ? 'Sandbox' : 'Live'}</dd>
            <dt>Gateway</dt>
            <dd>
              {status.gateway.online
                ? 'Online'
                : `Offline${status.gateway.lastError ? `: ${status.gateway.lastError}` : ''}`}
            </dd>
            <dt>Reversals pending</dt>
            <dd>{status.reversals.pending}</dd>
            <dt>Offline sales held</dt>
            <dd>{status.saf.count}</dd>
            {status.devices.map((d) => (
              <div key={d.role} style={{ display: 'contents' }}>
                <dt>{roleWords[d.role]}</dt>
                <dd>
                  {d.state}
                  {d.lastError ? ` — ${d.lastError}` : ''}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <section className="card" aria-labelledby="bundle-title">
        <h2 id="bundle-title">Diagnostics bundle</h2>
        <p>
          Status, settings without secrets, device health and recorded frames, the journal summary and the
          recent log. Card numbers are masked.
        </p>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void exportBundle()}>
          {busy ? 'Collecting…' : 'Export diagnostics bundle'}
        </button>
        {saved ? <p role="status">{saved}</p> : null}
        <ErrorAlert message={error} />
      </section>
    </div>
  );
}
