import type { Migration } from './types';

/**
 * Tills (issue 20, "Cash"): one cashier's drawer on the lane, from its float to its blind count, and the
 * day's Z reports. A till's cash sales are the journal rows created while it was in the drawer, from
 * `opened_at` to `ended_at` (its hand-over or count): one till is in the drawer at a time (the partial
 * unique index), so those spans never overlap and every cash row belongs to exactly one till. What moves
 * its cash besides sales is a movement (float, paid in, paid out, safe drop, cash refund, no sale) with who
 * did it (`employee`: the session's identity as the core records it) and who approved it.
 *
 * A Z report is kept whole as it was closed (`report`, JSON), so a reprint reads as the first print; the
 * tills it closed carry its number. Tickets gain an index on `closed_at`: the report's tax reads the
 * tickets paid in its period.
 */
export const migration011: Migration = {
  version: 11,
  name: 'tills',
  up(db) {
    db.exec(`
      CREATE TABLE z_reports (
        number INTEGER PRIMARY KEY,
        lane_id TEXT NOT NULL,
        from_at INTEGER NOT NULL,
        until_at INTEGER NOT NULL,
        closed_by TEXT NOT NULL,
        report TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE tills (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        lane_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'handed-over', 'counted', 'closed')),
        employee TEXT NOT NULL,
        opened_at INTEGER NOT NULL,
        ended_at INTEGER,
        ended_by TEXT,
        counted_cents INTEGER,
        count_detail TEXT,
        expected_cents INTEGER,
        over_short_cents INTEGER,
        counted_by TEXT,
        counted_at INTEGER,
        needs_sign_off INTEGER CHECK (needs_sign_off IS NULL OR needs_sign_off IN (0, 1)),
        signed_off_by TEXT,
        signed_off_at INTEGER,
        sign_off_note TEXT,
        z_number INTEGER REFERENCES z_reports (number),
        CHECK ((state = 'open') = (ended_at IS NULL)),
        CHECK ((state IN ('counted', 'closed')) = (counted_cents IS NOT NULL))
      );
      CREATE UNIQUE INDEX tills_one_open ON tills (state) WHERE state = 'open';
      CREATE INDEX tills_state ON tills (state, id);
      CREATE INDEX tills_z ON tills (z_number, id);
      CREATE TABLE till_movements (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        till_id INTEGER NOT NULL REFERENCES tills (id),
        kind TEXT NOT NULL CHECK (kind IN ('float', 'paid-in', 'paid-out', 'safe-drop', 'refund', 'no-sale')),
        amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
        reason TEXT,
        detail TEXT,
        employee TEXT NOT NULL,
        approved_by TEXT,
        utn TEXT REFERENCES journal (utn),
        at INTEGER NOT NULL,
        CHECK (kind <> 'no-sale' OR amount_cents = 0)
      );
      CREATE INDEX till_movements_till ON till_movements (till_id, id);
      CREATE INDEX tickets_closed ON tickets (closed_at);
    `);
  },
};
