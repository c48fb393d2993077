import type { FastifyInstance } from 'fastify';
import { isLuhnValid } from '../../native/protocols/luhn';
import { maskCardData } from '../../native/protocols/pan-mask';
import { RecurringBillingRecord, recurringBillingEndpoints as ep } from '../contract/recurring-billing';
import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import { isExpired, parseExpDate } from '../domain/card-input';
import { calendarDateOf, frequencyById } from '../domain/frequency';
import { listWalletTransactions, storeWalletTransaction } from '../domain/mobile-wallet-transactions';
import { toCents } from '../domain/money';
import type { Problems } from '../domain/problems';
import { success } from '../domain/outcome';
import {
  activeBilling,
  deactivateBilling,
  editBilling,
  listBillings,
} from '../domain/recurring-billing-changes';
import {
  BILLING_DETAIL_FIELDS,
  createBilling,
  type CardSource,
  type CreateCommand,
} from '../domain/recurring-billing-create';
import { flag, int, money, text } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import { sendStreamedArray } from '../http/streamed-json';
import type { GatewayServices } from '../http/services';
import type { BackgroundTask } from '../schedulers/background-task';
import { createRecurringBillingScheduler } from '../schedulers/recurring-billing';

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
    details: Object.fromEntries(
      BILLING_DETAIL_FIELDS.flatMap((f) => {
        const v = text(body, f);
        return v === undefined ? [] : [[f, v]];
      }),
    ),
  };
}

function requiredBillingId(problems: Problems, body: Loose, field: string): number | undefined {
  const id = int(body, field);
  if (id === undefined && !problems.has(field))
    problems.add(ResponseCode.InvalidRequest, `${field} is required`, field);
  return id;
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
    handle: deactivateBilling,
  });

  implement(app, services, ep.get, {
    check: (body, problems) => requiredBillingId(problems, body, 'BillingId'),
    handle: activeBilling,
  });

  implement(app, services, ep.getAll, {
    check: (body) => ({ id: int(body, 'BillingId'), all: flag(body, 'IncludeInactive') }),
    handle: (c, ctx) =>
      sendStreamedArray(ctx.reply, success(), 'Billings', RecurringBillingRecord, listBillings(c, ctx)),
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
      if (!problems.empty) return undefined;
      return {
        amounts,
        daily,
        date,
        businessCustomerId: text(body, 'BusinessCustomerId'),
        ecommerceId: text(body, 'EcommerceId'),
        ecommerceStatus: text(body, 'EcommerceStatus'),
        referenceNumber: text(body, 'ReferenceNumber'),
      };
    },
    handle: storeWalletTransaction,
  });

  implement(app, services, ep.mobileWalletList, {
    check(body, problems, ctx) {
      merchantIdMatches(problems, body, 'Merchantid', ctx);
      return {
        ecommerceId: text(body, 'EcommerceId'),
        ecommerceStatus: text(body, 'EcommerceStatus'),
        referenceNumber: text(body, 'ReferenceNumber'),
        businessCustomerId: text(body, 'BusinessCustomerId'),
        daily: int(body, 'DailyTransactionId'),
      };
    },
    handle: listWalletTransactions,
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
