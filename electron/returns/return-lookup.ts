import type {
  ReturnFind,
  ReturnSaleSummaryView,
  ReturnSaleTenderView,
  TenderView,
  TicketView,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { FindQuery } from '../journal/return-store';
import { endOfStoreDay, startOfStoreDay } from '../../common/store-time';

/**
 * Finding the sale a return is of (docs/terminal.md "Returns"). The receipt number is the ticket id the
 * receipt prints (`TICKET <ticketId>`) and carries in its code; a scan or a typed number may bring the
 * words around it. Otherwise a sale is found by store days (the store's time zone), a card's last four and
 * the sale's total, on any day: newest first, a page at a time along an index (journal/return-store.ts).
 */

/** The ticket id in what was scanned or typed: `T-…`, `TICKET T-…`, or the receipt's `tillpoint:receipt:T-…:…`. */
export function receiptTicketId(text: string): string | undefined {
  const t = text.trim();
  const framed = /^(?:tillpoint:receipt:|ticket\s+)?(t-[0-9a-z]+-[0-9a-f]+)(?::[0-9.]*)?$/i.exec(t);
  if (framed?.[1]) return `T-${framed[1].slice(2).toLowerCase()}`;
  // Anything else is looked up as it came (a ticket id of another form); it matches nothing if it is none.
  return t.length > 0 && t.length <= 64 && !/\s/.test(t) ? t : undefined;
}

export const PAGE = 20;

/** The look-up's range and filters, its days read in the store's zone. */
export function findQuery(q: ReturnFind, zone: string): FindQuery {
  if (
    q.fromDay === undefined &&
    q.toDay === undefined &&
    q.last4 === undefined &&
    q.amountCents === undefined
  )
    throw new BridgeFailure(
      'invalid',
      'Scan the receipt, or search by dates, the card’s last four or the amount.',
      { messageId: 'returns.searchBy' },
    );
  let from = 0;
  let until = Number.MAX_SAFE_INTEGER;
  try {
    if (q.fromDay !== undefined) from = startOfStoreDay(q.fromDay, zone);
    if (q.toDay !== undefined) until = endOfStoreDay(q.toDay, zone) + 1;
  } catch {
    throw new BridgeFailure('invalid', 'A day is YYYY-MM-DD.', { messageId: 'returns.dayShape' });
  }
  if (from >= until)
    throw new BridgeFailure('invalid', 'The first day comes after the last.', {
      messageId: 'returns.firstAfterLast',
    });
  return {
    from,
    until,
    ...(q.last4 !== undefined ? { last4: q.last4 } : {}),
    ...(q.amountCents !== undefined ? { amountCents: q.amountCents } : {}),
    ...(q.after !== undefined ? { before: q.after } : {}),
    limit: q.limit ?? PAGE,
  };
}

const TENDER_NAMES: Readonly<Record<TenderView['kind'], string>> = {
  credit: 'Credit',
  debit: 'Debit',
  ebt: 'EBT',
  gift: 'Gift card',
  check: 'Check',
  token: 'Card on file',
  cash: 'Cash',
  preauth: 'Pre-authorization',
};

/** A tender as a person reads it: the card's brand and last four only, or the tender's name. */
export function tenderLabel(x: Pick<TenderView, 'kind' | 'card'>): string {
  const name = TENDER_NAMES[x.kind];
  const last4 = x.card?.last4 ?? x.card?.maskedPan?.slice(-4);
  return last4 ? `${x.card?.cardType ?? name} ****${last4}` : name;
}

export function saleSummary(t: TicketView): ReturnSaleSummaryView {
  const tenders: ReturnSaleTenderView[] = t.tenders
    .filter((x) => x.status === 'approved' || x.status === 'partial' || x.status === 'voided')
    .map((x) => ({
      kind: x.kind,
      tender: TENDER_NAMES[x.kind],
      label: tenderLabel(x),
      amountCents: x.approvedCents,
    }));
  const units = t.itemized
    ? t.itemized.lines.filter((l) => !l.voided).reduce((s, l) => s + l.quantity, 0)
    : 1;
  return {
    ticketId: t.ticketId,
    closedAt: t.closedAt ?? t.openedAt,
    totalCents: t.totalCents,
    units,
    tenders,
    ...(t.employeeName ? { employeeName: t.employeeName } : {}),
  };
}
