import type { CreateTableBuilder } from 'kysely';
import type { Migration, MigrationContext } from '../migrate';

/** An integer id the database assigns: AUTOINCREMENT in SQLite (never reused), identity in PostgreSQL. */
export function withId<T extends string>(ctx: MigrationContext, table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', ctx.integer, (c) =>
    ctx.dialect === 'postgres'
      ? c.primaryKey().generatedByDefaultAsIdentity()
      : c.primaryKey().autoIncrement(),
  );
}

export const migration001: Migration = {
  version: 1,
  name: 'core: merchants, users, cashiers, payments, batches, vault',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      s
        .createTable('merchants')
        .addColumn('mid', ctx.integer, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('credit_processor', 'text', (c) => c.notNull())
        .addColumn('token_lookup_supported', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s
        .createTable('business_settings')
        .addColumn('mid', ctx.integer, (c) => c.primaryKey().references('merchants.mid'))
        .addColumn('card_difference_enabled', ctx.integer, (c) => c.notNull())
        .addColumn('card_difference_percent_bp', ctx.integer, (c) => c.notNull())
        .addColumn('surcharge_enabled', ctx.integer, (c) => c.notNull())
        .addColumn('surcharge_percent_bp', ctx.integer, (c) => c.notNull())
        .addColumn('three_ds_enabled', ctx.integer, (c) => c.notNull()),
    );
    await ctx.exec(
      s
        .createTable('applications')
        .addColumn('app_key', 'text', (c) => c.notNull())
        .addColumn('app_type', ctx.integer, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('applications_pk', ['app_key', 'app_type']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('users'))
        .addColumn('user_name', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('disabled', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s
        .createTable('cashiers')
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('is_enable', ctx.integer, (c) => c.notNull())
        .addColumn('can_sale', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('cashiers_pk', ['mid', 'cid']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('batches'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('batch_number', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('settled_at', 'text')
        .addColumn('closed_at', 'text')
        .addColumn('settlement_id', ctx.integer)
        .addUniqueConstraint('batches_number_unique', ['mid', 'batch_number']),
    );
    // One open batch per merchant, enforced by the database (also across gateway processes).
    await ctx.exec("CREATE UNIQUE INDEX batches_one_open ON batches (mid) WHERE status = 'open'");
    await ctx.exec(
      withId(ctx, s.createTable('settlements'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('amount_settled_cents', ctx.integer, (c) => c.notNull())
        .addColumn('batch_numbers', 'text', (c) => c.notNull())
        .addColumn('completed_on', 'text', (c) => c.notNull()),
    );
    await ctx.exec(s.createIndex('settlements_by_mid').on('settlements').columns(['mid', 'completed_on']));
    await ctx.exec(
      s
        .createTable('transaction_numbers')
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('utn', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('payment_id', ctx.integer)
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('transaction_numbers_pk', ['mid', 'utn']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('payments'))
        .addColumn('srn', 'text', (c) => c.notNull().unique())
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('utn', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('transaction_type', ctx.integer, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('preauth_state', 'text')
        .addColumn('requested_cents', ctx.integer, (c) => c.notNull())
        .addColumn('amount_cents', ctx.integer, (c) => c.notNull())
        .addColumn('tax_cents', ctx.integer, (c) => c.notNull())
        .addColumn('tip_cents', ctx.integer, (c) => c.notNull())
        .addColumn('surcharge_cents', ctx.integer, (c) => c.notNull())
        .addColumn('card_difference_cents', ctx.integer, (c) => c.notNull())
        .addColumn('cashback_cents', ctx.integer, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addColumn('first6', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('entry_mode', 'text', (c) => c.notNull())
        .addColumn('pos_code', 'text', (c) => c.notNull())
        .addColumn('auth_code', 'text', (c) => c.notNull())
        .addColumn('avs_result', 'text', (c) => c.notNull())
        .addColumn('cvn_result', 'text', (c) => c.notNull())
        .addColumn('response_code', ctx.integer, (c) => c.notNull())
        .addColumn('response_msg', 'text', (c) => c.notNull())
        .addColumn('parent_id', ctx.integer, (c) => c.references('payments.id'))
        .addColumn('refunded_cents', ctx.integer, (c) => c.notNull())
        .addColumn('pending_refund_cents', ctx.integer, (c) => c.notNull())
        .addColumn('batch_id', ctx.integer, (c) => c.references('batches.id'))
        .addColumn('reversal_requested', ctx.integer, (c) => c.notNull())
        .addColumn('is_test', ctx.integer, (c) => c.notNull())
        .addColumn('invoice', 'text')
        .addColumn('order_ref', 'text')
        .addColumn('customer_id', ctx.integer)
        .addColumn('token_id', ctx.integer)
        .addColumn('payment_link_id', 'text')
        .addColumn('source', 'text')
        .addColumn('balance_cents', ctx.integer)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('payments_utn_unique', ['mid', 'utn'])
        // Refunds in total never exceed the original: the database refuses what a bug might let through.
        .addCheckConstraint(
          'payments_refund_ceiling',
          ctx.raw(
            'refunded_cents >= 0 AND pending_refund_cents >= 0 AND refunded_cents + pending_refund_cents <= amount_cents + tax_cents + tip_cents + surcharge_cents + card_difference_cents',
          ),
        ),
    );
    await ctx.exec(
      s
        .createIndex('payments_duplicates')
        .on('payments')
        .columns(['mid', 'fingerprint', 'amount_cents', 'created_at']),
    );
    await ctx.exec(s.createIndex('payments_by_batch').on('payments').columns(['batch_id']));
    await ctx.exec(s.createIndex('payments_by_parent').on('payments').columns(['parent_id']));
    await ctx.exec(s.createIndex('payments_by_mid_time').on('payments').columns(['mid', 'created_at']));
    await ctx.exec(
      withId(ctx, s.createTable('vault_tokens'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('processor', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('identifier', 'text', (c) => c.notNull().unique())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('pan_ciphertext', 'text', (c) => c.notNull())
        .addColumn('first6', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('exp_mmyy', 'text', (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addColumn('holder_name', 'text', (c) => c.notNull())
        .addColumn('street', 'text', (c) => c.notNull())
        .addColumn('zip', 'text', (c) => c.notNull())
        .addColumn('client_ref', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('active', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s.createIndex('vault_by_owner').on('vault_tokens').columns(['mid', 'user_id', 'fingerprint']),
    );
    await ctx.exec(
      withId(ctx, s.createTable('customers'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('customer_ref', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('zip', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', ctx.integer, (c) => c.notNull())
        .addColumn('invoice', 'text', (c) => c.notNull())
        .addColumn('po', 'text', (c) => c.notNull())
        .addColumn('added_on', 'text', (c) => c.notNull()),
    );
    await ctx.exec(s.createIndex('customers_by_mid').on('customers').columns(['mid']));
  },
};
