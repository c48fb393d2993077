import { ResponseCode } from '../contract/response-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { Queryable } from '../storage/queryable';
import type { RequestContext, Services } from './context';
import { openBatchId } from './batches';
import { paymentByReference } from './references';
import { newServiceReferenceNumber } from './ids';
import { withTimeout } from './processor-timeout';
import { formatCents, type Cents } from './money';
import { DomainError } from './outcome';
import { saleResponse, type PaymentRow } from './sale-response';
import { totalAmountCents } from './rules/card-paid';
import { reserveTransactionNumber, settleTransactionNumber } from './rules/user-transaction-number';

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

// rule: refund-ceiling
/** What a refund can still give back: the payment's TotalAmount (the refund ceiling) less refunds made or under way. */
export function remainingRefundable(p: PaymentRow): Cents {
  return totalAmountCents(p) - p.refunded_cents - p.pending_refund_cents;
}

/** Whether a payment's batch has settled (settled or closed): once settled, a batch never reopens. */
async function batchSettled(q: Queryable, batchId: number | null): Promise<boolean> {
  if (batchId === null) return false;
  const b = await q.first(q.qb.selectFrom('batches').select('status').where('id', '=', batchId));
  return b?.status === 'settled' || b?.status === 'closed';
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
): Promise<RefundResult> {
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
    // rule: force-post-refund
    if (original.operation === 'force' && !(await batchSettled(tx, original.batch_id))) {
      // A voice authorization the processor has not seen: a typed code plus a refund would be a credit
      // paid from nothing. The batch's settlement is its capture; until then it can only be voided. The real
      // catalog's "refund impossible" (6), which its clients answer by voiding instead: the right way back.
      throw new DomainError(ResponseCode.RefundImpossible, [
        'A force post can be refunded only once its batch has settled; void it until then',
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
    return { refundId: inserted.id, refundSrn: refundRow.srn, original, amount };
  });

  const authCode = reserved.original.auth_code;
  const reference = reserved.refundSrn;
  const asked = await withTimeout(
    svc.processor.refund({ mid, amountCents: reserved.amount, authCode, reference }).catch(() => ({
      ok: false as const,
      code: ResponseCode.ProcessorUnavailable,
      message: 'Processor error',
    })),
    svc.processorTimeoutMs,
  );
  const answer: RefundAnswer =
    asked === 'timeout'
      ? { kind: 'timeout' }
      : asked.ok
        ? { kind: 'refunded' }
        : { kind: 'refused', code: asked.code, message: asked.message };
  const undo = () => undoRefundAtProcessor(svc, { mid, amountCents: reserved.amount, authCode, reference });
  // A refund whose outcome is unknown is cancelled, as a sale's is: but a refund credits the card at once,
  // so it is released only once the processor confirms the credit is taken back.
  let undone: Undo = answer.kind === 'timeout' ? ((await undo()) ? 'done' : 'failed') : 'none';
  for (;;) {
    const booked = await svc.storage.write((tx) =>
      bookRefund(tx, svc.clock.now().toISOString(), ctx, req, reserved, answer, undone),
    );
    if (booked !== 'undo-first') return booked;
    // A reversal arrived while the processor was refunding: take the credit back before booking anything.
    undone = (await undo()) ? 'done' : 'failed';
  }
}

/** What the processor said to a refund. */
type RefundAnswer =
  { kind: 'refunded' } | { kind: 'refused'; code: number; message: string } | { kind: 'timeout' };
/** Whether the refund's credit was taken back at the processor: not asked, confirmed, or not confirmed. */
type Undo = 'none' | 'done' | 'failed';

/** Takes a refund's credit back at the processor; true only when the processor confirms it. */
export async function undoRefundAtProcessor(
  svc: Services,
  request: { mid: number; amountCents: Cents; authCode: string; reference: string },
): Promise<boolean> {
  const answer = await withTimeout(
    svc.processor.reverseRefund(request).catch(() => ({ ok: false as const })),
    svc.processorTimeoutMs,
  );
  return answer !== 'timeout' && answer.ok;
}

type Reserved = { refundId: number; refundSrn: string; original: PaymentRow; amount: Cents };
type RefundResult = { response: SaleResponse; refundedCents: Cents; remainingCents: Cents };

/**
 * Step (3) of a refund: books the processor's answer against the reservation. A reversal flagged while the
 * refund was at the processor is honoured only once the credit is taken back there ('undo-first' asks the
 * caller to do that); when the processor cannot take it back, the refund stands, booked, and the ceiling
 * stays used.
 */
async function bookRefund(
  tx: Queryable,
  now: string,
  ctx: RequestContext,
  req: RefundRequest,
  reserved: Reserved,
  answer: RefundAnswer,
  undone: Undo,
): Promise<RefundResult | 'undo-first'> {
  const { mid } = ctx.principal;
  await tx.lock(`utn:${mid}:${req.utn}`);
  await tx.lock(`payment:${mid}:${req.srn}`);
  const original = await findByReference(tx, mid, req.srn);
  if (!original) throw new Error('original vanished');
  const refund = await tx.first(tx.qb.selectFrom('payments').selectAll().where('id', '=', reserved.refundId));
  if (!refund) throw new Error('refund vanished');
  if (answer.kind === 'refunded' && refund.reversal_requested && undone === 'none') return 'undo-first';
  if (answer.kind === 'timeout' && undone === 'failed') {
    // The processor may hold the credit and would not confirm taking it back: the refund stays pending,
    // its amount reserved, until the recovery sweep gets that confirmation (domain/recovery.ts).
    return {
      response: saleResponse(refund, ResponseCode.ProcessorTimeout, [
        'The processor did not answer: the refund is being cancelled; nothing more can be refunded until it is',
      ]),
      refundedCents: 0,
      remainingCents: remainingRefundable(original),
    };
  }
  let code: number;
  let messages: string[];
  let refundedDelta = 0;
  let set: Partial<PaymentRow>;
  if (answer.kind === 'refunded' && (!refund.reversal_requested || undone === 'failed')) {
    refundedDelta = reserved.amount;
    const reversalRefused = refund.reversal_requested === 1;
    set = {
      status: 'approved',
      auth_code: reserved.original.auth_code,
      response_code: ResponseCode.Success,
      response_msg: reversalRefused ? 'Refunded; the processor could not take it back' : 'Refunded',
      batch_id: await openBatchId(tx, mid, now),
      reversal_requested: 0,
      updated_at: now,
    };
    code = ResponseCode.Success;
    messages = reversalRefused
      ? [
          'Refunded: a reversal arrived while the processor was refunding, but the processor could not take the credit back, so the refund stands',
        ]
      : ['Refunded'];
  } else if (answer.kind === 'refunded') {
    set = {
      status: 'reversed',
      response_code: ResponseCode.TransactionNumberBlocked,
      response_msg: 'Reversed: the processor took the credit back',
      updated_at: now,
    };
    code = ResponseCode.TransactionNumberBlocked;
    messages = [
      'A reversal for this UserTransactionNumber arrived while the processor was refunding: the credit was taken back, nothing is refunded',
    ];
  } else if (answer.kind === 'timeout') {
    set = {
      status: 'failed',
      response_code: ResponseCode.ProcessorTimeout,
      response_msg: 'Processor timeout; cancelled, nothing refunded',
      updated_at: now,
    };
    code = ResponseCode.ProcessorTimeout;
    messages = ['The processor did not answer in time: the refund was cancelled, nothing is refunded'];
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
        refunded_cents: eb('refunded_cents', '+', refundedDelta),
        updated_at: now,
      }))
      .where('id', '=', original.id),
  );
  await tx.run(tx.qb.updateTable('payments').set(set).where('id', '=', reserved.refundId));
  await settleTransactionNumber(tx, mid, req.utn, reserved.refundId);
  const row = { ...refund, ...set } as PaymentRow;
  const remaining =
    totalAmountCents(original) -
    (original.refunded_cents + refundedDelta) -
    (original.pending_refund_cents - reserved.amount);
  return {
    response: saleResponse(row, code, messages),
    refundedCents: refundedDelta,
    remainingCents: remaining,
  };
}
