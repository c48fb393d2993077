import type { Migration } from './types';

/**
 * Indexes in the order the journal is read (issue 22, years of data): the lists and the day's figures
 * walk `(created_at, seq)` newest first, last-four search `(last4, created_at, seq)`, a gift-card load's
 * earlier attempts `(ticket_id, seq)`, a tender's entry `(tender_id, seq)`, the reversals and the
 * store-and-forward lists by their time. Without them each walked the whole journal backwards by `seq`, filtering as it went.
 * `journal_created` is superseded by `journal_created_seq` (same leading column).
 */
export const migration007: Migration = {
  version: 7,
  name: 'query-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX journal_created_seq ON journal (created_at, seq);
      DROP INDEX journal_created;
      CREATE INDEX journal_last4 ON journal (last4, created_at, seq);
      CREATE INDEX journal_ticket ON journal (ticket_id, seq);
      CREATE INDEX journal_tender ON journal (tender_id, seq);
      CREATE INDEX reversals_created ON reversals (created_at);
      CREATE INDEX saf_stored ON saf_queue (stored_at);
    `);
  },
};
