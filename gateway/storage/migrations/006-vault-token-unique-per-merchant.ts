import type { Migration } from '../migrate';
import { withId } from './001-core';

/**
 * A vault token was unique across the whole gateway, so GetTokenForCard's ExistingToken answered "already
 * exists" for a value another merchant had stored: one merchant could probe another's tokens. It becomes
 * unique per merchant, `(mid, token)`, which every lookup already scopes by.
 */
export const migration006: Migration = {
  version: 6,
  name: 'vault token unique per merchant, not across merchants',
  rebuildsTables: true,
  async up(ctx) {
    if (ctx.dialect === 'postgres') {
      // The constraint PostgreSQL named for 001's column-level UNIQUE.
      await ctx.exec('ALTER TABLE vault_tokens DROP CONSTRAINT vault_tokens_token_key');
      await ctx.exec('ALTER TABLE vault_tokens ADD CONSTRAINT vault_tokens_mid_token UNIQUE (mid, token)');
      return;
    }
    // SQLite cannot drop a column's UNIQUE: the table is rebuilt by its documented procedure (new table,
    // copy, drop the old, rename), with foreign keys off for it (`rebuildsTables`): the recurring billings
    // that name vault_tokens name the new table, with the same ids, and the runner checks they all match.
    const s = ctx.schema;
    await ctx.exec(
      withId(ctx, s.createTable('vault_tokens_new'))
        .addColumn('mid', ctx.integer, (c) => c.notNull().references('merchants.mid'))
        .addColumn('user_id', ctx.integer, (c) => c.notNull())
        .addColumn('processor', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
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
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('vault_tokens_mid_token', ['mid', 'token']),
    );
    const columns =
      'id, mid, user_id, processor, token, identifier, fingerprint, pan_ciphertext, first6, last4, ' +
      'exp_mmyy, card_type, holder_name, street, zip, client_ref, description, active, created_at';
    await ctx.exec(`INSERT INTO vault_tokens_new (${columns}) SELECT ${columns} FROM vault_tokens`);
    await ctx.exec('DROP TABLE vault_tokens');
    await ctx.exec('ALTER TABLE vault_tokens_new RENAME TO vault_tokens');
    await ctx.exec(
      s.createIndex('vault_by_owner').on('vault_tokens').columns(['mid', 'user_id', 'fingerprint']),
    );
  },
};
