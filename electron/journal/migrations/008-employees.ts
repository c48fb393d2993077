import type { Migration } from './types';

/**
 * Named employees (issue 20 "People"): each with a role and a PIN of their own, so every journal row, audit
 * line and shift names a person instead of a shared role.
 *
 * - `employees`: never deleted (history refers to them by id), deactivated instead. The PIN is kept as
 *   `pin_lookup`, a keyed slow digest (roles/pins.ts: scrypt under a salt and an HMAC key both derived from
 *   the data folder's `terminal.key`, which is never in the journal). It is deterministic, so the UNIQUE
 *   index both finds the employee a typed PIN belongs to in one look-up and keeps two employees from
 *   sharing a PIN. `pin_state` says where the PIN came from: `own` (the employee chose it), `one-time`
 *   (issued by a manager, to be replaced at the first sign-in, until `pin_expires_at`), `demo` (the sandbox's
 *   1111/9999/7777), `legacy` (below), `none` (deactivated: no PIN works).
 * - The three role PINs of an older journal (`users`, unkeyed scrypt) become three employees named as the
 *   roles were. Their hashes move to `pin_legacy` and `users` is dropped (secure_delete overwrites the
 *   pages). The core wraps each legacy hash under the key at its next start (HMAC of the scrypt output:
 *   no PIN needed, so a copy of the journal alone no longer verifies a PIN), and replaces it with a
 *   `pin_lookup` at that employee's first successful sign-in.
 * - `shifts`: clock-in/clock-out times, at most one open shift per employee.
 * - `journal` and `audit` name the employee who acted and the one who approved it. Rows written before
 *   employees existed keep NULL (nobody can be named for them); audit lines were written by a role, and
 *   each role was one set of hands until now, so they are attributed to the employee that role became.
 */
export const migration008: Migration = {
  version: 8,
  name: 'employees',
  up(db) {
    db.exec(`
      CREATE TABLE employees (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
        role TEXT NOT NULL CHECK (role IN ('cashier', 'manager', 'tech')),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        pin_lookup TEXT UNIQUE,
        pin_state TEXT NOT NULL CHECK (pin_state IN ('own', 'one-time', 'demo', 'legacy', 'none')),
        pin_legacy TEXT,
        pin_expires_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      INSERT INTO employees (name, role, active, pin_lookup, pin_state, pin_legacy, created_at, updated_at)
        SELECT name, role, 1, NULL, 'legacy', pin_hash, updated_at, updated_at FROM users
        ORDER BY CASE role WHEN 'cashier' THEN 1 WHEN 'manager' THEN 2 ELSE 3 END;
      DROP TABLE users;

      CREATE TABLE shifts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        employee_id INTEGER NOT NULL REFERENCES employees (id),
        in_at INTEGER NOT NULL,
        out_at INTEGER,
        CHECK (out_at IS NULL OR out_at >= in_at)
      );
      CREATE UNIQUE INDEX shifts_open ON shifts (employee_id) WHERE out_at IS NULL;
      CREATE INDEX shifts_employee ON shifts (employee_id, in_at);

      ALTER TABLE journal ADD COLUMN employee_id INTEGER REFERENCES employees (id);
      ALTER TABLE journal ADD COLUMN approved_by_id INTEGER REFERENCES employees (id);
      ALTER TABLE audit ADD COLUMN employee_id INTEGER REFERENCES employees (id);
      ALTER TABLE audit ADD COLUMN approved_by_id INTEGER REFERENCES employees (id);
      UPDATE audit SET employee_id = (SELECT id FROM employees e WHERE e.role = audit.role)
        WHERE role IN ('cashier', 'manager', 'tech');
      UPDATE audit SET approved_by_id = (SELECT id FROM employees e WHERE e.role = audit.approved_by)
        WHERE approved_by IN ('cashier', 'manager', 'tech');
    `);
  },
};
