import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import {
  AllowedPaymentScheduleValues,
  ForcedPaymentMethodValues,
  PaymentScheduleValues,
  type AllowedPaymentSchedule,
  type PaymentLinkRecord,
  type PaymentSchedule,
} from '../contract/payment-links';
import { ResponseCode } from '../contract/response-codes';
import type { Queryable, Storage } from '../storage/queryable';
import type { PaymentLinksTable } from '../storage/schema-commerce';
import { calendarDateOf, frequencyById } from './frequency';
import { DEFAULT_AMOUNT_CEILING_CENTS, formatCents, type Cents } from './money';
import { DomainError } from './outcome';
import type { Problems } from './problems';

export type LinkRow = Selectable<PaymentLinksTable>;

/** A payment in progress older than this, with no payment row behind it, was lost to a crash. */
export const LINK_CLAIM_STALE_MS = 120_000;

export type LinkAmount = { ok: true; cents: Cents | null } | { ok: false; reason: string };

/**
 * The link's Amount: en-US currency text ("12.50", "1,234.50", "$12.50"). Omitted, null or blank means an
 * Open link. Anything else must be a positive amount with at most two decimals: it is never rounded.
 */
export function parseLinkAmount(value: unknown, ceilingCents = DEFAULT_AMOUNT_CEILING_CENTS): LinkAmount {
  if (value === undefined || value === null) return { ok: true, cents: null };
  if (typeof value !== 'string')
    return { ok: false, reason: 'must be en-US currency text such as "12.50" (a string)' };
  const text = value.trim();
  if (text === '') return { ok: true, cents: null };
  if (/^[-(−]|^\$\s*-/.test(text)) return { ok: false, reason: 'must be positive' };
  const m = /^\$?\s*((?:\d{1,3}(?:,\d{3})+)|\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m?.[1]) {
    if (/^\$?\s*[\d,]+\.\d{3,}$/.test(text)) return { ok: false, reason: 'must have at most two decimals' };
    return { ok: false, reason: 'must be en-US currency text such as "12.50" or "1,234.50"' };
  }
  const whole = m[1].replaceAll(',', '');
  if (whole.length > 12) return { ok: false, reason: `must not exceed ${formatCents(ceilingCents)}` };
  const cents = Number(whole) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents <= 0) return { ok: false, reason: 'must be positive' };
  if (cents > ceilingCents) return { ok: false, reason: `must not exceed ${formatCents(ceilingCents)}` };
  return { ok: true, cents };
}

/** Which schedules each AllowedPaymentSchedule offers the payer, in the order the checkout shows them. */
export const scheduleOptions: Readonly<Record<AllowedPaymentSchedule, readonly PaymentSchedule[]>> = {
  OnlySingle: ['Single'],
  OnlyRecurringOrInstallment: ['Recurring', 'Installment'],
  SingleAndRecurringOrInstallment: ['Single', 'Recurring', 'Installment'],
  SingleAndRecurringOnly: ['Single', 'Recurring'],
  SingleAndInstallmentOnly: ['Single', 'Installment'],
  OnlyRecurring: ['Recurring'],
  OnlyInstallment: ['Installment'],
};

export const MIN_INSTALLMENTS = 2;
export const MAX_INSTALLMENTS = 120;

/** Where the gateway is reached from outside: the origin and base path of a link's checkout page. */
type PublicOrigin = { publicUrl: string; basePath: string };

export function linkUrl(config: PublicOrigin, linkId: string): string {
  return `${config.publicUrl}${config.basePath}/pay/${linkId}`;
}

function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (values as readonly string[]).includes(v);
}

