import { useEffect, useRef, type ReactNode } from 'react';
import type { TillReportView } from '../../../../electron/bridge/contract';
import { FIGURE_LABELS, type FigureLine, type Tally } from '../../../../common/money-figures';
import { formatCents, formatDateTime } from '../../format/money';
import { TableHead } from '../../ui/TableHead';
import { overShortWords, stateWords } from './till-words';

type Line = { label: string; count?: number | string; cents?: number; text?: string; strong?: boolean };

/** A labelled figures table: each figure's row is headed by its one label (common/money-figures.ts). */
function Figures({ caption, hint, lines }: { caption: string; hint?: ReactNode; lines: Line[] }) {
  return (
    <div className="figures">
      <table className="data">
        <caption>{caption}</caption>
        <TableHead columns={['Figure', 'Count', 'Amount']} numeric={['Count', 'Amount']} />
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
const lineOf = (l: FigureLine): Line => ({ label: l.key, count: l.count, cents: l.amountCents });

/** "Z report 3", "X report: till 2", "X report: the day so far". */
export function reportHeading(r: Pick<TillReportView, 'kind' | 'scope' | 'zNumber' | 'tillId'>): string {
  if (r.kind === 'z') return `Z report ${r.zNumber ?? ''}`.trim();
  return r.scope === 'till' ? `X report: till ${r.tillId ?? ''}`.trim() : 'X report: the day so far';
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
  const title = reportHeading(r);
  const d = r.drawer;
  const heading = useRef<HTMLHeadingElement>(null);
  // A report asked for (or the Z just closed) is brought into view and announced from its heading.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [r.kind, r.zNumber, r.tillId, r.until]);
  const drawerLines: Line[] = [
    tallyLine(FIGURE_LABELS.float, d.float),
    tallyLine(FIGURE_LABELS.cashTaken, d.cashTaken),
    { label: FIGURE_LABELS.cashBackPaid, cents: d.cashBackPaidCents },
    tallyLine(FIGURE_LABELS.cashRefunds, d.cashRefunds),
    tallyLine(FIGURE_LABELS.paidIn, d.paidIn),
    tallyLine(FIGURE_LABELS.paidOut, d.paidOut),
    tallyLine(FIGURE_LABELS.safeDrops, d.safeDrops),
    { label: FIGURE_LABELS.noSales, count: d.noSales },
    { label: FIGURE_LABELS.expectedInDrawer, cents: d.expectedCents, strong: true },
  ];
  if (d.checks.count > 0) drawerLines.push(tallyLine(FIGURE_LABELS.checks, d.checks));
  if (r.counted.tills > 0)
    drawerLines.push(
      { label: FIGURE_LABELS.counted, count: r.counted.tills, cents: r.counted.countedCents },
      { label: FIGURE_LABELS.overShort, text: overShortWords(r.counted.overShortCents), strong: true },
    );
  return (
    <section className="card till-report" aria-labelledby="till-report-title" data-testid="till-report">
      <h2 id="till-report-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p className="hint" data-testid="till-report-period">
        Lane {r.laneId} · from {formatDateTime(r.from, zone)} to {formatDateTime(r.until, zone)}
        {r.closedBy ? ` · closed by ${r.closedBy}` : ''}
      </p>
      {actions}
      <div className="figures-pair">
        <Figures
          caption="Sales by tender"
          hint="Card lines are what each card was charged (debit cash back included); cash is what the drawer kept."
          lines={[
            ...r.byTender.map(lineOf),
            tallyLine(FIGURE_LABELS.allSales, r.sales, true),
            ...(r.outsideTills.count > 0 ? [tallyLine('Taken with no till open', r.outsideTills)] : []),
          ]}
        />
        <Figures
          caption="Card batch"
          hint="What the gateway settles: card payments only. Cash never enters it."
          lines={[
            tallyLine(FIGURE_LABELS.cardSales, r.card.sales),
            tallyLine(FIGURE_LABELS.cardRefunds, r.card.refunds),
            { label: FIGURE_LABELS.cardNet, cents: r.card.netCents, strong: true },
          ]}
        />
      </div>
      <div className="figures-pair">
        <Figures
          caption="Drawer"
          hint="What the tills count: cash only. Expected = float + cash taken + paid in − cash back − cash refunds − paid out − safe drops."
          lines={drawerLines}
        />
        <div className="figures">
          <Figures
            caption="Returns"
            hint={
              r.returns.total && r.returns.total.count > 0
                ? 'Returns of sales by where their money went back (a voided payment is in no card figure).'
                : undefined
            }
            lines={[
              tallyLine(FIGURE_LABELS.cardRefunds, r.returns.card),
              tallyLine(FIGURE_LABELS.cashRefunds, r.returns.cash),
              ...(r.returns.byTender ?? []).map((l): Line => ({
                label: `Returned to ${l.key}`,
                count: l.count,
                cents: l.amountCents,
              })),
              ...(r.returns.total && r.returns.total.count > 0
                ? [tallyLine('Returns of sales', r.returns.total, true)]
                : []),
            ]}
          />
          <Figures
            caption="Discounts"
            hint={
              r.discounts.lines.length === 0 ? 'None recorded: tickets carry no discounts yet.' : undefined
            }
            lines={[...r.discounts.lines.map(lineOf), tallyLine('Discounts in all', r.discounts.total, true)]}
          />
          <Figures
            caption="Tax by class"
            lines={r.taxByClass.map((t) => ({
              label: `${t.taxClass} on ${formatCents(t.taxableCents)}`,
              count: t.tickets,
              cents: t.taxCents,
            }))}
          />
        </div>
      </div>
      <table className="data">
        <caption>By employee</caption>
        <TableHead
          columns={[
            'Employee',
            'Tills',
            'Sales',
            'Cash refunds',
            'Paid in',
            'Paid out',
            'Safe drops',
            'No sales',
            'Over/short',
          ]}
          numeric={[
            'Tills',
            'Sales',
            'Cash refunds',
            'Paid in',
            'Paid out',
            'Safe drops',
            'No sales',
            'Over/short',
          ]}
        />
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
              <td className="num">{e.tills > 0 ? overShortWords(e.overShortCents) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="data">
        <caption>Tills</caption>
        <TableHead
          columns={[
            'Till',
            'Cashier',
            'Opened',
            'Left the drawer',
            'Expected',
            'Counted',
            'Over/short',
            'Signed off',
          ]}
          numeric={['Expected', 'Counted', 'Over/short']}
        />
        <tbody>
          {r.tills.map((t) => (
            <tr key={t.tillId}>
              <th scope="row" className="nowrap">
                Till {t.tillId}
              </th>
              <td>{t.employee}</td>
              <td>{formatDateTime(t.openedAt, zone)}</td>
              <td>{t.endedAt !== undefined ? formatDateTime(t.endedAt, zone) : stateWords[t.state]}</td>
              <td className="num">{formatCents(t.count?.expectedCents ?? t.figures.expectedCents)}</td>
              <td className="num">{t.count ? formatCents(t.count.countedCents) : 'Not counted'}</td>
              <td className="num">{t.count ? overShortWords(t.count.overShortCents) : ''}</td>
              <td>{t.count?.signedOffBy ?? (t.count?.needsSignOff ? 'Waiting' : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
