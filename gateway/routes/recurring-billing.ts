import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { detectBrand } from '../../native/protocols/card-brand';
import { isLuhnValid } from '../../native/protocols/luhn';
import { maskCardData } from '../../native/protocols/pan-mask';
import type { BackgroundTask } from '../schedulers/background-task';
import {
  EcommerceStatusValues,
  recurringBillingEndpoints as ep,
  type MobileWalletTransactionRecord,
} from '../contract/recurring-billing';
import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import { merchantSettings } from '../domain/business-settings';
import { isExpired, parseExpDate } from '../domain/card-input';
import { saveCustomer } from '../domain/customers';
import { calendarDateOf, dueDate, frequencyById } from '../domain/frequency';
import { fromCents, toCents } from '../domain/money';
import { DomainError, success } from '../domain/outcome';
import type { Problems } from '../domain/problems';
import {
  billingRecord,
  hasEnded,
  insertBilling,
  lockBilling,
  merchantToday,
  type BillingRow,
} from '../domain/recurring-billing';
import { storeCard } from '../domain/vault';
import { flag, int, money, text } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';
import { createRecurringBillingScheduler } from '../schedulers/recurring-billing';
import { UniqueViolation, type Queryable } from '../storage/queryable';
import type { MobileWalletTransactionsTable } from '../storage/schema-commerce';

/** A percentage with at most two decimals, 0 to 100, as hundredths of a percent (3.5 → 350). */
function percentBp(problems: Problems, body: Loose, field: string): number {
  const v = body[field];
  if (v === undefined || v === null || problems.has(field)) return 0;
  const r = toCents(v, { allowZero: true, ceilingCents: 10_000 });
  if (!r.ok) {
    problems.add(ResponseCode.InvalidRequest, `${field} ${r.reason.replace('999,999.99', '100')}`, field);
    return 0;
  }
  return r.cents;
}

function dateField(problems: Problems, body: Loose, field: string): string | null {
  const v = text(body, field);
  if (v === undefined || problems.has(field)) return null;
  const d = calendarDateOf(v);
  if (!d) problems.add(ResponseCode.InvalidRequest, `${field} must be a date-time`, field);
  return d;
}

function merchantIdMatches(problems: Problems, body: Loose, field: string, ctx: OperationContext): void {
  const v = body[field];
  if (typeof v === 'number' && v !== ctx.principal.mid) {
    problems.add(
      ResponseCode.MerchantAccessDenied,
      `${field} must be the envelope mid: records belong to the authenticated merchant`,
      field,
    );
  }
}

type CardSource =
  | { kind: 'account'; pan: string; expiryYYMM: string }
  | { kind: 'cardTokenId'; id: number }
  | { kind: 'token'; token: string }
  | { kind: 'transaction'; srn: string };

type CreateCommand = {
  amountCents: number;
  frequencyId: number;
  isInstallment: boolean;
  installmentTotal: number;
  start: string;
  end: string | null;
  taxBp: number;
  surchargeBp: number;
  cardDifferenceBp: number;
  card: CardSource;
  selectedCustomerId: number | undefined;
  body: Loose;
};

/** FrequencyId when sent, refused (with its own code) unless the FrequencyId table has it. */
function frequencyIdOf(body: Loose, problems: Problems): number | undefined {
  const frequencyId = int(body, 'FrequencyId');
  if (frequencyId !== undefined && !frequencyById(frequencyId))
    problems.add(
      ResponseCode.InvalidFrequency,
      'FrequencyId must be 1 to 7 (see the FrequencyId table)',
      'FrequencyId',
    );
  return frequencyId;
}

