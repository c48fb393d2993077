import { sql, type Compilable } from 'kysely';
import { prepare } from '../storage/prepared';
import { outcomeColumns, paymentColumns, type Outcome, type PaymentColumns } from './payment-columns';

/**
 * A card payment's two units of work, each as ONE round trip on PostgreSQL (`Storage.batch`: BEGIN, the
 * advisory locks, one statement and COMMIT written together). On a database across a network, a sale costs
 * its round trips; these make it two.
 *
 * Each statement does its unit's common case whole, or writes nothing: then payments.ts runs the unit as
 * on SQLite, statement by statement, and that decides the refusal or the rarer case with the same rules
 * (runPayment). So a guard here may be narrower than the rules — leaving a case to the unit — never wider:
 *
 * - start: the UserTransactionNumber is reserved and the payment recorded pending only if the number is
 *   free and (without ForceDuplication) no payment of the card, amount and type is in the duplicate window.
 *   Taken, or a duplicate: nothing is written, and the unit says which (411, 409, 413).
 * - finish: the outcome is recorded and the number marked used only if the payment is still pending, no
 *   reversal asked for it (for an approval), and — for an approval that joins the batch — the merchant has
 *   an open batch, whose row it holds KEY SHARE as a payment joining it always does (batches.ts). A
 *   reversal that came first, a payment the recovery gave up, a first payment of the batch: the unit.
 *
 * The locks are taken by the batch before the statement, as the unit takes them (`utn:`, `card:`), so the
 * statement's snapshot is taken after them. These statements are PostgreSQL's (data-modifying CTEs, row
 * locks, json_populate_record): SQLite never runs them.
 */

/** Values travel as one JSON parameter, typed by the table's own row type (json_populate_record). */
const cols = (names: readonly string[], prefix = '') =>
  sql.join(names.map((c) => sql.ref(prefix ? `${prefix}.${c}` : c)));

type StartArgs = {
  row: string;
  mid: number;
  utn: string;
  operation: string;
  created_at: string;
  /** 1: apply the duplicate rule (no ForceDuplication). */
  check_duplicate: number;
  fingerprint: string;
  amount: number;
  since: string;
  type: number;
};

const startStatement = prepare<StartArgs, { id: number }>((qb, p): Compilable<{ id: number }> => ({
  compile: () =>
    sql<{ id: number }>`
        with tn as (
          insert into transaction_numbers (mid, utn, operation, payment_id, state, created_at)
          select ${p('mid')}::bigint, ${p('utn')}::text, ${p('operation')}::text, null, 'reserved', ${p('created_at')}::text
          where ${p('check_duplicate')}::bigint = 0 or not exists (
            select 1 from payments
            where mid = ${p('mid')} and fingerprint = ${p('fingerprint')} and amount_cents = ${p('amount')}
              and created_at >= ${p('since')} and transaction_type = ${p('type')}
              and status in ('approved', 'pending'))
          on conflict (mid, utn) do nothing
          returning mid)
        insert into payments (${cols(paymentColumns)})
        select ${cols(paymentColumns, 'r')} from json_populate_record(null::payments, ${p('row')}::json) as r, tn
        returning id`.compile(qb),
}));

/** Unit 1 of a payment as one statement: see the module comment. No row: nothing was written. */
export function startPaymentStatement(row: PaymentColumns, rule: { checkDuplicate: boolean; since: string }) {
  return startStatement({
    row: JSON.stringify(row),
    mid: row.mid,
    utn: row.utn,
    operation: row.operation,
    created_at: row.created_at,
    check_duplicate: rule.checkDuplicate ? 1 : 0,
    fingerprint: row.fingerprint,
    amount: row.amount_cents,
    since: rule.since,
    type: row.transaction_type,
  });
}

type Finished = { payment_id: number; batch_id: number | null };
type FinishArgs = { outcome: string; id: number; mid: number; utn: string; approved: number };
const setColumns = outcomeColumns.filter((c) => c !== 'batch_id');

const finishJoiningBatch = prepare<FinishArgs, Finished>((qb, p): Compilable<Finished> => ({
  compile: () =>
    sql<Finished>`
        with b as (
          select id from batches where mid = ${p('mid')} and status = 'open' for key share),
        p as (
          update payments
          set (${cols(setColumns)}) = (
                select ${cols(setColumns, 'r')} from json_populate_record(null::payments, ${p('outcome')}::json) as r),
              batch_id = (select id from b)
          where id = ${p('id')} and status = 'pending' and reversal_requested = 0 and exists (select 1 from b)
            and ${p('approved')}::bigint = 1
          returning id, batch_id)
        update transaction_numbers set state = 'used', payment_id = (select id from p)
        where mid = ${p('mid')} and utn = ${p('utn')} and exists (select 1 from p)
        returning payment_id, (select batch_id from p) as batch_id`.compile(qb),
}));

const finishOutsideBatch = prepare<FinishArgs, Finished>((qb, p): Compilable<Finished> => ({
  compile: () =>
    sql<Finished>`
        with p as (
          update payments
          set (${cols(setColumns)}) = (
                select ${cols(setColumns, 'r')} from json_populate_record(null::payments, ${p('outcome')}::json) as r)
          where id = ${p('id')} and status = 'pending' and (${p('approved')}::bigint = 0 or reversal_requested = 0)
          returning id)
        update transaction_numbers set state = 'used', payment_id = (select id from p)
        where mid = ${p('mid')} and utn = ${p('utn')} and exists (select 1 from p)
        returning payment_id, null::bigint as batch_id`.compile(qb),
}));

/**
 * Unit 2 of a payment as one statement: see the module comment. `outcome` is what the unit would write
 * (payments.ts `decideOutcome`); an approval outside a preauthorization joins the open batch. No row:
 * nothing was written.
 */
export function finishPaymentStatement(
  payment: { id: number; mid: number; utn: string },
  outcome: Omit<Outcome, 'batch_id'>,
  approved: boolean,
  joinBatch: boolean,
) {
  const args: FinishArgs = {
    outcome: JSON.stringify(outcome),
    id: payment.id,
    mid: payment.mid,
    utn: payment.utn,
    approved: approved ? 1 : 0,
  };
  return joinBatch ? finishJoiningBatch(args) : finishOutsideBatch(args);
}
