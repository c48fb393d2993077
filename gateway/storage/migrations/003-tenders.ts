import type { Migration } from '../migrate';
import { withId } from './001-core';

/** Gift cards, EBT, checks, ACH, fraud options, processor users, batch close, disputes (gateway breadth: tenders and admin). */
export const migration003: Migration = {
  version: 3,
  name: 'tenders and administration',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      s
        .createTable('fraud_options')
        .addColumn('mid', ctx.integer, (c) => c.primaryKey().references('merchants.mid'))
        .addColumn('account', ctx.integer, (c) => c.notNull())
        .addColumn('address', ctx.integer, (c) => c.notNull())
        .addColumn('cvv', ctx.integer, (c) => c.notNull())
        .addColumn('zip_code', ctx.integer, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      withId(ctx, s.createTable('fraud_blacklist'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('first6', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('added_on', 'text', (c) => c.notNull())
        .addUniqueConstraint('fraud_blacklist_unique', ['mid', 'fingerprint']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('gift_cards'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('first6', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('opening_cents', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('gift_cards_unique', ['mid', 'fingerprint'])
        .addCheckConstraint('gift_cards_opening', ctx.raw('opening_cents >= 0')),
    );
    await ctx.exec(
      withId(ctx, s.createTable('ebt_accounts'))
        .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
        .addColumn('first6', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('food_opening_cents', ctx.integer, (c) => c.notNull())
        .addColumn('cash_opening_cents', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      withId(ctx, s.createTable('stored_value_ledger'))
        .addColumn('account_kind', 'text', (c) => c.notNull())
        .addColumn('account_id', ctx.integer, (c) => c.notNull())
        .addColumn('program', 'text', (c) => c.notNull())
        .addColumn('delta_cents', ctx.integer, (c) => c.notNull())
        .addColumn('payment_id', ctx.integer, (c) => c.notNull().references('payments.id'))
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s
        .createIndex('stored_value_by_account')
        .on('stored_value_ledger')
        .columns(['account_kind', 'account_id', 'program']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('bank_transactions'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('packet_identifier', 'text', (c) => c.notNull())
        .addColumn('method', ctx.integer, (c) => c.notNull())
        .addColumn('account_type', 'text', (c) => c.notNull())
        .addColumn('bank_ciphertext', 'text', (c) => c.notNull())
        .addColumn('bank_fingerprint', 'text', (c) => c.notNull())
        .addColumn('routing_last4', 'text', (c) => c.notNull())
        .addColumn('account_last4', 'text', (c) => c.notNull())
        .addColumn('check_number', 'text', (c) => c.notNull())
        .addColumn('amount_cents', ctx.integer, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('response_code', ctx.integer, (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('result_code', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('type_code', 'text', (c) => c.notNull())
        .addColumn('terminal_id', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('company_name', 'text', (c) => c.notNull())
        .addColumn('token_id', ctx.integer)
        .addColumn('replaces_id', ctx.integer, (c) => c.references('bank_transactions.id'))
        .addColumn('local_date', 'text', (c) => c.notNull())
        .addColumn('voided_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('bank_transactions_amount', ctx.raw('amount_cents > 0')),
    );
    await ctx.exec(
      s.createIndex('bank_transactions_by_mid').on('bank_transactions').columns(['mid', 'kind', 'id']),
    );
    await ctx.exec(
      s
        .createIndex('bank_transactions_duplicates')
        .on('bank_transactions')
        .columns(['mid', 'bank_fingerprint', 'check_number']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('check_tokens'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('bank_ciphertext', 'text', (c) => c.notNull())
        .addColumn('bank_fingerprint', 'text', (c) => c.notNull())
        .addColumn('routing_last4', 'text', (c) => c.notNull())
        .addColumn('account_last4', 'text', (c) => c.notNull())
        .addColumn('account_type', 'text', (c) => c.notNull())
        .addColumn('method', ctx.integer, (c) => c.notNull())
        .addColumn('holder_ciphertext', 'text', (c) => c.notNull())
        .addColumn('active', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      withId(ctx, s.createTable('processor_users'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('processor_id', ctx.integer, (c) => c.notNull())
        .addColumn('industry_code', 'text', (c) => c.notNull())
        .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
        .addColumn('user_hint', 'text', (c) => c.notNull())
        .addColumn('card_types', 'text', (c) => c.notNull())
        .addColumn('extra_data', 'text', (c) => c.notNull())
        .addColumn('extra_field_keys', 'text', (c) => c.notNull())
        .addColumn('fraud_options', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('processor_users_unique', ['mid', 'processor_id']),
    );
    await ctx.exec(
      s
        .createTable('cashier_settings')
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('datawire_id', 'text', (c) => c.notNull())
        .addColumn('datawire_id_backup', 'text', (c) => c.notNull())
        .addColumn('processor_mid', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('cashier_settings_pk', ['mid', 'cid'])
        .addForeignKeyConstraint('cashier_settings_cashier', ['mid', 'cid'], 'cashiers', ['mid', 'cid']),
    );
    await ctx.exec(
      s
        .createTable('batch_close_settings')
        .addColumn('mid', ctx.integer, (c) => c.primaryKey().references('merchants.mid'))
        .addColumn('enrolled', ctx.integer, (c) => c.notNull())
        .addColumn('close_time', 'text', (c) => c.notNull())
        .addColumn('changed_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s
        .createTable('batch_close_runs')
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('local_date', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('settlement_id', ctx.integer)
        .addColumn('finished_at', 'text')
        .addPrimaryKeyConstraint('batch_close_runs_pk', ['mid', 'local_date']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('disputes'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('record_id', ctx.integer, (c) => c.notNull())
        .addColumn('case_number', 'text', (c) => c.notNull())
        .addColumn('reference_number', 'text', (c) => c.notNull())
        .addColumn('card_first6', 'text', (c) => c.notNull())
        .addColumn('card_last4', 'text', (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addColumn('authorization_code', 'text', (c) => c.notNull())
        .addColumn('cb_type', 'text', (c) => c.notNull())
        .addColumn('cb_type_description', 'text', (c) => c.notNull())
        .addColumn('disposition', 'text', (c) => c.notNull())
        .addColumn('pre_dispute', 'text', (c) => c.notNull())
        .addColumn('reason_code', 'text', (c) => c.notNull())
        .addColumn('reason_code_description', 'text', (c) => c.notNull())
        .addColumn('reason_text', 'text', (c) => c.notNull())
        .addColumn('request_type', 'text', (c) => c.notNull())
        .addColumn('amount_cents', ctx.integer, (c) => c.notNull())
        .addColumn('transaction_date', 'text', (c) => c.notNull())
        .addColumn('report_date', 'text', (c) => c.notNull())
        .addColumn('date_received', 'text', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('loaded_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('disputes_unique', ['mid', 'kind', 'record_id']),
    );
    await ctx.exec(s.createIndex('disputes_by_date').on('disputes').columns(['mid', 'kind', 'report_date']));
    await ctx.exec(
      withId(ctx, s.createTable('merchant_statements'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('statement_id', 'text', (c) => c.notNull().unique())
        .addColumn('statement_date', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('generated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('merchant_statements_unique', ['mid', 'period']),
    );
  },
};
