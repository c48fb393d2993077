import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import type {
  JournalOperation,
  JournalState,
  ReturnFiguresView,
  ReturnMethod,
  TillMovementView,
  TillReportView,
  TillView,
  ZSummaryView,
} from '../bridge/contract';
import { ownerOnlyFile } from '../util/owner-only';
import {
  EmailReceiptStore,
  type EmailEnqueueResult,
  type EmailReceiptRow,
  type EmailReceiptWork,
  type NewEmailReceipt,
} from './email-receipt-store';
import { journalMigrations } from './migrations/index';
import type { Migration } from './migrations/types';
import {
  ReturnStore,
  type FindQuery,
  type FoundSales,
  type ReserveInput,
  type ReturnBy,
  type ReturnRecord,
  type SaleForReturn,
} from './return-store';
import type { ReturnPlan } from '../returns/return-rules';
import {
  TillStore,
  type DayReportInput,
  type TillCountInput,
  type TillMoveInput,
  type TillOpen,
  type TillRefundInput,
} from './till-store';

/**
 * The journal's synchronous store. It runs inside the journal worker thread (journal-worker.ts), never on
 * the core's event loop: better-sqlite3 blocks while SQLite fsyncs (docs/decisions.md#off-the-ui-thread).
 * Every query is a prepared statement with bound parameters; no value is ever spliced into SQL text.
 */

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`journal schema version ${found} is newer than this build knows (${known}); refusing to open it`);
    this.name = 'SchemaTooNewError';
  }
}

export type JournalRow = {
  utn: string;
  seq: number;
  laneId: string;
  ticketId: string | null;
  tenderId: string | null;
  operation: JournalOperation;
  state: JournalState;
  amountCents: number;
  tipCents: number;
  cashBackCents: number;
  taxCents: number;
  approvedCents: number;
  refundedCents: number;
  last4: string | null;
  cardType: string | null;
  entryMode: string | null;
  authCode: string | null;
  srn: string | null;
  originalSrn: string | null;
  gatewayCode: number | null;
  message: string | null;
  /** A contact chip sale: the card's answer to the issuer's approval (TC confirms it, AAC refuses it). */
  cardDecision: 'TC' | 'AAC' | null;
  /** The Issuer Script Results (9F5B) the card reported, upper-case hex: kept with the transaction. */
  scriptResults: string | null;
  /** The employee who did it (null on rows written before employees existed, and by the terminal itself). */
  employeeId: number | null;
  /** The manager who approved it for them, when someone else's approval was needed and given. */
  approvedById: number | null;
  createdAt: number;
  updatedAt: number;
};

/** What is known before the request leaves. Deliberately no field for a PAN, track or PIN block. */
export type NewEntry = {
  laneId: string;
  operation: JournalOperation;
  amountCents: number;
  tipCents?: number;
  cashBackCents?: number;
  taxCents?: number;
  last4?: string | null;
  cardType?: string | null;
  entryMode?: string | null;
  ticketId?: string | null;
  tenderId?: string | null;
  originalSrn?: string | null;
  /** Initial state; `sending` unless the entry never goes to the gateway (cash). */
  state?: JournalState;
  approvedCents?: number;
  employeeId?: number | null;
  approvedById?: number | null;
  now: number;
};

export type EntryPatch = Partial<
  Pick<
    JournalRow,
    | 'state'
    | 'approvedCents'
    | 'refundedCents'
    | 'last4'
    | 'cardType'
    | 'entryMode'
    | 'authCode'
    | 'srn'
    | 'gatewayCode'
    | 'message'
    | 'amountCents'
    | 'tipCents'
    | 'cardDecision'
    | 'scriptResults'
  >
>;

export type ReversalRow = {
  utn: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
  doneAt: number | null;
  operation: JournalOperation;
  amountCents: number;
};

/** Where a page of the newest-first list ends: the next page starts after this row. */
export type JournalCursor = { createdAt: number; seq: number };

/**
 * A newest-first list, read along an index (journal_created_seq, journal_last4, journal_state): `since`
 * bounds it from below, `before` continues after a page, `limit` caps a page. An amount search walks
 * only what `since` (or `last4`) bounds, so it needs one of them.
 */
export type JournalQuery = {
  since?: number;
  /** Up to (excluding) this instant: a report's range. */
  until?: number;
  last4?: string;
  states?: JournalState[];
  before?: JournalCursor;
  amountCents?: number;
  limit?: number;
};

/** The rows of a range grouped as the money figures read them (common/money-figures.ts). */
export type FigureGroup = {
  operation: JournalOperation;
  state: JournalState;
  cardType: string | null;
  count: number;
  approvedCents: number;
  cashBackCents: number;
  tipCents: number;
};

/** The setting that holds the last batch close this lane has seen (its own, or the gateway's automatic one). */
export const LAST_CLOSE_SETTING = 'lastSettledAt';

/** The journal's side of the batch close's reconciliation, read in one request (batch/batch-close.ts). */
export type BatchJournalSide = {
  /** When the open batch began: the later of the last close kept here and the gateway's. */
  openedAt: number;
  /** Rows since then, and older rows still unresolved (an unknown from before the last close). */
  rows: JournalRow[];
  /** Reversals not yet acknowledged, and the newest the gateway refused for good. */
  reversals: ReversalRow[];
  /** The epoch of this journal's numbers: an approval under it that the journal lacks is an orphan. */
  epoch: string | undefined;
  /** Sales stored offline and not forwarded yet. */
  safQueued: number;
};