function checkCreate(body: Loose, problems: Problems, ctx: OperationContext): CreateCommand | undefined {
  const amountCents = money(problems, body, 'Amount', {
    required: true,
    ceilingCents: ctx.services.rules.amountCeilingCents,
  });
  const frequencyId = frequencyIdOf(body, problems);
  const isInstallment = body.IsInstallment === true;
  const installmentTotal = int(body, 'InstallmentTotal');
  if (isInstallment && installmentTotal !== undefined && (installmentTotal < 1 || installmentTotal > 999))
    problems.add(
      ResponseCode.InvalidSchedule,
      'InstallmentTotal must be 1 to 999 for an installment plan',
      'InstallmentTotal',
    );
  if (!isInstallment && installmentTotal !== undefined && installmentTotal < 0)
    problems.add(ResponseCode.InvalidSchedule, 'InstallmentTotal must not be negative', 'InstallmentTotal');
  const start = dateField(problems, body, 'StartDate');
  const end = dateField(problems, body, 'EndDate');
  if (start && end && end < start)
    problems.add(ResponseCode.InvalidSchedule, 'EndDate is before StartDate', 'EndDate');
  const taxBp = percentBp(problems, body, 'TaxPercent');
  const surchargeBp = percentBp(problems, body, 'SurchargePercent');
  const cardDifferenceBp = percentBp(problems, body, 'CardDifferencePercent');
  merchantIdMatches(problems, body, 'MerchantId', ctx);

  let card: CardSource | undefined;
  const account = text(body, 'Account');
  const cardTokenId = int(body, 'CardTokenId');
  const token = text(body, 'Token');
  const transactionId = text(body, 'TransactionId');
  const given = [account, cardTokenId, token, transactionId].filter((v) => v !== undefined).length;
  if (given > 1) {
    problems.add(
      ResponseCode.InvalidRequest,
      'Send one card: Account + ExpDate, CardTokenId, Token or TransactionId',
      'Account',
    );
  } else if (account !== undefined) {
    const pan = account.replace(/[\s-]/g, '');
    const expText = text(body, 'ExpDate');
    const expiry = expText ? parseExpDate(expText, true) : null;
    if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan))
      problems.add(ResponseCode.InvalidCardNumber, 'Account is not a valid card number', 'Account');
    else if (!expiry)
      problems.add(ResponseCode.InvalidExpiry, 'ExpDate (MMYY) is required with Account', 'ExpDate');
    else if (isExpired(expiry, ctx.now))
      problems.add(DeclineCode.ExpiredCard, 'The card is expired', 'ExpDate');
    else card = { kind: 'account', pan, expiryYYMM: expiry };
    const cv = text(body, 'Cv');
    if (cv !== undefined && !/^\d{3,4}$/.test(cv))
      problems.add(ResponseCode.InvalidRequest, 'Cv must be 3 or 4 digits', 'Cv');
  } else if (cardTokenId !== undefined) card = { kind: 'cardTokenId', id: cardTokenId };
  else if (token !== undefined) card = { kind: 'token', token };
  else if (transactionId !== undefined) card = { kind: 'transaction', srn: transactionId };
  else if (!problems.has('Account') && !problems.has('CardTokenId')) {
    problems.add(
      ResponseCode.CardDataMissing,
      'A card is required: Account + ExpDate, CardTokenId, Token or TransactionId (a sale that saved its card)',
      'Account',
    );
  }
  if (
    amountCents === undefined ||
    frequencyId === undefined ||
    installmentTotal === undefined ||
    !start ||
    !card ||
    !problems.empty
  )
    return undefined;
  return {
    amountCents,
    frequencyId,
    isInstallment,
    installmentTotal,
    start,
    end,
    taxBp,
    surchargeBp,
    cardDifferenceBp,
    card,
    selectedCustomerId: int(body, 'SelectedCustomerId'),
    body,
  };
}

