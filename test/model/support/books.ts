import type { Queryable } from '../../../gateway/storage/queryable';

/**
 * The gateway's books and the sandbox processor's ledger for one merchant, read straight from the
 * database (the gateway's own tables, never through its code): what the invariants judge.
 */
export type BookPayment = {
  id: number;
  srn: string;
  utn: string;
  operation: string;
  status: string;
  preauth_state: string | null;
  amount_cents: number;
  tax_cents: number;
  tip_cents: number;
  surcharge_cents: number;
  card_difference_cents: number;
  cashback_cents: number;
  refunded_cents: number;
  pending_refund_cents: number;
  parent_id: number | null;
  batch_id: number | null;
  auth_code: string;
};

export type BookBatch = { id: number; batch_number: string; status: string; settlement_id: number | null };
export type BookSettlement = { id: number; amount_settled_cents: number; batch_numbers: string };
export type BookNumber = { utn: string; state: string; payment_id: number | null };
export type LedgerRow = {
  id: number;
  auth_code: string;
  event: string;
  authorization_kind: string;
  amount_cents: number;
  reference: string;
};
export type AccountBalance = { kind: 'gift' | 'ebt'; id: number; balance: number };

export type Books = {
  payments: BookPayment[];
  numbers: BookNumber[];
  batches: BookBatch[];
  settlements: BookSettlement[];
  ledger: LedgerRow[];
  /** Every gift card of the merchant and every EBT account, with the balance its movements give. */
  accounts: AccountBalance[];
};

/** Everything the card paid for a payment row: every part, cash back included. */
export const rowCharged = (p: BookPayment): number =>
  p.amount_cents + p.tax_cents + p.tip_cents + p.surcharge_cents + p.card_difference_cents + p.cashback_cents;

/** What a card payment row can give back: everything but cash back. */
export const rowRefundable = (p: BookPayment): number =>
  p.amount_cents + p.tax_cents + p.tip_cents + p.surcharge_cents + p.card_difference_cents;

export async function readBooks(q: Queryable, mid: number): Promise<Books> {
  const [payments, numbers, batches, settlements, ledger, gifts, ebts, movements] = await Promise.all([
    q.all(
      q.qb
        .selectFrom('payments')
        .select([
          'id',
          'srn',
          'utn',
          'operation',
          'status',
          'preauth_state',
          'amount_cents',
          'tax_cents',
          'tip_cents',
          'surcharge_cents',
          'card_difference_cents',
          'cashback_cents',
          'refunded_cents',
          'pending_refund_cents',
          'parent_id',
          'batch_id',
          'auth_code',
        ])
        .where('mid', '=', mid)
        .orderBy('id'),
    ),
    q.all(
      q.qb.selectFrom('transaction_numbers').select(['utn', 'state', 'payment_id']).where('mid', '=', mid),
    ),
    q.all(
      q.qb
        .selectFrom('batches')
        .select(['id', 'batch_number', 'status', 'settlement_id'])
        .where('mid', '=', mid)
        .orderBy('id'),
    ),
    q.all(
      q.qb
        .selectFrom('settlements')
        .select(['id', 'amount_settled_cents', 'batch_numbers'])
        .where('mid', '=', mid)
        .orderBy('id'),
    ),
    q.all(
      q.qb
        .selectFrom('sandbox_processor_ledger')
        .select(['id', 'auth_code', 'event', 'authorization_kind', 'amount_cents', 'reference'])
        .where('mid', '=', mid)
        .orderBy('id'),
    ),
    q.all(q.qb.selectFrom('gift_cards').select(['id', 'opening_cents']).where('mid', '=', mid)),
    q.all(q.qb.selectFrom('ebt_accounts').select(['id', 'food_opening_cents'])),
    q.all(
      q.qb
        .selectFrom('stored_value_ledger as l')
        .innerJoin('payments as p', 'p.id', 'l.payment_id')
        .select(['l.account_kind', 'l.account_id', 'l.program', 'l.delta_cents'])
        .where('p.status', '=', 'approved')
        // This merchant's gift cards; the EBT accounts are the issuer's, shared by every merchant.
        .where((eb) => eb.or([eb('p.mid', '=', mid), eb('l.account_kind', '=', 'ebt')])),
    ),
  ]);
  const sum = (kind: string, id: number, program: string) =>
    movements
      .filter((m) => m.account_kind === kind && Number(m.account_id) === id && m.program === program)
      .reduce((s, m) => s + Number(m.delta_cents), 0);
  const accounts: AccountBalance[] = [
    ...gifts.map((g) => ({
      kind: 'gift' as const,
      id: g.id,
      balance: g.opening_cents + sum('gift', g.id, 'gift'),
    })),
    ...ebts.map((e) => ({
      kind: 'ebt' as const,
      id: e.id,
      balance: e.food_opening_cents + sum('ebt', e.id, 'food'),
    })),
  ];
  return { payments, numbers, batches, settlements, ledger, accounts };
}
