import type { Generated } from 'kysely';

/**
 * Tables of the tender and administration groups (gift, EBT, check, ACH, fraud, admin, reporting).
 * Same conventions as schema.ts: integer cents, ISO-8601 UTC text, 0/1 flags. Card and bank numbers are
 * never in clear: a keyed fingerprint, first six / last four, or AES-GCM ciphertext.
 */
type Flag = 0 | 1;

/** Fraud auto-deny checks of a merchant; no row = every check disabled. */
export type FraudOptionsTable = {
  mid: number;
  account: Flag;
  address: Flag;
  cvv: Flag;
  zip_code: Flag;
  updated_at: string;
};

/** The merchant's account blacklist, by card fingerprint (the Account check). */
export type FraudBlacklistTable = {
  id: Generated<number>;
  mid: number;
  fingerprint: string;
  first6: string;
  last4: string;
  added_on: string;
};

export type GiftCardStatus = 'active' | 'inactive';

/** A gift card of one merchant's closed-loop program: the same number at two merchants is two cards. */
export type GiftCardsTable = {
  id: Generated<number>;
  mid: number;
  fingerprint: string;
  first6: string;
  last4: string;
  status: GiftCardStatus;
  /** Value the card held when it came into being (sandbox pre-issued cards); loads go through the ledger. */
  opening_cents: number;
  created_at: string;
  updated_at: string;
};

/** An EBT benefit account at the (sandbox) issuer: one per card, whichever merchant the card is used at. */
export type EbtAccountsTable = {
  id: Generated<number>;
  fingerprint: string;
  first6: string;
  last4: string;
  food_opening_cents: number;
  cash_opening_cents: number;
  created_at: string;
};

export type StoredValueKind = 'gift' | 'ebt';
export type StoredValueProgram = 'gift' | 'food' | 'cash';

/**
 * Every balance movement of a gift card or EBT account, tied to the payment that made it. A balance is the
 * opening value plus the deltas whose payment is still approved, so a void or reversal of that payment
 * (by the core's DoVoid or DoReversal) gives the value back without any code here knowing about it.
 */
export type StoredValueLedgerTable = {
  id: Generated<number>;
  account_kind: StoredValueKind;
  account_id: number;
  program: StoredValueProgram;
  delta_cents: number;
  payment_id: number;
  created_at: string;
};

export type BankKind = 'check' | 'ach';
export type BankStatus = 'approved' | 'declined' | 'voided';

/** Checks and ACH debits; the id is the CheckTransactionId / AchId of the interface. */
export type BankTransactionsTable = {
  id: Generated<number>;
  kind: BankKind;
  mid: number;
  cid: number;
  user_id: number;
  packet_identifier: string;
  method: number;
  account_type: string;
  /** AES-256-GCM of the routing and account numbers (and DL number), bound to the merchant. */
  bank_ciphertext: string;
  /** Keyed hash of routing + account, for the duplicate-check rule. */
  bank_fingerprint: string;
  routing_last4: string;
  account_last4: string;
  check_number: string;
  amount_cents: number;
  status: BankStatus;
  response_code: number;
  code: string;
  result_code: string;
  message: string;
  type_code: string;
  terminal_id: string;
  first_name: string;
  last_name: string;
  company_name: string;
  token_id: number | null;
  /** The transaction an override (O) replaced. */
  replaces_id: number | null;
  /** The authorization's calendar day in the merchant's time zone: a void is allowed only on it. */
  local_date: string;
  voided_at: string | null;
  created_at: string;
};

/** SaveToken of ProcessCheck: the bank data for ProcessToken, under a UUIDv4. */
export type CheckTokensTable = {
  id: Generated<number>;
  mid: number;
  user_id: number;
  token: string;
  bank_ciphertext: string;
  bank_fingerprint: string;
  routing_last4: string;
  account_last4: string;
  account_type: string;
  method: number;
  /** JSON of the non-bank fields (names, address, DL state), sealed like the bank data. */
  holder_ciphertext: string;
  active: Flag;
  created_at: string;
};

/** AddUserToProcessor: the merchant's user at one of the 40 processors. Secrets sealed, never returned. */
export type ProcessorUsersTable = {
  id: Generated<number>;
  mid: number;
  processor_id: number;
  industry_code: string;
  /** Sealed JSON: user, password, extra field values. */
  secret_ciphertext: string;
  user_hint: string;
  card_types: string;
  extra_data: string;
  extra_field_keys: string;
  fraud_options: string;
  created_at: string;
};

/** Per-cashier settings of the subaccount record that the core cashiers table does not hold. */
export type CashierSettingsTable = {
  mid: number;
  cid: number;
  datawire_id: string;
  datawire_id_backup: string;
  processor_mid: string;
  updated_at: string;
};

/** Automatic batch close; no row = enrolled at 17:00 since the merchant was created (the interface default). */
export type BatchCloseSettingsTable = {
  mid: number;
  enrolled: Flag;
  /** HH:MM, the merchant's local time. */
  close_time: string;
  changed_at: string;
};

/** One automatic close per merchant and local day: the primary key is the claim that prevents a double run. */
export type BatchCloseRunsTable = {
  mid: number;
  local_date: string;
  claimed_at: string;
  status: 'claimed' | 'done';
  settlement_id: number | null;
  finished_at: string | null;
};

export type DisputeKind = 'chargeback' | 'retrieval';

/** Chargebacks and retrieval requests from the (sandbox) dispute feed; cards masked at load. */
export type DisputesTable = {
  id: Generated<number>;
  mid: number;
  kind: DisputeKind;
  record_id: number;
  case_number: string;
  reference_number: string;
  card_first6: string;
  card_last4: string;
  card_type: string;
  authorization_code: string;
  cb_type: string;
  cb_type_description: string;
  disposition: string;
  pre_dispute: string;
  reason_code: string;
  reason_code_description: string;
  reason_text: string;
  request_type: string;
  amount_cents: number;
  transaction_date: string;
  report_date: string;
  date_received: string;
  due_date: string;
  loaded_at: string;
};

/** Monthly statements, generated once per completed month from the recorded data and never changed. */
export type MerchantStatementsTable = {
  id: Generated<number>;
  mid: number;
  period: string;
  statement_id: string;
  statement_date: string;
  data: string;
  generated_at: string;
};

export type TenderTables = {
  fraud_options: FraudOptionsTable;
  fraud_blacklist: FraudBlacklistTable;
  gift_cards: GiftCardsTable;
  ebt_accounts: EbtAccountsTable;
  stored_value_ledger: StoredValueLedgerTable;
  bank_transactions: BankTransactionsTable;
  check_tokens: CheckTokensTable;
  processor_users: ProcessorUsersTable;
  cashier_settings: CashierSettingsTable;
  batch_close_settings: BatchCloseSettingsTable;
  batch_close_runs: BatchCloseRunsTable;
  disputes: DisputesTable;
  merchant_statements: MerchantStatementsTable;
};
