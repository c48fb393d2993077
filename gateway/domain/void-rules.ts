import { ResponseCode } from '../contract/response-codes';
import type { Queryable } from '../storage/queryable';
import type { RequestContext, Services } from './context';
import { DomainError } from './outcome';
import { paymentByReference } from './references';
import type { PaymentRow } from './sale-response';
import { reserveTransactionNumber, settleTransactionNumber } from './transaction-numbers';

async function batchIsOpen(q: Queryable, batchId: number | null): Promise<boolean> {
  if (batchId === null) return true;
  const b = await q.first(q.qb.selectFrom('batches').select('status').where('id', '=', batchId));
  return b?.status === 'open';
}

/**
 * Cancels an approved payment inside a unit of work: a cancelled refund gives its amount back to the
 * original's refundable balance. The caller reverses it at the processor after the commit.
 */
export async function cancelPayment(
  tx: Queryable,
  target: PaymentRow,
  status: 'voided' | 'reversed',
  now: string,
): Promise<void> {
  await tx.run(tx.qb.updateTable('payments').set({ status, updated_at: now }).where('id', '=', target.id));
  if (target.operation === 'refund' && target.parent_id !== null) {
    const parent = await tx.first(
      tx.qb.selectFrom('payments').select(['id', 'srn']).where('id', '=', target.parent_id),
    );
    if (parent) {
      // The parent's balance is another payment's: its refunds book under its own lock, which a
      // concurrent refund of it (another process) holds too. And the change is relative, never a value
      // read earlier written back.
      await tx.lock(`payment:${target.mid}:${parent.srn}`);
      await tx.run(
        tx.qb
          .updateTable('payments')
          .set((eb) => ({
            refunded_cents: eb('refunded_cents', '-', target.amount_cents),
            updated_at: now,
          }))
          .where('id', '=', parent.id),
      );
    }
  }
}

/** Why a payment cannot be voided or reversed, or null: every reason is the real catalog's "void impossible". */
export async function cancelBlocker(q: Queryable, target: PaymentRow): Promise<DomainError | null> {
  const impossible = (why: string) => new DomainError(ResponseCode.VoidImpossible, [why]);
  if (target.status === 'voided' || target.status === 'reversed') {
    return impossible(`The transaction is already ${target.status}`);
  }
  if (target.status !== 'approved') return impossible('Only an approved transaction can be voided');
  if (target.refunded_cents > 0 || target.pending_refund_cents > 0) {
    return impossible('The transaction is refunded: it cannot be voided');
  }
  if (target.operation === 'preauth' && target.preauth_state === 'closed') {
    return impossible('The preauthorization is closed: void its completion');
  }
  if (!(await batchIsOpen(q, target.batch_id))) {
    return impossible('The transaction is settled: refund it instead');
  }
  return null;
}

export async function runVoid(
  svc: Services,
  ctx: RequestContext,
  srn: string,
  utn: string,
): Promise<PaymentRow> {
  const { mid } = ctx.principal;
  const target = await svc.storage.write(async (tx) => {
    const now = svc.clock.now().toISOString();
    await tx.lock(`utn:${mid}:${utn}`);
    await reserveTransactionNumber(tx, mid, utn, 'void', now);
    await tx.lock(`payment:${mid}:${srn}`);
    const row = await paymentByReference(tx, mid, srn);
    const blocker = await cancelBlocker(tx, row);
    if (blocker) throw blocker;
    await cancelPayment(tx, row, 'voided', now);
    if (row.operation === 'preauth') {
      await tx.run(tx.qb.updateTable('payments').set({ preauth_state: 'closed' }).where('id', '=', row.id));
    }
    await settleTransactionNumber(tx, mid, utn, row.id);
    return row;
  });
  await svc.processor.reverse({ mid, amountCents: target.amount_cents, authCode: target.auth_code });
  return target;
}
