import { ResponseCode } from '../contract/response-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { Queryable } from '../storage/queryable';
import type { RequestContext, Services } from './context';
import { openBatchId } from './batches';
import { newServiceReferenceNumber } from './ids';
import { formatCents, type Cents } from './money';
import { DomainError } from './outcome';
import { withTimeout } from './processor-timeout';
import { paymentByReference } from './references';
import { saleResponse, type PaymentRow } from './sale-response';
import { chargedCents, totalAmountCents } from './rules/card-paid';
import { reserveTransactionNumber, settleTransactionNumber } from './rules/user-transaction-number';

/** ClosePreauth's AdditionalTip bound by default: a fifth of what the preauthorization held. */
export const DEFAULT_MAX_TIP_PERCENT = 20;

// rule: preauth-tip-bound
/** The largest AdditionalTip a completion may add: `percent` of the hold, rounded down to the cent. */
export function maxAdditionalTipCents(held: Cents, percent: number): Cents {
  return Math.floor((held * percent) / 100);
}

type CaptureAnswer =
  { kind: 'captured' } | { kind: 'refused'; code: number; message: string } | { kind: 'timeout' };

/**
 * ClosePreauth: captures an open preauthorization once, for at most the authorized base amount, with an
 * optional additional tip of at most the configured share of the hold (the terminal asks a manager above
 * it; the gateway refuses it, 701). In the three steps of a payment: (1) a unit of work claims the number,
 * checks the hold, records the completion as pending and closes the preauthorization (so it is captured
 * once); (2) the processor captures it, outside any transaction; (3) the answer is booked: the completion
 * joins the batch, or the preauthorization reopens when the processor refused. A DoReversal that arrived
 * during (2) is honoured in (3): the capture is reversed at the processor, never kept. A capture whose
 * outcome is unknown (timeout) is cancelled as a sale's is: the authorization is reversed, and the
 * preauthorization stays closed (its hold is gone).
 */
export async function closePreauth(
  svc: Services,
  ctx: RequestContext,
  req: { srn: string; utn: string; amountCents: Cents; additionalTipCents: Cents },
): Promise<SaleResponse> {
  const { mid, cid, userId } = ctx.principal;
  const claimed = await svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    await tx.lock(`utn:${mid}:${req.utn}`);
    await reserveTransactionNumber(tx, mid, req.utn, 'completion', now);
    await tx.lock(`payment:${mid}:${req.srn}`);
    const pre = await paymentByReference(tx, mid, req.srn, {
      code: ResponseCode.PreauthNotFound,
      message: 'ServiceReferenceNumber names no preauthorization',
    });
    if (pre.operation !== 'preauth')
      throw new DomainError(ResponseCode.PreauthNotFound, [
        'ServiceReferenceNumber is not a preauthorization',
      ]);
    if (pre.status === 'declined' || pre.status === 'failed')
      throw new DomainError(ResponseCode.PreauthDeclined, [
        'The preauthorization was declined: nothing is held',
      ]);
    if (pre.preauth_state === 'closed' && pre.status === 'approved') {
      // Closed by a completion that stands (53), or by one that was reversed and took the hold with it (51).
      const completion = await tx.first(
        tx.qb
          .selectFrom('payments')
          .select('id')
          .where('parent_id', '=', pre.id)
          .where('operation', '=', 'completion')
          .where('status', 'in', ['approved', 'pending']),
      );
      if (completion)
        throw new DomainError(ResponseCode.PreauthCompletedBefore, [
          'The preauthorization was already completed',
        ]);
      throw new DomainError(ResponseCode.PreauthNotClosable, [
        'The preauthorization is released: its completion was reversed, and the hold with it',
      ]);
    }
    if (pre.status !== 'approved' || pre.preauth_state !== 'open') {
      throw new DomainError(ResponseCode.PreauthNotClosable, [
        `The preauthorization is ${pre.status === 'approved' ? 'not open' : pre.status}: it cannot be completed`,
      ]);
    }
    const problems: string[] = [];
    if (req.amountCents > pre.amount_cents) {
      problems.push(
        `Amount exceeds the authorized amount (${formatCents(pre.amount_cents)}); add a tip with AdditionalTip`,
      );
    }
    // What the preauthorization held at the processor: its TotalAmount (a hold has no cash back).
    const held = totalAmountCents(pre);
    const maxTip = maxAdditionalTipCents(held, svc.rules.maxAdditionalTipPercent);
    if (req.additionalTipCents > maxTip) {
      const tipProblem = `AdditionalTip exceeds ${svc.rules.maxAdditionalTipPercent} % of the preauthorized ${formatCents(held)} (at most ${formatCents(maxTip)}); a larger tip needs a new sale`;
      if (problems.length === 0) throw new DomainError(ResponseCode.TipExceedsLimit, [tipProblem]);
      problems.push(tipProblem);
    }
    if (problems.length > 0) throw new DomainError(ResponseCode.InvalidAmount, problems);
    const row: Omit<PaymentRow, 'id'> = {
      ...pre,
      srn: newServiceReferenceNumber(),
      cid,
      user_id: userId,
      utn: req.utn,
      operation: 'completion',
      transaction_type: 4,
      status: 'pending',
      preauth_state: null,
      requested_cents: chargedCents({
        ...pre,
        amount_cents: req.amountCents,
        tip_cents: pre.tip_cents + req.additionalTipCents,
        cashback_cents: 0,
      }),
      amount_cents: req.amountCents,
      tip_cents: pre.tip_cents + req.additionalTipCents,
      cashback_cents: 0,
      parent_id: pre.id,
      refunded_cents: 0,
      pending_refund_cents: 0,
      batch_id: null,
      response_code: 0,
      response_msg: '',
      reversal_requested: 0,
      is_test: ctx.isTest ? 1 : 0,
      source: ctx.source,
      created_at: now,
      updated_at: now,
    };
    const { id: _drop, ...insertable } = { id: 0, ...row };
    const inserted = await tx.first(tx.qb.insertInto('payments').values(insertable).returning('id'));
    if (!inserted) throw new Error('completion insert returned no id');
    await tx.run(
      tx.qb
        .updateTable('payments')
        .set({ preauth_state: 'closed', updated_at: now })
        .where('id', '=', pre.id),
    );
    return { completion: { ...row, id: inserted.id }, pre, held };
  });

  const { completion, pre } = claimed;
  const asked = await withTimeout(
    svc.processor
      .capture({
        mid,
        authCode: pre.auth_code,
        authorizedCents: claimed.held,
        amountCents: completion.requested_cents,
        reference: completion.srn,
      })
      .catch(() => ({
        ok: false as const,
        code: ResponseCode.ProcessorUnavailable,
        message: 'Processor error',
      })),
    svc.processorTimeoutMs,
  );
  const answer: CaptureAnswer =
    asked === 'timeout'
      ? { kind: 'timeout' }
      : asked.ok
        ? { kind: 'captured' }
        : { kind: 'refused', code: asked.code, message: asked.message };

  const booked = await svc.storage.write((tx) =>
    bookCompletion(tx, svc.clock.now().toISOString(), mid, req, completion, answer),
  );
  if (booked.reverse) {
    // A reversal arrived while the processor captured, or the capture's outcome is unknown: cancel
    // whatever the processor did (idempotent; the authorization and its capture go together).
    const reversal = svc.processor.reverse({
      mid,
      amountCents: completion.requested_cents,
      authCode: pre.auth_code,
      reference: completion.srn,
    });
    if (answer.kind === 'timeout') void reversal.catch(() => undefined);
    else await reversal;
  }
  return booked.response;
}

