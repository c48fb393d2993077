import { FIGURE_LABELS, type Tally } from '../../common/money-figures';
import { formatReceiptTime } from '../../common/store-time';
import type { ReceiptLineView, TillReportView } from '../bridge/contract';
import { receiptText } from '../sale/receipt';
import { formatCents } from '../util/money';

/**
 * A till report on the receipt printer (and as text): the same figures the screen shows, under the same
 * labels (FIGURE_LABELS), folded to what a receipt printer's code page holds. Times in the store's zone.
 */

export type ReportHeader = { merchantName: string; mid: number };

/** The printer's code page (PC437) has no typographic minus or quote: the one wording, in ASCII. */
export function printable(text: string): string {
  return text.replace(/[−–—]/g, '-').replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
}

/** Over positive, short negative, said with its sign on paper. */
export function signedCents(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}

export function reportTitle(r: Pick<TillReportView, 'kind' | 'scope' | 'zNumber' | 'tillId'>): string {
  if (r.kind === 'z') return `Z report ${r.zNumber ?? ''}`.trim();
  return r.scope === 'till' ? `X report - till ${r.tillId ?? ''}`.trim() : 'X report - day so far';
}

const pair = (left: string, right: string, bold = false): ReceiptLineView =>
  bold
    ? { kind: 'pair', left: printable(left), right, bold: true }
    : { kind: 'pair', left: printable(left), right };
const heading = (text: string): ReceiptLineView => ({
  kind: 'text',
  text: printable(text).toUpperCase(),
  bold: true,
});
const text = (t: string): ReceiptLineView => ({ kind: 'text', text: printable(t) });
const tallyPair = (label: string, t: Tally, bold = false) =>
  pair(`${label} (${t.count})`, formatCents(t.cents), bold);

