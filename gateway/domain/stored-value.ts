import { ResponseCode } from '../contract/response-codes';
import { DeclineCode } from '../contract/decline-codes';
import { authorizationNumber } from '../sandbox/sandbox-processor';
import { cardFingerprint } from '../security/vault-cipher';
import type { Queryable } from '../storage/queryable';
import type { StoredValueKind, StoredValueProgram } from '../storage/schema-tenders';
import { openBatchId } from './batches';
import type { RequestContext, Services } from './context';
import { newServiceReferenceNumber } from './ids';
import type { Cents } from './money';
import { DomainError } from './outcome';
import type { PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';

/**
 * Gift card and EBT money is kept by the gateway itself (the sandbox is their issuer), so a purchase is one
 * unit of work: claim the UserTransactionNumber, read the balance, decide, record the payment and its
 * ledger movement, join the open batch. No processor call sits between reading a balance and spending it,
 * so two concurrent sales on one card cannot both spend the same value.
 */

/** A gift or EBT card as read from the request; the PAN stays in memory for the fingerprint and PIN check. */
export type StoredValueCard = {
  pan: string;
  first6: string;
  last4: string;
  entryMode: 'KeyEntered' | 'Swiped';
};

export type TenderAmounts = { baseCents: Cents; taxCents: Cents; tipCents: Cents; cashbackCents: Cents };

export function totalOf(a: TenderAmounts): Cents {
  return a.baseCents + a.taxCents + a.tipCents + a.cashbackCents;
}

/** Opening value plus every movement whose payment is still approved (a voided sale gives its value back). */
export async function balanceOf(
  q: Queryable,
  kind: StoredValueKind,
  accountId: number,
  program: StoredValueProgram,
  openingCents: Cents,
): Promise<Cents> {
  const row = await q.first(
    q.qb
      .selectFrom('stored_value_ledger as l')
      .innerJoin('payments as p', 'p.id', 'l.payment_id')
      .select((eb) => eb.fn.sum<number>('l.delta_cents').as('total'))
      .where('l.account_kind', '=', kind)
      .where('l.account_id', '=', accountId)
      .where('l.program', '=', program)
      .where('p.status', '=', 'approved'),
  );
  return openingCents + Number(row?.total ?? 0);
}

export type Movement = {
  operation: string;
  transactionType: number;
  cardType: string;
  utn: string;
  amounts: TenderAmounts;
  card: StoredValueCard;
  /** Debit (a purchase) or credit (a load or a return). */
  direction: 'debit' | 'credit';
  /** Whether a short balance may approve part of a debit (never with cash back). */
  allowPartial: boolean;
  forceDuplication: boolean;
  invoice?: string | undefined;
  orderRef?: string | undefined;
};

/** What a unit of work found about the account: who it is, and why a movement must be declined. */
export type AccountCheck = {
  kind: StoredValueKind;
  accountId: number;
  program: StoredValueProgram;
  openingCents: Cents;
  /** A refusal recorded as a declined payment (inactive card, wrong PIN): the number is used up. */
  decline?: { code: number; message: string } | undefined;
  /** Highest balance a credit may reach. */
  maxBalanceCents?: Cents | undefined;
};

export type MovementOutcome = { row: PaymentRow; code: number; messages: string[]; balanceCents: Cents };

/**
 * Runs one stored-value movement in one unit of work. `account` finds (or, for sandbox cards, issues) the
 * account inside the same unit of work; it throws a DomainError when there is nothing to charge (unknown
 * card), which rolls the number back too.
 */
export async function runMovement(
  svc: Services,
  ctx: RequestContext,
  m: Movement,
  account: (tx: Queryable, fingerprint: string, now: string) => Promise<AccountCheck>,
): Promise<MovementOutcome> {
  const { mid, cid, userId } = ctx.principal;
  const fingerprint = cardFingerprint(svc.keys.fingerprintKey, m.card.pan);
  const requested = totalOf(m.amounts);
  return svc.storage.write(async (tx) => {
    const started = svc.clock.now();
    const now = started.toISOString();
    await tx.lock(`utn:${mid}:${m.utn}`);
    await tx.lock(`card:${mid}:${fingerprint}`);
    await reserveTransactionNumber(tx, mid, m.utn, m.operation, now);
    if (!m.forceDuplication) {
      const since = new Date(started.getTime() - svc.rules.duplicateWindowMs).toISOString();
      const dup = await tx.first(
        tx.qb
          .selectFrom('payments')
          .select('id')
          .where('mid', '=', mid)
          .where('fingerprint', '=', fingerprint)
          .where('amount_cents', '=', m.amounts.baseCents)
          .where('operation', '=', m.operation)
          .where('created_at', '>=', since)
          .where('status', '=', 'approved')
          .limit(1),
      );
      if (dup) {
        throw new DomainError(ResponseCode.DuplicatePayment, [
          'A payment with the same card, amount and type was made within the duplicate window; send ForceDuplication to run it',
        ]);
      }
    }
    const acct = await account(tx, fingerprint, now);
    const balance = await balanceOf(tx, acct.kind, acct.accountId, acct.program, acct.openingCents);

    let approvedCents = 0;
    let code: number = ResponseCode.Success;
    let message = 'Approved';
    if (acct.decline) {
      code = acct.decline.code;
      message = acct.decline.message;
    } else if (m.direction === 'credit') {
      if (acct.maxBalanceCents !== undefined && balance + requested > acct.maxBalanceCents) {
        code = ResponseCode.GiftCardBalanceLimit;
        message = `The load would take the balance past the card's maximum; nothing was loaded`;
      } else approvedCents = requested;
    } else if (balance >= requested) {
      approvedCents = requested;
    } else if (balance > 0 && m.allowPartial && m.amounts.cashbackCents === 0) {
      approvedCents = balance;
      code = ResponseCode.PartialApproval;
      message = 'Partially approved: collect the remaining balance with another tender';
    } else {
      code = DeclineCode.InsufficientFunds;
      message = 'Insufficient balance';
    }
    const approved = approvedCents > 0;

    // On a partial approval the approved total covers the extras first when it can (as card sales do).
    let { baseCents, taxCents, tipCents } = m.amounts;
    if (code === ResponseCode.PartialApproval) {
      const extras = requested - baseCents;
      if (approvedCents > extras) baseCents = approvedCents - extras;
      else {
        baseCents = approvedCents;
        taxCents = 0;
        tipCents = 0;
      }
    }
    const balanceAfter = approved
      ? balance + (m.direction === 'credit' ? approvedCents : -approvedCents)
      : balance;

    const row: Omit<PaymentRow, 'id'> = {
      srn: newServiceReferenceNumber(),
      mid,
      cid,
      user_id: userId,
      utn: m.utn,
      operation: m.operation,
      transaction_type: m.transactionType,
      status: approved ? 'approved' : 'declined',
      preauth_state: null,
      requested_cents: requested,
      amount_cents: approved ? baseCents : m.amounts.baseCents,
      tax_cents: approved ? taxCents : m.amounts.taxCents,
      tip_cents: approved ? tipCents : m.amounts.tipCents,
      surcharge_cents: 0,
      card_difference_cents: 0,
      cashback_cents: m.amounts.cashbackCents,
      currency: 'USD',
      card_type: m.cardType,
      first6: m.card.first6,
      last4: m.card.last4,
      fingerprint,
      entry_mode: m.card.entryMode,
      pos_code: 'Retail',
      auth_code: approved ? authorizationNumber() : '',
      avs_result: '',
      cvn_result: '',
      response_code: code,
      response_msg: message,
      parent_id: null,
      refunded_cents: 0,
      pending_refund_cents: 0,
      batch_id: approved ? await openBatchId(tx, mid, now) : null,
      reversal_requested: 0,
      is_test: ctx.isTest ? 1 : 0,
      invoice: m.invoice ?? null,
      order_ref: m.orderRef ?? null,
      customer_id: null,
      token_id: null,
      payment_link_id: null,
      source: ctx.source,
      balance_cents: acct.decline ? null : balanceAfter,
      created_at: now,
      updated_at: now,
    };
    const inserted = await tx.first(tx.qb.insertInto('payments').values(row).returning('id'));
    if (!inserted) throw new Error('payment insert returned no id');
    if (approved && approvedCents > 0) {
      await tx.run(
        tx.qb.insertInto('stored_value_ledger').values({
          account_kind: acct.kind,
          account_id: acct.accountId,
          program: acct.program,
          delta_cents: m.direction === 'credit' ? approvedCents : -approvedCents,
          payment_id: inserted.id,
          created_at: now,
        }),
      );
    }
    await settleTransactionNumber(tx, mid, m.utn, inserted.id);
    return { row: { ...row, id: inserted.id }, code, messages: [message], balanceCents: balanceAfter };
  });
}
