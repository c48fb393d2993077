import type { Migration } from '../migrate';

/** The login throttle's state moves from process memory into the database (security/login-throttle.ts). */
export const migration005: Migration = {
  version: 5,
  name: 'login throttle per user and address, shared by every process',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      s
        .createTable('login_throttle')
        .addColumn('scope_key', 'text', (c) => c.primaryKey())
        .addColumn('failures', ctx.integer, (c) => c.notNull())
        .addColumn('last_attempt_at', 'text', (c) => c.notNull())
        .addColumn('next_allowed_at', 'text', (c) => c.notNull())
        .addColumn('trusted_key', 'text', (c) => c.notNull())
        .addColumn('trusted_at', 'text', (c) => c.notNull()),
    );
    await ctx.exec(s.createIndex('login_throttle_by_age').on('login_throttle').column('last_attempt_at'));
  },
};
