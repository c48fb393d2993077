import type { Insertable, Selectable } from 'kysely';
import type { RecurringBillingRecord } from '../contract/recurring-billing';
import { ResponseCode } from '../contract/response-codes';
import type { Queryable } from '../storage/queryable';
import type { RecurringBillingsTable, RecurringRunsTable } from '../storage/schema-commerce';
import { compactDate, dueDate, frequencyById, localDate, type Frequency } from './frequency';
import { fromCents, percentOf, type Cents } from './money';
import { noExtras, type Amounts } from './payments';
import { chargedCents } from './rules/card-paid';

export type BillingRow = Selectable<RecurringBillingsTable>;
export type RunRow = Selectable<RecurringRunsTable>;

/** The Source of every scheduled charge: how its payments are told from the merchant's own. */
export const RECURRING_SOURCE = 'RecurringBillingTask';

/** Consecutive declined charges after which a billing is suspended (no further attempt). */
export const MAX_CONSECUTIVE_FAILURES = 3;

/** The deterministic UserTransactionNumber of a billing's charge for one due date. */
export function runUtn(billingId: number, due: string): string {
  return `RB-${billingId}-${compactDate(due)}`;
}

/** What one charge of the billing takes: the base amount plus its percentages, each rounded half up. */
export function chargeAmounts(
  b: Pick<BillingRow, 'amount_cents' | 'tax_bp' | 'surcharge_bp' | 'card_difference_bp'>,
): Amounts {
  return {
    ...noExtras,
    baseCents: b.amount_cents,
    taxCents: percentOf(b.amount_cents, b.tax_bp),
    surchargeCents: percentOf(b.amount_cents, b.surcharge_bp),
    cardDifferenceCents: percentOf(b.amount_cents, b.card_difference_bp),
  };
}

/** The merchant's calendar date now: billings fall due on the merchant's day, not the server's. */
export async function merchantToday(q: Queryable, mid: number, now: Date): Promise<string> {
  const m = await q.first(q.qb.selectFrom('merchants').select('time_zone').where('mid', '=', mid));
  return localDate(now, m?.time_zone ?? 'UTC');
}

export type NewBilling = {
  mid: number;
  userId: number;
  cid: number;
  customerId: number | null;
  vaultTokenId: number;
  cardType: string;
  last4: string;
  amountCents: Cents;
  taxBp: number;
  surchargeBp: number;
  cardDifferenceBp: number;
  frequency: Frequency;
  isInstallment: boolean;
  installmentTotal: number;
  startDate: string;
  endDate: string | null;
  description: string;
  person: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    street: string;
    city: string;
    state: string;
    zip: string;
    customerRef: string;
  };
  paymentLinkId: string | null;
  /**
   * Charges made before the billing existed: a payment link's checkout is the first charge of the
   * schedule it starts. The next due date is then `anchor + periodIndex` periods.
   */
  alreadyPaid?: {
    count: number;
    collectedCents: Cents;
    anchor: string;
    periodIndex: number;
    srn: string;
    date: string;
  };
};

export async function insertBilling(tx: Queryable, b: NewBilling, now: string): Promise<number> {
  const anchor = b.alreadyPaid?.anchor ?? b.startDate;
  const periodIndex = b.alreadyPaid?.periodIndex ?? 0;
  const paid = b.alreadyPaid?.count ?? 0;
  const next = dueDate(anchor, b.frequency, periodIndex);
  const ended = (b.isInstallment && paid >= b.installmentTotal) || (b.endDate !== null && next > b.endDate);
  const row: Insertable<RecurringBillingsTable> = {
    mid: b.mid,
    user_id: b.userId,
    cid: b.cid,
    customer_id: b.customerId,
    vault_token_id: b.vaultTokenId,
    amount_cents: b.amountCents,
    tax_bp: b.taxBp,
    surcharge_bp: b.surchargeBp,
    card_difference_bp: b.cardDifferenceBp,
    frequency_id: b.frequency.id,
    is_installment: b.isInstallment ? 1 : 0,
    installment_total: b.isInstallment ? b.installmentTotal : 0,
    installments_paid: paid,
    amount_collected_cents: b.alreadyPaid?.collectedCents ?? 0,
    anchor_date: anchor,
    period_index: periodIndex,
    next_due_date: ended ? null : next,
    start_date: b.startDate,
    end_date: b.endDate,
    description: b.description,
    first_name: b.person.firstName,
    last_name: b.person.lastName,
    email: b.person.email,
    phone: b.person.phone,
    street: b.person.street,
    city: b.person.city,
    state: b.person.state,
    zip: b.person.zip,
    customer_ref: b.person.customerRef,
    card_type: b.cardType,
    last4: b.last4,
    active: ended ? 0 : 1,
    status: ended ? 'completed' : 'active',
    consecutive_failures: 0,
    payment_link_id: b.paymentLinkId,
    last_run_date: b.alreadyPaid?.date ?? null,
    last_run_srn: b.alreadyPaid?.srn ?? null,
    added_on: now,
    last_modified_on: now,
  };
  const inserted = await tx.first(tx.qb.insertInto('recurring_billings').values(row).returning('id'));
  if (!inserted) throw new Error('billing insert returned no id');
  return inserted.id;
}

const percentFromBp = (bp: number) => bp / 100;

