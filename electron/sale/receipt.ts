import type {
  ReceiptLineView,
  ReceiptView,
  TenderView,
  TicketView,
  TransactionView,
} from '../../common/bridge/contract';
import type { Receipt, ReceiptLine } from '../../native/drivers/roles';
import { formatMoneyOnPaper } from '../../common/money-format';
import { languageOf, type StoreLocaleTag } from '../../common/store-locale';
import { formatReceiptTime } from '../../common/store-time';
import { cardChargedCents, shownCents, tenderChargedCents } from '../../common/transaction-amounts';
import { RECEIPT_WORDS, type ReceiptWords } from '../i18n/receipt-words';
import { formatCents } from '../util/money';
import { itemizedReceiptLines } from './itemized-receipt';
import { paperText } from './paper-text';

/**
 * The store as its receipts name it: the store name (a manager's setting, else the launcher's merchant
 * name), the address lines and phone under it, and the return policy at the foot of the customer's copy.
 */
export type ReceiptHeader = {
  merchantName: string;
  laneId: string;
  mid: number;
  addressLines?: readonly string[];
  phone?: string;
  returnPolicy?: string;
  /** The store's time zone its date line is printed in. */
  timeZone: string;
  /**
   * The store's locale (its setting, common/store-locale.ts): the receipt's words are in its language,
   * its date and amounts written its way. en-US when absent.
   */
  locale?: StoreLocaleTag;
};

/** How a receipt writes: its words, amounts and date line, in the store's locale. */
type Writer = { words: ReceiptWords; money: (cents: number) => string; locale: StoreLocaleTag };

export function writerOf(h: Pick<ReceiptHeader, 'locale'>): Writer {
  const locale = h.locale ?? 'en-US';
  return {
    words: RECEIPT_WORDS[languageOf(locale)],
    money: (cents) => formatMoneyOnPaper(cents, locale),
    locale,
  };
}

/** The line the cardholder signs on, above the agreement (ReceiptWords' cardholderAgreement). */
const SIGNATURE_LINE = 'X______________________________';

const WIDTH = 42;

/** Words wrapped to the receipt's width (a word longer than a line is cut); blank lines kept. */
export function wrapText(text: string, width = WIDTH): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w.length > 0)) {
      for (let rest = word; rest.length > 0;) {
        const piece = rest.slice(0, width);
        rest = rest.slice(width);
        if (line === '') line = piece;
        else if (line.length + 1 + piece.length <= width) line = `${line} ${piece}`;
        else {
          out.push(line);
          line = piece;
        }
      }
    }
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

function headerLines(h: ReceiptHeader): ReceiptLineView[] {
  // Double width halves the line to 21 columns: a longer name is printed bold at normal width.
  const large = h.merchantName.length <= WIDTH / 2;
  return [
    { kind: 'text', text: h.merchantName, align: 'center', bold: true, ...(large ? { large: true } : {}) },
    ...(h.addressLines ?? [])
      .filter((l) => l.trim() !== '')
      .map((text): ReceiptLineView => ({ kind: 'text', text, align: 'center' })),
    ...(h.phone ? [{ kind: 'text', text: h.phone, align: 'center' } as const] : []),
  ];
}

/** The receipt's head: the store, which lane, and the date line in the store's time zone. */
export function head(h: ReceiptHeader, w: Writer, at: number): ReceiptLineView[] {
  return [
    ...headerLines(h),
    { kind: 'text', text: w.words.laneLine(h.mid, h.laneId), align: 'center' },
    { kind: 'text', text: formatReceiptTime(at, h.timeZone, w.locale), align: 'center' },
  ];
}

// rule: customer-receipt-last-four
/**
 * The card line of a tender. The customer's copy leaves the terminal with the customer, so it carries the
 * last four digits only (FACTA's truncation rule; PCI DSS 3.4.1: no more digits than the reader of that
 * copy needs). The merchant's copy may show the masked PAN the reader produced (first six / last four,
 * PCI DSS 3.4.1's widest allowed mask) for chargeback research.
 */
function cardOnReceipt(tender: TenderView, copy: 'customer' | 'merchant'): string | undefined {
  const c = tender.card;
  const last4 = c?.last4 ?? c?.maskedPan?.slice(-4);
  if (!c || (!last4 && !c.maskedPan)) return undefined;
  const number = copy === 'merchant' && c.maskedPan ? c.maskedPan : `****${last4 ?? ''}`;
  return `${c.cardType ?? ''} ${number}`.trim();
}

