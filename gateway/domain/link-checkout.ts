import { randomBytes } from 'node:crypto';
import { TransactionType, type SaleResponse } from '../contract/card-sale';
import type { PaymentSchedule } from '../contract/payment-links';
import { ResponseCode } from '../contract/response-codes';
import type { GatewayServices } from '../http/services';
import type { Queryable } from '../storage/queryable';
import type { ResolvedCard } from './card-input';
import type { RequestContext } from './context';
import { calendarDateOf, dueDate, frequencyById, type Frequency } from './frequency';
import { type Cents } from './money';
import { DomainError } from './outcome';
import {
  LINK_CLAIM_STALE_MS,
  MAX_INSTALLMENTS,
  MIN_INSTALLMENTS,
  findLink,
  lockLink,
  scheduleOptions,
  type LinkRow,
} from './payment-links';
import { noExtras, runPayment } from './payments';
import { insertBilling, merchantToday } from './recurring-billing';

/** What the payer chose on the checkout page. */
export type CheckoutChoice = {
  schedule: PaymentSchedule;
  frequencyId: number | null;
  installments: number | null;
};

export type CheckoutRequest = {
  linkId: string;
  /** The amount the payer entered (Open links); ignored for a Fixed link. */
  amountCents: Cents | null;
  card: ResolvedCard;
  street?: string | undefined;
  zip?: string | undefined;
  choice: CheckoutChoice;
};

export type CheckoutOutcome = {
  sale: SaleResponse;
  approved: boolean;
  link: LinkRow;
  totalCents: Cents;
  chargedCents: Cents;
  billingId: number | null;
  nextPaymentDate: string | null;
};

/** The plan a checkout starts, stored with the claim so a restart can finish it. */
type Plan = {
  schedule: PaymentSchedule;
  frequencyId: number | null;
  installments: number | null;
  totalCents: Cents;
  chargedCents: Cents;
};

/** Why a link cannot be paid now, or null when it can. */
export function refusalOf(link: LinkRow): DomainError | null {
  if (link.status === 'Paid')
    return new DomainError(ResponseCode.PaymentLinkPaid, ['This payment link has already been paid']);
  if (link.active !== 1)
    return new DomainError(ResponseCode.PaymentLinkDisabled, ['This payment link is disabled']);
  if (link.forced_payment_method !== null && link.forced_payment_method !== 'Credit') {
    return new DomainError(ResponseCode.PaymentMethodNotOffered, [
      `This link must be paid by ${link.forced_payment_method}; this checkout takes credit cards only`,
    ]);
  }
  return null;
}

/** The plan the payer's choice makes of the link, or the first problem with it. */
function planOf(link: LinkRow, req: CheckoutRequest): Plan {
  const total = link.amount_cents ?? req.amountCents;
  if (total === null || total <= 0)
    throw new DomainError(ResponseCode.InvalidAmount, ['Enter the amount to pay']);
  const allowed = scheduleOptions[link.allowed_payment_schedule as keyof typeof scheduleOptions] ?? [
    'Single',
  ];
  const { schedule } = req.choice;
  if (!allowed.includes(schedule)) {
    throw new DomainError(ResponseCode.ScheduleNotAllowed, [
      `This link does not offer a ${schedule.toLowerCase()} payment`,
    ]);
  }
  if (schedule === 'Single')
    return { schedule, frequencyId: null, installments: null, totalCents: total, chargedCents: total };
  const payerChooses = link.is_open_payment_schedule === 1;
  const frequencyId = payerChooses ? (req.choice.frequencyId ?? link.frequency_id) : link.frequency_id;
  if (!frequencyById(frequencyId ?? undefined))
    throw new DomainError(ResponseCode.InvalidFrequency, ['Choose how often to pay']);
  if (schedule === 'Recurring')
    return { schedule, frequencyId, installments: null, totalCents: total, chargedCents: total };
  const n = payerChooses ? (req.choice.installments ?? link.installment_total) : link.installment_total;
  if (n === null || n < MIN_INSTALLMENTS || n > MAX_INSTALLMENTS || n > total) {
    throw new DomainError(ResponseCode.InvalidSchedule, [
      `Choose ${MIN_INSTALLMENTS} to ${MAX_INSTALLMENTS} installments (each at least 0.01)`,
    ]);
  }
  // Installments are equal; the first, paid now, carries the odd cents so the plan totals exactly.
  const each = Math.floor(total / n);
  return { schedule, frequencyId, installments: n, totalCents: total, chargedCents: total - each * (n - 1) };
}

