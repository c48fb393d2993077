import { cardWords } from '../../format/card-words';
import { figureLineWords } from '../../format/figure-line-words';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportQuery } from '../../../../common/bridge/contract';
import { endOfStoreDay, startOfStoreDay, storeDay } from '../../../../common/store-time';
import { formatCents, formatIsoDateTime } from '../../format/money';
import { messageFor } from '../../i18n/i18n';
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
  const { t } = useTranslation(['reports', 'common']);
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
      <h1 tabIndex={-1}>{t('title')}</h1>
      <form className="row card" onSubmit={submit} aria-label={t('range')}>
        <InputField
          id="report-from"
          label={t('from')}
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <InputField
          id="report-to"
          label={t('to')}
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
        <button type="submit" className="btn btn-primary">
          {t('show')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={!r}
          onClick={() =>
            r && download(`tillpoint-report-${from || 'start'}-to-${to || 'now'}.csv`, r.csv, 'text/csv')
          }
        >
          {t('exportCsv')}
        </button>
      </form>
      <section aria-labelledby="lane-figures-title" className="card">
        <h2 id="lane-figures-title">{t('laneTitle')}</h2>
        <ErrorAlert message={figures.error} />
        {figures.data ? <MoneyFiguresTables figures={figures.data.figures} /> : <p>{t('common:loading')}</p>}
        {figures.data?.returns && figures.data.returns.total.count > 0 ? (
          <table className="data figures" data-testid="returns-by-tender">
            <caption>{t('returnsCaption')}</caption>
            <TableHead
              columns={[t('tender'), t('returns'), t('amount')]}
              numeric={[t('returns'), t('amount')]}
            />
            <tbody>
              {figures.data.returns.byTender.map((l) => (
                <tr key={l.key}>
                  <th scope="row">{figureLineWords(l.key)}</th>
                  <td className="num">{l.count}</td>
                  <td className="num">{formatCents(l.amountCents)}</td>
                </tr>
              ))}
              <tr className="figure-total">
                <th scope="row">{t('returnsTotal')}</th>
                <td className="num">{figures.data.returns.total.count}</td>
                <td className="num">{formatCents(figures.data.returns.total.cents)}</td>
              </tr>
            </tbody>
          </table>
        ) : null}
      </section>
      <h2>{t('gatewayTitle')}</h2>
      <ErrorAlert message={report.error} />
      {report.loading && !r ? <p>{t('common:loading')}</p> : null}
      {r ? (
        <>
          <div className="stats">
            <Stat label={t('cardTransactions')} value={r.rows.length} />
            <Stat
              label={t('cardSales')}
              value={formatCents(r.salesByHour.reduce((s, h) => s + h.amountCents, 0))}
            />
            <Stat
              label={t('cardRefunds', { count: r.refunds.count })}
              value={formatCents(r.refunds.amountCents)}
            />
          </div>
          <BarChart
            title={t('byHour')}
            bars={hours.map((h) => ({
              label: t('hour', { hour: String(h.hour).padStart(2, '0') }),
              value: h.amountCents,
              detail: t('sales', { count: h.count }),
            }))}
          />
          <ShareBar
            title={t('cardMix')}
            parts={r.cardMix.map((c) => ({
              label: figureLineWords(c.key),
              value: c.amountCents,
              detail: t('payments', { count: c.count }),
            }))}
          />
          <BarChart
            title={t('salesAndRefunds')}
            bars={[
              { label: t('salesBar'), value: r.salesByHour.reduce((s, h) => s + h.amountCents, 0) },
              {
                label: t('refundsBar'),
                value: r.refunds.amountCents,
                detail: t('refunds', { count: r.refunds.count }),
              },
            ]}
            height={120}
          />
          <table className="data">
            <caption style={{ textAlign: 'left', fontWeight: 700 }}>{t('transactions')}</caption>
            <TableHead
              columns={[
                t('columns.when'),
                t('columns.type'),
                t('columns.status'),
                t('columns.card'),
                t('columns.total'),
                t('columns.refunded'),
                t('columns.auth'),
                t('columns.batch'),
              ]}
              numeric={[t('columns.total'), t('columns.refunded')]}
            />
            <tbody>
              {r.rows.map((row) => (
                <tr key={row.serviceReferenceNumber}>
                  <td>
                    <time dateTime={row.madeOn}>{formatIsoDateTime(row.madeOn, zone)}</time>
                  </td>
                  <td>{messageFor(`reports:types.${row.type}`) ?? row.type}</td>
                  <td>{messageFor(`reports:statuses.${row.status}`) ?? row.status}</td>
                  <td>{cardWords({ cardType: row.cardType, ...(row.last4 ? { last4: row.last4 } : {}) })}</td>
                  <td className="num">{formatCents(row.totalCents)}</td>
                  <td className="num">{row.refundedCents > 0 ? formatCents(row.refundedCents) : ''}</td>
                  <td>{row.authCode}</td>
                  <td>{row.batchNumber ?? t('open')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