/** The receipt of a ticket, as lines both the printer and the screen render. */
export function buildReceipt(
  t: TicketView,
  copy: 'customer' | 'merchant',
  h: ReceiptHeader,
  at: number,
): ReceiptView {
  const w = writerOf(h);
  const { words, money } = w;
  const lines: ReceiptLineView[] = [
    ...head(h, w, t.closedAt ?? at),
    { kind: 'text', text: words.ticket(t.ticketId), align: 'center' },
    { kind: 'rule' },
  ];
  if (t.itemized) lines.push(...itemizedReceiptLines(t.itemized, words, money));
  else {
    lines.push({
      kind: 'pair',
      left: t.purpose === 'gift-reload' ? words.giftCardLoad : words.subtotal,
      right: money(t.subtotalCents),
    });
    if (t.taxCents > 0) lines.push({ kind: 'pair', left: words.tax, right: money(t.taxCents) });
  }
  if (t.tipCents > 0) lines.push({ kind: 'pair', left: words.tip, right: money(t.tipCents) });
  lines.push({ kind: 'pair', left: words.total, right: money(t.totalCents), bold: true }, { kind: 'rule' });

  for (const tender of t.tenders) {
    if (tender.status === 'in-progress' || tender.status === 'cancelled') continue;
    lines.push({
      kind: 'pair',
      left: words.tenderLine(words.tender[tender.kind], words.tenderStatus[tender.status]),
      right: money(tender.approvedCents),
      bold: true,
    });
    const card = cardOnReceipt(tender, copy);
    if (card) lines.push({ kind: 'text', text: card });
    if (tender.card?.entry)
      lines.push({ kind: 'text', text: words.entryLine(words.entry[tender.card.entry]) });
    if (tender.authCode) lines.push({ kind: 'pair', left: words.auth, right: tender.authCode });
    if (tender.userTransactionNumber)
      lines.push({ kind: 'pair', left: words.ref, right: tender.userTransactionNumber });
    // A debit with cash back charges the card the purchase and the cash back: the tender's line says
    // what the card paid for the ticket, and the charge is spelled out below it.
    if (tender.cashBackCents > 0 && tender.approvedCents > 0)
      lines.push(
        { kind: 'pair', left: words.cashBack, right: money(tender.cashBackCents) },
        {
          kind: 'pair',
          left: words.cardCharged,
          right: money(tenderChargedCents(tender)),
          bold: true,
        },
      );
    if (tender.changeCents !== undefined && tender.changeCents > 0)
      lines.push({ kind: 'pair', left: words.change, right: money(tender.changeCents) });
    if (tender.balanceCents !== undefined)
      lines.push({ kind: 'pair', left: words.balance, right: money(tender.balanceCents) });
    if (tender.status === 'stored') lines.push({ kind: 'text', text: words.approvedOffline });
    if (copy === 'merchant' && tender.signature?.required) {
      lines.push(
        { kind: 'text', text: ' ' },
        { kind: 'text', text: SIGNATURE_LINE },
        { kind: 'text', text: words.cardholderSignature },
        { kind: 'text', text: words.cardholderAgreement },
      );
      if (tender.signature.captured) lines.push({ kind: 'text', text: words.signatureCaptured });
    }
  }
  lines.push({ kind: 'rule' });
  if (t.remainingCents > 0)
    lines.push({ kind: 'pair', left: words.balanceDue, right: money(t.remainingCents), bold: true });
  if (copy === 'customer' && h.returnPolicy)
    lines.push(
      ...wrapText(h.returnPolicy).map((text): ReceiptLineView => ({ kind: 'text', text, align: 'center' })),
    );
  lines.push({
    kind: 'text',
    text: copy === 'customer' ? words.customerCopy : words.merchantCopy,
    align: 'center',
  });
  // rule: receipt-number-code
  // The receipt number as a code the lane's scanner reads back (a return finds the sale by it): the ticket
  // id and nothing else. Code 128, which every retail scanner reads (a QR code needs a 2D imager).
  lines.push({ kind: 'barcode', data: t.ticketId });
  const qrData = `tillpoint:receipt:${t.ticketId}:${formatCents(t.paidCents)}`;
  lines.push({ kind: 'qr', data: qrData });

  return { ticketId: t.ticketId, copy, lines, qrData, text: receiptText(lines) };
}

