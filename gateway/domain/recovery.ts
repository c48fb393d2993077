import type { Processor } from '../sandbox/processor';
import type { Storage } from '../storage/queryable';
import { ResponseCode } from '../contract/response-codes';

/**
 * After a crash, payments left `pending` never got their processor answer recorded. They are reversed at
 * the processor (idempotent) and marked failed, and their numbers stay used: the caller's DoReversal then
 * answers "nothing to reverse", and a retry with the same number is refused rather than charged twice.
 */
export async function recoverInterruptedPayments(
  storage: Storage,
  processor: Processor,
  now: Date,
): Promise<number> {
  const stuck = await storage.read.all(
    storage.read.qb
      .selectFrom('payments')
      .select(['id', 'mid', 'utn', 'requested_cents', 'pending_refund_cents', 'parent_id', 'operation'])
      .where('status', '=', 'pending'),
  );
  for (const p of stuck) {
    await processor.reverse({ mid: p.mid, amountCents: p.requested_cents, authCode: '' });
    await storage.write(async (tx) => {
      const iso = now.toISOString();
      await tx.run(
        tx.qb
          .updateTable('payments')
          .set({
            status: 'failed',
            response_code: ResponseCode.ProcessorTimeout,
            response_msg: 'Interrupted by a gateway restart; not charged',
            updated_at: iso,
          })
          .where('id', '=', p.id),
      );
      if (p.operation === 'refund' && p.parent_id !== null) {
        const parent = await tx.first(
          tx.qb.selectFrom('payments').select(['pending_refund_cents']).where('id', '=', p.parent_id),
        );
        if (parent) {
          await tx.run(
            tx.qb
              .updateTable('payments')
              .set({ pending_refund_cents: Math.max(0, parent.pending_refund_cents - p.requested_cents) })
              .where('id', '=', p.parent_id),
          );
        }
      }
      await tx.run(
        tx.qb
          .updateTable('transaction_numbers')
          .set({ state: 'used', payment_id: p.id })
          .where('mid', '=', p.mid)
          .where('utn', '=', p.utn),
      );
    });
  }
  return stuck.length;
}
