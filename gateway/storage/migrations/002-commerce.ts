import type { Migration } from '../migrate';
import { withId } from './001-core';

/** Payment links, recurring billing, mobile wallet, signatures (gateway breadth: commerce). */
export const migration002: Migration = {
  version: 2,
  name: 'commerce: payment links, recurring billing, mobile wallet, signatures',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      withId(ctx, s.createTable('payment_links'))
        .addColumn('link_id', 'text', (c) => c.notNull().unique())
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('amount_cents', ctx.integer)
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('active', ctx.integer, (c) => c.notNull())
        .addColumn('created_on', 'text', (c) => c.notNull())
        .addColumn('paid_on', 'text')
        .addColumn('disabled_on', 'text')
        .addColumn('deleted_on', 'text')
        .addColumn('srn', 'text')
        .addColumn('invoice', 'text', (c) => c.notNull())
        .addColumn('forced_payment_method', 'text')
        .addColumn('allowed_payment_schedule', 'text', (c) => c.notNull())
        .addColumn('payment_schedule', 'text', (c) => c.notNull())
        .addColumn('is_open_payment_schedule', ctx.integer, (c) => c.notNull())
        .addColumn('frequency_id', ctx.integer)
        .addColumn('start_date', 'text')
        .addColumn('end_date', 'text')
        .addColumn('recurring_description', 'text', (c) => c.notNull())
        .addColumn('installment_total', ctx.integer)
        .addColumn('paying_utn', 'text')
        .addColumn('paying_since', 'text')
        .addColumn('paying_choice', 'text')
        .addColumn('recurring_billing_id', ctx.integer)
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // Open vs Fixed is decided by the amount alone; the database refuses a row where they disagree.
        .addCheckConstraint(
          'payment_links_type_by_amount',
          ctx.raw(
            "(type = 'Open' AND amount_cents IS NULL) OR (type = 'Fixed' AND amount_cents IS NOT NULL AND amount_cents > 0)",
          ),
        ),
    );
    await ctx.exec(s.createIndex('payment_links_by_mid').on('payment_links').columns(['mid', 'created_on']));

    await ctx.exec(
      withId(ctx, s.createTable('recurring_billings'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('customer_id', ctx.integer, (c) => c.references('customers.id'))
        .addColumn('vault_token_id', ctx.integer, (c) => c.notNull().references('vault_tokens.id'))
        .addColumn('amount_cents', ctx.integer, (c) => c.notNull())
        .addColumn('tax_bp', ctx.integer, (c) => c.notNull())
        .addColumn('surcharge_bp', ctx.integer, (c) => c.notNull())
        .addColumn('card_difference_bp', ctx.integer, (c) => c.notNull())
        .addColumn('frequency_id', ctx.integer, (c) => c.notNull())
        .addColumn('is_installment', ctx.integer, (c) => c.notNull())
        .addColumn('installment_total', ctx.integer, (c) => c.notNull())
        .addColumn('installments_paid', ctx.integer, (c) => c.notNull())
        .addColumn('amount_collected_cents', ctx.integer, (c) => c.notNull())
        .addColumn('anchor_date', 'text', (c) => c.notNull())
        .addColumn('period_index', ctx.integer, (c) => c.notNull())
        .addColumn('next_due_date', 'text')
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('street', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('zip', 'text', (c) => c.notNull())
        .addColumn('customer_ref', 'text', (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('active', ctx.integer, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('consecutive_failures', ctx.integer, (c) => c.notNull())
        .addColumn('payment_link_id', 'text')
        .addColumn('last_run_date', 'text')
        .addColumn('last_run_srn', 'text')
        .addColumn('added_on', 'text', (c) => c.notNull())
        .addColumn('last_modified_on', 'text', (c) => c.notNull())
        .addCheckConstraint(
          'recurring_billings_installments',
          ctx.raw(
            'amount_cents > 0 AND amount_collected_cents >= 0 AND installments_paid >= 0 AND (is_installment = 0 OR installments_paid <= installment_total)',
          ),
        ),
    );
    await ctx.exec(
      s.createIndex('recurring_billings_due').on('recurring_billings').columns(['active', 'next_due_date']),
    );
    await ctx.exec(s.createIndex('recurring_billings_by_mid').on('recurring_billings').columns(['mid']));

    await ctx.exec(
      withId(ctx, s.createTable('recurring_runs'))
        .addColumn('billing_id', ctx.integer, (c) => c.notNull().references('recurring_billings.id'))
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('utn', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('payment_id', ctx.integer, (c) => c.references('payments.id'))
        .addColumn('charged_cents', ctx.integer, (c) => c.notNull())
        .addColumn('response_code', ctx.integer)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // One charge per billing and due date, whatever process or restart tries again.
        .addUniqueConstraint('recurring_runs_once', ['billing_id', 'due_date'])
        .addUniqueConstraint('recurring_runs_utn', ['mid', 'utn']),
    );
    await ctx.exec(s.createIndex('recurring_runs_by_state').on('recurring_runs').columns(['state']));

    await ctx.exec(
      withId(ctx, s.createTable('mobile_wallet_transactions'))
        .addColumn('wallet_id', 'text', (c) => c.notNull().unique())
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('business_customer_id', 'text')
        .addColumn('daily_transaction_id', ctx.integer)
        .addColumn('ecommerce_id', 'text')
        .addColumn('ecommerce_status', 'text', (c) => c.notNull())
        .addColumn('fee_cents', ctx.integer)
        .addColumn('net_amount_cents', ctx.integer)
        .addColumn('reference_number', 'text')
        .addColumn('sub_total_cents', ctx.integer)
        .addColumn('tax_cents', ctx.integer)
        .addColumn('total_cents', ctx.integer)
        .addColumn('total_refunded_cents', ctx.integer)
        .addColumn('transaction_date', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        // An EcommerceId names one order of the merchant (NULLs do not collide in either dialect).
        .addUniqueConstraint('mobile_wallet_ecommerce_unique', ['mid', 'ecommerce_id']),
    );

    await ctx.exec(
      withId(ctx, s.createTable('signatures'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('payment_id', ctx.integer, (c) => c.notNull().references('payments.id'))
        .addColumn('srn', 'text', (c) => c.notNull())
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('size_bytes', ctx.integer, (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // One signature per transaction: a retried Add with the same image is answered, a different one refused.
        .addUniqueConstraint('signatures_one_per_payment', ['payment_id']),
    );
    await ctx.exec(s.createIndex('signatures_by_mid').on('signatures').columns(['mid', 'srn']));
  },
};
