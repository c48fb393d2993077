import type { Generated } from 'kysely';
import type { CommerceTables } from './schema-commerce';
import type { SandboxTables } from './schema-sandbox';
import type { SecurityTables } from './schema-security';
import type { TenderTables } from './schema-tenders';

/**
 * Table shapes, dialect-neutral: money in integer cents, times as ISO-8601 UTC text (sorts and compares
 * the same in SQLite and PostgreSQL), booleans as 0/1 integers.
 */
export type Flag = 0 | 1;

export type SchemaMigrationsTable = { version: number; name: string; applied_at: string };

export type MerchantsTable = {
  mid: number;
  name: string;
  time_zone: string;
  credit_processor: string;
  /** Whether the configured credit processor supports the token lookups (else 300 / OPERATION_NOT_SUPPORTED). */
  token_lookup_supported: Flag;
  created_at: string;
};

export type BusinessSettingsTable = {
  mid: number;
  card_difference_enabled: Flag;
  /** Hundredths of a percent: 350 = 3.50 %. */
  card_difference_percent_bp: number;
  surcharge_enabled: Flag;
  surcharge_percent_bp: number;
  three_ds_enabled: Flag;
};

export type ApplicationsTable = { app_key: string; app_type: number; name: string };

export type UsersTable = {
  id: Generated<number>;
  user_name: string;
  password_hash: string;
  mid: number;
  disabled: Flag;
  created_at: string;
};

export type CashiersTable = {
  mid: number;
  cid: number;
  first_name: string;
  last_name: string;
  description: string;
  is_enable: Flag;
  can_sale: Flag;
  created_at: string;
};

export type BatchStatus = 'open' | 'settled' | 'closed';
export type BatchesTable = {
  id: Generated<number>;
  mid: number;
  batch_number: string;
  status: BatchStatus;
  opened_at: string;
  settled_at: string | null;
  closed_at: string | null;
  settlement_id: number | null;
};

/**
 * A settled batch's sums by cashier and card type, written once when the batch settles
 * (domain/batch-totals.ts): what the Reporting group adds up instead of the batch's payments.
 */
export type BatchTotalsTable = {
  batch_id: number;
  mid: number;
  cid: number;
  card_type: string;
  sale_cents: number;
  return_cents: number;
  sale_count: number;
  return_count: number;
  keyed_count: number;
  n: number;
};

/** The six sums the Reporting group counts (domain/batch-totals.ts), as one batch's or a running total. */
type ReportSums<P extends string> = Record<
  `${P}sale_cents` | `${P}return_cents` | `${P}sale_count` | `${P}return_count` | `${P}keyed_count` | `${P}n`,
  number
>;

/**
 * A settled batch's place among the merchant's settled batches (`seq`: 1, 2, ... in settlement order, only
 * batches with an approved payment) with its sums and the running sums of every batch up to it
 * (domain/report-rollups.ts): a window's sums are two rows' difference.
 */
export type BatchRollupsTable = ReportSums<''> &
  ReportSums<'cum_'> & { mid: number; seq: number; batch_id: number; settled_at: string };

/** The running sums of one cashier and card type of a merchant, at each settled batch that had them. */
export type GroupRollupsTable = ReportSums<'cum_'> & {
  mid: number;
  cid: number;
  card_type: string;
  seq: number;
};

/** Every cashier and card type a merchant's settled batches ever had: the groups of group_rollups. */
export type RollupGroupsTable = { mid: number; cid: number; card_type: string };

/**
 * The approved payments of the merchant's settled batches numbered in GetBatchDetail's order (batch by
 * batch in settlement order, then payment id): a page is a range of `pos`.
 */
export type BatchDetailRowsTable = { mid: number; pos: number; payment_id: number };

/** One close (DoCloseAllSettledTransaction) that funded batches: a deposit, with the running net. */
export type DepositRollupsTable = {
  mid: number;
  seq: number;
  closed_at: string;
  first_batch: number;
  net_cents: number;
  cum_net_cents: number;
};

