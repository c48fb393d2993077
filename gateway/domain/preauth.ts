import { ResponseCode } from '../contract/response-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { RequestContext, Services } from './context';
import { openBatchId } from './batches';
import { newServiceReferenceNumber } from './ids';
import { formatCents, type Cents } from './money';
import { DomainError } from './outcome';
import { paymentByReference } from './references';
import { saleResponse, type PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';

/**
 * ClosePreauth: captures an open preauthorization once, for at most the authorized base amount, with an
 * optional additional tip. The completion is the payment that joins the batch; the preauthorization closes.
 */
export async function closePreauth(
  svc: Services,
  ctx: RequestContext,
  req: { srn: string; utn: string; amountCents: Cents; additionalTipCents: Cents },
): Promise<SaleResponse> {
  const { mid, cid, userId } = ctx.principal;
  return svc.storage.write(async (tx) => {
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
    if (pre.preauth_state === 'closed' && pre.status === 'approved')
      throw new DomainError(ResponseCode.PreauthCompletedBefore, [
        'The preauthorization was already completed',
      ]);
    if (pre.status !== 'approved' || pre.preauth_state !== 'open') {
      throw new DomainError(ResponseCode.PreauthNotClosable, [
        `The preauthorization is ${pre.status === 'approved' ? 'not open' : pre.status}: it cannot be completed`,
      ]);
    }
    if (req.amountCents > pre.amount_cents) {
      throw new DomainError(ResponseCode.InvalidAmount, [
        `Amount exceeds the authorized amount (${formatCents(pre.amount_cents)}); add a tip with AdditionalTip`,
      ]);
    }
    const row: Omit<PaymentRow, 'id'> = {
      ...pre,
      srn: newServiceReferenceNumber(),
      cid,
      user_id: userId,
      utn: req.utn,
      operation: 'completion',
      transaction_type: 4,
      status: 'approved',
      preauth_state: null,
      requested_cents:
        req.amountCents +
        pre.tax_cents +
        pre.surcharge_cents +
        pre.card_difference_cents +
        pre.tip_cents +
        req.additionalTipCents,
      amount_cents: req.amountCents,
      tip_cents: pre.tip_cents + req.additionalTipCents,
      cashback_cents: 0,
      parent_id: pre.id,
      refunded_cents: 0,
      pending_refund_cents: 0,
      batch_id: await openBatchId(tx, mid, now),
      response_code: ResponseCode.Success,
      response_msg: 'Preauthorization closed',
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
    await settleTransactionNumber(tx, mid, req.utn, inserted.id);
    return saleResponse({ ...row, id: inserted.id }, ResponseCode.Success, ['Preauthorization closed']);
  });
}
