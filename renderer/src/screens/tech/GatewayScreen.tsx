import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  GatewaySettingsUpdate,
  GatewaySettingsView,
  GatewayTestResult,
} from '../../../../common/bridge/contract';
import { gatewayAddressProblem, PLAIN_HTTP_REFUSED } from '../../../../common/gateway-address';
import { i18n } from '../../i18n/i18n';
import { useAppStore } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, type InputFieldProps } from '../../ui/fields';

/**
 * A number typed as text. An emptied field holds NaN rather than 0, so saving it is refused by the core's
 * validation instead of quietly storing a zero.
 */
function NumberField({
  value,
  onValue,
  ...props
}: Omit<InputFieldProps, 'value' | 'onChange' | 'inputMode'> & {
  value: number;
  onValue: (n: number) => void;
}) {
  return (
    <InputField
      inputMode="numeric"
      {...props}
      value={String(value)}
      onChange={(e) => onValue(e.target.value.trim() === '' ? NaN : Number(e.target.value))}
    />
  );
}

/**
 * A timeout the core keeps in milliseconds, typed and shown in seconds (people's units): "30", or "0.5".
 * An emptied or unreadable field holds NaN, which the core refuses in words.
 */
function SecondsField({
  valueMs,
  onValueMs,
  ...props
}: Omit<InputFieldProps, 'value' | 'onChange' | 'inputMode'> & {
  valueMs: number;
  onValueMs: (ms: number) => void;
}) {
  const [text, setText] = useState(String(valueMs / 1000));
  useEffect(() => {
    setText((t) => (Math.round(Number(t) * 1000) === valueMs ? t : String(valueMs / 1000)));
  }, [valueMs]);
  return (
    <InputField
      inputMode="decimal"
      {...props}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const s = e.target.value.trim();
        onValueMs(/^\d+(\.\d{1,3})?$/.test(s) ? Math.round(Number(s) * 1000) : NaN);
      }}
    />
  );
}

/** Why the core would refuse this gateway address (common/gateway-address.ts), in the same words. */
function addressProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return i18n.t('tech:gateway.notUrl');
  }
  const problem = gatewayAddressProblem(url.protocol, url.hostname);
  if (problem === undefined) return undefined;
  return i18n.t(problem === PLAIN_HTTP_REFUSED ? 'tech:gateway.plainHttp' : 'tech:gateway.httpsOnly');
}

/** The gateway's answer to a test: the terminal's own "Connected to …" in words; a failure is the gateway's. */
function testWords(r: GatewayTestResult): string {
  const connected = /^Connected to (.+) as merchant (\d+)\.$/.exec(r.message);
  return connected
    ? i18n.t('tech:gateway.connectedTo', { url: connected[1] ?? '', mid: connected[2] ?? '' })
    : r.message;
}

