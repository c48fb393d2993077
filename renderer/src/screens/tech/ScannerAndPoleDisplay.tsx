import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanView } from '../../../../common/bridge/contract';
import { scanProblemWords, testDetailWords } from '../../format/devices';
import { formatCents, formatTime } from '../../format/money';
import { i18n } from '../../i18n/i18n';
import { useBridge, useStoreZone } from '../../state/context';
import { useAction } from '../../state/use-command';
import { useWedgeScan } from '../../state/use-wedge-scan';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';

/** Beside the Valid / Refused badge: how a scan was checked, or why it was refused. */
function verdict(s: ScanView): string {
  if (!s.validated) return scanProblemWords(s.problem);
  const how = i18n.t(
    s.checkedBy === 'check-digit' ? 'tech:devices.scanner.checkDigit' : 'tech:devices.scanner.byScanner',
  );
  return s.priceEmbedded
    ? i18n.t('tech:devices.scanner.price', {
        how,
        item: s.priceEmbedded.itemCode,
        price: formatCents(s.priceEmbedded.priceCents),
      })
    : how;
}

/** The last scans of the lane's scanner, as they arrive, and a field to test a keyboard-wedge scanner. */
function ScannerTest() {
  const { t } = useTranslation('tech');
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
      <h2 id="scanner-title">{t('devices.scanner.title')}</h2>
      <p className="hint">{t('devices.scanner.intro')}</p>
      {s ? (
        <InputField
          id="wedge-test"
          label={t('devices.scanner.wedgeField')}
          // Uncontrolled: a scan's keys come a few ms apart and need no re-render each.
          defaultValue=""
          autoComplete="off"
          onKeyDown={(e) => {
            const input = e.currentTarget;
            if (wedge.onKeyDown(e).kind === 'scan') input.value = '';
          }}
        >
          <span className="hint">
            {t('devices.scanner.wedgeHint', {
              prefix:
                s.prefix === ''
                  ? t('devices.scanner.prefixNone')
                  : t('devices.scanner.prefixIs', { prefix: s.prefix }),
              suffix:
                s.suffix === 'none'
                  ? t('devices.scanner.suffixPause')
                  : t(`devices.assignment.suffixes.${s.suffix}`),
              min: s.minLength,
              gap: s.maxGapMs,
              mean: s.maxMeanGapMs,
            })}
          </span>
        </InputField>
      ) : null}
      <ErrorAlert message={error} />
      <table className="data" aria-label={t('devices.scanner.lastScans')}>
        <TableHead
          columns={[
            t('devices.scanner.columns.time'),
            t('devices.scanner.columns.from'),
            t('devices.scanner.columns.symbology'),
            t('devices.scanner.columns.data'),
            t('devices.scanner.columns.result'),
          ]}
        />
        <tbody aria-live="polite">
          {scans.length === 0 ? (
            <tr>
              <td colSpan={5}>{t('devices.scanner.noScan')}</td>
            </tr>
          ) : (
            scans.map((x) => (
              <tr key={`${x.at}-${x.data}`} data-scan={x.validated ? 'valid' : 'refused'}>
                <td style={{ whiteSpace: 'nowrap' }}>{formatTime(x.at, zone)}</td>
                <td>{t(`devices.scanner.sources.${x.source}`)}</td>
                <td>
                  {x.symbology === 'unknown' ? t('devices.scanner.notIdentified') : x.symbology.toUpperCase()}
                </td>
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
                    {x.validated ? t('devices.scanner.valid') : t('devices.scanner.refused')}
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
  const { t } = useTranslation('tech');
  const { run, busy, error } = useAction();
  const [text, setText] = useState(() => t('devices.pole.textDefault'));
  const [result, setResult] = useState<{ ok: boolean; detail: string } | null>(null);
  return (
    <section className="card" aria-labelledby="pole-title">
      <h2 id="pole-title">{t('devices.pole.title')}</h2>
      <div className="row">
        <InputField
          id="pole-text"
          label={t('devices.pole.text')}
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
          {t('devices.pole.show')}
        </button>
      </div>
      <ErrorAlert message={error} />
      {result ? (
        <p role="status">
          <span className={`badge ${result.ok ? 'badge-ok' : 'badge-bad'}`}>
            {result.ok ? t('devices.tests.ok') : t('devices.tests.failed')}
          </span>{' '}
          {testDetailWords(result.detail)}
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
