import type { Processor } from '../sandbox/processor';
import type { Storage } from '../storage/queryable';
import { ResponseCode } from '../contract/response-codes';

/**
 * After a crash, payments left `pending` never got their processor answer recorded. They are reversed at
 * the processor (idempotent) and marked failed, and their numbers stay used: the caller's DoReversal then
 * answers "nothing to reverse", and a retry with the same number is refused rather than charged twice.
 *
 * `olderThanMs`: with one process (SQLite) every pending payment at start is a crash's leftover. With
 * several processes on one PostgreSQL database, a pending payment may be another live process's sale at
 * the processor right now: only one pending for longer than any live process can take (the processor
 * timeout and a margin) is abandoned, and a periodic sweep in every process finds those of a process that
 * died while the others kept running.
 */
export async function recoverInterruptedPayments(
  storage: Storage,
  processor: Processor,
  now: Date,
  olderThanMs = 0,
): Promise<number> {
  const cutoff = new Date(now.getTime() - olderThanMs).toISOString();
  const stuck = await storage.read.all(
    storage.read.qb
      .selectFrom('payments')
      .select([
        'id',
        'mid',
        'utn',
        'srn',
        'requested_cents',
        'pending_refund_cents',
        'parent_id',
        'operation',
      ])
      .where('status', '=', 'pending')
      .where('updated_at', '<=', cutoff),
  );
  let recovered = 0;
  for (const p of stuck) {
    const iso = now.toISOString();
    // First, so that a crash right here leaves the payment pending for the next sweep (reversal is
    // idempotent at the processor; two processes sweeping together both send it, harmlessly).
    await processor.reverse({ mid: p.mid, amountCents: p.requested_cents, authCode: '' });
    // Taken under the payment's number lock (as step 3 of a payment takes it) and only while still
    // pending: a payment answered meanwhile, or recovered by another process, is left alone.
    const claimed = await storage.write(async (tx) => {
      await tx.lock(`utn:${p.mid}:${p.utn}`);
      const changed = await tx.run(
        tx.qb
          .updateTable('payments')
          .set({
            status: 'failed',
            response_code: ResponseCode.ProcessorTimeout,
            response_msg: 'Interrupted by a gateway restart; not charged',
            updated_at: iso,
          })
          .where('id', '=', p.id)
          .where('status', '=', 'pending'),
      );
      if (changed.changes === 0) return false;
      if (p.operation === 'refund' && p.parent_id !== null) {
        // Relative, never read-then-write: other refunds of the parent may be booking their own amounts.
        await tx.run(
          tx.qb
            .updateTable('payments')
            .set((eb) => ({
              pending_refund_cents: eb
                .case()
                .when('pending_refund_cents', '>', p.requested_cents)
                .then(eb('pending_refund_cents', '-', p.requested_cents))
                .else(0)
                .end(),
            }))
            .where('id', '=', p.parent_id),
        );
      }
      await tx.run(
        tx.qb
          .updateTable('transaction_numbers')
          .set({ state: 'used', payment_id: p.id })
          .where('mid', '=', p.mid)
          .where('utn', '=', p.utn),
      );
      return true;
    });
    if (claimed) recovered += 1;
  }
  return recovered;
}