function splitName(name: string | undefined): { first: string; last: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2) return { first: parts[0] ?? '', last: '' };
  return { first: parts.slice(0, -1).join(' '), last: parts.at(-1) ?? '' };
}

/**
 * Records the outcome of the link's checkout payment `utn`, once: Paid with its ServiceReferenceNumber (and
 * the recurring billing the payer chose) when approved, released for another attempt otherwise. Runs again
 * harmlessly, so a claim found after a restart is finished the same way.
 */
async function finishCheckout(
  tx: Queryable,
  linkRowId: number,
  utn: string,
  today: string,
  now: string,
  cardholder: string | undefined,
): Promise<{ link: LinkRow; billingId: number | null; nextPaymentDate: string | null } | null> {
  // Re-entrant: the claim's unit of work that finishes a stale claim holds it already.
  await lockLink(tx, linkRowId);
  const link = await tx.first(tx.qb.selectFrom('payment_links').selectAll().where('id', '=', linkRowId));
  if (!link || link.paying_utn !== utn) return null;
  const payment = await tx.first(
    tx.qb.selectFrom('payments').selectAll().where('mid', '=', link.mid).where('utn', '=', utn),
  );
  if (payment?.status === 'pending') return null;
  if (payment?.status !== 'approved') {
    await tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ paying_utn: null, paying_since: null, paying_choice: null, updated_at: now })
        .where('id', '=', link.id),
    );
    return { link: { ...link, paying_utn: null }, billingId: null, nextPaymentDate: null };
  }
  const plan = JSON.parse(link.paying_choice ?? '{}') as Partial<Plan>;
  let billingId: number | null = null;
  let nextPaymentDate: string | null = null;
  const frequency: Frequency | undefined = frequencyById(plan.frequencyId ?? undefined);
  if (plan.schedule && plan.schedule !== 'Single' && frequency && payment.token_id !== null) {
    const isInstallment = plan.schedule === 'Installment';
    const n = plan.installments ?? 0;
    const total = plan.totalCents ?? payment.amount_cents;
    // Later charges follow the checkout by one period each, but never before the link's StartDate.
    const start = link.start_date ? calendarDateOf(link.start_date) : null;
    const delayed = start !== null && start > dueDate(today, frequency, 1);
    const { first, last } = splitName(cardholder);
    billingId = await insertBilling(
      tx,
      {
        mid: link.mid,
        userId: link.user_id,
        cid: link.cid,
        customerId: null,
        vaultTokenId: payment.token_id,
        cardType: payment.card_type,
        last4: payment.last4,
        amountCents: isInstallment ? Math.floor(total / n) : total,
        taxBp: 0,
        surchargeBp: 0,
        cardDifferenceBp: 0,
        frequency,
        isInstallment,
        installmentTotal: isInstallment ? n : 0,
        startDate: today,
        endDate: link.end_date ? calendarDateOf(link.end_date) : null,
        description: link.recurring_description || link.description,
        person: {
          firstName: first,
          lastName: last,
          email: '',
          phone: '',
          street: '',
          city: '',
          state: '',
          zip: '',
          customerRef: '',
        },
        paymentLinkId: link.link_id,
        alreadyPaid: {
          count: 1,
          collectedCents: payment.amount_cents,
          anchor: delayed && start ? start : today,
          periodIndex: delayed ? 0 : 1,
          srn: payment.srn,
          date: today,
        },
      },
      now,
    );
    const billing = await tx.first(
      tx.qb.selectFrom('recurring_billings').select('next_due_date').where('id', '=', billingId),
    );
    nextPaymentDate = billing?.next_due_date ?? null;
  }
  const paid: Partial<LinkRow> = {
    status: 'Paid',
    paid_on: payment.updated_at,
    srn: payment.srn,
    payment_schedule: plan.schedule ?? 'Single',
    recurring_billing_id: billingId,
    paying_utn: null,
    paying_since: null,
    paying_choice: null,
    updated_at: now,
  };
  await tx.run(tx.qb.updateTable('payment_links').set(paid).where('id', '=', link.id));
  return { link: { ...link, ...paid }, billingId, nextPaymentDate };
}

/**
 * Pays a link from its hosted checkout: a normal sale through runPayment, made in the name of the link's
 * creator, carrying PaymentLinkId. One payer at a time: the link is claimed in a unit of work before the
 * card is charged, and a second payer meanwhile is told the payment is in progress.
 */