function Connection() {
  const { t } = useTranslation(['tech', 'common']);
  const loaded = useCommand('gateway.get', {});
  const [form, setForm] = useState<GatewaySettingsView | undefined>(undefined);
  const [password, setPassword] = useState('');
  const [test, setTest] = useState<GatewayTestResult | null>(null);
  const { run, busy, error, setError } = useAction();
  const app = useAppStore();
  const [saved, setSaved] = useState<GatewaySettingsView | undefined>(undefined);
  useEffect(() => {
    setForm(loaded.data);
    setSaved(loaded.data);
  }, [loaded.data]);
  if (!form) return loaded.error ? <ErrorAlert message={loaded.error} /> : <p>{t('common:loading')}</p>;
  const field = <K extends keyof GatewaySettingsView>(k: K, v: GatewaySettingsView[K]) =>
    setForm({ ...form, [k]: v });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    // Only what changed is sent: the core treats a new address or password as leaving the embedded
    // sandbox, so re-sending the same base URL must not count as a change.
    const was = saved ?? form;
    // The core refuses it too; saying so here keeps the typed password off the wire for nothing.
    if (form.baseUrl !== was.baseUrl) {
      const problem = addressProblem(form.baseUrl);
      if (problem) return setError(problem);
    }
    const update: GatewaySettingsUpdate = {
      ...(form.baseUrl !== was.baseUrl ? { baseUrl: form.baseUrl } : {}),
      ...(form.mid !== was.mid ? { mid: form.mid } : {}),
      ...(form.cid !== was.cid ? { cid: form.cid } : {}),
      ...(form.userName !== was.userName ? { userName: form.userName } : {}),
      ...(form.appKey !== was.appKey ? { appKey: form.appKey } : {}),
      ...(form.appType !== was.appType ? { appType: form.appType } : {}),
      ...(form.timeouts.saleMs !== was.timeouts.saleMs || form.timeouts.otherMs !== was.timeouts.otherMs
        ? { timeouts: form.timeouts }
        : {}),
      ...(password ? { password } : {}),
    };
    const v = await run('gateway.update', update);
    setPassword('');
    if (v) {
      setForm(v);
      setSaved(v);
      app.getState().notify('success', t('gateway.saved'));
    }
  };
  return (
    <form className="card stack" onSubmit={(e) => void save(e)} aria-labelledby="gw-title">
      <h2 id="gw-title">{t('gateway.connection')}</h2>
      {form.embeddedSandbox ? <p className="hint">{t('gateway.sandbox')}</p> : null}
      <div className="row">
        <div className="field" style={{ flex: 2 }}>
          <label htmlFor="gw-url">{t('gateway.baseUrl')}</label>
          <input
            id="gw-url"
            type="url"
            value={form.baseUrl}
            onChange={(e) => field('baseUrl', e.target.value)}
            aria-describedby="gw-url-hint"
          />
          <span id="gw-url-hint" className="hint">
            {t('gateway.baseUrlHint')}
          </span>
        </div>
        <NumberField id="gw-mid" label={t('gateway.mid')} value={form.mid} onValue={(n) => field('mid', n)} />
        <NumberField id="gw-cid" label={t('gateway.cid')} value={form.cid} onValue={(n) => field('cid', n)} />
      </div>
      <div className="row">
        <InputField
          id="gw-user"
          label={t('gateway.user')}
          autoComplete="off"
          value={form.userName}
          onChange={(e) => field('userName', e.target.value)}
        />
        <InputField
          id="gw-pass"
          label={t('gateway.password')}
          type="password"
          autoComplete="new-password"
          value={password}
          placeholder={form.passwordSet ? t('gateway.passwordUnchanged') : ''}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="gw-pass-hint"
        >
          <span id="gw-pass-hint" className="hint">
            {form.passwordSet ? t('gateway.passwordStored') : t('gateway.passwordNone')}
          </span>
        </InputField>
        <InputField
          id="gw-appkey"
          label={t('gateway.appKey')}
          autoComplete="off"
          value={form.appKey}
          onChange={(e) => field('appKey', e.target.value)}
        />
        <NumberField
          id="gw-apptype"
          label={t('gateway.appType')}
          value={form.appType}
          onValue={(n) => field('appType', n)}
        />
      </div>
      <div className="row">
        <SecondsField
          id="gw-sale-s"
          label={t('gateway.saleTimeout')}
          valueMs={form.timeouts.saleMs}
          onValueMs={(n) => field('timeouts', { ...form.timeouts, saleMs: n })}
          aria-describedby="gw-sale-hint"
        >
          <span id="gw-sale-hint" className="hint">
            {t('gateway.saleTimeoutHint')}
          </span>
        </SecondsField>
        <SecondsField
          id="gw-other-s"
          label={t('gateway.otherTimeout')}
          valueMs={form.timeouts.otherMs}
          onValueMs={(n) => field('timeouts', { ...form.timeouts, otherMs: n })}
        />
      </div>
      <ErrorAlert message={error} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('gateway.save')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => void run('gateway.test', {}).then((v) => v && setTest(v))}
        >
          {t('gateway.test')}
        </button>
      </div>
      {test ? (
        <p role="status" data-testid="gateway-test">
          <span className={`badge ${test.ok ? 'badge-ok' : 'badge-bad'}`}>
            {test.ok ? t('gateway.connected') : t('gateway.failed')}
          </span>{' '}
          {testWords(test)} {t('gateway.latency', { ms: test.latencyMs })}
        </p>
      ) : null}
    </form>
  );
}

function Lane() {
  const { t } = useTranslation('tech');
  const loaded = useCommand('lane.get', {});
  const [lane, setLane] = useState('');
  const { run, busy, error } = useAction();
  const app = useAppStore();
  useEffect(() => setLane(loaded.data?.laneId ?? ''), [loaded.data]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const v = await run('lane.set', { laneId: lane });
    if (v) {
      app.getState().notify('success', t('gateway.laneSaved', { lane: v.laneId }));
      void app.getState().refreshStatus();
    }
  };
  return (
    <form className="card row" onSubmit={(e) => void save(e)} aria-labelledby="lane-title">
      <h2 id="lane-title" style={{ width: '100%' }}>
        {t('gateway.lane')}
      </h2>
      <InputField
        id="lane-id"
        label={t('gateway.laneId')}
        maxLength={16}
        value={lane}
        onChange={(e) => setLane(e.target.value)}
        aria-describedby="lane-hint"
      >
        <span id="lane-hint" className="hint">
          {t('gateway.laneHint')}
        </span>
      </InputField>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {t('gateway.laneSave')}
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}

export function GatewayScreen() {
  const { t } = useTranslation('tech');
  return (
    <div>
      <h1 tabIndex={-1}>{t('gateway.title')}</h1>
      <Connection />
      <Lane />
    </div>
  );
}
