import type { RecurringBillingRecord } from '../contract/recurring-billing';
import { ResponseCode } from '../contract/response-codes';
import { dueDate, frequencyById } from './frequency';
import { DomainError, success } from './outcome';
import { billingRecord, hasEnded, lockBilling, merchantToday, type BillingRow } from './recurring-billing';
import type { RequestScope } from './request-scope';
import type { Queryable } from '../storage/queryable';

/**
 * A recurring billing after its creation (RecurringBilling/Edit, Deactivate, Get, GetAll): only the
 * merchant's own, only an active one changes, never while a charge of it is in progress, and a new
 * schedule starts today or later.
 */

export async function loadBilling(q: Queryable, mid: number, id: number): Promise<BillingRow> {
  const row = await q.first(
    q.qb.selectFrom('recurring_billings').selectAll().where('id', '=', id).where('mid', '=', mid),
  );
  if (!row)
    throw new DomainError(ResponseCode.NotFound, ['No recurring billing of this merchant has this id']);
  return row;
}

export function requireActive(b: BillingRow): void {
  if (b.active !== 1)
    throw new DomainError(ResponseCode.BillingInactive, [`The recurring billing is ${b.status}`]);
}

export type EditCommand = {
  id: number;
  amountCents: number | undefined;
  frequencyId: number | undefined;
  description: string | undefined;
  next: string | null;
  end: string | null;
  start: string | null;
};

export async function editBilling(c: EditCommand, scope: RequestScope) {
  const mid = scope.principal.mid;
  const today = await merchantToday(scope.services.storage.read, mid, scope.now);
  await scope.services.storage.write(async (tx) => {
    await lockBilling(tx, c.id);
    const b = await loadBilling(tx, mid, c.id);
    requireActive(b);
    const inFlight = await tx.first(
      tx.qb
        .selectFrom('recurring_runs')
        .select('id')
        .where('billing_id', '=', b.id)
        .where('state', '=', 'claimed'),
    );
    if (inFlight)
      throw new DomainError(ResponseCode.InvalidState, [
        'A charge of this billing is in progress; edit it once it has finished',
      ]);
    const set: Partial<BillingRow> = { last_modified_on: scope.now.toISOString() };
    if (c.amountCents !== undefined) set.amount_cents = c.amountCents;
    if (c.description !== undefined) set.description = c.description;
    let anchor = b.anchor_date;
    let periodIndex = b.period_index;
    let frequencyId = b.frequency_id;
    if (c.start !== null) {
      const started = b.installments_paid > 0 || b.last_run_date !== null;
      if (started)
        throw new DomainError(ResponseCode.InvalidSchedule, [
          'RecurringStart can change only before the first charge',
        ]);
      if (c.start < today)
        throw new DomainError(ResponseCode.InvalidSchedule, [
          `RecurringStart must be today (${today}) or later`,
        ]);
      set.start_date = c.start;
      anchor = c.start;
      periodIndex = 0;
    }
    if (c.frequencyId !== undefined && c.frequencyId !== b.frequency_id) {
      // The next charge keeps its date; the ones after follow the new frequency from it.
      frequencyId = c.frequencyId;
      if (c.start === null && b.next_due_date !== null) {
        anchor = b.next_due_date;
        periodIndex = 0;
      }
    }
    if (c.next !== null) {
      if (c.next < today)
        throw new DomainError(ResponseCode.InvalidSchedule, [
          `NextPaymentDate must be today (${today}) or later`,
        ]);
      anchor = c.next;
      periodIndex = 0;
    }
    const frequency = frequencyById(frequencyId);
    if (!frequency) throw new DomainError(ResponseCode.InvalidFrequency, ['Unknown FrequencyId']);
    const end = c.end ?? b.end_date;
    const startDate = set.start_date ?? b.start_date;
    if (end !== null && end < startDate)
      throw new DomainError(ResponseCode.InvalidSchedule, ['RecurringEnd is before the start date']);
    const next = dueDate(anchor, frequency, periodIndex);
    Object.assign(set, {
      frequency_id: frequencyId,
      anchor_date: anchor,
      period_index: periodIndex,
      next_due_date: next,
      end_date: end,
    });
    if (hasEnded({ ...b, end_date: end }, next))
      Object.assign(set, { next_due_date: null, active: 0, status: 'completed' });
    await tx.run(tx.qb.updateTable('recurring_billings').set(set).where('id', '=', b.id));
  });
  const row = await loadBilling(scope.services.storage.read, mid, c.id);
  return { ...success(['Recurring billing updated']), BillingId: row.id, Billing: billingRecord(row) };
}

/** Deactivate: an active billing stops for good; its next charge is cancelled. */
export async function deactivateBilling(id: number, scope: RequestScope) {
  const mid = scope.principal.mid;
  await scope.services.storage.write(async (tx) => {
    await lockBilling(tx, id);
    const b = await loadBilling(tx, mid, id);
    requireActive(b);
    await tx.run(
      tx.qb
        .updateTable('recurring_billings')
        .set({
          active: 0,
          status: 'deactivated',
          next_due_date: null,
          last_modified_on: scope.now.toISOString(),
        })
        .where('id', '=', b.id),
    );
  });
  const row = await loadBilling(scope.services.storage.read, mid, id);
  return { ...success(['Recurring billing deactivated']), BillingId: id, Billing: billingRecord(row) };
}

/** Get: one active billing of the merchant. */
export async function activeBilling(id: number, scope: RequestScope) {
  const row = await loadBilling(scope.services.storage.read, scope.principal.mid, id);
  requireActive(row);
  return { ...success(), BillingId: row.id, Billing: billingRecord(row) };
}

/**
 * GetAll: the merchant's active billings (all of them with IncludeInactive), or the one asked for, in id
 * order, read a slice at a time by keyset over `recurring_billings_by_mid` (merchant, id): years of
 * billings stream, never sit in memory.
 */
export async function* listBillings(
  c: { id: number | undefined; all: boolean },
  scope: RequestScope,
): AsyncGenerator<RecurringBillingRecord> {
  const q = scope.services.storage.read;
  let after = 0;
  for (;;) {
    let query = q.qb
      .selectFrom('recurring_billings')
      .selectAll()
      .where('mid', '=', scope.principal.mid)
      .where('id', '>', after);
    if (!c.all) query = query.where('active', '=', 1);
    if (c.id !== undefined) query = query.where('id', '=', c.id);
    const rows = await q.all(query.orderBy('id').limit(BILLINGS_SLICE));
    for (const r of rows) yield billingRecord(r);
    const last = rows[rows.length - 1];
    if (rows.length < BILLINGS_SLICE || !last) return;
    after = last.id;
  }
}

const BILLINGS_SLICE = 500;
