import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SafView } from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, parseMoney } from '../../format/money';
import { describeError } from '../../state/app-store';
import { useApp, useAppStore, useBridge, useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { EmailQueue } from './EmailQueue';

function ExposureMeter({ saf }: { saf: SafView }) {
  const { t } = useTranslation('queues');
  const limit = Math.max(saf.policy.totalLimitCents, 1);
  const share = saf.exposureCents / limit;
  return (
    <div className="stack">
      <label htmlFor="saf-meter">
        {t('exposure', {
          amount: formatCents(saf.exposureCents),
          limit: formatCents(saf.policy.totalLimitCents),
          count: saf.count,
        })}
      </label>
      <meter
        id="saf-meter"
        min={0}
        max={limit}
        low={limit * 0.6}
        high={limit * 0.85}
        optimum={0}
        value={saf.exposureCents}
        aria-valuetext={t('exposureValue', {
          amount: formatCents(saf.exposureCents),
          percent: Math.round(share * 100),
        })}
      />
    </div>
  );
}

function Policy({ saf, onSaved }: { saf: SafView; onSaved: (v: SafView) => void }) {
  const { t } = useTranslation('queues');
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
    if (per === undefined || tot === undefined) return setError(t('policy.badLimits'));
    if (!Number.isFinite(age) || age <= 0 || age > 168) return setError(t('policy.badHours'));
    const r = await app
      .getState()
      .withManager(
        t(enabled ? 'policy.whyOn' : 'policy.whyOff', { perSale: formatCents(per), total: formatCents(tot) }),
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
    app.getState().notify('success', t('policy.saved'));
  };
  return (
    <form className="card stack" onSubmit={(e) => void save(e)} aria-labelledby="saf-policy-title">
      <h2 id="saf-policy-title">{t('policy.title')}</h2>
      <p className="hint">{t('policy.intro')}</p>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t('policy.accept')}
      </label>
      <div className="row">
        <InputField
          id="saf-per"
          label={t('policy.perSale')}
          inputMode="decimal"
          value={perSale}
          onChange={(e) => setPerSale(e.target.value)}
        />
        <InputField
          id="saf-total"
          label={t('policy.total')}
          inputMode="decimal"
          value={total}
          onChange={(e) => setTotal(e.target.value)}
        />
        <InputField
          id="saf-age"
          label={t('policy.hours')}
          inputMode="numeric"
          value={hours}
          onChange={(e) => setHours(e.target.value)}
        />
      </div>
      <ErrorAlert message={error} />
      <div>
        <button type="submit" className="btn btn-primary">
          {t('policy.save')}
        </button>
      </div>
    </form>
  );
}

function Reversals() {
  const { t } = useTranslation('queues');
  const zone = useStoreZone();
  const loaded = useCommand('reversals.get', {});
  const live = useApp((s) => s.reversals);
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const view = live ?? loaded.data;
  return (
    <section className="card" aria-labelledby="rev-title">
      <h2 id="rev-title">{t('reversals.title')}</h2>
      <p>{t('reversals.intro')}</p>
      <table className="data">
        <TableHead
          columns={[
            t('reversals.columns.number'),
            t('reversals.columns.amount'),
            t('reversals.columns.since'),
            t('reversals.columns.attempts'),
            t('reversals.columns.lastError'),
          ]}
          numeric={[t('reversals.columns.amount'), t('reversals.columns.attempts')]}
        />
        <tbody>
          {!view || view.items.length === 0 ? (
            <tr>
              <td colSpan={5}>{t('reversals.none')}</td>
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
        {t('reversals.retry')}
      </button>
      <ErrorAlert message={error} />
    </section>
  );
}

/** Store-and-forward policy, its queue with the live exposure meter, and the reversal queue. */
export function SafScreen() {
  const { t } = useTranslation('queues');
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
      <h1 tabIndex={-1}>{t('title')}</h1>
      <ErrorAlert message={loaded.error} />
      {saf ? (
        <>
          <section className="card" aria-labelledby="saf-queue-title">
            <h2 id="saf-queue-title">{t('safTitle')}</h2>
            <ExposureMeter saf={saf} />
            <table className="data">
              <TableHead
                columns={[
                  t('columns.number'),
                  t('columns.card'),
                  t('columns.amount'),
                  t('columns.stored'),
                  t('columns.state'),
                ]}
                numeric={[t('columns.amount')]}
              />
              <tbody>
                {saf.items.length === 0 ? (
                  <tr>
                    <td colSpan={5}>{t('nothingHeld')}</td>
                  </tr>
                ) : (
                  saf.items.map((i) => (
                    <tr key={i.userTransactionNumber}>
                      <td>{i.userTransactionNumber}</td>
                      <td>{t('cardLine', { card: i.cardType ?? t('card'), last4: i.last4 })}</td>
                      <td className="num">{formatCents(i.amountCents)}</td>
                      <td>{formatDateTime(i.storedAt, zone)}</td>
                      <td>
                        {t(`states.${i.state}`)}
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
                    app.getState().notify('info', t('forwarding'));
                  } else setError(describeError(r.error));
                })
              }
            >
              {t('forwardNow')}
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
