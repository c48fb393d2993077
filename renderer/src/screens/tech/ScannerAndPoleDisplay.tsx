import { useEffect, useState } from 'react';
import type { ScanView } from '../../../../common/bridge/contract';
import { formatCents, formatTime } from '../../format/money';
import { useBridge, useStoreZone } from '../../state/context';
import { useAction } from '../../state/use-command';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

const sourceWords: Record<ScanView['source'], string> = {
  serial: 'serial',
  hid: 'USB HID POS',
  wedge: 'keyboard wedge',
};

/** Beside the Valid / Refused badge: how a scan was checked, or why it was refused. */
function verdict(s: ScanView): string {
  if (!s.validated) return s.problem ?? 'unreadable';
  const how = s.checkedBy === 'check-digit' ? 'check digit verified' : 'checked by the scanner';
  const price = s.priceEmbedded
    ? `; item ${s.priceEmbedded.itemCode}, label price ${formatCents(s.priceEmbedded.priceCents)}`
    : '';
  return `${how}${price}`;
}

/** The last scans of the lane's scanner, as they arrive, and a field to test a keyboard-wedge scanner. */
function ScannerTest() {
  const bridge = useBridge();
  const zone = useStoreZone();
  const [scans, setScans] = useState<ScanView[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => bridge.on('scanner.scanned', (s) => setScans((all) => [s, ...all].slice(0, 10))), [bridge]);
  const wedge = useWedgeScan({
    // The scan reaches this screen as a scanner.scanned event like every other; here only the field clears.
    onScan: () => setError(null),
    onError: setError,
  });
  const s = wedge.settings;
  return (
    <section className="card" aria-labelledby="scanner-title">
      <h2 id="scanner-title">Barcode scanner</h2>
      <p className="hint">
        Scan a label: each scan is listed with its symbology, its data and whether it is valid. A misread
        (check digit wrong) is refused and never looked up.
      </p>
      {s ? (
        <InputField
          id="wedge-test"
          label="Keyboard-wedge test: put the cursor here and scan"
          // Uncontrolled: a scan's keys come a few ms apart and need no re-render each.
          defaultValue=""
          autoComplete="off"
          onKeyDown={(e) => {
            const input = e.currentTarget;
            if (wedge.onKeyDown(e).kind === 'scan') input.value = '';
          }}
        >
          <span className="hint">
            Prefix {s.prefix === '' ? 'none' : `“${s.prefix}”`}, ends with{' '}
            {s.suffix === 'none' ? 'a pause' : s.suffix}, at least {s.minLength} characters, keys at most{' '}
            {s.maxGapMs} ms apart and {s.maxMeanGapMs} ms on average. Typing by hand stays in the field.
          </span>
        </InputField>
      ) : null}
      <ErrorAlert message={error} />
      <table className="data" aria-label="Last scans">
        <TableHead columns={['Time', 'From', 'Symbology', 'Data', 'Result']} />
        <tbody aria-live="polite">
          {scans.length === 0 ? (
            <tr>
              <td colSpan={5}>No scan yet.</td>
            </tr>
          ) : (
            scans.map((x) => (
              <tr key={`${x.at}-${x.data}`} data-scan={x.validated ? 'valid' : 'refused'}>
                <td style={{ whiteSpace: 'nowrap' }}>{formatTime(x.at, zone)}</td>
                <td>{sourceWords[x.source]}</td>
                <td>{x.symbology === 'unknown' ? 'not identified' : x.symbology.toUpperCase()}</td>
                <td
                  style={{
                    fontFamily: 'monospace',
                    // A retail code stays on one line; only a long 2D payload may wrap.
                    ...(x.data.length <= 24 ? { whiteSpace: 'nowrap' } : { wordBreak: 'break-all' }),
                  }}
                >
                  {x.data}
                </td>
                <td>
                  <span className={`badge ${x.validated ? 'badge-ok' : 'badge-bad'}`}>
                    {x.validated ? 'Valid' : 'Refused'}
                  </span>{' '}
                  {verdict(x)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}

/** The pole display's test: a line of the tech's text above a 20-column ruler. */
function PoleDisplayTest() {
  const { run, busy, error } = useAction();
  const [text, setText] = useState('TILLPOINT TEST');
  const [result, setResult] = useState<{ ok: boolean; detail: string } | null>(null);
  return (
    <section className="card" aria-labelledby="pole-title">
      <h2 id="pole-title">Pole display</h2>
      <div className="row">
        <InputField
          id="pole-text"
          label="Text for the top row (20 characters)"
          value={text}
          maxLength={20}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() =>
            void run('devices.test', { role: 'poleDisplay', action: 'display-test', text }).then(
              (v) => v && setResult(v),
            )
          }
        >
          Show on pole display
        </button>
      </div>
      <ErrorAlert message={error} />
      {result ? (
        <p role="status">
          <span className={`badge ${result.ok ? 'badge-ok' : 'badge-bad'}`}>
            {result.ok ? 'OK' : 'Failed'}
          </span>{' '}
          {result.detail}
        </p>
      ) : null}
    </section>
  );
}

/** The tech's checks of the scanner and the pole display (Devices screen). */
export function ScannerAndPoleDisplay() {
  return (
    <>
      <ScannerTest />
      <PoleDisplayTest />
    </>
  );
}
