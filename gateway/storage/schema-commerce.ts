import type { Generated } from 'kysely';
import type { Flag } from './schema';

/**
 * Tables of the commerce groups (payment links, recurring billing, mobile wallet, signatures). Same
 * conventions as the core tables: integer cents, ISO-8601 UTC text for instants, `YYYY-MM-DD` text for
 * calendar dates (billing due dates), 0/1 flags.
 */

export type PaymentLinkType = 'Open' | 'Fixed';
export type PaymentLinkStatus = 'UnPaid' | 'Paid';

export type PaymentLinksTable = {
  id: Generated<number>;
  /** The interface's PaymentLink.Id: a UUIDv4, the only id clients see. */
  link_id: string;
  mid: number;
  /** The user and cashier who created the link: the hosted checkout's sale is made in their name. */
  user_id: number;
  cid: number;
  /** Null for an Open link (the payer enters the amount). */
  amount_cents: number | null;
  type: PaymentLinkType;
  description: string;
  status: PaymentLinkStatus;
  active: Flag;
  created_on: string;
  paid_on: string | null;
  disabled_on: string | null;
  /** Deleted links are kept (the sale still names them) but no operation or page shows them. */
  deleted_on: string | null;
  srn: string | null;
  invoice: string;
  forced_payment_method: string | null;
  allowed_payment_schedule: string;
  payment_schedule: string;
  is_open_payment_schedule: Flag;
  frequency_id: number | null;
  start_date: string | null;
  end_date: string | null;
  recurring_description: string;
  installment_total: number | null;
  /** The checkout payment in progress (its UserTransactionNumber), so two payers never both pay one link. */
  paying_utn: string | null;
  paying_since: string | null;
  /** The payer's schedule choice for the payment in progress (JSON), to finish it after a restart. */
  paying_choice: string | null;
  recurring_billing_id: number | null;
  updated_at: string;
};

export type BillingStatus = 'active' | 'completed' | 'deactivated' | 'suspended';

export type RecurringBillingsTable = {
  id: Generated<number>;
  mid: number;
  user_id: number;
  cid: number;
  customer_id: number | null;
  vault_token_id: number;
  /** Base amount of one charge. */
  amount_cents: number;
  /** Hundredths of a percent added to each charge (350 = 3.50 %). */
  tax_bp: number;
  surcharge_bp: number;
  card_difference_bp: number;
  frequency_id: number;
  is_installment: Flag;
  installment_total: number;
  installments_paid: number;
  amount_collected_cents: number;
  /** Due dates are anchor + period_index periods (no drift: Jan 31 monthly gives Feb 28, then Mar 31). */
  anchor_date: string;
  period_index: number;
  /** Null once the billing has ended. */
  next_due_date: string | null;
  start_date: string;
  end_date: string | null;
  description: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  customer_ref: string;
  card_type: string;
  last4: string;
  active: Flag;
  status: BillingStatus;
  consecutive_failures: number;
  payment_link_id: string | null;
  last_run_date: string | null;
  last_run_srn: string | null;
  added_on: string;
  last_modified_on: string;
};

export type RecurringRunState = 'claimed' | 'approved' | 'declined' | 'cancelled';

/**
 * One charge of a billing for one due date. The unique (billing_id, due_date) row is claimed BEFORE the
 * card is charged, with a deterministic UserTransactionNumber: a second scheduler, or the same one after a
 * restart, finds the claim and the payment instead of charging again.
 */
export type RecurringRunsTable = {
  id: Generated<number>;
  billing_id: number;
  mid: number;
  due_date: string;
  utn: string;
  state: RecurringRunState;
  payment_id: number | null;
  charged_cents: number;
  response_code: number | null;
  created_at: string;
  updated_at: string;
};

export type MobileWalletTransactionsTable = {
  id: Generated<number>;
  wallet_id: string;
  mid: number;
  user_id: number;
  business_customer_id: string | null;
  daily_transaction_id: number | null;
  ecommerce_id: string | null;
  ecommerce_status: string;
  fee_cents: number | null;
  net_amount_cents: number | null;
  reference_number: string | null;
  sub_total_cents: number | null;
  tax_cents: number | null;
  total_cents: number | null;
  total_refunded_cents: number | null;
  transaction_date: string | null;
  created_at: string;
};

export type SignatureFormat = 'png' | 'svg';

export type SignaturesTable = {
  id: Generated<number>;
  mid: number;
  payment_id: number;
  srn: string;
  user_id: number;
  format: SignatureFormat;
  /** PNG as base64, SVG as text; validated before storing. */
  data: string;
  size_bytes: number;
  sha256: string;
  created_at: string;
};

export type CommerceTables = {
  payment_links: PaymentLinksTable;
  recurring_billings: RecurringBillingsTable;
  recurring_runs: RecurringRunsTable;
  mobile_wallet_transactions: MobileWalletTransactionsTable;
  signatures: SignaturesTable;
};
