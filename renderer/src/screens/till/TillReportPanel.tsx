import { figureLineWords } from '../../format/figure-line-words';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TillReportView } from '../../../../common/bridge/contract';
import type { FigureLine, Tally } from '../../../../common/money-figures';
import { formatCents, formatDateTime } from '../../format/money';
import { i18n } from '../../i18n/i18n';
import { TableHead } from '../../ui/TableHead';
import { figureLineWord, overShortWords, stateWord } from './till-words';

type Line = { label: string; count?: number | string; cents?: number; text?: string; strong?: boolean };

/** A labelled figures table: each figure's row is headed by its one label (common/money-figures.ts). */
function Figures({ caption, hint, lines }: { caption: string; hint?: ReactNode; lines: Line[] }) {
  const { t } = useTranslation('till');
  return (
    <div className="figures">
      <table className="data">
        <caption>{caption}</caption>
        <TableHead
          columns={[t('report.figure'), t('report.count'), t('report.amount')]}
          numeric={[t('report.count'), t('report.amount')]}
        />
        <tbody>
          {lines.map((l) => (
            <tr key={l.label} className={l.strong ? 'figure-total' : undefined}>
              <th scope="row">{l.label}</th>
              <td className="num">{l.count ?? ''}</td>
              <td className="num">{l.text ?? (l.cents !== undefined ? formatCents(l.cents) : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hint ? <p className="hint">{hint}</p> : null}
    </div>
  );
}

const tallyLine = (label: string, t: Tally, strong = false): Line => ({
  label,
  count: t.count,
  cents: t.cents,
  strong,
});
const lineOf = (l: FigureLine): Line => ({
  label: figureLineWord(l.key),
  count: l.count,
  cents: l.amountCents,
});

/** "Z report 3", "X report: till 2", "X report: the day so far" (in the window's language). */
export function reportHeading(r: Pick<TillReportView, 'kind' | 'scope' | 'zNumber' | 'tillId'>): string {
  if (r.kind === 'z') return i18n.t('till:report.z', { zNumber: r.zNumber ?? '' }).trim();
  return r.scope === 'till'
    ? i18n.t('till:report.xTill', { tillId: r.tillId ?? '' }).trim()
    : i18n.t('till:report.xDay');
}

/**
 * A till report on screen: the same figures the printer prints, under the same labels, in the store's
 * time zone. The card batch (what the gateway settles) and the drawer (what the tills count) side by side.
 */
export function TillReportPanel({
  report: r,
  zone,
  actions,
}: {
  report: TillReportView;
  zone: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation(['till', 'figures']);
  // Each figure under its one label (common/figure-labels.ts), in the window's language.
  const label = {
    float: t('figures:float'),
    cashTaken: t('figures:cashTaken'),
    cashBackPaid: t('figures:cashBackPaid'),
    cashRefunds: t('figures:cashRefunds'),
    paidIn: t('figures:paidIn'),
    paidOut: t('figures:paidOut'),
    safeDrops: t('figures:safeDrops'),
    noSales: t('figures:noSales'),
    expectedInDrawer: t('figures:expectedInDrawer'),
    checks: t('figures:checks'),
    counted: t('figures:counted'),
    overShort: t('figures:overShort'),
    allSales: t('figures:allSales'),
    cardSales: t('figures:cardSales'),
    cardRefunds: t('figures:cardRefunds'),
    cardNet: t('figures:cardNet'),
  };
  const employeeFigures = [
    t('report.tills'),
    t('report.sales'),
    t('report.cashRefunds'),
    t('report.paidIn'),
    t('report.paidOut'),
    t('report.safeDrops'),
    t('report.noSales'),
    t('report.overShort'),
  ];
  const title = reportHeading(r);
  const d = r.drawer;
  const heading = useRef<HTMLHeadingElement>(null);
  // A report asked for (or the Z just closed) is brought into view and announced from its heading.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [r.kind, r.zNumber, r.tillId, r.until]);
  const drawerLines: Line[] = [
    tallyLine(label.float, d.float),
    tallyLine(label.cashTaken, d.cashTaken),
    { label: label.cashBackPaid, cents: d.cashBackPaidCents },
    tallyLine(label.cashRefunds, d.cashRefunds),
    tallyLine(label.paidIn, d.paidIn),
    tallyLine(label.paidOut, d.paidOut),
    tallyLine(label.safeDrops, d.safeDrops),
    { label: label.noSales, count: d.noSales },
    { label: label.expectedInDrawer, cents: d.expectedCents, strong: true },
  ];
  if (d.checks.count > 0) drawerLines.push(tallyLine(label.checks, d.checks));
  if (r.counted.tills > 0)
    drawerLines.push(
      { label: label.counted, count: r.counted.tills, cents: r.counted.countedCents },
      { label: label.overShort, text: overShortWords(r.counted.overShortCents), strong: true },
    );
  return (
    <section className="card till-report" aria-labelledby="till-report-title" data-testid="till-report">
      <h2 id="till-report-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p className="hint" data-testid="till-report-period">
        {t('report.period', {
          lane: r.laneId,
          from: formatDateTime(r.from, zone),
          until: formatDateTime(r.until, zone),
        })}
        {r.closedBy ? t('report.closedBy', { name: r.closedBy }) : ''}
      </p>
      {actions}
      <div className="figures-pair">
        <Figures
          caption={t('report.salesByTender')}
          hint={t('report.salesByTenderHint')}
          lines={[
            ...r.byTender.map(lineOf),
            tallyLine(label.allSales, r.sales, true),
            ...(r.outsideTills.count > 0 ? [tallyLine(t('report.takenWithNoTill'), r.outsideTills)] : []),
          ]}
        />
        <Figures
          caption={t('report.cardBatch')}
          hint={t('report.cardBatchHint')}
          lines={[
            tallyLine(label.cardSales, r.card.sales),
            tallyLine(label.cardRefunds, r.card.refunds),
            { label: label.cardNet, cents: r.card.netCents, strong: true },
          ]}
        />
      </div>
      <div className="figures-pair">
        <Figures caption={t('report.drawer')} hint={t('report.drawerHint')} lines={drawerLines} />
        <div className="figures">
          <Figures
            caption={t('report.returns')}
            hint={r.returns.total && r.returns.total.count > 0 ? t('report.returnsHint') : undefined}
            lines={[
              tallyLine(label.cardRefunds, r.returns.card),
              tallyLine(label.cashRefunds, r.returns.cash),
              ...(r.returns.byTender ?? []).map((l): Line => ({
                label: t('report.returnedTo', { tender: figureLineWords(l.key) }),
                count: l.count,
                cents: l.amountCents,
              })),
              ...(r.returns.total && r.returns.total.count > 0
                ? [tallyLine(t('report.returnsOfSales'), r.returns.total, true)]
                : []),
            ]}
          />
          <Figures
            caption={t('report.discounts')}
            hint={r.discounts.lines.length === 0 ? t('report.noDiscounts') : undefined}
            lines={[
              ...r.discounts.lines.map(lineOf),
              tallyLine(t('report.discountsInAll'), r.discounts.total, true),
            ]}
          />
          <Figures
            caption={t('report.taxByClass')}
            lines={r.taxByClass.map((c) => ({
              label: t('report.taxOn', { taxClass: c.taxClass, amount: formatCents(c.taxableCents) }),
              count: c.tickets,
              cents: c.taxCents,
            }))}
          />
        </div>
      </div>
      <table className="data">
        <caption>{t('report.byEmployee')}</caption>
        <TableHead columns={[t('report.employee'), ...employeeFigures]} numeric={employeeFigures} />
        <tbody>
          {r.byEmployee.map((e) => (
            <tr key={e.employee}>
              <th scope="row">{e.employee}</th>
              <td className="num">{e.tills}</td>
              <td className="num">{formatCents(e.sales.cents)}</td>
              <td className="num">{formatCents(e.cashRefunds.cents)}</td>
              <td className="num">{formatCents(e.paidIn.cents)}</td>
              <td className="num">{formatCents(e.paidOut.cents)}</td>
              <td className="num">{formatCents(e.safeDrops.cents)}</td>
              <td className="num">{e.noSales}</td>
              <td className="num words">{e.tills > 0 ? overShortWords(e.overShortCents) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="data">
        <caption>{t('report.tills')}</caption>
        <TableHead
          columns={[
            t('report.till'),
            t('report.cashier'),
            t('report.opened'),
            t('report.left'),
            t('report.expected'),
            t('report.counted'),
            t('report.overShort'),
            t('report.signedOff'),
          ]}
          numeric={[t('report.expected'), t('report.counted'), t('report.overShort')]}
        />
        <tbody>
          {r.tills.map((s) => (
            <tr key={s.tillId}>
              <th scope="row" className="nowrap">
                {t('tillShort', { tillId: s.tillId })}
              </th>
              <td>{s.employee}</td>
              <td>{formatDateTime(s.openedAt, zone)}</td>
              <td>{s.endedAt !== undefined ? formatDateTime(s.endedAt, zone) : stateWord(s.state)}</td>
              <td className="num">{formatCents(s.count?.expectedCents ?? s.figures.expectedCents)}</td>
              <td className="num">{s.count ? formatCents(s.count.countedCents) : t('report.notCounted')}</td>
              <td className="num words">{s.count ? overShortWords(s.count.overShortCents) : ''}</td>
              <td>{s.count?.signedOffBy ?? (s.count?.needsSignOff ? t('report.waiting') : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
