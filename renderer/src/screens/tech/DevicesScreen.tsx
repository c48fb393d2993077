import { useEffect, useState, type FormEvent } from 'react';
import type {
  DeviceConfigView,
  DeviceConnectionView,
  DeviceRoleName,
  DeviceStatusView,
  DeviceTestRequest,
  DiscoveredDeviceView,
  DiscoveryView,
} from '../../../../common/bridge/contract';
import { problemWords, roleWords } from '../../format/devices';
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

const chipStepWords: Record<string, string> = {
  starting: 'waiting for a card',
  authenticating: 'reading the chip',
  'awaiting-host': 'card waiting for the issuer’s answer',
  completing: 'card completing',
};

/** The EMV reader's contact slot, from its health detail (the chip driver's step). */
function chipSlot(d: DeviceStatusView): string | null {
  const step = d.role === 'contactless' ? d.detail?.['chipStep'] : undefined;
  if (step === undefined) return null;
  return step === 'idle' ? 'Chip slot: idle' : `Chip slot: ${chipStepWords[String(step)] ?? String(step)}`;
}

function hex4(n: number | undefined): string {
  return n === undefined ? '' : `0x${n.toString(16).padStart(4, '0')}`;
}

function Health() {
  const loaded = useCommand('devices.list', {});
  const live = useApp((s) => s.status?.devices);
  const app = useAppStore();
  const zone = useStoreZone();
  const { run, error } = useAction();
  const devices = live && live.length > 0 ? live : (loaded.data ?? []);
  return (
    <section className="card" aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      <table className="data">
        <TableHead columns={['Role', 'Connection', 'State', 'Last seen', 'Problem', 'Action']} />
        <tbody>
          {devices.map((d) => (
            <tr key={d.role} data-role={d.role}>
              <th scope="row">{roleWords[d.role]}</th>
              <td>
                {d.kind}
                {d.attachment && d.attachment !== d.kind ? ` ${d.attachment}` : ''}
              </td>
              <td>
                {/* Connected is not enough: a printer out of paper is a problem, whatever its link says. */}
                {d.problem && d.state === 'connected' ? (
                  <span className="badge badge-bad">{problemWords(d.problem)}</span>
                ) : (
                  <span className={`badge ${stateTone[d.state] ?? 'badge-muted'}`}>{d.state}</span>
                )}
                {d.attempts > 0 ? <div className="hint">{d.attempts} attempts</div> : null}
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
                  aria-label={`Reconnect ${roleWords[d.role]}`}
                  onClick={() =>
                    void run('devices.reconnect', { role: d.role }).then(
                      (v) => v && app.getState().notify('info', `${roleWords[d.role]}: ${v.state}`),
                    )
                  }
                >
                  Reconnect
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

const connectionKinds: readonly SelectOption<DeviceConnectionView['kind']>[] = [
  ['simulated', 'Simulated (sandbox)'],
  ['serial', 'Serial port'],
  ['hid', 'USB HID'],
  ['wedge', 'Keyboard wedge'],
  ['none', 'None'],
];
const baudRates: readonly SelectOption<number>[] = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].map(
  (b) => [b, String(b)],
);
const dataBitsOptions: readonly SelectOption<7 | 8>[] = [
  [8, '8'],
  [7, '7'],
];
const parityOptions: readonly SelectOption<'none' | 'even' | 'odd'>[] = [
  ['none', 'None'],
  ['even', 'Even'],
  ['odd', 'Odd'],
];
const wedgeSuffixes: readonly SelectOption<'Enter' | 'Tab' | 'none'>[] = [
  ['Enter', 'Enter'],
  ['Tab', 'Tab'],
  ['none', 'None (a pause)'],
];
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
      <legend>{roleWords[role]}</legend>
      <div className="row">
        <SelectField
          id={id('kind')}
          label="Connection"
          value={value.kind}
          options={connectionKinds}
          onChange={setKind}
        />
        {serial ? (
          <>
            <InputField
              id={id('path')}
              label="Port"
              value={serial.path}
              onChange={(e) => onChange({ ...serial, path: e.target.value })}
            />
            <SelectField
              id={id('baud')}
              label="Baud rate"
              value={serial.baudRate}
              options={baudRates}
              onChange={(baudRate) => onChange({ ...serial, baudRate })}
            />
            <SelectField
              id={id('bits')}
              label="Data bits"
              value={serial.dataBits}
              options={dataBitsOptions}
              onChange={(dataBits) => onChange({ ...serial, dataBits })}
            />
            <SelectField
              id={id('parity')}
              label="Parity"
              value={serial.parity}
              options={parityOptions}
              onChange={(parity) => onChange({ ...serial, parity })}
            />
            <SelectField
              id={id('stop')}
              label="Stop bits"
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
              label="Scanner prefix"
              value={value.prefix ?? ''}
              maxLength={8}
              placeholder="none"
              onChange={(e) => onChange({ ...value, prefix: e.target.value })}
            />
            <SelectField
              id={id('suffix')}
              label="Scanner suffix"
              value={value.suffix ?? 'Enter'}
              options={wedgeSuffixes}
              onChange={(suffix) => onChange({ ...value, suffix })}
            />
            <InputField
              id={id('minlen')}
              label="Shortest code"
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
              label="Vendor id (hex)"
              value={hex4(hid.vendorId)}
              onChange={(e) => onChange({ ...hid, vendorId: parseInt(e.target.value, 16) || 0 })}
            />
            <InputField
              id={id('pid')}
              label="Product id (hex)"
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
  const loaded = useCommand('devices.config.get', {});
  const [config, setConfig] = useState<DeviceConfigView | undefined>(undefined);
  const { run, busy, error } = useAction();
  const app = useAppStore();
  useEffect(() => setConfig(loaded.data), [loaded.data]);
  if (!config)
    return loaded.error ? <ErrorAlert message={loaded.error} /> : <p>Loading device configuration…</p>;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const v = await run('devices.config.set', { config });
    if (v) {
      setConfig(v);
      app.getState().notify('success', 'Device configuration saved; devices reconnect with it.');
    }
  };
  return (
    <section aria-labelledby="assign-title">
      <h2 id="assign-title">Assignment and serial settings</h2>
      {discovered.some((d) => d.suggestion && d.guess) ? (
        <div className="row" role="group" aria-label="Suggestions from discovery">
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
                Use {d.path} as {d.guess ? roleWords[d.guess.role] : ''}
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
          Save device configuration
        </button>
        <ErrorAlert message={error} />
      </form>
    </section>
  );
}

function Discovery({ onFound }: { onFound: (d: DiscoveredDeviceView[]) => void }) {
  const { run, busy, error } = useAction();
  const [result, setResult] = useState<DiscoveryView | undefined>(undefined);
  const discover = async () => {
    const v = await run('devices.discover', {});
    setResult(v);
    if (v) onFound(v.devices);
  };
  return (
    <section className="card" aria-labelledby="disc-title">
      <h2 id="disc-title">Discovered ports and HID devices</h2>
      <button type="button" className="btn" disabled={busy} onClick={() => void discover()}>
        {busy ? 'Looking…' : 'Discover devices'}
      </button>
      <ErrorAlert message={error} />
      {result ? (
        <>
          <p className="hint">
            Serial ports listed by {result.serialMethod}
            {result.serialNote ? ` (${result.serialNote})` : ''}. HID:{' '}
            {result.hid.available ? 'available' : `unavailable — ${result.hid.reason ?? 'no HID support'}`}.
          </p>
          <table className="data">
            <TableHead columns={['Transport', 'Path', 'Vendor / product', 'Maker', 'Looks like']} />
            <tbody>
              {result.devices.length === 0 ? (
                <tr>
                  <td colSpan={5}>No serial ports or HID devices found.</td>
                </tr>
              ) : (
                result.devices.map((d) => (
                  <tr key={`${d.transport}-${d.path}`}>
                    <td>{d.transport}</td>
                    <td>{d.path}</td>
                    <td>
                      {hex4(d.vendorId)} {hex4(d.productId)}
                    </td>
                    <td>{[d.manufacturer, d.product].filter(Boolean).join(' ')}</td>
                    <td>
                      {d.guess ? `${roleWords[d.guess.role]} (${d.guess.model}, ${d.guess.confidence})` : '—'}
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

/** One test button: its words, the label its result is listed under, and what the core is asked to do. */
type DeviceTest = { button: string; label: string; request: DeviceTestRequest };

const readCardTest: DeviceTest = {
  button: 'Read a card',
  label: 'Read card',
  request: { role: 'cardReader', action: 'read-card', timeoutMs: 20000 },
};
const checkTests: readonly DeviceTest[] = [
  {
    button: 'Print test receipt',
    label: 'Print test receipt',
    request: { role: 'receiptPrinter', action: 'print-test-receipt' },
  },
  {
    button: 'Printer status',
    label: 'Printer status',
    request: { role: 'receiptPrinter', action: 'status' },
  },
  { button: 'Beep contactless', label: 'Contactless beep', request: { role: 'contactless', action: 'beep' } },
  {
    button: 'Ping signature pad',
    label: 'Signature pad heartbeat',
    request: { role: 'signaturePad', action: 'heartbeat' },
  },
];

function Tests() {
  const { run, busy, error } = useAction();
  const [text, setText] = useState('TILLPOINT TEST');
  const [results, setResults] = useState<{ label: string; ok: boolean; detail: string }[]>([]);
  const test = async ({ label, request }: DeviceTest) => {
    const v = await run('devices.test', request);
    if (v) setResults((r) => [{ label, ok: v.ok, detail: v.detail }, ...r].slice(0, 8));
  };
  const testButton = (t: DeviceTest) => (
    <button key={t.button} type="button" className="btn" disabled={busy} onClick={() => void test(t)}>
      {t.button}
    </button>
  );
  return (
    <section className="card" aria-labelledby="tests-title">
      <h2 id="tests-title">Test actions</h2>
      <div className="row">
        {testButton(readCardTest)}
        <InputField
          id="pad-text"
          label="PIN-pad display text"
          value={text}
          maxLength={32}
          onChange={(e) => setText(e.target.value)}
        />
        {testButton({
          button: 'Show on PIN pad',
          label: 'PIN-pad display',
          request: { role: 'pinPad', action: 'display-text', text },
        })}
        {checkTests.map(testButton)}
      </div>
      {busy ? <p role="status">Testing… (for “Read a card”, present a card now)</p> : null}
      <ErrorAlert message={error} />
      <ul aria-label="Test results" aria-live="polite">
        {results.map((r, i) => (
          <li key={i}>
            <span className={`badge ${r.ok ? 'badge-ok' : 'badge-bad'}`}>{r.ok ? 'OK' : 'Failed'}</span>{' '}
            {r.label}: {r.detail}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Recorder() {
  const zone = useStoreZone();
  const frames = useCommand('devices.recorder.get', { limit: 100 });
  const { run, error } = useAction();
  const v = frames.data;
  return (
    <section className="card" aria-labelledby="rec-title">
      <h2 id="rec-title">Frame recorder</h2>
      <p className="hint">
        Records the bytes each device sends and receives, card numbers masked and PIN-pad payloads left out.
      </p>
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
          Record frames{v?.file ? ` to ${v.file}` : ''}
        </label>
        <button type="button" className="btn" onClick={() => void frames.reload()}>
          Refresh frames
        </button>
      </div>
      <ErrorAlert message={error} />
      <table className="data">
        <TableHead columns={['Time', 'Device', 'Direction', 'Bytes', 'Data (masked)']} numeric={['Bytes']} />
        <tbody>
          {(v?.frames ?? []).length === 0 ? (
            <tr>
              <td colSpan={5}>No frames recorded.</td>
            </tr>
          ) : (
            (v?.frames ?? [])
              .slice(-50)
              .reverse()
              .map((f, i) => (
                <tr key={`${f.at}-${i}`}>
                  <td>{formatStamp(f.at, zone)}</td>
                  <td>{roleWords[f.role]}</td>
                  <td>{f.direction === 'in' ? 'from device' : 'to device'}</td>
                  <td className="num">{f.length}</td>
                  <td style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {f.ascii ?? f.hex ?? '(not recorded)'}
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
  const [discovered, setDiscovered] = useState<DiscoveredDeviceView[]>([]);
  return (
    <div>
      <h1 tabIndex={-1}>Devices</h1>
      <Health />
      <Tests />
      <ScannerAndPoleDisplay />
      <Discovery onFound={setDiscovered} />
      <Assignment discovered={discovered} />
      <Recorder />
    </div>
  );
}
