import type { PaymentRow } from './sale-response';

/** A payment row as it is inserted (the id is the database's). */
export type PaymentColumns = Omit<PaymentRow, 'id'>;

export const paymentColumns: (keyof PaymentColumns)[] = [
  'srn',
  'mid',
  'cid',
  'user_id',
  'utn',
  'operation',
  'transaction_type',
  'status',
  'preauth_state',
  'requested_cents',
  'amount_cents',
  'tax_cents',
  'tip_cents',
  'surcharge_cents',
  'card_difference_cents',
  'cashback_cents',
  'currency',
  'card_type',
  'first6',
  'last4',
  'fingerprint',
  'entry_mode',
  'pos_code',
  'auth_code',
  'avs_result',
  'cvn_result',
  'response_code',
  'response_msg',
  'parent_id',
  'refunded_cents',
  'pending_refund_cents',
  'batch_id',
  'reversal_requested',
  'is_test',
  'invoice',
  'order_ref',
  'customer_id',
  'token_id',
  'payment_link_id',
  'source',
  'balance_cents',
  'created_at',
  'updated_at',
];
/** What answering a payment may change: one fixed statement rather than a per-outcome one. */
export type Outcome = Pick<
  PaymentRow,
  | 'status'
  | 'auth_code'
  | 'batch_id'
  | 'response_code'
  | 'response_msg'
  | 'avs_result'
  | 'cvn_result'
  | 'amount_cents'
  | 'tax_cents'
  | 'tip_cents'
  | 'surcharge_cents'
  | 'card_difference_cents'
  | 'cashback_cents'
  | 'balance_cents'
  | 'preauth_state'
  | 'token_id'
  | 'customer_id'
  | 'updated_at'
>;
export const outcomeColumns: (keyof Outcome)[] = [
  'status',
  'auth_code',
  'batch_id',
  'response_code',
  'response_msg',
  'avs_result',
  'cvn_result',
  'amount_cents',
  'tax_cents',
  'tip_cents',
  'surcharge_cents',
  'card_difference_cents',
  'cashback_cents',
  'balance_cents',
  'preauth_state',
  'token_id',
  'customer_id',
  'updated_at',
];
