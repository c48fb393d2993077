import type { Migration } from './types';

/**
 * Audit log (who, what, when; never card data), the lane's settings as JSON values, and the role PINs as
 * scrypt hashes (never the PIN itself).
 */
export const migration002: Migration = {
  version: 2,
  name: 'audit-settings-users',
  up(db) {
    db.exec(`
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        role TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL,
        approved_by TEXT
      );
      CREATE INDEX audit_at ON audit (at);
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE users (
        role TEXT PRIMARY KEY CHECK (role IN ('cashier', 'manager', 'tech')),
        name TEXT NOT NULL,
        pin_hash TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
