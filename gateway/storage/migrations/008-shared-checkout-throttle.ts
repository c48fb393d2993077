import type { Migration } from '../migrate';

/**
 * The hosted checkout's card-testing throttle moves from process memory into the database
 * (hosted/checkout-throttle.ts), so every gateway process on one PostgreSQL database counts the same
 * declines; and the payments still in progress get an index of their own, so the recovery sweep every
 * process runs once a minute (domain/recovery.ts) reads those few rows, not the whole payments table.
 */
export const migration008: Migration = {
  version: 8,
  name: 'checkout throttle shared by every process; payments in progress indexed for the sweep',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      s
        .createTable('checkout_throttle')
        .addColumn('scope_key', 'text', (c) => c.primaryKey())
        .addColumn('failures', ctx.integer, (c) => c.notNull())
        .addColumn('window_started_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(
      s.createIndex('checkout_throttle_by_age').on('checkout_throttle').column('window_started_at'),
    );
    // The sweep's condition implies this predicate (pending, or a refund whose cancel is at the processor).
    await ctx.exec(
      "CREATE INDEX payments_in_progress ON payments (updated_at) WHERE status = 'pending' OR reversal_requested = 1",
    );
  },
};
