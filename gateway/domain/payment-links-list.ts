import type { PaymentLinkFilterName, PaymentLinkRecord } from '../contract/payment-links';
import type { Queryable } from '../storage/queryable';
import { addDays } from './local-time';
import { linkRecord } from './payment-links';

/** The UTC day a date or date-time filter names. */
export function dayOf(value: string): string | null {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 10);
}

/** The date filters on times this gateway writes (ISO-8601 UTC text): one UTC day, a range in SQL. */
const writtenTimes = {
  'request.paymentLink.createdOn': 'created_on',
  'request.paymentLink.paidOn': 'paid_on',
  'request.paymentLink.disabledOn': 'disabled_on',
} as const;

/** The date filters on dates the client sent as it wrote them (any offset): compared by their UTC day. */
const sentDates = {
  'request.paymentLink.startDate': 'start_date',
  'request.paymentLink.endDate': 'end_date',
} as const;

export const dateFilterNames = [...Object.keys(writtenTimes), ...Object.keys(sentDates)] as (
  keyof typeof writtenTimes | keyof typeof sentDates
)[];

const textColumns = {
  'request.paymentLink.description': 'description',
  'request.paymentLink.type': 'type',
  'request.paymentLink.status': 'status',
  'request.paymentLink.serviceReferenceNumber': 'srn',
  'request.paymentLink.invoiceNumber': 'invoice',
  'request.paymentLink.forcedPaymentMethod': 'forced_payment_method',
  'request.paymentLink.allowedPaymentSchedule': 'allowed_payment_schedule',
  'request.paymentLink.paymentSchedule': 'payment_schedule',
  'request.paymentLink.recurringDescription': 'recurring_description',
} as const;

const intColumns = {
  'request.paymentLink.frequencyId': 'frequency_id',
  'request.paymentLink.installmentTotal': 'installment_total',
} as const;

export type LinkFilters = Partial<Record<PaymentLinkFilterName, unknown>>;

const entries = <O extends Record<string, string>>(o: O) => Object.entries(o) as [keyof O, O[keyof O]][];

/** Filters that need the answer's computed fields (Link, AllowRecurringPayment). */
function matchesComputed(record: PaymentLinkRecord, f: LinkFilters): boolean {
  if (typeof f['request.paymentLink.link'] === 'string' && record.Link !== f['request.paymentLink.link'])
    return false;
  const allow = f['request.paymentLink.allowRecurringPayment'];
  if (typeof allow === 'boolean' && record.AllowRecurringPayment !== allow) return false;
  return true;
}

const SLICE = 500;

/**
 * Payment Links GET: the merchant's links matching every filter, in id order (one creation day's in
 * creation order, which is id order but for links made in the same millisecond), read a slice at a time
 * by keyset (`payment_links_by_mid_id`, or the day's range of `payment_links_by_mid`), every filter
 * on a stored column in SQL; only the filters on computed fields, and on the dates a client sent with an
 * offset of its own, are applied to each row as it streams.
 */
export async function* listLinks(
  q: Queryable,
  mid: number,
  f: LinkFilters,
  amountCents: number | null | undefined,
  config: { publicUrl: string; basePath: string },
): AsyncGenerator<PaymentLinkRecord> {
  const createdOn = f['request.paymentLink.createdOn'];
  const day = typeof createdOn === 'string' ? dayOf(createdOn) : null;
  let after: { id: number; at: string } | null = null;
  for (;;) {
    let query = q.qb
      .selectFrom('payment_links')
      .selectAll()
      .where('mid', '=', mid)
      .where('deleted_on', 'is', null);
    const last = after;
    // A day's links follow payment_links_by_mid (merchant, creation time): walking the merchant's ids
    // instead would read every link it ever made to find one day's.
    if (last && day) {
      query = query.where((eb) => eb(eb.refTuple('created_on', 'id'), '>', eb.tuple(last.at, last.id)));
    } else if (last) query = query.where('id', '>', last.id);
    const id = f['request.paymentLink.id'];
    if (typeof id === 'string') query = query.where('link_id', '=', id.toLowerCase());
    if (amountCents === null) query = query.where('amount_cents', 'is', null);
    else if (amountCents !== undefined) query = query.where('amount_cents', '=', amountCents);
    for (const [name, column] of entries(textColumns)) {
      const v = f[name];
      if (typeof v === 'string') query = query.where(column, '=', v);
    }
    for (const [name, column] of entries(intColumns)) {
      const v = f[name];
      if (typeof v === 'number') query = query.where(column, '=', v);
    }
    for (const [name, column] of entries(writtenTimes)) {
      const v = f[name];
      const day = typeof v === 'string' ? dayOf(v) : null;
      if (day) query = query.where(column, '>=', day).where(column, '<', addDays(day, 1));
    }
    const active = f['request.paymentLink.active'];
    if (typeof active === 'boolean') query = query.where('active', '=', active ? 1 : 0);
    const open = f['request.paymentLink.isOpenPaymentSchedule'];
    if (typeof open === 'boolean') query = query.where('is_open_payment_schedule', '=', open ? 1 : 0);
    const ordered = day ? query.orderBy('created_on').orderBy('id') : query.orderBy('id');
    const rows = await q.all(ordered.limit(SLICE));
    for (const r of rows) {
      const sent = entries(sentDates).every(([name, column]) => {
        const v = f[name];
        if (typeof v !== 'string') return true;
        const stored = r[column];
        return stored !== null && dayOf(stored) === dayOf(v);
      });
      const record = linkRecord(r, config);
      if (sent && matchesComputed(record, f)) yield record;
    }
    const end = rows[rows.length - 1];
    if (rows.length < SLICE || !end) return;
    after = { id: end.id, at: end.created_on };
  }
}