export function tillReportLines(r: TillReportView, h: ReportHeader, printedAt: number): ReceiptLineView[] {
  const at = (t: number) => formatReceiptTime(t, r.timeZone);
  const lines: ReceiptLineView[] = [
    { kind: 'text', text: printable(h.merchantName), align: 'center', bold: true, large: true },
    { kind: 'text', text: `MID ${h.mid}  LANE ${r.laneId}`, align: 'center' },
    { kind: 'text', text: reportTitle(r).toUpperCase(), align: 'center', bold: true, large: true },
    pair('From', at(r.from)),
    pair('To', at(r.until)),
    pair('Printed', at(printedAt)),
  ];
  if (r.closedBy) lines.push(pair('Closed by', r.closedBy));
  lines.push({ kind: 'rule' }, heading('Sales by tender'));
  for (const l of r.byTender) lines.push(pair(`${l.key} (${l.count})`, formatCents(l.amountCents)));
  lines.push(tallyPair(FIGURE_LABELS.allSales, r.sales, true));
  if (r.outsideTills.count > 0) lines.push(tallyPair('Taken with no till open', r.outsideTills));

  lines.push({ kind: 'rule' }, heading('Card batch'), text('What the gateway settles. No cash.'));
  lines.push(
    tallyPair(FIGURE_LABELS.cardSales, r.card.sales),
    tallyPair(FIGURE_LABELS.cardRefunds, r.card.refunds),
    pair(FIGURE_LABELS.cardNet, formatCents(r.card.netCents), true),
  );

  const d = r.drawer;
  lines.push({ kind: 'rule' }, heading('Drawer'), text('What the tills count: cash only.'));
  lines.push(
    tallyPair(FIGURE_LABELS.float, d.float),
    tallyPair(FIGURE_LABELS.cashTaken, d.cashTaken),
    pair(FIGURE_LABELS.cashBackPaid, formatCents(d.cashBackPaidCents)),
    tallyPair(FIGURE_LABELS.cashRefunds, d.cashRefunds),
    tallyPair(FIGURE_LABELS.paidIn, d.paidIn),
    tallyPair(FIGURE_LABELS.paidOut, d.paidOut),
    tallyPair(FIGURE_LABELS.safeDrops, d.safeDrops),
    pair(FIGURE_LABELS.noSales, String(d.noSales)),
    pair(FIGURE_LABELS.expectedInDrawer, formatCents(d.expectedCents), true),
  );
  if (d.checks.count > 0) lines.push(tallyPair(FIGURE_LABELS.checks, d.checks));
  if (r.counted.tills > 0)
    lines.push(
      pair(
        `${FIGURE_LABELS.counted} (${r.counted.tills} till${r.counted.tills === 1 ? '' : 's'})`,
        formatCents(r.counted.countedCents),
      ),
      pair(FIGURE_LABELS.overShort, signedCents(r.counted.overShortCents), true),
    );

  lines.push({ kind: 'rule' }, heading('Returns'));
  lines.push(
    tallyPair(FIGURE_LABELS.cardRefunds, r.returns.card),
    tallyPair(FIGURE_LABELS.cashRefunds, r.returns.cash),
  );
  // Returns of sales by where their money went (a void is in no card figure above), when there were any;
  // kept Z reports from before returns existed have none.
  if (r.returns.total && r.returns.total.count > 0) {
    lines.push(text('Returns by tender'));
    for (const l of r.returns.byTender ?? [])
      lines.push(pair(`  ${printable(l.key)} (${l.count})`, formatCents(l.amountCents)));
    lines.push(pair(`  Returns in all (${r.returns.total.count})`, formatCents(r.returns.total.cents)));
  }
  lines.push(heading('Discounts'));
  if (r.discounts.lines.length === 0) lines.push(pair('None recorded', formatCents(0)));
  for (const l of r.discounts.lines) lines.push(pair(`${l.key} (${l.count})`, formatCents(l.amountCents)));
  lines.push(heading('Tax by class'));
  for (const t of r.taxByClass)
    lines.push(
      pair(`${t.taxClass} (${t.tickets}) on ${formatCents(t.taxableCents)}`, formatCents(t.taxCents)),
    );

  lines.push({ kind: 'rule' }, heading('By employee'));
  for (const e of r.byEmployee) {
    lines.push({ kind: 'text', text: printable(e.employee), bold: true });
    lines.push(pair(`  Sales (${e.sales.count})`, formatCents(e.sales.cents)));
    if (e.cashRefunds.count > 0)
      lines.push(pair(`  Cash refunds (${e.cashRefunds.count})`, formatCents(e.cashRefunds.cents)));
    if (e.paidIn.count > 0) lines.push(pair(`  Paid in (${e.paidIn.count})`, formatCents(e.paidIn.cents)));
    if (e.paidOut.count > 0)
      lines.push(pair(`  Paid out (${e.paidOut.count})`, formatCents(e.paidOut.cents)));
    if (e.safeDrops.count > 0)
      lines.push(pair(`  Safe drops (${e.safeDrops.count})`, formatCents(e.safeDrops.cents)));
    if (e.noSales > 0) lines.push(pair('  No sales', String(e.noSales)));
    if (e.tills > 0) lines.push(pair('  Over/short', signedCents(e.overShortCents)));
  }

  lines.push({ kind: 'rule' }, heading('Tills'));
  for (const t of r.tills) {
    lines.push({ kind: 'text', text: printable(`Till ${t.tillId} - ${t.employee}`), bold: true });
    lines.push(pair('  Opened', at(t.openedAt)));
    if (t.endedAt !== undefined) lines.push(pair('  Left the drawer', at(t.endedAt)));
    // A counted till is judged against what it should have held when it was counted: the record.
    lines.push(
      pair(
        `  ${FIGURE_LABELS.expectedInDrawer}`,
        formatCents(t.count?.expectedCents ?? t.figures.expectedCents),
      ),
    );
    if (t.count) {
      lines.push(
        pair(`  ${FIGURE_LABELS.counted} by ${t.count.countedBy}`, formatCents(t.count.countedCents)),
        pair(`  ${FIGURE_LABELS.overShort}`, signedCents(t.count.overShortCents)),
      );
      if (t.count.signedOffBy) lines.push(pair('  Signed off by', t.count.signedOffBy));
    } else lines.push(pair('  Not counted', t.state));
  }
  lines.push(
    { kind: 'rule' },
    { kind: 'text', text: `END OF ${reportTitle(r).toUpperCase()}`, align: 'center' },
  );
  return lines;
}

export function tillReportText(r: TillReportView, h: ReportHeader, printedAt: number): string {
  return receiptText(tillReportLines(r, h, printedAt));
}
