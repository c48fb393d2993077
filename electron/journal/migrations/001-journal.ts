import type { Migration } from './types';

/**
 * The write-ahead journal (docs/decisions.md#write-ahead-journal): one row per request that can move money,
 * committed before the request leaves. No PAN, track, CVN or PIN block has a column here: last four only.
 * `lane_counter` holds the last UserTransactionNumber sequence used, so a number is never handed out twice,
 * also after a crash (it is bumped in the same transaction that inserts the row).
 */
export const migration001: Migration = {
  version: 1,
  name: 'journal',
  up(db) {
    db.exec(`
      CREATE TABLE lane_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_seq INTEGER NOT NULL,
        epoch TEXT NOT NULL
      );
      CREATE TABLE journal (
        utn TEXT PRIMARY KEY,
        seq INTEGER NOT NULL UNIQUE,
        lane_id TEXT NOT NULL,
        ticket_id TEXT,
        tender_id TEXT,
        operation TEXT NOT NULL,
        state TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        tip_cents INTEGER NOT NULL DEFAULT 0,
        cashback_cents INTEGER NOT NULL DEFAULT 0,
        tax_cents INTEGER NOT NULL DEFAULT 0,
        approved_cents INTEGER NOT NULL DEFAULT 0,
        refunded_cents INTEGER NOT NULL DEFAULT 0,
        last4 TEXT CHECK (last4 IS NULL OR length(last4) <= 4),
        card_type TEXT,
        entry_mode TEXT,
        auth_code TEXT,
        srn TEXT,
        original_srn TEXT,
        gateway_code INTEGER,
        message TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX journal_state ON journal (state);
      CREATE INDEX journal_created ON journal (created_at);
      CREATE INDEX journal_srn ON journal (srn);
      CREATE TABLE reversals (
        utn TEXT PRIMARY KEY REFERENCES journal (utn),
        state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        done_at INTEGER
      );
      CREATE INDEX reversals_due ON reversals (state, next_attempt_at);
      CREATE TABLE tickets (
        ticket_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        data TEXT NOT NULL,
        opened_at INTEGER NOT NULL,
        closed_at INTEGER
      );
      CREATE INDEX tickets_status ON tickets (status);
    `);
  },
};
