import { ResponseCode } from '../contract/response-codes';
import type { Queryable } from '../storage/queryable';
import type { RequestContext, Services } from './context';
import { DomainError } from './outcome';
import { paymentByReference } from './references';
import { undoRefundAtProcessor } from './refund-rules';
import type { PaymentRow } from './sale-response';
import { chargedCents } from './rules/card-paid';
import { balanceOf } from './stored-value';
import {
  releaseTransactionNumber,
  reserveTransactionNumber,
  settleTransactionNumber,
} from './rules/user-transaction-number';

/** Cancels a payment's authorization at the processor: everything the card was charged (idempotent). */
export async function reverseAtProcessor(svc: Services, row: PaymentRow): Promise<void> {
  await svc.processor.reverse({
    mid: row.mid,
    amountCents: chargedCents(row),
    authCode: row.auth_code,
    reference: row.srn,
  });
}

/**
 * Whether the payment's batch is still open, read holding the batch's row KEY SHARE to the commit on
 * PostgreSQL (as a payment joining it does, batches.ts): DoSettlement's FOR UPDATE either waits for this
 * unit of work or has committed before it, and then this reads the batch settled.
 */
async function lockBatchIsOpen(q: Queryable, batchId: number | null): Promise<boolean> {
  if (batchId === null) return true;
  const read = q.qb.selectFrom('batches').select('status').where('id', '=', batchId);
  const b = await q.first(q.dialect === 'postgres' ? read.forKeyShare() : read);
  return b?.status === 'open';
}

/**
 * A card refund: its credit reached the card at the processor when it was made, so cancelling it must take
 * that credit back there first (gift and EBT returns are the gateway's own ledger and have no parent).
 */
export function isCardRefund(row: PaymentRow): boolean {
  return row.operation === 'refund' && row.parent_id !== null;
}

/**
 * Cancels an approved payment inside a unit of work: a cancelled refund gives its amount back to the
 * original's refundable balance. The caller reverses it at the processor after the commit (a card refund:
 * before, see cancelCardRefund).
 */