/** The vault row a billing charges; never another merchant's, never an inactive one. */
async function vaultRowFor(tx: Queryable, ctx: OperationContext, source: CardSource, body: Loose) {
  const mid = ctx.principal.mid;
  const select = tx.qb
    .selectFrom('vault_tokens')
    .select(['id', 'card_type', 'last4', 'exp_mmyy', 'holder_name'])
    .where('mid', '=', mid)
    .where('active', '=', 1);
  if (source.kind === 'cardTokenId') {
    const row = await tx.first(select.where('id', '=', source.id));
    if (!row)
      throw new DomainError(ResponseCode.NotFound, ['CardTokenId is not a stored card of this merchant']);
    return row;
  }
  if (source.kind === 'token') {
    const row = await tx.first(select.where('token', '=', source.token));
    if (!row) throw new DomainError(ResponseCode.NotFound, ['Token is not a stored card of this merchant']);
    return row;
  }
  if (source.kind === 'transaction') {
    const payment = await tx.first(
      tx.qb.selectFrom('payments').select('token_id').where('mid', '=', mid).where('srn', '=', source.srn),
    );
    if (!payment)
      throw new DomainError(ResponseCode.NotFound, ['TransactionId is not a transaction of this merchant']);
    if (payment.token_id === null)
      throw new DomainError(ResponseCode.CardDataMissing, [
        'That sale did not save its card (send SaveToken with the sale), so it cannot be billed again',
      ]);
    const row = await tx.first(select.where('id', '=', payment.token_id));
    if (!row) throw new DomainError(ResponseCode.NotFound, ['The card that sale saved is no longer active']);
    return row;
  }
  const stored = await storeCard(
    tx,
    ctx.services.keys,
    { mid, userId: ctx.principal.userId, processor: ctx.services.processor.name },
    {
      pan: source.pan,
      expiryYYMM: source.expiryYYMM,
      cardType: detectBrand(source.pan),
      holderName: text(body, 'CardHolderName'),
      street: text(body, 'Street'),
      zip: text(body, 'ZipCode') ?? text(body, 'CustomerZipCode'),
      description: 'recurring billing',
    },
    ctx.now.toISOString(),
  );
  const row = await tx.first(select.where('id', '=', stored.id));
  if (!row) throw new Error('stored card vanished');
  return row;
}

