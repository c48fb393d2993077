import { ResponseCode } from '../contract/response-codes';
import type { SaleResponse } from '../contract/card-sale';
import type { RequestContext, Services } from './context';
import { outcome } from './outcome';
import { saleResponse, type PaymentRow } from './sale-response';
import {
  cancelBlocker,
  cancelPayment,
  claimRefundCancel,
  finishRefundCancel,
  isCardRefund,
  refundNotTakenBack,
  reverseAtProcessor,
  undoCardRefund,
} from './void-rules';
import { blockTransactionNumber, findTransactionNumber } from './rules/user-transaction-number';

type ReversalDecision =
  | { kind: 'answer'; response: SaleResponse }
  | { kind: 'reverse'; row: PaymentRow; response: SaleResponse }
  | { kind: 'undo-refund'; row: PaymentRow };

// rule: reversal-idempotent
/**
 * DoReversal by UserTransactionNumber, for a caller that never got its answer. Idempotent: the same number
 * always gets the same answer. An unknown number is blocked, so a late original is refused instead of
 * charged; a payment still at the processor is marked and reversed when its answer arrives.
 */
export async function runReversal(svc: Services, ctx: RequestContext, utn: string): Promise<SaleResponse> {
  const { mid } = ctx.principal;
  const decision = await svc.storage.write(async (tx): Promise<ReversalDecision> => {
    const now = svc.clock.now().toISOString();
    await tx.lock(`utn:${mid}:${utn}`);
    const use = await findTransactionNumber(tx, mid, utn);
    if (!use) {
      await blockTransactionNumber(tx, mid, utn, now);
      return {
        kind: 'answer',
        response: {
          ...outcome(ResponseCode.Success, ['Nothing to reverse: the number is now blocked']),
          UserTransactionNumber: utn,
        },
      };
    }
    if (use.state === 'blocked') {
      return {
        kind: 'answer',
        response: {
          ...outcome(ResponseCode.Success, ['Nothing to reverse: the number is now blocked']),
          UserTransactionNumber: utn,
        },
      };
    }
    // The payment carries the number too (unique per merchant): found even while it is still pending.
    const found = await tx.first(
      tx.qb.selectFrom('payments').select(['id', 'srn']).where('mid', '=', mid).where('utn', '=', utn),
    );
    if (found) await tx.lock(`payment:${mid}:${found.srn}`);
    // Decided on the row as it stands under the payment's lock, never as read before it: a void (or a
    // completion's booking) that held the lock meanwhile may have cancelled it, and cancelling it again
    // would reverse it twice at the processor.
    const row = found
      ? await tx.first(tx.qb.selectFrom('payments').selectAll().where('id', '=', found.id))
      : undefined;
    if (!row) {
      return {
        kind: 'answer',
        response: outcome(ResponseCode.VoidImpossible, [
          'This UserTransactionNumber names a void, which cannot be reversed',
        ]),
      };
    }
    switch (row.status) {
      case 'pending':
        await tx.run(
          tx.qb
            .updateTable('payments')
            .set({ reversal_requested: 1, updated_at: now })
            .where('id', '=', row.id),
        );
        return {
          kind: 'answer',
          response: saleResponse(row, ResponseCode.Success, [
            isCardRefund(row)
              ? 'Reversed: the refund is taken back at the processor as soon as it answers (if the processor cannot take it back, the refund stands; the report shows which)'
              : 'Reversed: the payment is cancelled as soon as the processor answers',
          ]),
        };
      case 'reversed':
        return { kind: 'answer', response: saleResponse(row, ResponseCode.Success, ['Reversed']) };
      case 'declined':
      case 'failed':
        return {
          kind: 'answer',
          response: saleResponse(row, ResponseCode.Success, [
            'Nothing to reverse: the payment was not approved',
          ]),
        };
      case 'voided':
        return {
          kind: 'answer',
          response: saleResponse(row, ResponseCode.Success, ['Nothing to reverse: the payment is voided']),
        };
      case 'approved': {
        const blocker = await cancelBlocker(tx, row);
        if (blocker) return { kind: 'answer', response: saleResponse(row, blocker.code, blocker.messages) };
        if (isCardRefund(row)) {
          await claimRefundCancel(tx, row, now);
          return { kind: 'undo-refund', row };
        }
        await cancelPayment(tx, row, 'reversed', now);
        const reversed = { ...row, status: 'reversed' as const };
        return {
          kind: 'reverse',
          row: reversed,
          response: saleResponse(reversed, ResponseCode.Success, ['Reversed']),
        };
      }
    }
  });
  if (decision.kind === 'undo-refund') {
    const refund = decision.row;
    const undone = await undoCardRefund(svc, refund);
    const booked = await svc.storage.write(async (tx) => {
      await tx.lock(`utn:${mid}:${utn}`);
      await tx.lock(`payment:${mid}:${refund.srn}`);
      return finishRefundCancel(tx, refund.id, 'reversed', undone, svc.clock.now().toISOString());
    });
    if (!booked) {
      const refused = refundNotTakenBack();
      return saleResponse(refund, refused.code, refused.messages);
    }
    return saleResponse({ ...refund, status: 'reversed' }, ResponseCode.Success, ['Reversed']);
  }
  if (decision.kind === 'reverse') await reverseAtProcessor(svc, decision.row);
  return decision.response;
}