export async function payLink(services: GatewayServices, req: CheckoutRequest): Promise<CheckoutOutcome> {
  const { storage, clock } = services;
  const found = await findLink(storage.read, null, req.linkId);
  if (!found) throw new DomainError(ResponseCode.NotFound, ['This payment link does not exist']);
  const refused = refusalOf(found);
  if (refused) throw refused;
  // A quick answer for a choice the link cannot take; the plan charged is made again under the lock.
  planOf(found, req);
  const today = await merchantToday(storage.read, found.mid, clock.now());
  const cardholder = req.card.name;
  // 64 characters at most: "PL-" + the link's UUID + 12 hex digits.
  const utn = `PL-${found.link_id}-${randomBytes(6).toString('hex')}`;

  const { plan, link: claimed } = await storage.write(async (tx) => {
    await lockLink(tx, found.id);
    const link = await tx.first(tx.qb.selectFrom('payment_links').selectAll().where('id', '=', found.id));
    if (!link || link.deleted_on !== null)
      throw new DomainError(ResponseCode.NotFound, ['This payment link does not exist']);
    if (link.paying_utn !== null) {
      const payment = await tx.first(
        tx.qb
          .selectFrom('payments')
          .select('status')
          .where('mid', '=', link.mid)
          .where('utn', '=', link.paying_utn),
      );
      const fresh = clock.now().getTime() - Date.parse(link.paying_since ?? '') < LINK_CLAIM_STALE_MS;
      if (payment?.status === 'pending' || (!payment && fresh)) {
        throw new DomainError(ResponseCode.PaymentLinkBusy, [
          'A payment of this link is in progress; try again in a moment',
        ]);
      }
      // A claim a crash left behind: finish it as its payment ended before taking a new one.
      const earlier = await finishCheckout(
        tx,
        link.id,
        link.paying_utn,
        today,
        clock.now().toISOString(),
        undefined,
      );
      if (earlier?.link.status === 'Paid')
        throw refusalOf(earlier.link) ?? new DomainError(ResponseCode.PaymentLinkPaid, []);
    }
    const current = await tx.first(tx.qb.selectFrom('payment_links').selectAll().where('id', '=', found.id));
    const again = current ? refusalOf(current) : null;
    if (!current || again)
      throw again ?? new DomainError(ResponseCode.NotFound, ['This payment link does not exist']);
    // From the link as it is now, under its lock: an Edit that committed since the first read (a new
    // amount, schedule or frequency) is what the payer is charged, never the earlier read.
    const plan = planOf(current, req);
    const at = clock.now().toISOString();
    await tx.run(
      tx.qb
        .updateTable('payment_links')
        .set({ paying_utn: utn, paying_since: at, paying_choice: JSON.stringify(plan), updated_at: at })
        .where('id', '=', current.id),
    );
    return { link: current, plan };
  });

  const ctx: RequestContext = {
    principal: {
      userId: claimed.user_id,
      userName: '',
      mid: claimed.mid,
      cid: claimed.cid,
      appKey: '',
      appType: 0,
    },
    isTest: false,
    source: 'PaymentFrame',
  };
  let sale: SaleResponse;
  try {
    sale = await runPayment(services, ctx, {
      operation: 'sale',
      authorizationKind: 'sale',
      transactionType: TransactionType.CREDIT,
      utn,
      amounts: { ...noExtras, baseCents: plan.chargedCents },
      currency: 'USD',
      card: req.card,
      // The link's claim already stops a double submission; the same card paying two links of one
      // amount is two purchases, not a duplicate.
      forceDuplication: true,
      allowPartial: false,
      posCode: 'ECommerce',
      preauth: false,
      invoice: claimed.invoice || undefined,
      paymentLinkId: claimed.link_id,
      // A plan charges the card again later: the vault keeps it (encrypted) for the scheduler.
      saveToken: plan.schedule !== 'Single',
      street: req.street,
      zip: req.zip,
    });
  } catch (error) {
    await storage.write((tx) =>
      tx.run(
        tx.qb
          .updateTable('payment_links')
          .set({ paying_utn: null, paying_since: null, paying_choice: null })
          .where('id', '=', claimed.id)
          .where('paying_utn', '=', utn),
      ),
    );
    throw error;
  }
  const finished = await storage.write((tx) =>
    finishCheckout(tx, claimed.id, utn, today, clock.now().toISOString(), cardholder),
  );
  const approved = sale.ResponseCode === ResponseCode.Success;
  return {
    sale,
    approved,
    link: finished?.link ?? claimed,
    totalCents: plan.totalCents,
    chargedCents: plan.chargedCents,
    billingId: finished?.billingId ?? null,
    nextPaymentDate: finished?.nextPaymentDate ?? null,
  };
}