async function createBilling(c: CreateCommand, ctx: OperationContext) {
  const q = ctx.services.storage.read;
  const mid = ctx.principal.mid;
  const today = await merchantToday(q, mid, ctx.now);
  if (c.start < today)
    throw new DomainError(ResponseCode.InvalidSchedule, [`StartDate must be today (${today}) or later`]);
  const settings = await merchantSettings(q, mid);
  const refused: string[] = [];
  if (c.surchargeBp > 0 && !settings.surchargeEnabled)
    refused.push('SurchargePercent is not allowed: surcharge is not enabled for this merchant');
  if (c.cardDifferenceBp > 0 && !settings.cardDifferenceEnabled)
    refused.push('CardDifferencePercent is not allowed: card difference is not enabled for this merchant');
  if (refused.length > 0) throw new DomainError(ResponseCode.InvalidRequest, refused);
  const frequency = frequencyById(c.frequencyId);
  if (!frequency) throw new DomainError(ResponseCode.InvalidFrequency, ['Unknown FrequencyId']);
  const b = c.body;
  const now = ctx.now.toISOString();

  const id = await ctx.services.storage.write(async (tx) => {
    const card = await vaultRowFor(tx, ctx, c.card, c.body);
    const expiry = card.exp_mmyy.slice(2, 4) + card.exp_mmyy.slice(0, 2);
    if (card.exp_mmyy === '0000' || isExpired(expiry, ctx.now))
      throw new DomainError(ResponseCode.InvalidExpiry, [
        'The stored card has no valid expiry: store it again with ExpDate',
      ]);
    let customerId: number | null = null;
    if (c.selectedCustomerId !== undefined) {
      const customer = await tx.first(
        tx.qb
          .selectFrom('customers')
          .select('id')
          .where('id', '=', c.selectedCustomerId)
          .where('mid', '=', mid),
      );
      if (!customer)
        throw new DomainError(ResponseCode.NotFound, [
          'SelectedCustomerId is not a customer of this merchant',
        ]);
      customerId = customer.id;
    } else if (text(b, 'FirstName') || text(b, 'LastName') || text(b, 'Email') || text(b, 'CustomerId')) {
      // The billing's customer becomes a customer record of the merchant (listed by /api/Customers).
      customerId = await saveCustomer(
        tx,
        mid,
        {
          customerRef: text(b, 'CustomerId'),
          name: [text(b, 'FirstName'), text(b, 'LastName')].filter(Boolean).join(' ') || undefined,
          email: text(b, 'Email'),
          phone: text(b, 'Phone'),
          address: text(b, 'Street'),
          city: text(b, 'City'),
          state: text(b, 'State'),
          zip: text(b, 'CustomerZipCode') ?? text(b, 'ZipCode'),
          source: 'Recurring',
        },
        now,
      );
    }
    return insertBilling(
      tx,
      {
        mid,
        userId: ctx.principal.userId,
        cid: ctx.principal.cid,
        customerId,
        vaultTokenId: card.id,
        cardType: card.card_type,
        last4: card.last4,
        amountCents: c.amountCents,
        taxBp: c.taxBp,
        surchargeBp: c.surchargeBp,
        cardDifferenceBp: c.cardDifferenceBp,
        frequency,
        isInstallment: c.isInstallment,
        installmentTotal: c.installmentTotal,
        startDate: c.start,
        endDate: c.end,
        description: text(b, 'Description') ?? '',
        person: {
          firstName: text(b, 'FirstName') ?? '',
          lastName: text(b, 'LastName') ?? '',
          email: text(b, 'Email') ?? '',
          phone: text(b, 'Phone') ?? '',
          street: text(b, 'Street') ?? '',
          city: text(b, 'City') ?? '',
          state: text(b, 'State') ?? '',
          zip: text(b, 'ZipCode') ?? text(b, 'CustomerZipCode') ?? '',
          customerRef: text(b, 'CustomerId') ?? '',
        },
        paymentLinkId: null,
      },
      now,
    );
  });
  const row = await loadBilling(ctx.services.storage.read, mid, id);
  return { ...success(['Recurring billing created']), BillingId: id, Billing: billingRecord(row) };
}

async function loadBilling(q: Queryable, mid: number, id: number): Promise<BillingRow> {
  const row = await q.first(
    q.qb.selectFrom('recurring_billings').selectAll().where('id', '=', id).where('mid', '=', mid),
  );
  if (!row)
    throw new DomainError(ResponseCode.NotFound, ['No recurring billing of this merchant has this id']);
  return row;
}

function requireActive(b: BillingRow): void {
  if (b.active !== 1)
    throw new DomainError(ResponseCode.BillingInactive, [`The recurring billing is ${b.status}`]);
}

function requiredBillingId(problems: Problems, body: Loose, field: string): number | undefined {
  const id = int(body, field);
  if (id === undefined && !problems.has(field))
    problems.add(ResponseCode.InvalidRequest, `${field} is required`, field);
  return id;
}

type EditCommand = {
  id: number;
  amountCents: number | undefined;
  frequencyId: number | undefined;
  description: string | undefined;
  next: string | null;
  end: string | null;
  start: string | null;
};

