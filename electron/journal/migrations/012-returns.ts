import type { Migration } from './types';

/**
 * Returns from a receipt (issue 19): what came back of a sale, line by line, and where its money went.
 *
 * - `returns`: one per return, of a sale (`ticket_id`) or without a receipt (NULL, a manager approved it).
 *   `request_id` is the caller's key for the request: a retry of the same request (a lost answer, a second
 *   press) answers the return already made instead of making a second one (UNIQUE).
 * - `return_lines`: the units returned of each of the sale's lines (`line_no`, its place on the ticket) and
 *   the money and tax they gave back (common/proportional-return.ts). "Never more than was sold across
 *   every return of the sale" is checked against these rows and the new ones written in one transaction.
 * - `return_tenders`: the money going back, one leg per tender of the sale in the cashier's order — a card
 *   refund or void (`utn`: its journal row, numbered before it leaves), cash from the till in the drawer
 *   (`movement_id`), a gift card credit. A leg not done yet keeps its share of the tender reserved, so two
 *   returns never promise the same money twice. `done_at` dates the money for the reports.
 * - Tickets gain the indexes the look-ups page along: the day's sales newest first `(closed_at, ticket_id)`
 *   and a sale by its total (the ticket's JSON total, an expression index).
 */
export const migration012: Migration = {
  version: 12,
  name: 'returns',
  up(db) {
    db.exec(`
      CREATE TABLE returns (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL UNIQUE,
        ticket_id TEXT REFERENCES tickets (ticket_id),
        state TEXT NOT NULL CHECK (state IN ('open', 'done', 'incomplete', 'cancelled')),
        total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
        tax_cents INTEGER NOT NULL CHECK (tax_cents >= 0),
        employee_id INTEGER REFERENCES employees (id),
        employee TEXT NOT NULL,
        approved_by_id INTEGER REFERENCES employees (id),
        approved_by TEXT,
        reason TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX returns_ticket ON returns (ticket_id, id);
      CREATE INDEX returns_created ON returns (created_at, id);
      CREATE TABLE return_lines (
        return_id INTEGER NOT NULL REFERENCES returns (id),
        line_no INTEGER NOT NULL,
        line_id TEXT,
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
        tax_cents INTEGER NOT NULL CHECK (tax_cents >= 0 AND tax_cents <= total_cents),
        PRIMARY KEY (return_id, line_no)
      );
      CREATE TABLE return_tenders (
        return_id INTEGER NOT NULL REFERENCES returns (id),
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('card', 'cash', 'gift-card')),
        tender TEXT NOT NULL,
        original_utn TEXT REFERENCES journal (utn),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'failed', 'unknown', 'cancelled')),
        method TEXT CHECK (method IS NULL OR method IN ('refund', 'void', 'drawer', 'gift-card')),
        utn TEXT REFERENCES journal (utn),
        movement_id INTEGER REFERENCES till_movements (id),
        last4 TEXT CHECK (last4 IS NULL OR length(last4) <= 4),
        card_type TEXT,
        message TEXT,
        done_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (return_id, position)
      );
      CREATE INDEX return_tenders_original ON return_tenders (original_utn, state);
      CREATE INDEX return_tenders_done ON return_tenders (done_at);
      CREATE INDEX tickets_closed_id ON tickets (closed_at, ticket_id);
      CREATE INDEX tickets_total ON tickets (json_extract(data, '$.totalCents'), closed_at, ticket_id);
    `);
  },
};