export type TicketRecord = {
  ticketId: string;
  status: string;
  data: string;
  openedAt: number;
  closedAt: number | null;
};

export type AuditRow = {
  id: number;
  at: number;
  role: string;
  action: string;
  detail: string;
  approvedBy: string | null;
  employeeId: number | null;
  approvedById: number | null;
};

export type PinState = 'own' | 'one-time' | 'demo' | 'legacy' | 'none';

/** An employee as the journal keeps them (migration 008); never a PIN, only its keyed digest. */
export type EmployeeRow = {
  id: number;
  name: string;
  role: string;
  active: boolean;
  pinLookup: string | null;
  pinState: PinState;
  pinLegacy: string | null;
  pinExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** When the employee's open shift began; null when clocked out. */
  clockedInAt: number | null;
};

export type EmployeePin = {
  lookup: string | null;
  state: PinState;
  legacy: string | null;
  expiresAt: number | null;
};

export type SafRow = {
  utn: string;
  state: 'queued' | 'forwarding' | 'forwarded' | 'declined' | 'expired' | 'failed';
  amountCents: number;
  last4: string;
  cardType: string | null;
  storedAt: number;
  forwardedAt: number | null;
  message: string | null;
};

export type SafSealed = { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array };

type SqlJournal = {
  utn: string;
  seq: number;
  lane_id: string;
  ticket_id: string | null;
  tender_id: string | null;
  operation: JournalOperation;
  state: JournalState;
  amount_cents: number;
  tip_cents: number;
  cashback_cents: number;
  tax_cents: number;
  approved_cents: number;
  refunded_cents: number;
  last4: string | null;
  card_type: string | null;
  entry_mode: string | null;
  auth_code: string | null;
  srn: string | null;
  original_srn: string | null;
  gateway_code: number | null;
  message: string | null;
  card_decision: 'TC' | 'AAC' | null;
  script_results: string | null;
  employee_id: number | null;
  approved_by_id: number | null;
  created_at: number;
  updated_at: number;
};

const FIGURE_COLUMNS = `operation, state, card_type, count(*) AS n, sum(approved_cents) AS approved,
  sum(cashback_cents) AS cashback, sum(tip_cents) AS tip`;

type SqlFigures = {
  operation: JournalOperation;
  state: JournalState;
  card_type: string | null;
  n: number;
  approved: number;
  cashback: number;
  tip: number;
};

