import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  TillPrintResult,
  TillReportScope,
  TillReportView,
  TillView,
} from '../../../../common/bridge/contract';
import { formatCents, formatDateTime, parseMoney } from '../../format/money';
import { useAppStore, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { useTillStatus } from '../../state/use-till';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CountPanel } from '../till/CountPanel';
import { TillReportPanel, reportHeading } from '../till/TillReportPanel';
import { i18n } from '../../i18n/i18n';
import { overShortWords, stateWord, tillName } from '../till/till-words';

/**
 * What a print said, for the status line under the report. The core's two reasons are said in the
 * window's language; another (a printer's own words) as it came.
 */
function printWords(p: TillPrintResult): string {
  if (p.printed) return i18n.t('till:manager.printed');
  const failed = /^The printer failed: (.*)$/.exec(p.reason);
  const reason = p.reason.startsWith('No printer connected')
    ? i18n.t('till:manager.reasons.noPrinter')
    : failed
      ? i18n.t('till:manager.reasons.failed', { message: failed[1] ?? '' })
      : p.reason;
  return i18n.t('till:manager.notPrinted', { reason });
}

function ReportView({
  report,
  zone,
  onClose,
}: {
  report: TillReportView;
  zone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('till');
  const { run, busy, error } = useAction();
  const [note, setNote] = useState<string | null>(null);
  const scope: TillReportScope =
    report.kind === 'z' && report.zNumber !== undefined
      ? { zNumber: report.zNumber }
      : report.scope === 'till' && report.tillId !== undefined
        ? { tillId: report.tillId }
        : { day: true };
  const print = async () => {
    const r = await run('till.print', scope);
    if (r) setNote(printWords(r));
  };
  return (
    <TillReportPanel
      report={report}
      zone={zone}
      actions={
        <div className="stack">
          <div className="row">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void print()}>
              {t(report.kind === 'z' ? 'manager.reprint' : 'manager.print', {
                report: reportHeading(report),
              })}
            </button>
            <button type="button" className="btn" onClick={onClose}>
              {t('manager.closeReport')}
            </button>
          </div>
          <p role="status">{note ?? ''}</p>
          <ErrorAlert message={error} />
        </div>
      }
    />
  );
}

