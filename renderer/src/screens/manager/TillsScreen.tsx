import { useEffect, useState, type FormEvent } from 'react';
import type {
  TillPrintResult,
  TillReportScope,
  TillReportView,
  TillView,
} from '../../../../electron/bridge/contract';
import { formatCents, formatDateTime, parseMoney } from '../../format/money';
import { useAppStore, useStoreZone } from '../../state/context';
import { useAction, useCommand } from '../../state/use-command';
import { useTillStatus } from '../../state/use-till';
import { Dialog } from '../../ui/Dialog';
import { ErrorAlert, InputField } from '../../ui/fields';
import { TableHead } from '../../ui/TableHead';
import { CountPanel } from '../till/CountPanel';
import { TillReportPanel, reportHeading } from '../till/TillReportPanel';
import { overShortWords, stateWords, tillName } from '../till/till-words';

/** What a print said, for the status line under the report. */
function printWords(p: TillPrintResult): string {
  return p.printed ? 'Printed on the receipt printer.' : `Not printed: ${p.reason}`;
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
              {report.kind === 'z' ? 'Reprint' : 'Print'} {reportHeading(report)}
            </button>
            <button type="button" className="btn" onClick={onClose}>
              Close the report
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
      return setError('Type the amounts like 5.00.');
    const r = await run('till.settings.set', { toleranceCents, defaultFloatCents });
    if (r) app.getState().notify('success', 'Till settings saved.');
  };
  return (
    <section className="card" aria-labelledby="till-settings-title">
      <h2 id="till-settings-title">Till settings</h2>
      <form className="row" onSubmit={(e) => void save(e)}>
        <InputField
          id="till-tolerance"
          label="Sign-off when over or short by more than"
          inputMode="decimal"
          autoComplete="off"
          value={tolerance}
          onChange={(e) => setTolerance(e.target.value)}
        />
        <InputField
          id="till-default-float"
          label="Usual opening float"
          inputMode="decimal"
          autoComplete="off"
          value={float}
          onChange={(e) => setFloat(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          Save
        </button>
      </form>
      <ErrorAlert message={error ?? current.error} />
    </section>
  );
}

function PastZ({ zone, version, onShow }: { zone: string; version: number; onShow: (n: number) => void }) {
  const list = useCommand('till.zList', {}, String(version));
  const rows = list.data ?? [];
  return (
    <>
      <ErrorAlert message={list.error} />
      <table className="data">
        <caption>Past Z reports</caption>
        <TableHead
          columns={['Z', 'From', 'To', 'Closed by', 'Tills', 'Sales', 'Over/short', '']}
          numeric={['Tills', 'Sales', 'Over/short']}
        />
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={8}>No day closed yet.</td>
            </tr>
          ) : (
            rows.map((z) => (
              <tr key={z.zNumber}>
                <th scope="row">Z {z.zNumber}</th>
                <td>{formatDateTime(z.from, zone)}</td>
                <td>{formatDateTime(z.until, zone)}</td>
                <td>{z.closedBy}</td>
                <td className="num">{z.tills}</td>
                <td className="num">{formatCents(z.salesCents)}</td>
                <td className="num">{overShortWords(z.overShortCents)}</td>
                <td>
                  <button type="button" className="btn btn-small" onClick={() => onShow(z.zNumber)}>
                    View Z {z.zNumber}
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
    app.getState().notify('success', `The day is closed: ${reportHeading(r.report)}.`);
    setVersion((v) => v + 1);
  };

  const tills = day.data ?? [];
  const open = tills.filter((t) => t.state !== 'closed');
  return (
    <div>
      <h1 tabIndex={-1}>Tills</h1>
      {counting ? (
        <CountPanel
          till={counting}
          onClose={() => setCounting(null)}
          onChanged={() => setVersion((v) => v + 1)}
        />
      ) : null}
      <table className="data">
        <caption>Today’s tills (since the last Z)</caption>
        <TableHead columns={['Till', 'Cashier', 'Opened', 'Left the drawer', 'Where it is', 'Count', '']} />
        <tbody>
          {tills.length === 0 ? (
            <tr>
              <td colSpan={7}>No till yet since the last Z.</td>
            </tr>
          ) : (
            tills.map((t) => (
              <tr key={t.tillId} data-till={t.tillId}>
                <th scope="row">Till {t.tillId}</th>
                <td>{t.employee}</td>
                <td>{formatDateTime(t.openedAt, zone)}</td>
                <td>{t.endedAt !== undefined ? formatDateTime(t.endedAt, zone) : ''}</td>
                <td>{stateWords[t.state]}</td>
                <td>{t.count ? overShortWords(t.count.overShortCents) : 'Not counted'}</td>
                <td>
                  <div className="row">
                    {t.state === 'open' || t.state === 'handed-over' || t.state === 'counted' ? (
                      <button
                        type="button"
                        className="btn btn-small btn-primary"
                        onClick={() => setCounting(t)}
                        aria-label={`${t.state === 'counted' ? 'Sign off' : 'Count'} ${tillName(t)}`}
                      >
                        {t.state === 'counted' ? 'Sign off' : 'Count'}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => void show({ tillId: t.tillId })}
                      aria-label={`X report of ${tillName(t)}`}
                    >
                      X report
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
        <h2 id="day-title">The day</h2>
        <p className="hint">
          The X report reads the day so far and closes nothing. The Z report closes the day: every till of it
          counted and signed off first; it is numbered, kept and printed.
          {open.length > 0 ? ` ${open.length} till${open.length === 1 ? '' : 's'} still to close.` : ''}
        </p>
        <div className="row">
          <button type="button" className="btn" disabled={busy} onClick={() => void show({ day: true })}>
            X report: the day so far
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => setConfirmClose(true)}
          >
            Close the day (Z report)
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
          title="Close the day?"
          onClose={() => setConfirmClose(false)}
          initialFocus="close-day-confirm"
        >
          <p>
            The Z report closes the day: its figures are kept as they are now and the next day starts from
            here.
          </p>
          <div className="row">
            <button type="button" className="btn" onClick={() => setConfirmClose(false)}>
              Back
            </button>
            <button
              id="close-day-confirm"
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() => void closeDay()}
            >
              Close the day
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
