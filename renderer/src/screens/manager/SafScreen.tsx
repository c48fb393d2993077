import { useEffect, useState, type FormEvent } from 'react';
import type { SafView } from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useApp, useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { EmailQueue } from './EmailQueue';

function ExposureMeter({ saf }: { saf: SafView }) {
  const limit = Math.max(saf.policy.totalLimitCents, 1);
  const share = saf.exposureCents / limit;
  return (
    <div className="stack">
      <label htmlFor="saf-meter">
        Offline exposure: {formatCents(saf.exposureCents)} of {formatCents(saf.policy.totalLimitCents)} (
        {saf.count} sale{saf.count === 1 ? '' : 's'} held)
      </label>
      <meter
        id="saf-meter"
        min={0}
        max={limit}
        low={limit * 0.6}
        high={limit * 0.85}
        optimum={0}
        value={saf.exposureCents}
        aria-valuetext={`${formatCents(saf.exposureCents)}, ${Math.round(share * 100)} percent of the limit`}
      />
    </div>
  );
}

function Policy({ saf, onSaved }: { saf: SafView; onSaved: (v: SafView) => void }) {
  const bridge = useBridge();
  const app = useAppStore();
  const [enabled, setEnabled] = useState(saf.policy.enabled);
  const [perSale, setPerSale] = useState((saf.policy.perTransactionLimitCents / 100).toFixed(2));
  const [total, setTotal] = useState((saf.policy.totalLimitCents / 100).toFixed(2));
  const [hours, setHours] = useState(String(saf.policy.maxAgeHours));
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const per = parseMoney(perSale);
    const tot = parseMoney(total);
    const age = Number(hours);
    if (per === undefined || tot === undefined) return setError('Type the limits like 100.00.');
    if (!Number.isFinite(age) || age <= 0 || age > 168) return setError('The maximum age is 1 to 168 hours.');
    const r = await app
      .getState()
      .withManager(
        `Store-and-forward ${enabled ? 'on' : 'off'}, up to ${formatCents(per)} a sale and ${formatCents(tot)} in all.`,
        (approval) =>
          bridge.send('saf.setPolicy', {
            enabled,
            perTransactionLimitCents: per,
            totalLimitCents: tot,
            maxAgeHours: age,
            ...(approval ? { approval } : {}),
          }),
      );
    if (!r) return;
    if (!r.ok) return setError(describeError(r.error));
    setError(null);
    onSaved(r.value);
    app.getState().notify('success', 'Store-and-forward policy saved.');
  };
  return (
    <form className="card stack" onSubmit={(e) => void save(e)} aria-labelledby="saf-policy-title">
      <h2 id="saf-policy-title">Store-and-forward policy</h2>
      <p className="hint">
        When the gateway is unreachable, chip and PIN sales up to these limits are accepted and forwarded when
        it returns. The store carries the risk of a decline.
      </p>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Accept sales while offline
      </label>
      <div className="row">
        <InputField
          id="saf-per"
          label="Largest offline sale"
          inputMode="decimal"
          value={perSale}
          onChange={(e) => setPerSale(e.target.value)}
        />
        <InputField
          id="saf-total"
          label="Most held offline at once"
          inputMode="decimal"
          value={total}
          onChange={(e) => setTotal(e.target.value)}
        />
        <InputField
          id="saf-age"
          label="Forward within (hours)"
          inputMode="numeric"
          value={hours}
          onChange={(e) => setHours(e.target.value)}
        />
      </div>
      <ErrorAlert message={error} />
      <div>
        <button type="submit" className="btn btn-primary">
          Save policy
        </button>
      </div>
    </form>
  );
}

function Reversals() {
  const zone = useStoreZone();
  const loaded = useCommand('reversals.get', {});
  const live = useApp((s) => s.reversals);
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const view = live ?? loaded.data;
  return (
    <section className="card" aria-labelledby="rev-title">
      <h2 id="rev-title">Reversal queue</h2>
      <p>
        Sales whose answer was lost are reversed until the gateway confirms; the customer is never charged
        twice.
      </p>
      <table className="data">
        <TableHead
          columns={['Number', 'Amount', 'Since', 'Attempts', 'Last error']}
          numeric={['Amount', 'Attempts']}
        />
        <tbody>
          {!view || view.items.length === 0 ? (
            <tr>
              <td colSpan={5}>No reversal pending.</td>
            </tr>
          ) : (
            view.items.map((r) => (
              <tr key={r.userTransactionNumber}>
                <td>{r.userTransactionNumber}</td>
                <td className="num">{formatCents(r.amountCents)}</td>
                <td>{formatDateTime(r.since, zone)}</td>
                <td className="num">{r.attempts}</td>
                <td>{r.lastError ?? ''}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <button
        type="button"
        className="btn"
        onClick={() =>
          void bridge.send('reversals.retryNow', {}).then((r) => {
            if (r.ok) loaded.setData(r.value);
            else setError(describeError(r.error));
          })
        }
      >
        Retry now
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}

/** Store-and-forward policy, its queue with the live exposure meter, and the reversal queue. */
export function SafScreen() {
  const zone = useStoreZone();
  const loaded = useCommand('saf.get', {});
  const live = useApp((s) => s.saf);
  const app = useAppStore();
  const bridge = useBridge();
  const [saf, setSaf] = useState<SafView | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  // The `saf.updated` event keeps the meter live; the first read fills it before any event arrives.
  useEffect(() => setSaf(live ?? loaded.data), [live, loaded.data]);
  return (
    <div>
      <h1 tabIndex={-1}>Offline & queues</h1>
      <ErrorAlert message={loaded.error} />
      {saf ? (
        <>
          <section className="card" aria-labelledby="saf-queue-title">
            <h2 id="saf-queue-title">Store-and-forward queue</h2>
            <ExposureMeter saf={saf} />
            <table className="data">
              <TableHead columns={['Number', 'Card', 'Amount', 'Stored', 'State']} numeric={['Amount']} />
              <tbody>
                {saf.items.length === 0 ? (
                  <tr>
                    <td colSpan={5}>Nothing held offline.</td>
                  </tr>
                ) : (
                  saf.items.map((i) => (
                    <tr key={i.userTransactionNumber}>
                      <td>{i.userTransactionNumber}</td>
                      <td>
                        {i.cardType ?? 'Card'} •••• {i.last4}
                      </td>
                      <td className="num">{formatCents(i.amountCents)}</td>
                      <td>{formatDateTime(i.storedAt, zone)}</td>
                      <td>
                        {i.state}
                        {i.message ? <div className="hint">{i.message}</div> : null}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
            <button
              type="button"
              className="btn"
              onClick={() =>
                void bridge.send('saf.forwardNow', {}).then((r) => {
                  if (r.ok) {
                    setSaf(r.value);
                    app.getState().notify('info', 'Forwarding the queue.');
                  } else setError(describeError(r.error));
                })
              }
            >
              Forward now
            </button>
            <ErrorAlert message={error} />
          </section>
          <Policy key={JSON.stringify(saf.policy)} saf={saf} onSaved={setSaf} />
        </>
      ) : null}
      <Reversals />
      <EmailQueue />
    </div>
  );
}
