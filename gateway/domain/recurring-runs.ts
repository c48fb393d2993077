import type { Queryable } from '../storage/queryable';
import { lockBilling, runUtn, type BillingRow, type RunRow } from './recurring-billing';

/**
 * The recurring billing task's claims (`recurring_runs`) and the rows it reads to charge them. The task
 * (schedulers/recurring-billing.ts) keeps only the timing and the pass; the units of work stay its own:
 * the functions taking `tx` run inside the transaction it opened.
 */

/** Claims a run left unfinished (by a crash or another process), oldest first. */
export function openRuns(q: Queryable, limit: number): Promise<RunRow[]> {
  return q.all(
    q.qb.selectFrom('recurring_runs').selectAll().where('state', '=', 'claimed').orderBy('id').limit(limit),
  );
}

export type DueCandidate = { id: number; next_due_date: string | null; time_zone: string };

/**
 * Active billings due on or before `horizon` (a UTC calendar date), earliest first, with their merchant's
 * time zone: the caller decides which are due on the merchant's own calendar.
 */
export function dueCandidates(q: Queryable, horizon: string, limit: number): Promise<DueCandidate[]> {
  return q.all(
    q.qb
      .selectFrom('recurring_billings as b')
      .innerJoin('merchants as m', 'm.mid', 'b.mid')
      .select(['b.id', 'b.next_due_date', 'm.time_zone'])
      .where('b.active', '=', 1)
      .where('b.next_due_date', 'is not', null)
      .where('b.next_due_date', '<=', horizon)
      .orderBy('b.next_due_date')
      .orderBy('b.id')
      .limit(limit),
  );
}

/**
 * Claims the billing's due date inside `tx`: the existing claim if there is one, a new `claimed` run
 * otherwise, or null when the billing is no longer due then. `now` is read only when a run is created.
 */
export async function claimRun(
  tx: Queryable,
  billingId: number,
  due: string,
  now: () => string,
): Promise<RunRow | null> {
  // Two schedulers (processes) claiming one due date: the second waits, then finds the first's claim.
  await lockBilling(tx, billingId);
  const b = await tx.first(
    tx.qb.selectFrom('recurring_billings').selectAll().where('id', '=', billingId).where('active', '=', 1),
  );
  // Edited, deactivated or already moved on since the candidate was read.
  if (!b || b.next_due_date !== due) return null;
  const existing = await tx.first(
    tx.qb
      .selectFrom('recurring_runs')
      .selectAll()
      .where('billing_id', '=', billingId)
      .where('due_date', '=', due),
  );
  if (existing) return existing;
  const at = now();
  return (
    (await tx.first(
      tx.qb
        .insertInto('recurring_runs')
        .values({
          billing_id: b.id,
          mid: b.mid,
          due_date: due,
          utn: runUtn(b.id, due),
          state: 'claimed',
          payment_id: null,
          charged_cents: 0,
          response_code: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll(),
    )) ?? null
  );
}

/** Cancels a run still only claimed (its billing was deactivated before any charge). */
export async function cancelRun(tx: Queryable, runId: number, now: string): Promise<void> {
  await tx.run(
    tx.qb
      .updateTable('recurring_runs')
      .set({ state: 'cancelled', updated_at: now })
      .where('id', '=', runId)
      .where('state', '=', 'claimed'),
  );
}

export function billingOfRun(q: Queryable, run: RunRow): Promise<BillingRow | undefined> {
  return q.first(q.qb.selectFrom('recurring_billings').selectAll().where('id', '=', run.billing_id));
}

/** Whether the run's billing still exists and is active. */
export async function billingActive(q: Queryable, run: RunRow): Promise<boolean> {
  const b = await q.first(
    q.qb.selectFrom('recurring_billings').select('active').where('id', '=', run.billing_id),
  );
  return b?.active === 1;
}

/** The vault token (the merchant's own) the billing charges. */
export async function billingToken(q: Queryable, b: BillingRow): Promise<string | undefined> {
  const row = await q.first(
    q.qb
      .selectFrom('vault_tokens')
      .select('token')
      .where('id', '=', b.vault_token_id)
      .where('mid', '=', b.mid),
  );
  return row?.token;
}

/** Whether a payment holds the run's UserTransactionNumber at its merchant. */
export async function runHasPayment(q: Queryable, run: RunRow): Promise<boolean> {
  const payment = await q.first(
    q.qb.selectFrom('payments').select('id').where('mid', '=', run.mid).where('utn', '=', run.utn),
  );
  return payment !== undefined;
}
