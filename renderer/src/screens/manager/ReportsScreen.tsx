import { useState, type FormEvent } from 'react';
import type { ReportQuery } from '../../../../common/bridge/contract';
import { endOfStoreDay, startOfStoreDay, storeDay } from '../../../../common/store-time';
import { formatCents, formatIsoDateTime } from '../../format/money';
import { useStoreZone } from '../../state/context';
import { useCommand } from '../../state/use-command';
import { BarChart, ShareBar } from '../../ui/charts';
import { ErrorAlert, InputField } from '../../ui/fields';
import { MoneyFiguresTables } from '../../ui/MoneyFiguresTables';
import { Stat } from '../../ui/Stat';
import { TableHead } from '../../ui/TableHead';

/**
 * The core reads `from`/`to` as instants (Date.parse), so a day picked here becomes the store day's first
 * and last millisecond (the store's time zone): "to 2026-11-22" must include that whole afternoon.
 */
export function dayRange(from: string, to: string, zone: string): ReportQuery {
  const start = (day: string) => new Date(startOfStoreDay(day, zone)).toISOString();
  const end = (day: string) => new Date(endOfStoreDay(day, zone)).toISOString();
  return { ...(from ? { from: start(from) } : {}), ...(to ? { to: end(to) } : {}) };
}

/** Saves text as a file through a temporary object URL (works in Electron and in a browser alike). */
export function download(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled, or the download can lose its source.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Sales by hour, card mix and refunds for a date range, with the rows and a CSV export. */
export function ReportsScreen() {
  const zone = useStoreZone();
  const today = storeDay(Date.now(), zone);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [query, setQuery] = useState<ReportQuery>(() => dayRange(today, today, zone));
  const report = useCommand('reports.transactions', query, JSON.stringify(query));
  const figures = useCommand('reports.figures', query, JSON.stringify(query));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery(dayRange(from, to, zone));
  };
  const r = report.data;
  const hours = r
    ? r.salesByHour.filter((h, i, all) => h.count > 0 || (i >= 6 && i <= 22) || all.length === 0)
    : [];
  return (
    <div>
      <h1 tabIndex={-1}>Reports</h1>
      <form className="row card" onSubmit={submit} aria-label="Report range">
        <InputField
          id="report-from"
          label="From"
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <InputField
          id="report-to"
          label="To"
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          Show
        </button>
        <button
          type="button"
          className="btn"
          disabled={!r}
          onClick={() =>
            r && download(`tillpoint-report-${from || 'start'}-to-${to || 'now'}.csv`, r.csv, 'text/csv')
          }
        >
          Export CSV
        </button>
      </form>
      <section aria-labelledby="lane-figures-title" className="card">
        <h2 id="lane-figures-title">This lane’s money (its journal)</h2>
        <ErrorAlert message={figures.error} />
        {figures.data ? <MoneyFiguresTables figures={figures.data.figures} /> : <p>Loading…</p>}
        {figures.data?.returns && figures.data.returns.total.count > 0 ? (
          <table className="data figures" data-testid="returns-by-tender">
            <caption>Returns of sales, by where the money went back</caption>
            <TableHead columns={['Tender', 'Returns', 'Amount']} numeric={['Returns', 'Amount']} />
            <tbody>
              {figures.data.returns.byTender.map((l) => (
                <tr key={l.key}>
                  <th scope="row">{l.key}</th>
                  <td className="num">{l.count}</td>
                  <td className="num">{formatCents(l.amountCents)}</td>
                </tr>
              ))}
              <tr className="figure-total">
                <th scope="row">Returns in all</th>
                <td className="num">{figures.data.returns.total.count}</td>
                <td className="num">{formatCents(figures.data.returns.total.cents)}</td>
              </tr>
            </tbody>
          </table>
        ) : null}
      </section>
      <h2>The gateway’s card transactions (every lane)</h2>
      <ErrorAlert message={report.error} />
      {report.loading && !r ? <p>Loading…</p> : null}
      {r ? (
        <>
          <div className="stats">
            <Stat label="Card transactions" value={r.rows.length} />
            <Stat
              label="Card sales (before cash back)"
              value={formatCents(r.salesByHour.reduce((s, h) => s + h.amountCents, 0))}
            />
            <Stat label={`Card refunds (${r.refunds.count})`} value={formatCents(r.refunds.amountCents)} />
          </div>
          <BarChart
            title="Sales by hour"
            bars={hours.map((h) => ({
              label: `${String(h.hour).padStart(2, '0')}h`,
              value: h.amountCents,
              detail: `${h.count} sales`,
            }))}
          />
          <ShareBar
            title="Card mix"
            parts={r.cardMix.map((c) => ({
              label: c.key,
              value: c.amountCents,
              detail: `${c.count} payments`,
            }))}
          />
          <BarChart
            title="Sales and refunds"
            bars={[
              { label: 'Sales', value: r.salesByHour.reduce((s, h) => s + h.amountCents, 0) },
              { label: 'Refunds', value: r.refunds.amountCents, detail: `${r.refunds.count} refunds` },
            ]}
            height={120}
          />
          <table className="data">
            <caption style={{ textAlign: 'left', fontWeight: 700 }}>Transactions</caption>
            <TableHead
              columns={['When', 'Type', 'Status', 'Card', 'Total', 'Refunded', 'Auth', 'Batch']}
              numeric={['Total', 'Refunded']}
            />
            <tbody>
              {r.rows.map((row) => (
                <tr key={row.serviceReferenceNumber}>
                  <td>
                    <time dateTime={row.madeOn}>{formatIsoDateTime(row.madeOn, zone)}</time>
                  </td>
                  <td>{row.type}</td>
                  <td>{row.status}</td>
                  <td>
                    {row.cardType} {row.last4 ? `•••• ${row.last4}` : ''}
                  </td>
                  <td className="num">{formatCents(row.totalCents)}</td>
                  <td className="num">{row.refundedCents > 0 ? formatCents(row.refundedCents) : ''}</td>
                  <td>{row.authCode}</td>
                  <td>{row.batchNumber ?? 'open'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