/**
 * The receipt of a refund or a void: a journal row outside any ticket. The customer's copy, like a
 * sale's, shows the card's last four only; the original payment is named by its reference.
 */
export function buildTransactionReceipt(
  tx: TransactionView,
  original: TransactionView | undefined,
  copy: 'customer' | 'merchant',
  h: ReceiptHeader,
): ReceiptView {
  const w = writerOf(h);
  const { words: all, money } = w;
  const words =
    tx.operation === 'refund' || tx.operation === 'void'
      ? all[tx.operation]
      : { title: tx.operation.toUpperCase(), done: all.otherDone };
  const done = tx.state === 'approved';
  const lines: ReceiptLineView[] = [
    ...head(h, w, tx.updatedAt),
    { kind: 'text', text: words.title, align: 'center', bold: true, large: true },
    { kind: 'rule' },
    {
      kind: 'pair',
      left: done ? words.done : all.notDone(words.title, all.journalState[tx.state]),
      right: money(shownCents(tx)),
      bold: true,
    },
  ];
  const cardType = tx.cardType ?? original?.cardType;
  if (tx.last4) lines.push({ kind: 'text', text: `${cardType ?? ''} ****${tx.last4}`.trim() });
  if (tx.authCode) lines.push({ kind: 'pair', left: all.auth, right: tx.authCode });
  lines.push({ kind: 'pair', left: all.ref, right: tx.userTransactionNumber });
  if (original) {
    lines.push(
      { kind: 'pair', left: all.originalRef, right: original.userTransactionNumber },
      { kind: 'pair', left: all.originalAmount, right: money(cardChargedCents(original)) },
    );
    if (tx.operation === 'refund' && original.refundedCents > 0)
      lines.push({ kind: 'pair', left: all.refundedInAll, right: money(original.refundedCents) });
  }
  lines.push(
    { kind: 'rule' },
    { kind: 'text', text: copy === 'customer' ? all.customerCopy : all.merchantCopy, align: 'center' },
  );
  const qrData = `tillpoint:${tx.operation}:${tx.userTransactionNumber}:${formatCents(shownCents(tx))}`;
  lines.push({ kind: 'qr', data: qrData });
  return {
    ticketId: tx.ticketId ?? '',
    userTransactionNumber: tx.userTransactionNumber,
    copy,
    lines,
    qrData,
    text: receiptText(lines),
  };
}

export function receiptText(lines: readonly ReceiptLineView[], width = 42): string {
  return lines
    .map((l) => {
      switch (l.kind) {
        case 'text':
          return l.align === 'center' ? l.text.padStart(Math.floor((width + l.text.length) / 2)) : l.text;
        case 'pair':
          return l.left + ' '.repeat(Math.max(1, width - l.left.length - l.right.length)) + l.right;
        case 'rule':
          return '-'.repeat(width);
        case 'qr':
        case 'barcode':
          return '';
      }
    })
    .filter((s) => s.length > 0)
    .join('\n');
}

/**
 * The printer's form of a receipt view (or of any lines a receipt renders: a till report), its words
 * folded to what the printer's code page prints (paper-text.ts).
 */
export function toPrinterReceipt(view: Pick<ReceiptView, 'lines'>, openDrawer: boolean): Receipt {
  const lines: ReceiptLine[] = view.lines.map((l): ReceiptLine => {
    switch (l.kind) {
      case 'text': {
        const out: ReceiptLine = { kind: 'text', text: paperText(l.text) };
        if (l.align) out.align = l.align;
        if (l.bold) out.bold = l.bold;
        if (l.large) out.large = l.large;
        return out;
      }
      case 'pair':
        return l.bold
          ? { kind: 'pair', left: paperText(l.left), right: paperText(l.right), bold: true }
          : { kind: 'pair', left: paperText(l.left), right: paperText(l.right) };
      case 'rule':
        return { kind: 'rule' };
      case 'qr':
        return { kind: 'qr', data: l.data };
      case 'barcode':
        return { kind: 'barcode', data: l.data };
    }
  });
  lines.push({ kind: 'feed', lines: 3 });
  return { lines, cut: true, openDrawer };
}
