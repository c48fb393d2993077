import type { Migration } from './types';

/**
 * Store-and-forward queue. The card data needed to forward a sale is held only as AES-256-GCM ciphertext
 * (key file in the data folder, owner-only) and the ciphertext columns are nulled the moment the sale is
 * forwarded; `secure_delete` (set on open) overwrites the freed bytes.
 */
export const migration003: Migration = {
  version: 3,
  name: 'store-and-forward',
  up(db) {
    db.exec(`
      CREATE TABLE saf_queue (
        utn TEXT PRIMARY KEY REFERENCES journal (utn),
        state TEXT NOT NULL CHECK (state IN ('queued', 'forwarding', 'forwarded', 'declined', 'expired', 'failed')),
        amount_cents INTEGER NOT NULL,
        last4 TEXT NOT NULL CHECK (length(last4) <= 4),
        card_type TEXT,
        ciphertext BLOB,
        iv BLOB,
        tag BLOB,
        stored_at INTEGER NOT NULL,
        forwarded_at INTEGER,
        message TEXT
      );
      CREATE INDEX saf_state ON saf_queue (state);
    `);
  },
};
