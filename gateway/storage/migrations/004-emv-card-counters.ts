import type { Migration } from '../migrate';

/**
 * The sandbox issuer's ATC register (schema.ts EmvCardCountersTable): one row per chip card and PAN
 * sequence number holding the highest transaction counter whose ARQC verified.
 */
export const migration004: Migration = {
  version: 4,
  name: 'emv card transaction counters',
  async up(ctx) {
    await ctx.exec(
      ctx.schema
        .createTable('emv_card_counters')
        .addColumn('card_fingerprint', 'text', (c) => c.notNull())
        .addColumn('pan_sequence', 'text', (c) => c.notNull())
        .addColumn('highest_atc', ctx.integer, (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('emv_card_counters_pk', ['card_fingerprint', 'pan_sequence'])
        .addCheckConstraint('emv_card_counters_atc', ctx.raw('highest_atc >= 0 and highest_atc <= 65535')),
    );
  },
};
