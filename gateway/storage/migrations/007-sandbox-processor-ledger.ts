import type { Migration } from '../migrate';
import { withId } from './001-core';

/**
 * The sandbox processor's ledger (schema-sandbox.ts): in the gateway's database so that every gateway
 * process on one PostgreSQL database keeps one ledger, as one acquirer would. Only a gateway started with
 * `--sandbox-ledger` writes it; elsewhere it stays empty.
 */
export const migration007: Migration = {
  version: 7,
  name: 'sandbox processor ledger',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      withId(ctx, s.createTable('sandbox_processor_ledger'))
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('auth_code', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('authorization_kind', 'text', (c) => c.notNull())
        .addColumn('amount_cents', ctx.integer, (c) => c.notNull())
        .addColumn('reference', 'text', (c) => c.notNull())
        .addColumn('slow', ctx.integer, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('sandbox_processor_ledger_amount', ctx.raw('amount_cents >= 0')),
    );
    // An authorization number names one authorization of a merchant: the ledger refuses a second one.
    await ctx.exec(
      "CREATE UNIQUE INDEX sandbox_processor_ledger_one_authorization ON sandbox_processor_ledger (mid, auth_code) WHERE event = 'authorize'",
    );
    await ctx.exec(
      s
        .createIndex('sandbox_processor_ledger_by_code')
        .on('sandbox_processor_ledger')
        .columns(['mid', 'auth_code']),
    );
  },
};
