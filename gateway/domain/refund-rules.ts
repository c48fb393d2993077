import { ResponseCode } from '../contract/response-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { Queryable } from '../storage/queryable';
import type { RequestContext, Services } from './context';
import { openBatchId } from './batches';
import { paymentByReference } from './references';
import { newServiceReferenceNumber } from './ids';
import { formatCents, type Cents } from './money';
import { DomainError } from './outcome';
import { saleResponse, type PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';

/** Operations whose money can go back to the card through DoRefund / DoFullRefund. */
export const REFUNDABLE_OPERATIONS: ReadonlySet<string> = new Set([
  'sale',
  'completion',
  'debit',
  'token_sale',
  'wallet_a',
  'wallet_b',
  'force',
]);

/** What the card was charged, the refund ceiling: base + tax + tip + surcharge + card difference (not cash back). */
export function refundableTotal(
  p: Pick<
    PaymentRow,
    'amount_cents' | 'tax_cents' | 'tip_cents' | 'surcharge_cents' | 'card_difference_cents'
  >,
): Cents {
  return p.amount_cents + p.tax_cents + p.tip_cents + p.surcharge_cents + p.card_difference_cents;
}

export function remainingRefundable(p: PaymentRow): Cents {
  return refundableTotal(p) - p.refunded_cents - p.pending_refund_cents;
}

export async function findByReference(
  q: Queryable,
  mid: number,
  srn: string,
): Promise<PaymentRow | undefined> {
  return q.first(q.qb.selectFrom('payments').selectAll().where('mid', '=', mid).where('srn', '=', srn));
}

export type RefundRequest = {
  srn: string;
  utn: string;
  /**
   * null: refund the whole remaining balance (DoFullRefund, whatever valid Amount it was sent: the
   * transitions table says it refunds what remains, and a shopping cart sends the order total).
   */
  amountCents: Cents | null;
};

/**
 * A refund, in the same three steps as a payment: (1) claim the number and reserve the amount against the
 * original's remaining balance (so twenty concurrent refunds cannot together exceed it); (2) ask the
 * processor; (3) book it, or release the reservation.
 */
export async function runRefund(
  svc: Services,
  ctx: RequestContext,
  req: RefundRequest,
): Promise<{ response: SaleResponse; refundedCents: Cents; remainingCents: Cents }> {
  const { mid, cid, userId } = ctx.principal;
  const startedIso = svc.clock.now().toISOString();
  const reserved = await svc.storage.write(async (tx) => {
    await tx.lock(`utn:${mid}:${req.utn}`);
    await reserveTransactionNumber(tx, mid, req.utn, 'refund', startedIso);
    await tx.lock(`payment:${mid}:${req.srn}`);
    const original = await paymentByReference(tx, mid, req.srn);
    if (original.status === 'voided' || original.status === 'reversed') {
      throw new DomainError(ResponseCode.RefundImpossible, [
        `The transaction is ${original.status}: nothing to refund`,
      ]);
    }
    if (!REFUNDABLE_OPERATIONS.has(original.operation) || original.status !== 'approved') {
      throw new DomainError(ResponseCode.RefundImpossible, [
        original.operation === 'preauth'
          ? 'A preauthorization is not refundable: close it or void it'
          : 'Only an approved sale can be refunded',
      ]);
    }
    const remaining = remainingRefundable(original);
    if (remaining <= 0) {
      throw new DomainError(ResponseCode.RefundImpossible, ['The transaction is fully refunded']);
    }
    const amount = req.amountCents ?? remaining;
    if (amount > remaining) {
      throw new DomainError(ResponseCode.RefundImpossible, [
        `Refund exceeds the remaining refundable balance (${formatCents(remaining)})`,
      ]);
    }
    // Relative to the row as it stands: a void of an earlier refund may change refunded_cents under the
    // same lock, and the CHECK payments_refund_ceiling refuses what would exceed the original anyway.
    await tx.run(
      tx.qb
        .updateTable('payments')
        .set((eb) => ({
          pending_refund_cents: eb('pending_refund_cents', '+', amount),
          updated_at: startedIso,
        }))
        .where('id', '=', original.id),
    );
    const refundRow: Omit<PaymentRow, 'id'> = {
      ...original,
      srn: newServiceReferenceNumber(),
      cid,
      user_id: userId,
      utn: req.utn,
      operation: 'refund',
      status: 'pending',
      preauth_state: null,
      requested_cents: amount,
      amount_cents: amount,
      tax_cents: 0,
      tip_cents: 0,
      surcharge_cents: 0,
      card_difference_cents: 0,
      cashback_cents: 0,
      auth_code: '',
      response_code: 0,
      response_msg: '',
      parent_id: original.id,
      refunded_cents: 0,
      pending_refund_cents: 0,
      batch_id: null,
      reversal_requested: 0,
      is_test: ctx.isTest ? 1 : 0,
      token_id: null,
      balance_cents: null,
      source: ctx.source,
      created_at: startedIso,
      updated_at: startedIso,
    };
    const { id: _drop, ...insertable } = { id: 0, ...refundRow };
    const inserted = await tx.first(tx.qb.insertInto('payments').values(insertable).returning('id'));
    if (!inserted) throw new Error('refund insert returned no id');
    return { refundId: inserted.id, original, amount };
  });

  const answer = await svc.processor
    .refund({ mid, amountCents: reserved.amount, authCode: reserved.original.auth_code })
    .catch(() => ({
      ok: false as const,
      code: ResponseCode.ProcessorUnavailable,
      message: 'Processor error',
    }));

  return svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    await tx.lock(`utn:${mid}:${req.utn}`);
    await tx.lock(`payment:${mid}:${req.srn}`);
    const original = await findByReference(tx, mid, req.srn);
    if (!original) throw new Error('original vanished');
    const refund = await tx.first(
      tx.qb.selectFrom('payments').selectAll().where('id', '=', reserved.refundId),
    );
    if (!refund) throw new Error('refund vanished');
    const pendingAfter = original.pending_refund_cents - reserved.amount;
    let code: number;
    let messages: string[];
    let refundedAfter = original.refunded_cents;
    let set: Partial<PaymentRow>;
    if (answer.ok && !refund.reversal_requested) {
      refundedAfter += reserved.amount;
      set = {
        status: 'approved',
        auth_code: reserved.original.auth_code,
        response_code: ResponseCode.Success,
        response_msg: 'Refunded',
        batch_id: await openBatchId(tx, mid, now),
        updated_at: now,
      };
      code = ResponseCode.Success;
      messages = ['Refunded'];
    } else if (answer.ok) {
      set = {
        status: 'reversed',
        response_code: ResponseCode.TransactionNumberBlocked,
        response_msg: 'Reversed',
        updated_at: now,
      };
      code = ResponseCode.TransactionNumberBlocked;
      messages = ['A reversal for this UserTransactionNumber arrived first: the refund was cancelled'];
    } else {
      set = { status: 'declined', response_code: answer.code, response_msg: answer.message, updated_at: now };
      code = answer.code;
      messages = [answer.message];
    }
    await tx.run(
      tx.qb
        .updateTable('payments')
        .set((eb) => ({
          pending_refund_cents: eb('pending_refund_cents', '-', reserved.amount),
          refunded_cents: eb('refunded_cents', '+', refundedAfter - original.refunded_cents),
          updated_at: now,
        }))
        .where('id', '=', original.id),
    );
    await tx.run(tx.qb.updateTable('payments').set(set).where('id', '=', reserved.refundId));
    await settleTransactionNumber(tx, mid, req.utn, reserved.refundId);
    const row = { ...refund, ...set } as PaymentRow;
    const remaining = refundableTotal(original) - refundedAfter - pendingAfter;
    return {
      response: saleResponse(row, code, messages),
      refundedCents: code === ResponseCode.Success ? reserved.amount : 0,
      remainingCents: remaining,
    };
  });
}