export function linkRecord(r: LinkRow, config: PublicOrigin): PaymentLinkRecord {
  const allowed = isOneOf(AllowedPaymentScheduleValues, r.allowed_payment_schedule)
    ? r.allowed_payment_schedule
    : 'OnlySingle';
  return {
    Id: r.link_id,
    MerchantId: r.mid,
    Amount: r.amount_cents === null ? null : formatCents(r.amount_cents),
    Description: r.description,
    Type: r.type,
    CreatedOn: r.created_on,
    PaidOn: r.paid_on,
    DisabledOn: r.disabled_on,
    Status: r.status,
    Active: r.active === 1,
    ServiceReferenceNumber: r.srn,
    InvoiceNumber: r.invoice,
    ForcedPaymentMethod: isOneOf(ForcedPaymentMethodValues, r.forced_payment_method)
      ? r.forced_payment_method
      : null,
    Link: linkUrl(config, r.link_id),
    AllowRecurringPayment: scheduleOptions[allowed].some((s) => s !== 'Single'),
    AllowedPaymentSchedule: allowed,
    PaymentSchedule: isOneOf(PaymentScheduleValues, r.payment_schedule) ? r.payment_schedule : 'Single',
    IsOpenPaymentSchedule: r.is_open_payment_schedule === 1,
    FrequencyId: r.frequency_id,
    StartDate: r.start_date,
    EndDate: r.end_date,
    RecurringDescription: r.recurring_description,
    InstallmentTotal: r.installment_total,
    RecurringBillingId: r.recurring_billing_id,
  };
}

/** The columns a client sets on a link. */
export type LinkSettings = Pick<
  LinkRow,
  | 'amount_cents'
  | 'description'
  | 'invoice'
  | 'forced_payment_method'
  | 'allowed_payment_schedule'
  | 'payment_schedule'
  | 'is_open_payment_schedule'
  | 'frequency_id'
  | 'start_date'
  | 'end_date'
  | 'recurring_description'
  | 'installment_total'
>;

export const defaultLinkSettings: LinkSettings = {
  amount_cents: null,
  description: '',
  invoice: '',
  forced_payment_method: null,
  allowed_payment_schedule: 'OnlySingle',
  payment_schedule: 'Single',
  is_open_payment_schedule: 0,
  frequency_id: null,
  start_date: null,
  end_date: null,
  recurring_description: '',
  installment_total: null,
};

type Input = Readonly<Record<string, unknown>>;

const has = (o: Input, k: string) => o[k] !== undefined;
const str = (o: Input, k: string) => (typeof o[k] === 'string' ? o[k] : undefined);

/**
 * The settings a create (from defaults) or an edit (from the stored link) arrives at, with every problem
 * found. Only fields that were sent change; Type is never read: the amount alone makes a link Open or Fixed.
 */
