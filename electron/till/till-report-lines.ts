import { FIGURE_LABELS_IN, figureLineLabel } from '../../common/figure-labels';
import type { Tally } from '../../common/money-figures';
import { formatMoneyOnPaper } from '../../common/money-format';
import { languageOf, type StoreLocaleTag } from '../../common/store-locale';
import { formatReceiptTime } from '../../common/store-time';
import type { ReceiptLineView, TillReportView } from '../../common/bridge/contract';
import { RECEIPT_WORDS } from '../i18n/receipt-words';
import { TILL_REPORT_WORDS } from '../i18n/till-report-words';
import { receiptText } from '../sale/receipt';

/**
 * A till report on the receipt printer (and as text): the same figures the screen shows, under the same
 * labels (common/figure-labels.ts), folded to what a receipt printer's code page holds. Times in the
 * store's zone; words, dates and amounts in the store's locale (en-US when the header names none).
 */

export type ReportHeader = { merchantName: string; mid: number; locale?: StoreLocaleTag };

/** The printer's code page (PC437) has no typographic minus or quote: the one wording, in ASCII. */
export function printable(text: string): string {
  return text.replace(/[−–—]/g, '-').replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
}

/** Over positive, short negative, said with its sign on paper. */
export function signedCents(cents: number, locale: string = 'en-US'): string {
  const amount = formatMoneyOnPaper(cents, locale);
  return cents > 0 ? `+${amount}` : amount;
}