export function billingRecord(b: BillingRow): RecurringBillingRecord {
  return {
    Id: b.id,
    AddedOn: b.added_on,
    LastModifiedOn: b.last_modified_on,
    Amount: fromCents(b.amount_cents),
    AmountCollectedSoFar: fromCents(b.amount_collected_cents),
    CardType: b.card_type,
    City: b.city,
    Description: b.description,
    Email: b.email,
    EndDate: b.end_date ?? '',
    FirstName: b.first_name,
    Frequency: frequencyById(b.frequency_id)?.name ?? '',
    LastFour: b.last4,
    CustomerId: b.customer_id,
    InstallmentTotal: b.installment_total,
    IsInstallment: b.is_installment === 1,
    FrequencyId: b.frequency_id,
    LastName: b.last_name,
    StartDate: b.start_date,
    NextPaymentDate: b.next_due_date,
    InstallmentsPaid: b.installments_paid,
    Active: b.active === 1,
    Status: b.status,
    CardTokenId: b.vault_token_id,
    PaymentLinkId: b.payment_link_id,
    LastRunDate: b.last_run_date,
    LastServiceReferenceNumber: b.last_run_srn,
    TaxPercent: percentFromBp(b.tax_bp),
    SurchargePercent: percentFromBp(b.surcharge_bp),
    CardDifferencePercent: percentFromBp(b.card_difference_bp),
  };
}

/** Whether a billing has nothing left to charge once it stands at `next`. */
export function hasEnded(
  b: Pick<BillingRow, 'is_installment' | 'installments_paid' | 'installment_total' | 'end_date'>,
  next: string,
): boolean {
  if (b.is_installment === 1 && b.installments_paid >= b.installment_total) return true;
  return b.end_date !== null && next > b.end_date;
}

/**
 * Serializes the units of work on one billing — the scheduler's claim and record of a charge, Edit,
 * Deactivate — across gateway processes: two schedulers recording one run would count its charge twice,
 * and an Edit between a claim and its record would be overwritten.
 */
export async function lockBilling(tx: Queryable, billingId: number): Promise<void> {
  await tx.lock(`billing:${billingId}`);
}

/**
 * Records the outcome of a claimed run, once: the payment row (found by the run's UserTransactionNumber)
 * is the truth, so this can run again after a restart and still count the charge exactly once.
 * `failure` records a run refused before any payment existed (no stored card, a merchant rule).
 */
export async function finishRun(
  tx: Queryable,
  runId: number,
  now: string,
  failure?: { code: number },
): Promise<RunRow | null> {
  const owner = await tx.first(
    tx.qb.selectFrom('recurring_runs').select('billing_id').where('id', '=', runId),
  );
  if (!owner) return null;
  await lockBilling(tx, owner.billing_id);
  // Read under the lock: another process may have recorded this run a moment ago.
  const run = await tx.first(tx.qb.selectFrom('recurring_runs').selectAll().where('id', '=', runId));
  // A cancelled run is finished too if its charge went through after all (another process charged it).
  if (!run || (run.state !== 'claimed' && run.state !== 'cancelled')) return null;
  const found = await tx.first(
    tx.qb.selectFrom('payments').selectAll().where('mid', '=', run.mid).where('utn', '=', run.utn),
  );
  // The merchant may have used this number for a payment of its own: that is not this run's charge.
  const payment = found?.source === RECURRING_SOURCE ? found : undefined;
  const refusal =
    failure ?? (found && !payment ? { code: ResponseCode.DuplicateTransactionNumber } : undefined);
  if (!payment && !refusal) return null;
  if (payment?.status === 'pending') return null;
  if (run.state === 'cancelled' && payment?.status !== 'approved') return null;
  const billing = await tx.first(
    tx.qb.selectFrom('recurring_billings').selectAll().where('id', '=', run.billing_id),
  );
  if (!billing) return null;

  const approved = payment?.status === 'approved';
  const charged = approved ? chargedCents(payment) : 0;
  await tx.run(
    tx.qb
      .updateTable('recurring_runs')
      .set({
        state: approved ? 'approved' : 'declined',
        payment_id: payment?.id ?? null,
        charged_cents: charged,
        response_code: payment?.response_code ?? refusal?.code ?? null,
        updated_at: now,
      })
      .where('id', '=', run.id),
  );

  const next: Partial<BillingRow> = { last_modified_on: now };
  const paid = billing.installments_paid + (approved ? 1 : 0);
  const failures = approved ? 0 : billing.consecutive_failures + 1;
  if (approved) {
    next.amount_collected_cents = billing.amount_collected_cents + charged;
    next.installments_paid = paid;
    next.last_run_date = run.due_date;
    next.last_run_srn = payment.srn;
  }
  next.consecutive_failures = failures;
  // The schedule moves on only if nobody moved it meanwhile (Edit with NextPaymentDate re-anchors it).
  if (billing.active === 1 && billing.next_due_date === run.due_date) {
    const frequency = frequencyById(billing.frequency_id);
    const periodIndex = billing.period_index + 1;
    const due = frequency ? dueDate(billing.anchor_date, frequency, periodIndex) : run.due_date;
    next.period_index = periodIndex;
    next.next_due_date = due;
    if (hasEnded({ ...billing, installments_paid: paid }, due)) {
      Object.assign(next, { next_due_date: null, active: 0, status: 'completed' });
    } else if (failures >= MAX_CONSECUTIVE_FAILURES) {
      Object.assign(next, { active: 0, status: 'suspended' });
    }
  }
  await tx.run(tx.qb.updateTable('recurring_billings').set(next).where('id', '=', billing.id));
  return { ...run, state: approved ? 'approved' : 'declined' };
}