function TillSettings() {
  const { t } = useTranslation(['till', 'common']);
  const app = useAppStore();
  const current = useCommand('till.settings.get', {});
  const { run, busy, error, setError } = useAction();
  const [tolerance, setTolerance] = useState('');
  const [float, setFloat] = useState('');
  useEffect(() => {
    if (!current.data) return;
    setTolerance((current.data.toleranceCents / 100).toFixed(2));
    setFloat((current.data.defaultFloatCents / 100).toFixed(2));
  }, [current.data]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const toleranceCents = parseMoney(tolerance);
    const defaultFloatCents = parseMoney(float);
    if (toleranceCents === undefined || defaultFloatCents === undefined)
      return setError(t('manager.typeAmounts'));
    const r = await run('till.settings.set', { toleranceCents, defaultFloatCents });
    if (r) app.getState().notify('success', t('manager.settingsSaved'));
  };
  return (
    <section className="card" aria-labelledby="till-settings-title">
      <h2 id="till-settings-title">{t('manager.settingsTitle')}</h2>
      <form className="row" onSubmit={(e) => void save(e)}>
        <InputField
          id="till-tolerance"
          label={t('manager.tolerance')}
          inputMode="decimal"
          autoComplete="off"
          value={tolerance}
          onChange={(e) => setTolerance(e.target.value)}
        />
        <InputField
          id="till-default-float"
          label={t('manager.usualFloat')}
          inputMode="decimal"
          autoComplete="off"
          value={float}
          onChange={(e) => setFloat(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          {t('common:save')}
        </button>
      </form>
      <ErrorAlert message={error ?? current.error} />
    </section>
  );
}

function PastZ({ zone, version, onShow }: { zone: string; version: number; onShow: (n: number) => void }) {
  const { t } = useTranslation('till');
  const list = useCommand('till.zList', {}, String(version));
  const rows = list.data ?? [];
  return (
    <>
      <ErrorAlert message={list.error} />
      <table className="data">
        <caption>{t('manager.pastZ')}</caption>
        <TableHead
          columns={[
            t('manager.z'),
            t('manager.from'),
            t('manager.to'),
            t('manager.closedBy'),
            t('report.tills'),
            t('report.sales'),
            t('report.overShort'),
            '',
          ]}
          numeric={[t('report.tills'), t('report.sales'), t('report.overShort')]}
        />
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={8}>{t('manager.noDay')}</td>
            </tr>
          ) : (
            rows.map((z) => (
              <tr key={z.zNumber}>
                <th scope="row">{t('manager.zShort', { zNumber: z.zNumber })}</th>
                <td>{formatDateTime(z.from, zone)}</td>
                <td>{formatDateTime(z.until, zone)}</td>
                <td>{z.closedBy}</td>
                <td className="num">{z.tills}</td>
                <td className="num">{formatCents(z.salesCents)}</td>
                <td className="num">{overShortWords(z.overShortCents)}</td>
                <td>
                  <button type="button" className="btn btn-small" onClick={() => onShow(z.zNumber)}>
                    {t('manager.viewZ', { zNumber: z.zNumber })}
                  </button>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </>
  );
}

/**
 * The manager's tills: count the trays handed over (blind), sign off counts beyond the tolerance, read
 * and print X reports, close the day with the Z, reprint past Zs, and set the tolerance and float.
 */
export function TillsScreen() {
  const { t } = useTranslation(['till', 'common']);
  const zone = useStoreZone();
  const app = useAppStore();
  const status = useTillStatus();
  const [version, setVersion] = useState(0);
  useEffect(() => setVersion((v) => v + 1), [status]);
  const day = useCommand('till.list', {}, String(version));
  const [counting, setCounting] = useState<TillView | null>(null);
  const [report, setReport] = useState<TillReportView | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const [printNote, setPrintNote] = useState<string | null>(null);
  const { run, busy, error } = useAction();

  const show = async (scope: TillReportScope) => {
    setPrintNote(null);
    const r = await run('till.report', scope);
    if (r) setReport(r);
  };
  const closeDay = async () => {
    const r = await run('till.closeDay', {});
    setConfirmClose(false);
    if (!r) return;
    setReport(r.report);
    setPrintNote(printWords(r.print));
    app.getState().notify('success', t('manager.dayClosed', { report: reportHeading(r.report) }));
    setVersion((v) => v + 1);
  };

  const tills = day.data ?? [];
  const open = tills.filter((s) => s.state !== 'closed');
  return (
    <div>
      <h1 tabIndex={-1}>{t('manager.title')}</h1>
      {counting ? (
        <CountPanel
          till={counting}
          onClose={() => setCounting(null)}
          onChanged={() => setVersion((v) => v + 1)}
        />
      ) : null}
      <table className="data">
        <caption>{t('manager.today')}</caption>
        <TableHead
          columns={[
            t('report.till'),
            t('report.cashier'),
            t('report.opened'),
            t('report.left'),
            t('manager.where'),
            t('manager.count'),
            '',
          ]}
        />
        <tbody>
          {tills.length === 0 ? (
            <tr>
              <td colSpan={7}>{t('manager.noTill')}</td>
            </tr>
          ) : (
            tills.map((s) => (
              <tr key={s.tillId} data-till={s.tillId}>
                <th scope="row">{t('tillShort', { tillId: s.tillId })}</th>
                <td>{s.employee}</td>
                <td>{formatDateTime(s.openedAt, zone)}</td>
                <td>{s.endedAt !== undefined ? formatDateTime(s.endedAt, zone) : ''}</td>
                <td>{stateWord(s.state)}</td>
                <td>{s.count ? overShortWords(s.count.overShortCents) : t('report.notCounted')}</td>
                <td>
                  <div className="row">
                    {s.state === 'open' || s.state === 'handed-over' || s.state === 'counted' ? (
                      <button
                        type="button"
                        className="btn btn-small btn-primary"
                        onClick={() => setCounting(s)}
                        aria-label={t(s.state === 'counted' ? 'manager.signOffTill' : 'manager.countTill', {
                          till: tillName(s),
                        })}
                      >
                        {s.state === 'counted' ? t('count.signOff') : t('manager.countAction')}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => void show({ tillId: s.tillId })}
                      aria-label={t('manager.xReportOf', { till: tillName(s) })}
                    >
                      {t('manager.xReport')}
                    </button>
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <ErrorAlert message={day.error} />
      <section className="card" aria-labelledby="day-title">
        <h2 id="day-title">{t('manager.dayTitle')}</h2>
        <p className="hint">
          {t('manager.dayHint')}
          {open.length > 0 ? t('manager.stillToClose', { count: open.length }) : ''}
        </p>
        <div className="row">
          <button type="button" className="btn" disabled={busy} onClick={() => void show({ day: true })}>
            {t('manager.xDay')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => setConfirmClose(true)}
          >
            {t('manager.closeDay')}
          </button>
        </div>
        <ErrorAlert message={error} />
      </section>
      {report ? (
        <>
          {printNote ? <p role="status">{printNote}</p> : null}
          <ReportView
            key={`${report.kind}-${report.zNumber ?? report.tillId ?? 'day'}-${report.until}`}
            report={report}
            zone={zone}
            onClose={() => setReport(null)}
          />
        </>
      ) : null}
      <PastZ zone={zone} version={version} onShow={(n) => void show({ zNumber: n })} />
      <TillSettings />
      {confirmClose ? (
        <Dialog
          title={t('manager.closeTitle')}
          onClose={() => setConfirmClose(false)}
          initialFocus="close-day-confirm"
        >
          <p>{t('manager.closeText')}</p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirmClose(false)}>
              {t('common:back')}
            </button>
            <button
              id="close-day-confirm"
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void closeDay()}
            >
              {t('manager.closeConfirm')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