function toRow(r: SqlJournal): JournalRow {
  return {
    utn: r.utn,
    seq: r.seq,
    laneId: r.lane_id,
    ticketId: r.ticket_id,
    tenderId: r.tender_id,
    operation: r.operation,
    state: r.state,
    amountCents: r.amount_cents,
    tipCents: r.tip_cents,
    cashBackCents: r.cashback_cents,
    taxCents: r.tax_cents,
    approvedCents: r.approved_cents,
    refundedCents: r.refunded_cents,
    last4: r.last4,
    cardType: r.card_type,
    entryMode: r.entry_mode,
    authCode: r.auth_code,
    srn: r.srn,
    originalSrn: r.original_srn,
    gatewayCode: r.gateway_code,
    message: r.message,
    cardDecision: r.card_decision,
    scriptResults: r.script_results,
    employeeId: r.employee_id,
    approvedById: r.approved_by_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const PATCH_COLUMNS: Record<keyof EntryPatch, string> = {
  state: 'state',
  approvedCents: 'approved_cents',
  refundedCents: 'refunded_cents',
  last4: 'last4',
  cardType: 'card_type',
  entryMode: 'entry_mode',
  authCode: 'auth_code',
  srn: 'srn',
  gatewayCode: 'gateway_code',
  message: 'message',
  amountCents: 'amount_cents',
  tipCents: 'tip_cents',
  cardDecision: 'card_decision',
  scriptResults: 'script_results',
};

// rule: lane-transaction-number
/** `L1-mhz3k2a1q7f0-42`: lane, the journal's creation stamp (base 36), and the persisted counter. */
export function formatUtn(laneId: string, epoch: string, seq: number): string {
  return `${laneId}-${epoch}-${seq}`;
}

/** Opens (creating and migrating) a journal database with the pragmas of docs/decisions.md#durability. */
export function openJournalDatabase(
  path: string,
  migrations: readonly Migration[] = journalMigrations,
): Database.Database {
  // Employees' PIN digests, settings and sealed card data: the file (and so its WAL and SHM) is 0600.
  if (path !== ':memory:' && path !== '') ownerOnlyFile(path, [`${path}-wal`, `${path}-shm`]);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // rule: journal-crash-survival
  // better-sqlite3 opens an existing WAL database with synchronous=NORMAL, which can lose the last
  // commits on power loss: the journal's promise needs every commit on disk before the request leaves.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Freed pages (forwarded store-and-forward ciphertext) are overwritten, not left on disk.
  db.pragma('secure_delete = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

/** Applies the pending migrations, each in its own transaction; refuses a database from a newer build. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = journalMigrations): number {
  const current = Number(db.pragma('user_version', { simple: true }));
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (current > known) throw new SchemaTooNewError(current, known);
  let applied = 0;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      // user_version cannot take a bound parameter; the value is an integer from our own list.
      db.pragma(`user_version = ${Math.trunc(m.version)}`);
    })();
    applied += 1;
  }
  return applied;
}

export class JournalStore {
  readonly db: Database.Database;
  private readonly stmt;
  /** Statements built from a shape (UPDATE by column set, list by filters): prepared once each. */
  private readonly updates = new Map<string, Database.Statement>();
  /** The tills (till-store.ts): their methods are the journal's below, so the worker serves them alike. */
  private readonly till: TillStore;
  /** The emailed-receipt queue (migration 009): its own file, reached through the `email*` methods. */
  private readonly emails: EmailReceiptStore;
  /** Returns from a receipt (return-store.ts), served the same way. */
  private readonly returns: ReturnStore;

  constructor(db: Database.Database) {
    this.db = db;
    this.emails = new EmailReceiptStore(db);
    this.stmt = {
      counter: db.prepare<[], { last_seq: number; epoch: string }>(
        'SELECT last_seq, epoch FROM lane_counter WHERE id = 1',
      ),
      initCounter: db.prepare<[string]>('INSERT INTO lane_counter (id, last_seq, epoch) VALUES (1, 0, ?)'),
      bumpCounter: db.prepare<[number]>('UPDATE lane_counter SET last_seq = ? WHERE id = 1'),
      insert: db.prepare(
        `INSERT INTO journal (utn, seq, lane_id, ticket_id, tender_id, operation, state, amount_cents, tip_cents,
           cashback_cents, tax_cents, approved_cents, last4, card_type, entry_mode, original_srn, employee_id, approved_by_id,
           created_at, updated_at)
         VALUES (@utn, @seq, @lane_id, @ticket_id, @tender_id, @operation, @state, @amount_cents, @tip_cents,
           @cashback_cents, @tax_cents, @approved_cents, @last4, @card_type, @entry_mode, @original_srn, @employee_id,
           @approved_by_id, @now, @now)`,
      ),
      get: db.prepare<[string], SqlJournal>('SELECT * FROM journal WHERE utn = ?'),
      bySrn: db.prepare<[string], SqlJournal>(
        "SELECT * FROM journal WHERE srn = ? AND operation NOT IN ('refund', 'void') ORDER BY seq LIMIT 1",
      ),
      inState: db.prepare<[string], SqlJournal>('SELECT * FROM journal WHERE state = ? ORDER BY seq'),
      byTender: db.prepare<[string], SqlJournal>(
        'SELECT * FROM journal WHERE tender_id = ? ORDER BY seq DESC LIMIT 1',
      ),
      byTicket: db.prepare<[string, string], SqlJournal>(
        'SELECT * FROM journal WHERE ticket_id = ? AND operation = ? ORDER BY seq',
      ),
      figuresSince: db.prepare<[number], SqlFigures>(
        `SELECT ${FIGURE_COLUMNS} FROM journal WHERE created_at >= ? GROUP BY operation, state, card_type`,
      ),
      figuresBetween: db.prepare<[number, number], SqlFigures>(
        `SELECT ${FIGURE_COLUMNS} FROM journal WHERE created_at >= ? AND created_at < ?
         GROUP BY operation, state, card_type`,
      ),
      addReversal: db.prepare(
        `INSERT INTO reversals (utn, state, attempts, next_attempt_at, created_at) VALUES (?, 'pending', 0, ?, ?)
         ON CONFLICT (utn) DO UPDATE SET state = 'pending', next_attempt_at = excluded.next_attempt_at, done_at = NULL`,
      ),
      dueReversals: db.prepare<[number, number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'pending' AND r.next_attempt_at <= ? ORDER BY r.next_attempt_at LIMIT ?`,
      ),
      pendingReversals: db.prepare<[], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'pending' ORDER BY r.created_at`,
      ),
      failedReversals: db.prepare<[number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         WHERE r.state = 'failed' ORDER BY r.next_attempt_at DESC LIMIT ?`,
      ),
      allReversals: db.prepare<[number], SqlReversal>(
        `SELECT r.*, j.operation, j.amount_cents FROM reversals r JOIN journal j ON j.utn = r.utn
         ORDER BY r.created_at DESC LIMIT ?`,
      ),
      reversalAttempt: db.prepare(
        'UPDATE reversals SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE utn = ?',
      ),
      reversalClose: db.prepare(
        'UPDATE reversals SET state = ?, done_at = ?, last_error = ?, attempts = attempts + 1 WHERE utn = ?',
      ),
      retryAll: db.prepare("UPDATE reversals SET next_attempt_at = ? WHERE state = 'pending'"),
      saveTicket: db.prepare(
        `INSERT INTO tickets (ticket_id, status, data, opened_at, closed_at) VALUES (@ticketId, @status, @data, @openedAt, @closedAt)
         ON CONFLICT (ticket_id) DO UPDATE SET status = excluded.status, data = excluded.data, closed_at = excluded.closed_at`,
      ),
      getTicket: db.prepare<[string], SqlTicket>('SELECT * FROM tickets WHERE ticket_id = ?'),
      openTickets: db.prepare<[], SqlTicket>(
        "SELECT * FROM tickets WHERE status = 'open' ORDER BY opened_at",
      ),
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: db.prepare(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      audit: db.prepare(
        'INSERT INTO audit (at, role, action, detail, approved_by, employee_id, approved_by_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      auditList: db.prepare<[number], SqlAudit>('SELECT * FROM audit ORDER BY id DESC LIMIT ?'),
      // One row per person the store ever employed: read whole (the roles keep them in memory).
      employees: db.prepare<[], SqlEmployee>(
        `SELECT e.*, s.in_at AS clocked_in_at FROM employees e
         LEFT JOIN shifts s ON s.employee_id = e.id AND s.out_at IS NULL ORDER BY e.id`,
      ),
      addEmployee: db.prepare(
        `INSERT INTO employees (name, role, active, pin_lookup, pin_state, pin_legacy, pin_expires_at, created_at, updated_at)
         VALUES (@name, @role, 1, @lookup, @state, NULL, @expiresAt, @now, @now)`,
      ),
      updateEmployee: db.prepare(
        `UPDATE employees SET name = coalesce(@name, name), role = coalesce(@role, role),
           active = coalesce(@active, active), updated_at = @now WHERE id = @id`,
      ),
      setEmployeePin: db.prepare(
        `UPDATE employees SET pin_lookup = @lookup, pin_state = @state, pin_legacy = @legacy,
           pin_expires_at = @expiresAt, updated_at = @now WHERE id = @id`,
      ),
      clockIn: db.prepare('INSERT INTO shifts (employee_id, in_at) VALUES (?, ?)'),
      clockOut: db.prepare('UPDATE shifts SET out_at = ? WHERE employee_id = ? AND out_at IS NULL'),
      safInsert: db.prepare(
        `INSERT INTO saf_queue (utn, state, amount_cents, last4, card_type, ciphertext, iv, tag, stored_at)
         VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
      ),
      safList: db.prepare<[number], SqlSaf>(
        'SELECT utn, state, amount_cents, last4, card_type, stored_at, forwarded_at, message FROM saf_queue ORDER BY stored_at DESC LIMIT ?',
      ),
      safQueued: db.prepare<[], SqlSaf>(
        "SELECT utn, state, amount_cents, last4, card_type, stored_at, forwarded_at, message FROM saf_queue WHERE state IN ('queued', 'forwarding') ORDER BY stored_at",
      ),
      safExposure: db.prepare<[], { total: number | null; n: number }>(
        "SELECT SUM(amount_cents) AS total, COUNT(*) AS n FROM saf_queue WHERE state IN ('queued', 'forwarding')",
      ),
      safSealed: db.prepare<[string], { ciphertext: Buffer | null; iv: Buffer | null; tag: Buffer | null }>(
        'SELECT ciphertext, iv, tag FROM saf_queue WHERE utn = ?',
      ),
      safState: db.prepare('UPDATE saf_queue SET state = ?, message = ? WHERE utn = ?'),
      safFinish: db.prepare(
        'UPDATE saf_queue SET state = ?, message = ?, forwarded_at = ?, ciphertext = NULL, iv = NULL, tag = NULL WHERE utn = ?',
      ),
    };
    this.till = new TillStore(db, {
      figureGroups: (since, until) => this.figureGroups(since, until),
      cashRow: (utn) => this.get(utn),
      setRefunded: (utn, refundedCents, now) => void this.update(utn, { refundedCents }, now),
      returnFigures: (since, until) => this.returns.figures(since, until),
    });
    this.returns = new ReturnStore(
      db,
      { getTicket: (id) => this.getTicket(id), row: (utn) => this.get(utn) },
      this.till,
    );
  }

  static open(path: string): JournalStore {
    return new JournalStore(openJournalDatabase(path));
  }

  close(): void {
    this.db.close();
  }

  // --- UserTransactionNumbers and entries

  /** The counter's epoch, creating the counter row on first use. */
  private counter(now: number): { lastSeq: number; epoch: string } {
    const row = this.stmt.counter.get();
    if (row) return { lastSeq: row.last_seq, epoch: row.epoch };
    // The creation time in milliseconds plus four random base-36 digits: two journals with one lane id
    // created in the same second (a data folder reset twice, a cloned lane, two test lanes) would
    // otherwise number their sales alike, and the gateway refuses the second as a reused number.
    const epoch = `${Math.floor(now).toString(36)}${randomInt(36 ** 4)
      .toString(36)
      .padStart(4, '0')}`;
    this.stmt.initCounter.run(epoch);
    return { lastSeq: 0, epoch };
  }

  // rule: journal-write-ahead
  /**
   * Allocates the next UserTransactionNumber and inserts the entry, in one transaction: once this returns
   * the row is on disk (synchronous=FULL) and the request may leave. A crash before commit loses both the
   * number and the row, and that number was never sent.
   */
  allocate(entry: NewEntry): JournalRow {
    return this.db.transaction(() => {
      const { lastSeq, epoch } = this.counter(entry.now);
      const seq = lastSeq + 1;
      this.stmt.bumpCounter.run(seq);
      const utn = formatUtn(entry.laneId, epoch, seq);
      this.stmt.insert.run({
        utn,
        seq,
        lane_id: entry.laneId,
        ticket_id: entry.ticketId ?? null,
        tender_id: entry.tenderId ?? null,
        operation: entry.operation,
        state: entry.state ?? 'sending',
        amount_cents: entry.amountCents,
        tip_cents: entry.tipCents ?? 0,
        cashback_cents: entry.cashBackCents ?? 0,
        tax_cents: entry.taxCents ?? 0,
        approved_cents: entry.approvedCents ?? 0,
        last4: entry.last4 ?? null,
        card_type: entry.cardType ?? null,
        entry_mode: entry.entryMode ?? null,
        original_srn: entry.originalSrn ?? null,
        employee_id: entry.employeeId ?? null,
        approved_by_id: entry.approvedById ?? null,
        now: entry.now,
      });
      return this.mustGet(utn);
    })();
  }

  /** The epoch part of this database's numbers (`L1-<epoch>-42`); undefined before the first number. */
  epoch(): string | undefined {
    return this.stmt.counter.get()?.epoch;
  }

  /** The highest sequence ever handed out (for tests and diagnostics). */
  lastSequence(): number {
    return this.stmt.counter.get()?.last_seq ?? 0;
  }

  get(utn: string): JournalRow | undefined {
    const r = this.stmt.get.get(utn);
    return r ? toRow(r) : undefined;
  }

  private mustGet(utn: string): JournalRow {
    const r = this.get(utn);
    if (!r) throw new Error(`journal entry ${utn} not found`);
    return r;
  }

  /** The original payment with this gateway id (refunds and voids are excluded). */
  bySrn(srn: string): JournalRow | undefined {
    const r = this.stmt.bySrn.get(srn);
    return r ? toRow(r) : undefined;
  }

  /** The entry a tender made, if it got as far as the journal. */
  byTender(tenderId: string): JournalRow | undefined {
    const r = this.stmt.byTender.get(tenderId);
    return r ? toRow(r) : undefined;
  }

  update(utn: string, patch: EntryPatch, now: number): JournalRow {
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof EntryPatch, string][]) {
      if (!(key in patch)) continue;
      const v = patch[key];
      if (v === undefined) continue;
      // Column names come from PATCH_COLUMNS (a constant map), values are bound.
      sets.push(`${column} = ?`);
      values.push(v);
    }
    sets.push('updated_at = ?');
    values.push(now, utn);
    this.prepared(`UPDATE journal SET ${sets.join(', ')} WHERE utn = ?`).run(...values);
    return this.mustGet(utn);
  }

  /**
   * No answer: the entry becomes `unknown` and a reversal is queued, in one transaction, so a crash
   * cannot leave an unknown entry that nothing will reverse.
   */
  markUnknown(utn: string, message: string, now: number, firstAttemptAt: number): JournalRow {
    return this.db.transaction(() => {
      const row = this.update(utn, { state: 'unknown', message }, now);
      this.stmt.addReversal.run(utn, firstAttemptAt, now);
      return row;
    })();
  }

  /**
   * Queues a reversal for an entry whose outcome we decided to undo (abandoned ticket, orphan, an approval
   * the chip card refused); `patch` is recorded in the same transaction (what the card said).
   */
  queueReversal(
    utn: string,
    message: string,
    now: number,
    patch: Omit<EntryPatch, 'state' | 'message'> = {},
  ): JournalRow {
    return this.db.transaction(() => {
      const row = this.update(utn, { ...patch, state: 'reversing', message }, now);
      this.stmt.addReversal.run(utn, now, now);
      return row;
    })();
  }

  // rule: journal-crash-recovery
  /**
   * After a restart: entries still `sending` may or may not have reached the gateway (the process died
   * between commit and answer). They are all unknown and get reversed; a reversal of a request that never
   * arrived only blocks its number at the gateway. Entries `awaiting-card` were approved by the issuer but
   * never confirmed by the chip card (no TC before the stop): not a sale (EMV Book 4 §6.3.8), reversed too.
   */
  recoverInFlight(now: number): string[] {
    return this.db.transaction(() => {
      const rows = this.stmt.inState.all('sending');
      for (const r of rows) {
        this.update(
          r.utn,
          { state: 'unknown', message: 'No answer recorded before the terminal stopped' },
          now,
        );
        this.stmt.addReversal.run(r.utn, now, now);
      }
      const unconfirmed = this.stmt.inState.all('awaiting-card');
      for (const r of unconfirmed) {
        this.update(
          r.utn,
          {
            state: 'reversing',
            message: 'The terminal stopped before the card confirmed the approval: reversing',
          },
          now,
        );
        this.stmt.addReversal.run(r.utn, now, now);
      }
      return [...rows, ...unconfirmed].map((r) => r.utn);
    })();
  }

  list(query: JournalQuery = {}): JournalRow[] {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (query.last4 !== undefined) {
      where.push('last4 = ?');
      values.push(query.last4);
    }
    if (query.since !== undefined) {
      where.push('created_at >= ?');
      values.push(query.since);
    }
    if (query.until !== undefined) {
      where.push('created_at < ?');
      values.push(query.until);
    }
    if (query.before !== undefined) {
      // Row values compare as the index orders: (created_at, seq) strictly before the cursor.
      where.push('(created_at, seq) < (?, ?)');
      values.push(query.before.createdAt, query.before.seq);
    }
    if (query.amountCents !== undefined) {
      // No index on amounts: without a bound the search would walk the whole journal.
      if (query.since === undefined && query.last4 === undefined)
        throw new Error('an amount search needs a since or a last four');
      // What was asked, with or without its tip, or what was approved (a partial approval is found by
      // the amount it took, the one every view shows).
      where.push('(amount_cents + tip_cents) = ? OR amount_cents = ? OR approved_cents = ?');
      values.push(query.amountCents, query.amountCents, query.amountCents);
    }
    if (query.states && query.states.length > 0) {
      where.push(`state IN (${query.states.map(() => '?').join(', ')})`);
      values.push(...query.states);
    }
    const sql = `SELECT * FROM journal ${where.length ? 'WHERE ' + where.map((w) => `(${w})`).join(' AND ') : ''}
      ORDER BY created_at DESC, seq DESC LIMIT ?`;
    values.push(Math.max(1, Math.min(query.limit ?? 500, 10_000)));
    return this.prepared(sql)
      .all(...values)
      .map((r) => toRow(r as SqlJournal));
  }

  /**
   * The money figures' input for `[since, until)`: the rows grouped by what the figures tell apart, so
   * the answer is a few lines whatever the range holds (read along journal_created_seq).
   */
  figureGroups(since: number, until?: number): FigureGroup[] {
    const rows =
      until === undefined ? this.stmt.figuresSince.all(since) : this.stmt.figuresBetween.all(since, until);
    return rows.map((r) => ({
      operation: r.operation,
      state: r.state,
      cardType: r.card_type,
      count: r.n,
      approvedCents: r.approved,
      cashBackCents: r.cashback,
      tipCents: r.tip,
    }));
  }

  /**
   * Everything the batch close reconciles, in one request and one read transaction, instead of a request
   * per page and per table. `gatewayClosedAt` is the gateway's last close when it was reachable: a later
   * one than the lane's is kept, as the start of the open batch.
   */
  batchJournalSide(gatewayClosedAt: number | undefined, now: number): BatchJournalSide {
    return this.db.transaction(() => {
      let openedAt = Number(this.getSetting(LAST_CLOSE_SETTING) ?? '0');
      if (gatewayClosedAt !== undefined && gatewayClosedAt > openedAt) {
        this.setSetting(LAST_CLOSE_SETTING, String(gatewayClosedAt), now);
        openedAt = gatewayClosedAt;
      }
      const rows = new Map<string, JournalRow>();
      const unresolved = this.list({
        states: ['sending', 'unknown', 'awaiting-card', 'reversing'],
        limit: 10_000,
      });
      for (const r of unresolved) rows.set(r.utn, r);
      // Paged along journal_created_seq: the open batch has no fixed size, and nothing is cut silently.
      for (let before: JournalCursor | undefined; ;) {
        const page = this.list({ since: openedAt, limit: 1000, ...(before ? { before } : {}) });
        for (const r of page) rows.set(r.utn, r);
        const last = page.at(-1);
        if (page.length < 1000 || !last) break;
        before = { createdAt: last.createdAt, seq: last.seq };
      }
      return {
        openedAt,
        rows: [...rows.values()],
        reversals: [...this.pendingReversals(), ...this.failedReversals(500)],
        epoch: this.epoch(),
        safQueued: this.safExposure().count,
      };
    })();
  }

  /** A ticket's rows of one operation, oldest first (a gift-card load's earlier attempts). */
  byTicket(ticketId: string, operation: JournalOperation): JournalRow[] {
    return this.stmt.byTicket.all(ticketId, operation).map(toRow);
  }

  /** Statements by text: the list's shapes are few and preparing costs more than running. */
  private prepared(sql: string): Database.Statement {
    let statement = this.updates.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.updates.set(sql, statement);
    }
    return statement;
  }

  // --- reversals

  dueReversals(now: number, limit: number): ReversalRow[] {
    return this.stmt.dueReversals.all(now, limit).map(toReversal);
  }

  pendingReversals(): ReversalRow[] {
    return this.stmt.pendingReversals.all().map(toReversal);
  }

  /** Reversals the gateway refused for good: a manager decides each (newest first, at most `limit`). */
  failedReversals(limit: number): ReversalRow[] {
    return this.stmt.failedReversals.all(limit).map(toReversal);
  }

  recentReversals(limit: number): ReversalRow[] {
    return this.stmt.allReversals.all(limit).map(toReversal);
  }

  reversalAttempt(utn: string, nextAttemptAt: number, error: string): void {
    this.stmt.reversalAttempt.run(nextAttemptAt, error, utn);
  }

  /** The gateway acknowledged the reversal: the entry's final state is recorded with it. */
  reversalDone(utn: string, finalState: JournalState, message: string, now: number): JournalRow {
    return this.db.transaction(() => {
      this.stmt.reversalClose.run('done', now, null, utn);
      return this.update(utn, { state: finalState, message }, now);
    })();
  }

  /** The gateway refused the reversal for a reason retrying cannot fix: a person must look at it. */
  reversalFailed(utn: string, message: string, now: number): JournalRow {
    return this.db.transaction(() => {
      this.stmt.reversalClose.run('failed', now, message, utn);
      return this.update(utn, { message }, now);
    })();
  }

  retryReversalsNow(now: number): void {
    this.stmt.retryAll.run(now);
  }

  // --- tickets

  saveTicket(t: TicketRecord): void {
    this.stmt.saveTicket.run(t);
  }

  getTicket(ticketId: string): TicketRecord | undefined {
    const r = this.stmt.getTicket.get(ticketId);
    return r ? toTicket(r) : undefined;
  }

  openTickets(): TicketRecord[] {
    return this.stmt.openTickets.all().map(toTicket);
  }

  // --- settings, users, audit

  getSetting(key: string): string | undefined {
    return this.stmt.getSetting.get(key)?.value;
  }

  setSetting(key: string, value: string, now: number): void {
    this.stmt.setSetting.run(key, value, now);
  }

  employees(): EmployeeRow[] {
    return this.stmt.employees.all().map(toEmployee);
  }

  /** Adds an employee; answers their id. `pin.lookup` is UNIQUE: a PIN someone holds is refused here too. */
  addEmployee(e: { name: string; role: string; pin: EmployeePin; now: number }): number {
    const r = this.stmt.addEmployee.run({
      name: e.name,
      role: e.role,
      lookup: e.pin.lookup,
      state: e.pin.state,
      expiresAt: e.pin.expiresAt,
      now: e.now,
    });
    return Number(r.lastInsertRowid);
  }

  updateEmployee(id: number, patch: { name?: string; role?: string; active?: boolean }, now: number): void {
    this.stmt.updateEmployee.run({
      id,
      name: patch.name ?? null,
      role: patch.role ?? null,
      active: patch.active === undefined ? null : patch.active ? 1 : 0,
      now,
    });
  }

  setEmployeePin(id: number, pin: EmployeePin, now: number): void {
    this.stmt.setEmployeePin.run({
      id,
      lookup: pin.lookup,
      state: pin.state,
      legacy: pin.legacy,
      expiresAt: pin.expiresAt,
      now,
    });
  }

  /** Opens a shift; the partial unique index refuses a second open one. */
  clockIn(employeeId: number, now: number): void {
    this.stmt.clockIn.run(employeeId, now);
  }

  /** Closes the employee's open shift; answers whether there was one. */
  clockOut(employeeId: number, now: number): boolean {
    return this.stmt.clockOut.run(now, employeeId).changes > 0;
  }

  audit(
    at: number,
    role: string,
    action: string,
    detail: string,
    approvedBy: string | null,
    employeeId: number | null = null,
    approvedById: number | null = null,
  ): void {
    this.stmt.audit.run(at, role, action, detail, approvedBy, employeeId, approvedById);
  }

  auditList(limit: number): AuditRow[] {
    return this.stmt.auditList.all(Math.max(1, Math.min(limit, 5000))).map((a) => ({
      id: a.id,
      at: a.at,
      role: a.role,
      action: a.action,
      detail: a.detail,
      approvedBy: a.approved_by,
      employeeId: a.employee_id,
      approvedById: a.approved_by_id,
    }));
  }

  // --- store-and-forward

  /** The entry and its sealed card data, in one transaction: a stored sale is journaled and queued together. */
  safStore(
    utn: string,
    amountCents: number,
    last4: string,
    cardType: string | null,
    sealed: SafSealed,
    now: number,
  ): JournalRow {
    return this.db.transaction(() => {
      this.stmt.safInsert.run(
        utn,
        amountCents,
        last4,
        cardType,
        Buffer.from(sealed.ciphertext),
        Buffer.from(sealed.iv),
        Buffer.from(sealed.tag),
        now,
      );
      return this.update(
        utn,
        {
          state: 'stored',
          approvedCents: amountCents,
          message: 'Stored offline; forwarded when the gateway returns',
        },
        now,
      );
    })();
  }

  safList(limit: number): SafRow[] {
    return this.stmt.safList.all(limit).map(toSaf);
  }

  safQueued(): SafRow[] {
    return this.stmt.safQueued.all().map(toSaf);
  }

  safExposure(): { exposureCents: number; count: number } {
    const r = this.stmt.safExposure.get();
    return { exposureCents: r?.total ?? 0, count: r?.n ?? 0 };
  }

  safSealed(utn: string): SafSealed | undefined {
    const r = this.stmt.safSealed.get(utn);
    if (!r?.ciphertext || !r.iv || !r.tag) return undefined;
    return { ciphertext: r.ciphertext, iv: r.iv, tag: r.tag };
  }

  safMark(utn: string, state: SafRow['state'], message: string | null): void {
    this.stmt.safState.run(state, message, utn);
  }

  /** Final state of a stored sale; its card data is deleted in the same statement. */
  safFinish(
    utn: string,
    state: SafRow['state'],
    message: string,
    now: number,
    journal: EntryPatch,
  ): JournalRow {
    return this.db.transaction(() => {
      this.stmt.safFinish.run(state, message, now, utn);
      return this.update(utn, journal, now);
    })();
  }

  // --- emailed receipts (email-receipt-store.ts)

  emailEnqueue(e: NewEmailReceipt): EmailEnqueueResult {
    return this.emails.enqueue(e);
  }

  emailDue(now: number, limit: number): EmailReceiptWork[] {
    return this.emails.due(now, limit);
  }

  emailNextAttemptAt(): number | undefined {
    return this.emails.nextAttemptAt();
  }

  emailSending(id: number): boolean {
    return this.emails.sending(id);
  }

  emailSent(id: number, now: number): EmailReceiptRow {
    return this.emails.sent(id, now);
  }

  emailRetryLater(id: number, nextAttemptAt: number, error: string): EmailReceiptRow {
    return this.emails.retryLater(id, nextAttemptAt, error);
  }

  emailFailed(id: number, now: number, error: string): EmailReceiptRow {
    return this.emails.failed(id, now, error);
  }

  emailRetry(id: number, now: number, giveUpAt: number): EmailReceiptRow | undefined {
    return this.emails.retry(id, now, giveUpAt);
  }

  emailRetryAll(now: number): number {
    return this.emails.retryAll(now);
  }

  emailRecover(): number {
    return this.emails.recover();
  }

  emailList(limit: number, before?: { createdAt: number; id: number }): EmailReceiptRow[] {
    return this.emails.list(limit, before);
  }

  emailCounts(failedSince: number): { waiting: number; failed: number } {
    return this.emails.counts(failedSince);
  }

  emailPurge(before: number): number {
    return this.emails.purge(before);
  }

  /** Moves freed pages out of the WAL too (after card data was deleted). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  // --- tills (till-store.ts)

  tillActive(): TillView | undefined {
    return this.till.active();
  }
  tillGet(tillId: number): TillView | undefined {
    return this.till.get(tillId);
  }
  tillWaiting(): TillView[] {
    return this.till.waiting();
  }
  tillUnreported(): TillView[] {
    return this.till.unreported();
  }
  tillOpen(o: TillOpen): TillView {
    return this.till.open(o);
  }
  tillMove(o: TillMoveInput): TillMovementView {
    return this.till.move(o);
  }
  tillRefund(o: TillRefundInput): { movement: TillMovementView; refundedCents: number } {
    return this.till.refund(o);
  }
  tillHandOver(employee: string, now: number): TillView {
    return this.till.handOver(employee, now);
  }
  tillCount(o: TillCountInput): TillView {
    return this.till.count(o);
  }
  tillSignOff(tillId: number, employee: string, note: string | null, now: number): TillView {
    return this.till.signOff(tillId, employee, note, now);
  }
  tillMovements(tillId: number, limit: number): TillMovementView[] {
    return this.till.movements(tillId, limit);
  }
  tillReport(tillId: number, o: Omit<DayReportInput, 'firstDayFrom'>): TillReportView {
    return this.till.tillReport(tillId, o);
  }
  tillDayReport(o: DayReportInput): TillReportView {
    return this.till.dayReport(o);
  }
  tillCloseDay(o: DayReportInput & { employee: string }): TillReportView {
    return this.till.closeDay(o);
  }
  tillZReport(zNumber: number): TillReportView {
    return this.till.zReport(zNumber);
  }
  tillZList(before: number | undefined, limit: number): ZSummaryView[] {
    return this.till.zList(before, limit);
  }

  // --- returns (return-store.ts)

  returnFind(q: FindQuery): FoundSales {
    return this.returns.find(q);
  }
  returnSale(ticketId: string): SaleForReturn {
    return this.returns.sale(ticketId);
  }
  returnQuote(ticketId: string, lines: { lineNo: number; quantity: number }[], order?: string[]): ReturnPlan {
    return this.returns.quote(ticketId, lines, order);
  }
  returnReserve(input: ReserveInput): { record: ReturnRecord; replay: boolean } {
    return this.returns.reserve(input);
  }
  returnGet(returnId: number): ReturnRecord {
    return this.returns.get(returnId);
  }
  returnReservedByOthers(utn: string, returnId: number): number {
    return this.returns.reservedByOthers(utn, returnId);
  }
  returnClaim(returnId: number, position: number, now: number): boolean {
    return this.returns.claim(returnId, position, now);
  }
  returnNumbered(returnId: number, position: number, utn: string, method: ReturnMethod, now: number): void {
    this.returns.numbered(returnId, position, utn, method, now);
  }
  returnLegDone(
    returnId: number,
    position: number,
    done: { method: ReturnMethod; utn?: string | null; last4?: string | null; cardType?: string | null },
    now: number,
  ): void {
    this.returns.legDone(returnId, position, done, now);
  }
  returnLegFailed(
    returnId: number,
    position: number,
    state: 'failed' | 'unknown',
    message: string,
    now: number,
  ): void {
    this.returns.legFailed(returnId, position, state, message, now);
  }
  returnCashLeg(returnId: number, position: number, by: ReturnBy, now: number): TillMovementView {
    return this.returns.cashLeg(returnId, position, by, now);
  }
  returnFinish(returnId: number, now: number): ReturnRecord {
    return this.returns.finish(returnId, now);
  }
  returnFigures(since: number, until: number): ReturnFiguresView {
    return this.returns.figures(since, until);
  }
}

type SqlReversal = {
  utn: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
  operation: JournalOperation;
  amount_cents: number;
};

function toReversal(r: SqlReversal): ReversalRow {
  return {
    utn: r.utn,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    createdAt: r.created_at,
    doneAt: r.done_at,
    operation: r.operation,
    amountCents: r.amount_cents,
  };
}

type SqlTicket = {
  ticket_id: string;
  status: string;
  data: string;
  opened_at: number;
  closed_at: number | null;
};

function toTicket(r: SqlTicket): TicketRecord {
  return {
    ticketId: r.ticket_id,
    status: r.status,
    data: r.data,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
  };
}

type SqlAudit = {
  id: number;
  at: number;
  role: string;
  action: string;
  detail: string;
  approved_by: string | null;
  employee_id: number | null;
  approved_by_id: number | null;
};
type SqlEmployee = {
  id: number;
  name: string;
  role: string;
  active: number;
  pin_lookup: string | null;
  pin_state: PinState;
  pin_legacy: string | null;
  pin_expires_at: number | null;
  created_at: number;
  updated_at: number;
  clocked_in_at: number | null;
};

function toEmployee(r: SqlEmployee): EmployeeRow {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    active: r.active === 1,
    pinLookup: r.pin_lookup,
    pinState: r.pin_state,
    pinLegacy: r.pin_legacy,
    pinExpiresAt: r.pin_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    clockedInAt: r.clocked_in_at,
  };
}
type SqlSaf = {
  utn: string;
  state: SafRow['state'];
  amount_cents: number;
  last4: string;
  card_type: string | null;
  stored_at: number;
  forwarded_at: number | null;
  message: string | null;
};

function toSaf(r: SqlSaf): SafRow {
  return {
    utn: r.utn,
    state: r.state,
    amountCents: r.amount_cents,
    last4: r.last4,
    cardType: r.card_type,
    storedAt: r.stored_at,
    forwardedAt: r.forwarded_at,
    message: r.message,
  };
}