export function reportTitle(
  r: Pick<TillReportView, 'kind' | 'scope' | 'zNumber' | 'tillId'>,
  locale: StoreLocaleTag = 'en-US',
): string {
  return TILL_REPORT_WORDS[languageOf(locale)].title(r);
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
export function tillReportLines(r: TillReportView, h: ReportHeader, printedAt: number): ReceiptLineView[] {
  const locale = h.locale ?? 'en-US';
  const language = languageOf(locale);
  const w = TILL_REPORT_WORDS[language];
  const FIGURE_LABELS = FIGURE_LABELS_IN[language];
  const formatCents = (cents: number) => formatMoneyOnPaper(cents, locale);
  const signed = (cents: number) => signedCents(cents, locale);
  const tallyPair = (label: string, t: Tally, bold = false) =>
    pair(`${label} (${t.count})`, formatCents(t.cents), bold);
  const at = (t: number) => formatReceiptTime(t, r.timeZone, locale);
  const title = w.title(r);
  const lines: ReceiptLineView[] = [
    { kind: 'text', text: printable(h.merchantName), align: 'center', bold: true, large: true },
    { kind: 'text', text: RECEIPT_WORDS[language].laneLine(h.mid, r.laneId), align: 'center' },
    { kind: 'text', text: title.toUpperCase(), align: 'center', bold: true, large: true },
    pair(w.from, at(r.from)),
    pair(w.to, at(r.until)),
    pair(w.printed, at(printedAt)),
  ];
  if (r.closedBy) lines.push(pair(w.closedBy, r.closedBy));
  lines.push({ kind: 'rule' }, heading(w.salesByTender));
  for (const l of r.byTender)
    lines.push(pair(`${figureLineLabel(l.key, language)} (${l.count})`, formatCents(l.amountCents)));
  lines.push(tallyPair(FIGURE_LABELS.allSales, r.sales, true));
  if (r.outsideTills.count > 0) lines.push(tallyPair(w.takenWithNoTill, r.outsideTills));

  lines.push({ kind: 'rule' }, heading(w.cardBatch), text(w.cardBatchNote));
  lines.push(
    tallyPair(FIGURE_LABELS.cardSales, r.card.sales),
    tallyPair(FIGURE_LABELS.cardRefunds, r.card.refunds),
    pair(FIGURE_LABELS.cardNet, formatCents(r.card.netCents), true),
  );

  const d = r.drawer;
  lines.push({ kind: 'rule' }, heading(w.drawer), text(w.drawerNote));
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
        `${FIGURE_LABELS.counted} ${w.tillsCounted(r.counted.tills)}`,
        formatCents(r.counted.countedCents),
      ),
      pair(FIGURE_LABELS.overShort, signed(r.counted.overShortCents), true),
    );

  lines.push({ kind: 'rule' }, heading(w.returns));
  lines.push(
    tallyPair(FIGURE_LABELS.cardRefunds, r.returns.card),
    tallyPair(FIGURE_LABELS.cashRefunds, r.returns.cash),
  );
  // Returns of sales by where their money went (a void is in no card figure above), when there were any;
  // kept Z reports from before returns existed have none.
  if (r.returns.total && r.returns.total.count > 0) {
    lines.push(text(w.returnsByTender));
    for (const l of r.returns.byTender ?? [])
      lines.push(
        pair(`  ${printable(figureLineLabel(l.key, language))} (${l.count})`, formatCents(l.amountCents)),
      );
    lines.push(pair(w.returnsInAll(r.returns.total.count), formatCents(r.returns.total.cents)));
  }
  lines.push(heading(w.discounts));
  if (r.discounts.lines.length === 0) lines.push(pair(w.noneRecorded, formatCents(0)));
  for (const l of r.discounts.lines) lines.push(pair(`${l.key} (${l.count})`, formatCents(l.amountCents)));
  lines.push(heading(w.taxByClass));
  for (const t of r.taxByClass)
    lines.push(pair(w.taxLine(t.taxClass, t.tickets, formatCents(t.taxableCents)), formatCents(t.taxCents)));

  lines.push({ kind: 'rule' }, heading(w.byEmployee));
  for (const e of r.byEmployee) {
    lines.push({ kind: 'text', text: printable(e.employee), bold: true });
    lines.push(pair(`  ${w.sales} (${e.sales.count})`, formatCents(e.sales.cents)));
    if (e.cashRefunds.count > 0)
      lines.push(pair(`  ${w.cashRefunds} (${e.cashRefunds.count})`, formatCents(e.cashRefunds.cents)));
    if (e.paidIn.count > 0)
      lines.push(pair(`  ${w.paidIn} (${e.paidIn.count})`, formatCents(e.paidIn.cents)));
    if (e.paidOut.count > 0)
      lines.push(pair(`  ${w.paidOut} (${e.paidOut.count})`, formatCents(e.paidOut.cents)));
    if (e.safeDrops.count > 0)
      lines.push(pair(`  ${w.safeDrops} (${e.safeDrops.count})`, formatCents(e.safeDrops.cents)));
    if (e.noSales > 0) lines.push(pair(`  ${w.noSales}`, String(e.noSales)));
    if (e.tills > 0) lines.push(pair(`  ${w.overShort}`, signed(e.overShortCents)));
  }

  lines.push({ kind: 'rule' }, heading(w.tills));
  for (const t of r.tills) {
    lines.push({ kind: 'text', text: printable(w.tillLine(t.tillId, t.employee)), bold: true });
    lines.push(pair(`  ${w.opened}`, at(t.openedAt)));
    if (t.endedAt !== undefined) lines.push(pair(`  ${w.leftTheDrawer}`, at(t.endedAt)));
    // A counted till is judged against what it should have held when it was counted: the record.
    lines.push(
      pair(
        `  ${FIGURE_LABELS.expectedInDrawer}`,
        formatCents(t.count?.expectedCents ?? t.figures.expectedCents),
      ),
    );
    if (t.count) {
      lines.push(
        pair(`  ${w.countedBy(FIGURE_LABELS.counted, t.count.countedBy)}`, formatCents(t.count.countedCents)),
        pair(`  ${FIGURE_LABELS.overShort}`, signed(t.count.overShortCents)),
      );
      if (t.count.signedOffBy) lines.push(pair(`  ${w.signedOffBy}`, t.count.signedOffBy));
    } else lines.push(pair(`  ${w.notCounted}`, w.state[t.state]));
  }
  lines.push({ kind: 'rule' }, { kind: 'text', text: w.endOf(title).toUpperCase(), align: 'center' });
  return lines;
}

export function tillReportText(r: TillReportView, h: ReportHeader, printedAt: number): string {
  return receiptText(tillReportLines(r, h, printedAt));
}