async function editBilling(c: EditCommand, ctx: OperationContext) {
  const mid = ctx.principal.mid;
  const today = await merchantToday(ctx.services.storage.read, mid, ctx.now);
  await ctx.services.storage.write(async (tx) => {
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
    const set: Partial<BillingRow> = { last_modified_on: ctx.now.toISOString() };
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
  const row = await loadBilling(ctx.services.storage.read, mid, c.id);
  return { ...success(['Recurring billing updated']), BillingId: row.id, Billing: billingRecord(row) };
}

type WalletRow = Selectable<MobileWalletTransactionsTable>;

function walletRecord(r: WalletRow): MobileWalletTransactionRecord {
  const n = (cents: number | null) => (cents === null ? null : fromCents(cents));
  return {
    Id: r.wallet_id,
    Mid: r.mid,
    BusinessCustomerId: r.business_customer_id,
    DailyTransactionId: r.daily_transaction_id,
    EcommerceId: r.ecommerce_id,
    EcommerceStatus: (EcommerceStatusValues as readonly string[]).includes(r.ecommerce_status)
      ? (r.ecommerce_status as MobileWalletTransactionRecord['EcommerceStatus'])
      : 'Open',
    Fee: n(r.fee_cents),
    NetAmount: n(r.net_amount_cents),
    ReferenceNumber: r.reference_number,
    SubTotal: n(r.sub_total_cents),
    Tax: n(r.tax_cents),
    Total: n(r.total_cents),
    TotalRefundedAmount: n(r.total_refunded_cents),
    TransactionDate: r.transaction_date,
  };
}

function walletAmounts(problems: Problems, body: Loose, ctx: OperationContext) {
  const m = (field: string) =>
    money(problems, body, field, { allowZero: true, ceilingCents: ctx.services.rules.amountCeilingCents }) ??
    null;
  const a = {
    fee_cents: m('Fee'),
    net_amount_cents: m('NetAmount'),
    sub_total_cents: m('SubTotal'),
    tax_cents: m('Tax'),
    total_cents: m('Total'),
    total_refunded_cents: m('TotalRefundedAmount'),
  };
  if (a.total_cents !== null && a.total_refunded_cents !== null && a.total_refunded_cents > a.total_cents)
    problems.add(
      ResponseCode.InvalidAmount,
      'TotalRefundedAmount must not exceed Total',
      'TotalRefundedAmount',
    );
  return a;
}

export function registerRecurringBillingRoutes(
  app: FastifyInstance,
  services: GatewayServices,
): readonly BackgroundTask[] {
  implement(app, services, ep.create, { check: checkCreate, handle: createBilling });

  implement(app, services, ep.edit, {
    check(body, problems, ctx) {
      const id = requiredBillingId(problems, body, 'Id');
      const amountCents = money(problems, body, 'Amount', {
        allowZero: false,
        ceilingCents: ctx.services.rules.amountCeilingCents,
      });
      const frequencyId = frequencyIdOf(body, problems);
      const next = dateField(problems, body, 'NextPaymentDate');
      const end = dateField(problems, body, 'RecurringEnd');
      const start = dateField(problems, body, 'RecurringStart');
      if (id === undefined || !problems.empty) return undefined;
      return { id, amountCents, frequencyId, description: text(body, 'Description'), next, end, start };
    },
    handle: editBilling,
  });

  implement(app, services, ep.deactivate, {
    check: (body, problems) => requiredBillingId(problems, body, 'BillingId'),
    async handle(id, ctx) {
      const mid = ctx.principal.mid;
      await ctx.services.storage.write(async (tx) => {
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
              last_modified_on: ctx.now.toISOString(),
            })
            .where('id', '=', b.id),
        );
      });
      const row = await loadBilling(ctx.services.storage.read, mid, id);
      return { ...success(['Recurring billing deactivated']), BillingId: id, Billing: billingRecord(row) };
    },
  });

  implement(app, services, ep.get, {
    check: (body, problems) => requiredBillingId(problems, body, 'BillingId'),
    async handle(id, ctx) {
      const row = await loadBilling(ctx.services.storage.read, ctx.principal.mid, id);
      requireActive(row);
      return { ...success(), BillingId: row.id, Billing: billingRecord(row) };
    },
  });

  implement(app, services, ep.getAll, {
    check: (body) => ({ id: int(body, 'BillingId'), all: flag(body, 'IncludeInactive') }),
    async handle(c, ctx) {
      const q = ctx.services.storage.read;
      let query = q.qb.selectFrom('recurring_billings').selectAll().where('mid', '=', ctx.principal.mid);
      if (!c.all) query = query.where('active', '=', 1);
      if (c.id !== undefined) query = query.where('id', '=', c.id);
      const rows = await q.all(query.orderBy('id'));
      return { ...success(), Billings: rows.map(billingRecord) };
    },
  });

  implement(app, services, ep.mobileWalletCreate, {
    check(body, problems, ctx) {
      merchantIdMatches(problems, body, 'Merchantid', ctx);
      const amounts = walletAmounts(problems, body, ctx);
      const daily = int(body, 'DailyTransactionId');
      if (daily !== undefined && daily < 0)
        problems.add(
          ResponseCode.InvalidRequest,
          'DailyTransactionId must not be negative',
          'DailyTransactionId',
        );
      const date = text(body, 'TransactionDate');
      return problems.empty ? { amounts, daily, date, body } : undefined;
    },
    async handle(c, ctx) {
      const b = c.body;
      const row = {
        wallet_id: randomUUID(),
        mid: ctx.principal.mid,
        user_id: ctx.principal.userId,
        business_customer_id: text(b, 'BusinessCustomerId') ?? null,
        daily_transaction_id: c.daily ?? null,
        ecommerce_id: text(b, 'EcommerceId') ?? null,
        ecommerce_status: text(b, 'EcommerceStatus') ?? 'Open',
        reference_number: text(b, 'ReferenceNumber') ?? null,
        transaction_date: c.date ? new Date(c.date).toISOString() : null,
        created_at: ctx.now.toISOString(),
        ...c.amounts,
      };
      try {
        const stored = await ctx.services.storage.write((tx) =>
          tx.first(tx.qb.insertInto('mobile_wallet_transactions').values(row).returningAll()),
        );
        if (!stored) throw new Error('wallet insert returned nothing');
        return { ...success(['Mobile-wallet transaction stored']), Transactions: [walletRecord(stored)] };
      } catch (error) {
        if (error instanceof UniqueViolation && error.constraint.includes('ecommerce_id'))
          throw new DomainError(ResponseCode.AlreadyExists, [
            'EcommerceId is already stored for this merchant',
          ]);
        throw error;
      }
    },
  });

  implement(app, services, ep.mobileWalletList, {
    check(body, problems, ctx) {
      merchantIdMatches(problems, body, 'Merchantid', ctx);
      return body;
    },
    async handle(b, ctx) {
      const q = ctx.services.storage.read;
      let query = q.qb
        .selectFrom('mobile_wallet_transactions')
        .selectAll()
        .where('mid', '=', ctx.principal.mid);
      const ecommerceId = text(b, 'EcommerceId');
      if (ecommerceId !== undefined) query = query.where('ecommerce_id', '=', ecommerceId);
      const status = text(b, 'EcommerceStatus');
      if (status !== undefined) query = query.where('ecommerce_status', '=', status);
      const reference = text(b, 'ReferenceNumber');
      if (reference !== undefined) query = query.where('reference_number', '=', reference);
      const customer = text(b, 'BusinessCustomerId');
      if (customer !== undefined) query = query.where('business_customer_id', '=', customer);
      const daily = int(b, 'DailyTransactionId');
      if (daily !== undefined) query = query.where('daily_transaction_id', '=', daily);
      const rows = await q.all(query.orderBy('id'));
      return { ...success(), Transactions: rows.map(walletRecord) };
    },
  });

  return [
    createRecurringBillingScheduler(services, {
      // The error's text passes through the card-data mask: a log line never carries a PAN.
      onError: (message, error) =>
        app.log.error(
          {
            err: {
              type: error instanceof Error ? error.name : typeof error,
              message: maskCardData(error instanceof Error ? error.message : String(error)),
            },
          },
          message,
        ),
    }),
  ];
}