export type SettlementsTable = {
  id: Generated<number>;
  mid: number;
  amount_settled_cents: number;
  batch_numbers: string;
  completed_on: string;
};

export type TransactionNumberState = 'reserved' | 'used' | 'blocked';
export type TransactionNumbersTable = {
  mid: number;
  utn: string;
  operation: string;
  payment_id: number | null;
  state: TransactionNumberState;
  created_at: string;
};

export type PaymentStatus = 'pending' | 'approved' | 'declined' | 'voided' | 'reversed' | 'failed';
export type PaymentsTable = {
  id: Generated<number>;
  srn: string;
  mid: number;
  cid: number;
  user_id: number;
  utn: string;
  operation: string;
  transaction_type: number;
  status: PaymentStatus;
  /** 'open' | 'closed' for preauthorizations, null otherwise. */
  preauth_state: string | null;
  requested_cents: number;
  amount_cents: number;
  tax_cents: number;
  tip_cents: number;
  surcharge_cents: number;
  card_difference_cents: number;
  cashback_cents: number;
  currency: string;
  card_type: string;
  first6: string;
  last4: string;
  fingerprint: string;
  entry_mode: string;
  pos_code: string;
  auth_code: string;
  avs_result: string;
  cvn_result: string;
  response_code: number;
  response_msg: string;
  parent_id: number | null;
  refunded_cents: number;
  pending_refund_cents: number;
  batch_id: number | null;
  reversal_requested: Flag;
  is_test: Flag;
  invoice: string | null;
  order_ref: string | null;
  customer_id: number | null;
  token_id: number | null;
  payment_link_id: string | null;
  source: string | null;
  balance_cents: number | null;
  created_at: string;
  updated_at: string;
};

export type VaultTokensTable = {
  id: Generated<number>;
  mid: number;
  user_id: number;
  processor: string;
  token: string;
  identifier: string;
  fingerprint: string;
  pan_ciphertext: string;
  first6: string;
  last4: string;
  exp_mmyy: string;
  card_type: string;
  holder_name: string;
  street: string;
  zip: string;
  client_ref: string;
  description: string;
  active: Flag;
  created_at: string;
};

export type CustomersTable = {
  id: Generated<number>;
  mid: number;
  customer_ref: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  country: string;
  zip: string;
  source: string;
  status: number;
  invoice: string;
  po: string;
  added_on: string;
};

/**
 * The sandbox issuer's highest Application Transaction Counter per chip card (EMV Book 2 §8.1: the ATC
 * only goes up), so a replayed or stale ARQC is refused across processes. Keyed by the card's keyed
 * fingerprint and PAN sequence number: no PAN, no cryptogram.
 */
export type EmvCardCountersTable = {
  card_fingerprint: string;
  pan_sequence: string;
  highest_atc: number;
  updated_at: string;
};

export type CoreTables = {
  schema_migrations: SchemaMigrationsTable;
  merchants: MerchantsTable;
  business_settings: BusinessSettingsTable;
  applications: ApplicationsTable;
  users: UsersTable;
  cashiers: CashiersTable;
  batches: BatchesTable;
  batch_totals: BatchTotalsTable;
  batch_rollups: BatchRollupsTable;
  group_rollups: GroupRollupsTable;
  rollup_groups: RollupGroupsTable;
  batch_detail_rows: BatchDetailRowsTable;
  deposit_rollups: DepositRollupsTable;
  settlements: SettlementsTable;
  transaction_numbers: TransactionNumbersTable;
  payments: PaymentsTable;
  vault_tokens: VaultTokensTable;
  customers: CustomersTable;
  emv_card_counters: EmvCardCountersTable;
};

export type Database = CoreTables & CommerceTables & TenderTables & SecurityTables & SandboxTables;