/** Step (3) of ClosePreauth. */
async function bookCompletion(
  tx: Queryable,
  now: string,
  mid: number,
  req: { srn: string; utn: string },
  completion: PaymentRow,
  answer: CaptureAnswer,
): Promise<{ response: SaleResponse; reverse: boolean }> {
  // Held against DoReversal, which flags the completion under the same key.
  await tx.lock(`utn:${mid}:${req.utn}`);
  await tx.lock(`payment:${mid}:${req.srn}`);
  const flag = await tx.first(
    tx.qb.selectFrom('payments').select('reversal_requested').where('id', '=', completion.id),
  );
  let set: Partial<PaymentRow>;
  let code: number;
  let messages: string[];
  let reverse = false;
  let reopen = false;
  if (answer.kind === 'captured' && flag?.reversal_requested) {
    set = {
      status: 'reversed',
      reversal_requested: 1,
      response_code: ResponseCode.TransactionNumberBlocked,
      response_msg: 'Reversed while the processor was capturing',
    };
    code = ResponseCode.TransactionNumberBlocked;
    messages = [
      'A reversal for this UserTransactionNumber arrived first: the capture was reversed, nothing is charged',
    ];
    reverse = true;
  } else if (answer.kind === 'captured') {
    set = {
      status: 'approved',
      batch_id: await openBatchId(tx, mid, now),
      response_code: ResponseCode.Success,
      response_msg: 'Preauthorization closed',
    };
    code = ResponseCode.Success;
    messages = ['Preauthorization closed'];
  } else if (answer.kind === 'timeout') {
    set = {
      status: 'failed',
      response_code: ResponseCode.ProcessorTimeout,
      response_msg: 'Processor timeout; the authorization was reversed',
    };
    code = ResponseCode.ProcessorTimeout;
    messages = [
      'The processor did not answer in time: the capture and the preauthorization were reversed, nothing is charged; run a new sale',
    ];
    reverse = true;
  } else {
    set = { status: 'declined', response_code: answer.code, response_msg: answer.message };
    code = answer.code;
    messages = [answer.message, 'The preauthorization is still open'];
    reopen = true;
  }
  set.updated_at = now;
  await tx.run(tx.qb.updateTable('payments').set(set).where('id', '=', completion.id));
  if (reopen) {
    await tx.run(
      tx.qb
        .updateTable('payments')
        .set({ preauth_state: 'open', updated_at: now })
        .where('id', '=', completion.parent_id ?? -1)
        .where('status', '=', 'approved'),
    );
  }
  await settleTransactionNumber(tx, mid, req.utn, completion.id);
  return { response: saleResponse({ ...completion, ...set }, code, messages), reverse };
}