export function resolveLinkSettings(
  input: Input,
  base: LinkSettings,
  problems: Problems,
  options: { ceilingCents: number; today: string },
): LinkSettings {
  const f = (name: string) => `PaymentLink.${name}`;
  const s: LinkSettings = { ...base };

  if (has(input, 'Amount')) {
    const a = parseLinkAmount(input.Amount, options.ceilingCents);
    if (a.ok) s.amount_cents = a.cents;
    else problems.add(ResponseCode.InvalidAmount, `${f('Amount')} ${a.reason}`, f('Amount'));
  }
  const description = str(input, 'Description');
  if (description !== undefined) s.description = description;
  const invoice = str(input, 'InvoiceNumber');
  if (invoice !== undefined) s.invoice = invoice;
  if (isOneOf(ForcedPaymentMethodValues, input.ForcedPaymentMethod))
    s.forced_payment_method = input.ForcedPaymentMethod;

  const allowRecurring = input.AllowRecurringPayment;
  if (isOneOf(AllowedPaymentScheduleValues, input.AllowedPaymentSchedule)) {
    s.allowed_payment_schedule = input.AllowedPaymentSchedule;
  } else if (allowRecurring === true && s.allowed_payment_schedule === 'OnlySingle') {
    s.allowed_payment_schedule = 'SingleAndRecurringOrInstallment';
  } else if (allowRecurring === false && !has(input, 'AllowedPaymentSchedule')) {
    s.allowed_payment_schedule = 'OnlySingle';
  }
  const allowed = isOneOf(AllowedPaymentScheduleValues, s.allowed_payment_schedule)
    ? s.allowed_payment_schedule
    : 'OnlySingle';
  const options_ = scheduleOptions[allowed];
  const offersPlan = options_.some((o) => o !== 'Single');
  if (allowRecurring === false && offersPlan) {
    problems.add(
      ResponseCode.ScheduleNotAllowed,
      `AllowRecurringPayment false contradicts AllowedPaymentSchedule ${allowed}`,
      f('AllowRecurringPayment'),
    );
  }
  if (isOneOf(PaymentScheduleValues, input.PaymentSchedule)) s.payment_schedule = input.PaymentSchedule;
  else if (!options_.includes(s.payment_schedule as PaymentSchedule))
    s.payment_schedule = options_[0] ?? 'Single';
  if (!options_.includes(s.payment_schedule as PaymentSchedule)) {
    problems.add(
      ResponseCode.ScheduleNotAllowed,
      `${f('PaymentSchedule')} ${s.payment_schedule} is not allowed by AllowedPaymentSchedule ${allowed}`,
      f('PaymentSchedule'),
    );
  }
  if (typeof input.IsOpenPaymentSchedule === 'boolean')
    s.is_open_payment_schedule = input.IsOpenPaymentSchedule ? 1 : 0;

  if (typeof input.FrequencyId === 'number') {
    if (frequencyById(input.FrequencyId)) s.frequency_id = input.FrequencyId;
    else
      problems.add(
        ResponseCode.InvalidFrequency,
        `${f('FrequencyId')} must be 1 to 7 (see the FrequencyId table)`,
        f('FrequencyId'),
      );
  }
  if (typeof input.InstallmentTotal === 'number') {
    if (input.InstallmentTotal >= MIN_INSTALLMENTS && input.InstallmentTotal <= MAX_INSTALLMENTS)
      s.installment_total = input.InstallmentTotal;
    else
      problems.add(
        ResponseCode.InvalidSchedule,
        `${f('InstallmentTotal')} must be ${MIN_INSTALLMENTS} to ${MAX_INSTALLMENTS}`,
        f('InstallmentTotal'),
      );
  }
  const payerChooses = s.is_open_payment_schedule === 1;
  if (offersPlan && !payerChooses && s.frequency_id === null && !problems.has(f('FrequencyId'))) {
    problems.add(
      ResponseCode.InvalidFrequency,
      `${f('FrequencyId')} is required when the link offers a recurring or installment plan (or set IsOpenPaymentSchedule)`,
      f('FrequencyId'),
    );
  }
  if (
    options_.includes('Installment') &&
    !payerChooses &&
    s.installment_total === null &&
    !problems.has(f('InstallmentTotal'))
  ) {
    problems.add(
      ResponseCode.InvalidSchedule,
      `${f('InstallmentTotal')} is required when the link offers installments (or set IsOpenPaymentSchedule)`,
      f('InstallmentTotal'),
    );
  }

  for (const name of ['StartDate', 'EndDate'] as const) {
    const v = str(input, name);
    if (v === undefined) continue;
    if (calendarDateOf(v) === null) {
      if (!problems.has(f(name)))
        problems.add(ResponseCode.InvalidRequest, `${f(name)} must be a date-time`, f(name));
      continue;
    }
    if (name === 'StartDate') s.start_date = v;
    else s.end_date = v;
  }
  const start = s.start_date ? calendarDateOf(s.start_date) : null;
  const end = s.end_date ? calendarDateOf(s.end_date) : null;
  if (end !== null && start !== null && end < start)
    problems.add(ResponseCode.InvalidSchedule, `${f('EndDate')} is before StartDate`, f('EndDate'));
  else if (end !== null && has(input, 'EndDate') && end < options.today)
    problems.add(ResponseCode.InvalidSchedule, `${f('EndDate')} is in the past`, f('EndDate'));
  const recurringDescription = str(input, 'RecurringDescription');
  if (recurringDescription !== undefined) s.recurring_description = recurringDescription;
  return s;
}

