import type { Migration } from './types';

/**
 * Emailed receipts (issue 20): one row per receipt and address, queued here so a receipt asked for while
 * the mail server is unreachable is sent when it answers, also after a restart, and never twice on the
 * lane's side (the unique (receipt_key, address_key)).
 *
 * The address is personal data and is kept only while it is needed: sealed with the data folder's key
 * (AES-256-GCM, like the store-and-forward card data) while the email waits, erased in the statement that
 * records it sent — a CHECK makes a sent row with an address impossible — and, for an email given up on,
 * erased after the days a manager has to retry it. What stays is `address_masked` (`a***@example.com`) and
 * `address_key`, a keyed hash of the address (HMAC with a key derived from the data folder's key), so the
 * same receipt to the same address is still recognized without the address itself. `content` is the
 * customer copy of the receipt as the printer has it (last four only, never card data), dropped once sent.
 * `message_id` is fixed when the row is made, so every attempt sends the same Message-ID.
 */
export const migration009: Migration = {
  version: 9,
  name: 'email-receipts',
  up(db) {
    db.exec(`
      CREATE TABLE email_receipts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        receipt_key TEXT NOT NULL,
        address_key TEXT NOT NULL,
        address_masked TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        give_up_at INTEGER NOT NULL,
        last_error TEXT,
        address_ciphertext BLOB,
        address_iv BLOB,
        address_tag BLOB,
        content TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER,
        CHECK ((address_ciphertext IS NULL) = (address_iv IS NULL) AND (address_iv IS NULL) = (address_tag IS NULL)),
        CHECK (state <> 'sent' OR (address_ciphertext IS NULL AND content IS NULL)),
        CHECK (state NOT IN ('queued', 'sending') OR (address_ciphertext IS NOT NULL AND content IS NOT NULL))
      );
      CREATE UNIQUE INDEX email_receipts_once ON email_receipts (receipt_key, address_key);
      CREATE INDEX email_receipts_due ON email_receipts (state, next_attempt_at);
      CREATE INDEX email_receipts_finished ON email_receipts (state, finished_at);
      CREATE INDEX email_receipts_created ON email_receipts (created_at, id);
    `);
  },
};
