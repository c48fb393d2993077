import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  DeviceConfigView,
  DeviceConnectionView,
  DeviceRoleName,
  DeviceStatusView,
  DeviceTestRequest,
  DiscoveredDeviceView,
  DiscoveryView,
} from '../../../../common/bridge/contract';
import { knownWords, problemWords, roleWords, testDetailWords } from '../../format/devices';
import { i18n } from '../../i18n/i18n';
import { formatDateTime, formatStamp } from '../../format/money';
import { useApp, useAppStore, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { ErrorAlert, InputField, SelectField, type SelectOption } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { ScannerAndPoleDisplay } from './ScannerAndPoleDisplay';

export { roleWords };
const roles = Object.keys(roleWords) as DeviceRoleName[];

const stateTone: Record<string, string> = {
  connected: 'badge-ok',
  missing: 'badge-bad',
  reconnecting: 'badge-warn',
  error: 'badge-bad',
};

/** A role in the tech's words, in the window's language. */
const roleName = (role: DeviceRoleName): string => i18n.t(`tech:devices.roles.${role}`);

/** The EMV reader's contact slot, from its health detail (the chip driver's step). */
function chipSlot(d: DeviceStatusView): string | null {
  const step = d.role === 'contactless' ? d.detail?.['chipStep'] : undefined;
  if (step === undefined) return null;
  const words = knownWords('tech:devices.health.chipSteps', String(step)) ?? String(step);
  return i18n.t('tech:devices.health.chipSlot', { step: words });
}

/** What a device hangs off: a port or a USB id is data; the core's own words are translated. */
function attachmentWords(d: DeviceStatusView): string {
  return knownWords('tech:devices.attachments', d.attachment) ?? d.attachment;
}

function hex4(n: number | undefined): string {
  return n === undefined ? '' : `0x${n.toString(16).padStart(4, '0')}`;
}

function Health() {
  const { t } = useTranslation('tech');
  const loaded = useCommand('devices.list', {});
  const live = useApp((s) => s.status?.devices);
  const app = useAppStore();
  const zone = useStoreZone();
  const { run, error } = useAction();
  const devices = live && live.length > 0 ? live : (loaded.data ?? []);
  return (
    <section className="card" aria-labelledby="health-title">
      <h2 id="health-title">{t('devices.health.title')}</h2>
      <table className="data">
        <TableHead
          columns={[
            t('devices.health.columns.role'),
            t('devices.health.columns.connection'),
            t('devices.health.columns.state'),
            t('devices.health.columns.lastSeen'),
            t('devices.health.columns.problem'),
            t('devices.health.columns.action'),
          ]}
        />
        <tbody>
          {devices.map((d) => (
            <tr key={d.role} data-role={d.role}>
              <th scope="row">{roleName(d.role)}</th>
              <td>
                {t(`devices.kinds.${d.kind}`)}
                {d.attachment && d.attachment !== d.kind ? ` ${attachmentWords(d)}` : ''}
              </td>
              <td>
                {/* Connected is not enough: a printer out of paper is a problem, whatever its link says. */}
                {d.problem && d.state === 'connected' ? (
                  <span className="badge badge-bad">{problemWords(d.problem)}</span>
                ) : (
                  <span className={`badge ${stateTone[d.state] ?? 'badge-muted'}`}>
                    {t(`devices.states.${d.state}`)}
                  </span>
                )}
                {d.attempts > 0 ? (
                  <div className="hint">{t('devices.health.attempts', { count: d.attempts })}</div>
                ) : null}
                {chipSlot(d) ? (
                  <div className="hint" data-testid="chip-slot">
                    {chipSlot(d)}
                  </div>
                ) : null}
              </td>
              <td>{d.lastSeenAt ? formatDateTime(d.lastSeenAt, zone) : '—'}</td>
              <td>
                {d.problem ? <strong>{problemWords(d.problem)}</strong> : null}
                {d.problem && d.lastError ? ': ' : ''}
                {d.lastError ?? ''}
              </td>
              <td>
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={t('devices.health.reconnectLabel', { device: roleName(d.role) })}
                  onClick={() =>
                    void run('devices.reconnect', { role: d.role }).then(
                      (v) =>
                        v &&
                        app.getState().notify(
                          'info',
                          t('devices.health.reconnected', {
                            device: roleName(d.role),
                            state: t(`devices.states.${v.state}`),
                          }),
                        ),
                    )
                  }
                >
                  {t('devices.health.reconnect')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorAlert message={error} />
    </section>
  );
}

const connectionKinds = (): readonly SelectOption<DeviceConnectionView['kind']>[] =>
  (['simulated', 'serial', 'hid', 'wedge', 'none'] as const).map((k) => [
    k,
    i18n.t(`tech:devices.assignment.kinds.${k}`),
  ]);
const baudRates: readonly SelectOption<number>[] = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].map(
  (b) => [b, String(b)],
);
const dataBitsOptions: readonly SelectOption<7 | 8>[] = [
  [8, '8'],
  [7, '7'],
];
const parityOptions = (): readonly SelectOption<'none' | 'even' | 'odd'>[] =>
  (['none', 'even', 'odd'] as const).map((p) => [p, i18n.t(`tech:devices.assignment.parities.${p}`)]);
const wedgeSuffixes = (): readonly SelectOption<'Enter' | 'Tab' | 'none'>[] =>
  (['Enter', 'Tab', 'none'] as const).map((x) => [x, i18n.t(`tech:devices.assignment.suffixes.${x}`)]);
const stopBitsOptions: readonly SelectOption<1 | 2>[] = [
  [1, '1'],
  [2, '2'],
];

function ConnectionEditor({
  role,
  value,
  onChange,
}: {
  role: DeviceRoleName;
  value: DeviceConnectionView;
  onChange: (v: DeviceConnectionView) => void;
}) {
  const { t } = useTranslation('tech');
  const id = (f: string) => `dev-${role}-${f}`;
  const serial = value.kind === 'serial' ? value : null;
  const hid = value.kind === 'hid' ? value : null;
  const setKind = (kind: DeviceConnectionView['kind']) => {
    switch (kind) {
      case 'serial':
        return onChange({
          kind: 'serial',
          path: '',
          baudRate: 9600,
          dataBits: 8,
          parity: 'none',
          stopBits: 1,
        });
      case 'hid':
        return onChange({ kind: 'hid', vendorId: 0, productId: 0 });
      default:
        return onChange({ kind });
    }
  };
  return (
    <fieldset className="card">
      <legend>{roleName(role)}</legend>
      <div className="row">
        <SelectField
          id={id('kind')}
          label={t('devices.assignment.connection')}
          value={value.kind}
          options={connectionKinds()}
          onChange={setKind}
        />
        {serial ? (
          <>
            <InputField
              id={id('path')}
              label={t('devices.assignment.port')}
              value={serial.path}
              onChange={(e) => onChange({ ...serial, path: e.target.value })}
            />
            <SelectField
              id={id('baud')}
              label={t('devices.assignment.baud')}
              value={serial.baudRate}
              options={baudRates}
              onChange={(baudRate) => onChange({ ...serial, baudRate })}
            />
            <SelectField
              id={id('bits')}
              label={t('devices.assignment.dataBits')}
              value={serial.dataBits}
              options={dataBitsOptions}
              onChange={(dataBits) => onChange({ ...serial, dataBits })}
            />
            <SelectField
              id={id('parity')}
              label={t('devices.assignment.parity')}
              value={serial.parity}
              options={parityOptions()}
              onChange={(parity) => onChange({ ...serial, parity })}
            />
            <SelectField
              id={id('stop')}
              label={t('devices.assignment.stopBits')}
              value={serial.stopBits}
              options={stopBitsOptions}
              onChange={(stopBits) => onChange({ ...serial, stopBits })}
            />
          </>
        ) : null}
        {value.kind === 'wedge' && role === 'scanner' ? (
          <>
            <InputField
              id={id('prefix')}
              label={t('devices.assignment.prefix')}
              value={value.prefix ?? ''}
              maxLength={8}
              placeholder={t('devices.assignment.prefixNone')}
              onChange={(e) => onChange({ ...value, prefix: e.target.value })}
            />
            <SelectField
              id={id('suffix')}
              label={t('devices.assignment.suffix')}
              value={value.suffix ?? 'Enter'}
              options={wedgeSuffixes()}
              onChange={(suffix) => onChange({ ...value, suffix })}
            />
            <InputField
              id={id('minlen')}
              label={t('devices.assignment.shortest')}
              inputMode="numeric"
              value={String(value.minLength ?? 6)}
              onChange={(e) =>
                onChange({ ...value, minLength: Number(e.target.value.replace(/\D/g, '')) || 1 })
              }
            />
          </>
        ) : null}
        {hid ? (
          <>
            <InputField
              id={id('vid')}
              label={t('devices.assignment.vendorId')}
              value={hex4(hid.vendorId)}
              onChange={(e) => onChange({ ...hid, vendorId: parseInt(e.target.value, 16) || 0 })}
            />
            <InputField
              id={id('pid')}
              label={t('devices.assignment.productId')}
              value={hex4(hid.productId)}
              onChange={(e) => onChange({ ...hid, productId: parseInt(e.target.value, 16) || 0 })}
            />
          </>
        ) : null}
      </div>
    </fieldset>
  );
}

function Assignment({ discovered }: { discovered: DiscoveredDeviceView[] }) {
  const { t } = useTranslation('tech');
  const loaded = useCommand('devices.config.get', {});
  const [config, setConfig] = useState<DeviceConfigView | undefined>(undefined);
  const { run, busy, error } = useAction();
  const app = useAppStore();
  useEffect(() => setConfig(loaded.data), [loaded.data]);
  if (!config)
    return loaded.error ? <ErrorAlert message={loaded.error} /> : <p>{t('devices.assignment.loading')}</p>;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const v = await run('devices.config.set', { config });
    if (v) {
      setConfig(v);
      app.getState().notify('success', t('devices.assignment.saved'));
    }
  };
  return (
    <section aria-labelledby="assign-title">
      <h2 id="assign-title">{t('devices.assignment.title')}</h2>
      {discovered.some((d) => d.suggestion && d.guess) ? (
        <div className="row" role="group" aria-label={t('devices.assignment.suggestions')}>
          {discovered
            .filter((d) => d.suggestion && d.guess)
            .map((d) => (
              <button
                key={d.path}
                type="button"
                className="btn btn-small"
                onClick={() =>
                  d.guess && d.suggestion && setConfig({ ...config, [d.guess.role]: d.suggestion })
                }
              >
                {t('devices.assignment.use', { path: d.path, role: d.guess ? roleName(d.guess.role) : '' })}
              </button>
            ))}
        </div>
      ) : null}
      <form onSubmit={(e) => void save(e)}>
        {roles.map((r) => (
          <ConnectionEditor
            key={r}
            role={r}
            value={config[r] ?? { kind: 'none' }}
            onChange={(v) => setConfig({ ...config, [r]: v })}
          />
        ))}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('devices.assignment.save')}
        </button>
        <ErrorAlert message={error} />
      </form>
    </section>
  );
}

function Discovery({ onFound }: { onFound: (d: DiscoveredDeviceView[]) => void }) {
  const { t } = useTranslation('tech');
  const { run, busy, error } = useAction();
  const [result, setResult] = useState<DiscoveryView | undefined>(undefined);
  const discover = async () => {
    const v = await run('devices.discover', {});
    setResult(v);
    if (v) onFound(v.devices);
  };
  return (
    <section className="card" aria-labelledby="disc-title">
      <h2 id="disc-title">{t('devices.discovery.title')}</h2>
      <button type="button" className="btn" disabled={busy} onClick={() => void discover()}>
        {busy ? t('devices.discovery.looking') : t('devices.discovery.discover')}
      </button>
      <ErrorAlert message={error} />
      {result ? (
        <>
          {/* The listing method (udev, scan), its note and HID's reason are the core's: data. */}
          <p className="hint">
            {result.serialNote
              ? t('devices.discovery.serialByNote', { method: result.serialMethod, note: result.serialNote })
              : t('devices.discovery.serialBy', { method: result.serialMethod })}{' '}
            {result.hid.available
              ? t('devices.discovery.hidAvailable')
              : t('devices.discovery.hidUnavailable', {
                  reason: result.hid.reason ?? t('devices.discovery.noHid'),
                })}
          </p>
          <table className="data">
            <TableHead
              columns={[
                t('devices.discovery.columns.transport'),
                t('devices.discovery.columns.path'),
                t('devices.discovery.columns.ids'),
                t('devices.discovery.columns.maker'),
                t('devices.discovery.columns.looksLike'),
              ]}
            />
            <tbody>
              {result.devices.length === 0 ? (
                <tr>
                  <td colSpan={5}>{t('devices.discovery.none')}</td>
                </tr>
              ) : (
                result.devices.map((d) => (
                  <tr key={`${d.transport}-${d.path}`}>
                    <td>{t(`devices.discovery.transports.${d.transport}`)}</td>
                    <td>{d.path}</td>
                    <td>
                      {hex4(d.vendorId)} {hex4(d.productId)}
                    </td>
                    <td>{[d.manufacturer, d.product].filter(Boolean).join(' ')}</td>
                    <td>
                      {d.guess
                        ? t('devices.discovery.guess', {
                            role: roleName(d.guess.role),
                            model: d.guess.model,
                            confidence: t(`devices.discovery.confidence.${d.guess.confidence}`),
                          })
                        : '—'}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

/** The catalog's keys (under tech:devices.tests) of the tests' buttons and of their results' labels. */
type TestWord =
  | 'readCard'
  | 'readCardLabel'
  | 'showOnPad'
  | 'showOnPadLabel'
  | 'printTest'
  | 'printerStatus'
  | 'beep'
  | 'beepLabel'
  | 'pingPad'
  | 'pingPadLabel';

/** One test button: its words, the label its result is listed under, and what the core is asked to do. */
type DeviceTest = { button: TestWord; label: TestWord; request: DeviceTestRequest };

const readCardTest: DeviceTest = {
  button: 'readCard',
  label: 'readCardLabel',
  request: { role: 'cardReader', action: 'read-card', timeoutMs: 20000 },
};
const checkTests: readonly DeviceTest[] = [
  {
    button: 'printTest',
    label: 'printTest',
    request: { role: 'receiptPrinter', action: 'print-test-receipt' },
  },
  {
    button: 'printerStatus',
    label: 'printerStatus',
    request: { role: 'receiptPrinter', action: 'status' },
  },
  { button: 'beep', label: 'beepLabel', request: { role: 'contactless', action: 'beep' } },
  {
    button: 'pingPad',
    label: 'pingPadLabel',
    request: { role: 'signaturePad', action: 'heartbeat' },
  },
];

function Tests() {
  const { t } = useTranslation('tech');
  const { run, busy, error } = useAction();
  const [text, setText] = useState(() => t('devices.tests.padTextDefault'));
  // The label's key is kept, not its words, so a result reads in the language the window speaks now.
  const [results, setResults] = useState<{ label: TestWord; ok: boolean; detail: string }[]>([]);
  const test = async ({ label, request }: DeviceTest) => {
    const v = await run('devices.test', request);
    if (v) setResults((r) => [{ label, ok: v.ok, detail: v.detail }, ...r].slice(0, 8));
  };
  const testButton = (x: DeviceTest) => (
    <button key={x.button} type="button" className="btn" disabled={busy} onClick={() => void test(x)}>
      {t(`devices.tests.${x.button}`)}
    </button>
  );
  return (
    <section className="card" aria-labelledby="tests-title">
      <h2 id="tests-title">{t('devices.tests.title')}</h2>
      <div className="row">
        {testButton(readCardTest)}
        <InputField
          id="pad-text"
          label={t('devices.tests.padText')}
          value={text}
          maxLength={32}
          onChange={(e) => setText(e.target.value)}
        />
        {testButton({
          button: 'showOnPad',
          label: 'showOnPadLabel',
          request: { role: 'pinPad', action: 'display-text', text },
        })}
        {checkTests.map(testButton)}
      </div>
      {busy ? <p role="status">{t('devices.tests.testing')}</p> : null}
      <ErrorAlert message={error} />
      <ul aria-label={t('devices.tests.results')} aria-live="polite">
        {results.map((r, i) => (
          <li key={i}>
            <span className={`badge ${r.ok ? 'badge-ok' : 'badge-bad'}`}>
              {r.ok ? t('devices.tests.ok') : t('devices.tests.failed')}
            </span>{' '}
            {t('devices.tests.result', {
              label: t(`devices.tests.${r.label}`),
              detail: testDetailWords(r.detail),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Recorder() {
  const { t } = useTranslation('tech');
  const zone = useStoreZone();
  const frames = useCommand('devices.recorder.get', { limit: 100 });
  const { run, error } = useAction();
  const v = frames.data;
  return (
    <section className="card" aria-labelledby="rec-title">
      <h2 id="rec-title">{t('devices.recorder.title')}</h2>
      <p className="hint">{t('devices.recorder.intro')}</p>
      <div className="row">
        <label className="check">
          <input
            type="checkbox"
            checked={v?.enabled ?? false}
            disabled={!v}
            onChange={(e) =>
              void run('devices.recorder.set', { enabled: e.target.checked }).then(
                (r) => r && frames.setData(r),
              )
            }
          />
          {v?.file ? t('devices.recorder.recordTo', { file: v.file }) : t('devices.recorder.record')}
        </label>
        <button type="button" className="btn" onClick={() => void frames.reload()}>
          {t('devices.recorder.refresh')}
        </button>
      </div>
      <ErrorAlert message={error} />
      <table className="data">
        <TableHead
          columns={[
            t('devices.recorder.columns.time'),
            t('devices.recorder.columns.device'),
            t('devices.recorder.columns.direction'),
            t('devices.recorder.columns.bytes'),
            t('devices.recorder.columns.data'),
          ]}
          numeric={[t('devices.recorder.columns.bytes')]}
        />
        <tbody>
          {(v?.frames ?? []).length === 0 ? (
            <tr>
              <td colSpan={5}>{t('devices.recorder.none')}</td>
            </tr>
          ) : (
            (v?.frames ?? [])
              .slice(-50)
              .reverse()
              .map((f, i) => (
                <tr key={`${f.at}-${i}`}>
                  <td>{formatStamp(f.at, zone)}</td>
                  <td>{roleName(f.role)}</td>
                  <td>
                    {f.direction === 'in' ? t('devices.recorder.fromDevice') : t('devices.recorder.toDevice')}
                  </td>
                  <td className="num">{f.length}</td>
                  <td style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {f.ascii ?? f.hex ?? t('devices.recorder.notRecorded')}
                  </td>
                </tr>
              ))
          )}
        </tbody>
      </table>
    </section>
  );
}

/** The field tech's device screen: health, discovery, assignment, tests and the frame recorder. */
export function DevicesScreen() {
  const { t } = useTranslation('tech');
  const [discovered, setDiscovered] = useState<DiscoveredDeviceView[]>([]);
  return (
    <div>
      <h1 tabIndex={-1}>{t('devices.title')}</h1>
      <Health />
      <Tests />
      <ScannerAndPoleDisplay />
      <Discovery onFound={setDiscovered} />
      <Assignment discovered={discovered} />
      <Recorder />
    </div>
  );
}