export function newLinkRow(
  owner: { mid: number; userId: number; cid: number },
  s: LinkSettings,
  now: string,
): Insertable<PaymentLinksTable> {
  return {
    ...s,
    link_id: randomUUID(),
    mid: owner.mid,
    user_id: owner.userId,
    cid: owner.cid,
    type: s.amount_cents === null ? 'Open' : 'Fixed',
    status: 'UnPaid',
    active: 1,
    created_on: now,
    paid_on: null,
    disabled_on: null,
    deleted_on: null,
    srn: null,
    paying_utn: null,
    paying_since: null,
    paying_choice: null,
    recurring_billing_id: null,
    updated_at: now,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isLinkId(value: string): boolean {
  return UUID.test(value);
}

/** A link of the merchant that is not deleted; 404 otherwise (another merchant's link is unknown here). */
export async function findLink(
  q: Queryable,
  mid: number | null,
  linkId: string,
): Promise<LinkRow | undefined> {
  if (!isLinkId(linkId)) return undefined;
  let query = q.qb
    .selectFrom('payment_links')
    .selectAll()
    .where('link_id', '=', linkId.toLowerCase())
    .where('deleted_on', 'is', null);
  if (mid !== null) query = query.where('mid', '=', mid);
  return q.first(query);
}

export async function requireLink(q: Queryable, mid: number, linkId: string): Promise<LinkRow> {
  const link = await findLink(q, mid, linkId);
  if (!link)
    throw new DomainError(ResponseCode.NotFound, [
      'No payment link of this merchant has this PaymentLink.Id',
    ]);
  return link;
}

/**
 * Serializes the units of work on one link (a checkout's claim and its record, Edit, Disable, Delete)
 * until the end of the transaction: across gateway processes, two payers cannot both claim it.
 */
export async function lockLink(tx: Queryable, linkRowId: number): Promise<void> {
  await tx.lock(`link:${linkRowId}`);
}

/** Whether a checkout payment of the link is in progress (its claim is recent or its payment pending). */
export async function paymentInProgress(q: Queryable, link: LinkRow, now: Date): Promise<boolean> {
  if (link.paying_utn === null) return false;
  const payment = await q.first(
    q.qb
      .selectFrom('payments')
      .select('status')
      .where('mid', '=', link.mid)
      .where('utn', '=', link.paying_utn),
  );
  if (payment) return payment.status === 'pending';
  return now.getTime() - Date.parse(link.paying_since ?? '') < LINK_CLAIM_STALE_MS;
}

/** A new link, stored; its row as written. */
export async function insertLink(storage: Storage, row: Insertable<PaymentLinksTable>): Promise<LinkRow> {
  const inserted = await storage.write(async (tx) =>
    tx.first(tx.qb.insertInto('payment_links').values(row).returningAll()),
  );
  if (!inserted) throw new Error('payment link insert returned nothing');
  return inserted;
}

/** The link by its row id, as stored now. */
export async function linkByRowId(q: Queryable, id: number): Promise<LinkRow> {
  const row = await q.first(q.qb.selectFrom('payment_links').selectAll().where('id', '=', id));
  if (!row) throw new DomainError(ResponseCode.NotFound, ['The payment link vanished']);
  return row;
}

/**
 * Runs `change` on the merchant's link in one unit of work, under the link's lock, refusing while a
 * checkout payment of it is in progress; the link as stored afterwards.
 */
export async function changeLink(
  storage: Storage,
  mid: number,
  linkId: string,
  now: Date,
  change: (link: LinkRow, tx: Queryable) => Promise<void>,
): Promise<LinkRow> {
  const row = await storage.write(async (tx) => {
    const found = await requireLink(tx, mid, linkId);
    await lockLink(tx, found.id);
    // Read again under the lock: a checkout may have claimed or paid it meanwhile.
    const link = await requireLink(tx, mid, linkId);
    if (await paymentInProgress(tx, link, now)) {
      throw new DomainError(ResponseCode.PaymentLinkBusy, [
        'A payment of this link is in progress; try again once it has finished',
      ]);
    }
    await change(link, tx);
    return link;
  });
  return linkByRowId(storage.read, row.id);
}

/** The stored changes a link takes (inside changeLink's unit of work). */
export const linkChanges = {
  settings: (tx: Queryable, id: number, settings: LinkSettings, at: string) =>
    tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ ...settings, type: settings.amount_cents === null ? 'Open' : 'Fixed', updated_at: at })
        .where('id', '=', id),
    ),
  disable: (tx: Queryable, id: number, at: string) =>
    tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ active: 0, disabled_on: at, updated_at: at })
        .where('id', '=', id),
    ),
  enable: (tx: Queryable, id: number, at: string) =>
    tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ active: 1, disabled_on: null, updated_at: at })
        .where('id', '=', id),
    ),
  delete: (tx: Queryable, id: number, at: string) =>
    tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ deleted_on: at, active: 0, updated_at: at })
        .where('id', '=', id),
    ),
};
