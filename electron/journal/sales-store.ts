import { randomInt } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { JournalOperation, JournalState } from '../../common/bridge/contract';

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

/**
 * The `journal` table and its counter (`lane_counter`): one row per money-moving request, committed
 * before the request leaves, and the lane's UserTransactionNumbers. Part of the journal's store
 * (journal-store.ts composes the tables), run in the journal's worker thread.
 */
export class SalesStore {
  private readonly stmt;
  /** Statements built from a shape (UPDATE by column set, list by filters): prepared once each. */
  private readonly updates = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
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
    };
  }

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

  /** The entries in one state, oldest first (what a crash left in flight). */
  inState(state: JournalState): JournalRow[] {
    return this.stmt.inState.all(state).map(toRow);
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
}
