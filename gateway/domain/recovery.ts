import type { Processor } from '../sandbox/processor';
import type { Storage } from '../storage/queryable';
import { ResponseCode } from '../contract/response-codes';
import { cancelPayment } from './void-rules';

/**
 * After a crash, payments left `pending` never got their processor answer recorded. They are reversed at
 * the processor (idempotent) and marked failed, and their numbers stay used: the caller's DoReversal then
 * answers "nothing to reverse", and a retry with the same number is refused rather than charged twice.
 * A card refund credited the card at once: it is released only once the processor confirms it took the
 * credit back, and stays pending (its amount reserved) for the next sweep otherwise. A refund whose cancel
 * was at the processor when the gateway stopped (flagged, void-rules.ts) is rolled forward the same way:
 * the credit is taken back (idempotent), then the cancel is booked.
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
      .selectFrom('payments as p')
      .leftJoin('payments as parent', 'parent.id', 'p.parent_id')
      .select([
        'p.id',
        'p.mid',
        'p.utn',
        'p.srn',
        'p.status',
        'p.auth_code',
        'p.requested_cents',
        'p.amount_cents',
        'p.parent_id',
        'p.operation',
        'parent.auth_code as parent_auth_code',
      ])
      .where((eb) =>
        eb.or([
          eb('p.status', '=', 'pending'),
          eb.and([
            eb('p.status', '=', 'approved'),
            eb('p.reversal_requested', '=', 1),
            eb('p.operation', '=', 'refund'),
          ]),
        ]),
      )
      .where('p.updated_at', '<=', cutoff),
  );
  let recovered = 0;
  for (const p of stuck) {
    const iso = now.toISOString();
    const cardRefund = p.operation === 'refund' && p.parent_id !== null;
    // First, so that a crash right here leaves the payment as it was for the next sweep (both calls are
    // idempotent at the processor; two processes sweeping together both send them, harmlessly).
    try {
      if (cardRefund) {
        const undone = await processor.reverseRefund({
          mid: p.mid,
          amountCents: p.amount_cents,
          authCode: p.parent_auth_code ?? '',
          reference: p.srn,
        });
        if (!undone.ok) continue;
      } else {
        await processor.reverse({ mid: p.mid, amountCents: p.requested_cents, authCode: p.auth_code });
      }
    } catch {
      // Unreachable processor: the next sweep tries again.
      continue;
    }
    // Taken under the payment's number lock (as step 3 of a payment takes it) and only while still in the
    // state read: a payment answered meanwhile, or recovered by another process, is left alone.
    const claimed = await storage.write(async (tx) => {
      await tx.lock(`utn:${p.mid}:${p.utn}`);
      await tx.lock(`payment:${p.mid}:${p.srn}`);
      if (p.status === 'approved') {
        const row = await tx.first(tx.qb.selectFrom('payments').selectAll().where('id', '=', p.id));
        if (row?.status !== 'approved' || !row.reversal_requested) return false;
        await cancelPayment(tx, row, 'reversed', iso);
        return true;
      }
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