export async function cancelPayment(
  tx: Queryable,
  target: PaymentRow,
  status: 'voided' | 'reversed',
  now: string,
): Promise<void> {
  await tx.run(
    tx.qb
      .updateTable('payments')
      .set({ status, reversal_requested: 0, updated_at: now })
      .where('id', '=', target.id),
  );
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

/** The stored-value credit a payment put on a gift card or EBT account (a reload, a load, a return), if any. */
async function storedValueCredit(q: Queryable, target: PaymentRow) {
  const entry = await q.first(
    q.qb
      .selectFrom('stored_value_ledger')
      .select(['account_kind', 'account_id', 'program', 'delta_cents'])
      .where('payment_id', '=', target.id),
  );
  if (!entry || entry.delta_cents <= 0) return null;
  if (entry.account_kind === 'gift') {
    const card = await q.first(
      q.qb
        .selectFrom('gift_cards')
        .select(['fingerprint', 'opening_cents'])
        .where('id', '=', entry.account_id),
    );
    if (!card) return null;
    return { ...entry, lockKey: `gift:${target.mid}:${card.fingerprint}`, openingCents: card.opening_cents };
  }
  const account = await q.first(
    q.qb
      .selectFrom('ebt_accounts')
      .select(['fingerprint', 'food_opening_cents', 'cash_opening_cents'])
      .where('id', '=', entry.account_id),
  );
  if (!account) return null;
  return {
    ...entry,
    lockKey: `ebt:${account.fingerprint}`,
    openingCents: entry.program === 'cash' ? account.cash_opening_cents : account.food_opening_cents,
  };
}

// rule: void-impossible
/**
 * Why a payment cannot be voided or reversed, or null. Called in the cancel's unit of work after it locked
 * the payment; it takes the rest of the locks the decision rests on, in the order every unit of work takes
 * them (a refund's parent, a stored-value account, then the batch), and holds them to the commit:
 *
 * - the batch's row, KEY SHARE, as payments joining it hold it: DoSettlement holds it FOR UPDATE, so a
 *   cancel either commits before the settlement counts the batch or sees it settled (never a void of a
 *   counted payment);
 * - the gift card or EBT account, as a purchase on it does: the value a credit put there may have been
 *   spent, and taking back more than the balance holds would leave it below zero.
 */
export async function cancelBlocker(q: Queryable, target: PaymentRow): Promise<DomainError | null> {
  // Every reason the real catalog calls "void impossible" answers its code (7), spent stored value among
  // them (a retry cannot help); only a cancel already at the processor keeps a code of its own (703: ask
  // again, its outcome decides).
  const impossible = (why: string) => new DomainError(ResponseCode.VoidImpossible, [why]);
  if (isCardRefund(target) && target.parent_id !== null) {
    const parent = await q.first(
      q.qb.selectFrom('payments').select('srn').where('id', '=', target.parent_id),
    );
    if (parent) await q.lock(`payment:${target.mid}:${parent.srn}`);
  }
  const credit = target.status === 'approved' ? await storedValueCredit(q, target) : null;
  if (credit) await q.lock(credit.lockKey);
  const batchOpen = await lockBatchIsOpen(q, target.batch_id);

  if (target.status === 'voided' || target.status === 'reversed') {
    return impossible(`The transaction is already ${target.status}`);
  }
  if (target.status !== 'approved') return impossible('Only an approved transaction can be voided');
  if (target.reversal_requested) {
    return new DomainError(ResponseCode.CancelInProgress, [
      'A void or reversal of this transaction is at the processor; its outcome decides',
    ]);
  }
  if (target.refunded_cents > 0 || target.pending_refund_cents > 0) {
    return impossible('The transaction is refunded: it cannot be voided');
  }
  if (target.operation === 'preauth' && target.preauth_state === 'closed') {
    return impossible('The preauthorization is closed: void its completion');
  }
  if (!batchOpen) {
    return impossible('The transaction is settled: refund it instead');
  }
  if (credit) {
    const balance = await balanceOf(
      q,
      credit.account_kind,
      credit.account_id,
      credit.program,
      credit.openingCents,
    );
    if (balance - credit.delta_cents < 0) {
      return impossible(
        'The value this transaction added was spent: cancelling it would take the balance below zero',
      );
    }
  }
  return null;
}

/**
 * A booked card refund is cancelled in three steps: (1) the cancel's unit of work claims it
 * (`claimRefundCancel`: the refund is flagged, so a second void or reversal is refused and a settlement
 * leaves it for the next batch, while its amount stays counted against the sale); (2) the processor is
 * asked to take the credit back, outside any transaction (`undoCardRefund`); (3) the cancel is booked only
 * if the processor confirmed, otherwise the claim is cleared and the refund stands, as the processor still
 * has it (`finishRefundCancel`).
 */
export async function claimRefundCancel(tx: Queryable, refund: PaymentRow, now: string): Promise<void> {
  await tx.run(
    tx.qb.updateTable('payments').set({ reversal_requested: 1, updated_at: now }).where('id', '=', refund.id),
  );
}

export async function undoCardRefund(svc: Services, refund: PaymentRow): Promise<boolean> {
  const parent = await svc.storage.read.first(
    svc.storage.read.qb
      .selectFrom('payments')
      .select('auth_code')
      .where('id', '=', refund.parent_id ?? -1),
  );
  return undoRefundAtProcessor(svc, {
    mid: refund.mid,
    amountCents: refund.amount_cents,
    authCode: parent?.auth_code ?? refund.auth_code,
    reference: refund.srn,
  });
}

/** Step (3): true when the cancel was booked. Runs under the refund's number and payment locks. */
export async function finishRefundCancel(
  tx: Queryable,
  refundId: number,
  status: 'voided' | 'reversed',
  undone: boolean,
  now: string,
): Promise<boolean> {
  const row = await tx.first(tx.qb.selectFrom('payments').selectAll().where('id', '=', refundId));
  if (!row || row.status !== 'approved' || !row.reversal_requested) return false;
  if (undone) {
    await cancelPayment(tx, row, status, now);
    return true;
  }
  await tx.run(
    tx.qb.updateTable('payments').set({ reversal_requested: 0, updated_at: now }).where('id', '=', row.id),
  );
  return false;
}

export const refundNotTakenBack = () =>
  new DomainError(ResponseCode.ProcessorUnavailable, [
    'The processor could not take the refund back: it stands and nothing was changed; try again',
  ]);

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
    if (isCardRefund(row)) {
      // The void's number stays reserved while the processor is asked.
      await claimRefundCancel(tx, row, now);
      return { row, refund: true };
    }
    await cancelPayment(tx, row, 'voided', now);
    if (row.operation === 'preauth') {
      await tx.run(tx.qb.updateTable('payments').set({ preauth_state: 'closed' }).where('id', '=', row.id));
    }
    await settleTransactionNumber(tx, mid, utn, row.id);
    return { row, refund: false };
  });
  if (!target.refund) {
    await reverseAtProcessor(svc, target.row);
    return target.row;
  }
  const undone = await undoCardRefund(svc, target.row);
  const booked = await svc.storage.write(async (tx) => {
    await tx.lock(`utn:${mid}:${utn}`);
    await tx.lock(`payment:${mid}:${srn}`);
    const done = await finishRefundCancel(tx, target.row.id, 'voided', undone, svc.clock.now().toISOString());
    if (done) await settleTransactionNumber(tx, mid, utn, target.row.id);
    // Refused: nothing changed, the number included.
    else await releaseTransactionNumber(tx, mid, utn);
    return done;
  });
  if (!booked) throw refundNotTakenBack();
  return target.row;
}
