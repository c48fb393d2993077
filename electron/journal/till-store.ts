import type Database from 'better-sqlite3';
import { needsSignOff, overShortCents, tillFigures, type FigureRow } from '../../common/money-figures';
import { refundableCents } from '../../common/transaction-amounts';
import type {
  ReturnFiguresView,
  TillMovementView,
  TillReportView,
  TillState,
  TillView,
  ZSummaryView,
} from '../../common/bridge/contract';
import type { TillMovementKind } from '../../common/money-figures';
import {
  buildTillReport,
  type MovementGroup,
  type TaxGroup,
  type TillReportSource,
} from '../till/till-report';

/**
 * The tills' tables (migration 011), inside the journal's thread: every method is one transaction (the
 * worker's savepoint), so a check and the write it guards cannot be split — "no other till is open" and
 * the opening, "the till is open" and the movement, "every till is closed" and the Z.
 */

/**
 * A refusal the bridge shows as it is: the name carries the bridge's error code across the thread, and
 * `messageId` / `params` the screens' words for it (contract/errors.ts).
 */
export class TillRefusal extends Error {
  readonly messageId: string;
  readonly params: Record<string, string | number> | undefined;
  constructor(
    code: 'conflict' | 'not-found' | 'invalid',
    message: string,
    messageId: string,
    params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = `TillRefusal-${code}`;
    this.messageId = messageId;
    this.params = params;
  }
}

/** What the till store reads of the journal it lives beside. */
export type TillJournal = {
  figureGroups(since: number, until?: number): FigureRow[];
  cashRow(utn: string): CashRow | undefined;
  setRefunded(utn: string, refundedCents: number, now: number): void;
  /** The returns' money given back in a period, by tender (return-store.ts). */
  returnFigures(since: number, until: number): ReturnFiguresView;
};

export type CashRow = {
  utn: string;
  operation: string;
  state: string;
  amountCents: number;
  tipCents: number;
  cashBackCents: number;
  approvedCents: number;
  refundedCents: number;
};

type SqlTill = {
  id: number;
  lane_id: string;
  state: TillState;
  employee: string;
  opened_at: number;
  ended_at: number | null;
  ended_by: string | null;
  counted_cents: number | null;
  expected_cents: number | null;
  over_short_cents: number | null;
  counted_by: string | null;
  counted_at: number | null;
  needs_sign_off: number | null;
  signed_off_by: string | null;
  signed_off_at: number | null;
  sign_off_note: string | null;
  z_number: number | null;
  float_cents: number | null;
};

type SqlMovement = {
  id: number;
  till_id: number;
  kind: TillMovementKind;
  amount_cents: number;
  reason: string | null;
  employee: string;
  approved_by: string | null;
  utn: string | null;
  at: number;
};

type SqlZ = {
  number: number;
  from_at: number;
  until_at: number;
  closed_by: string;
  report: string;
};

/** The float rides along every read of a till: its one `float` movement, found by the till's index. */
const TILL_COLUMNS = `t.*, (SELECT m.amount_cents FROM till_movements m
  WHERE m.till_id = t.id AND m.kind = 'float' ORDER BY m.id LIMIT 1) AS float_cents`;

function toTill(r: SqlTill): TillView {
  const view: TillView = {
    tillId: r.id,
    state: r.state,
    employee: r.employee,
    floatCents: r.float_cents ?? 0,
    openedAt: r.opened_at,
  };
  if (r.ended_at !== null) view.endedAt = r.ended_at;
  if (r.ended_by !== null) view.endedBy = r.ended_by;
  if (r.z_number !== null) view.zNumber = r.z_number;
  if (r.counted_cents !== null && r.expected_cents !== null && r.over_short_cents !== null) {
    view.count = {
      countedCents: r.counted_cents,
      expectedCents: r.expected_cents,
      overShortCents: r.over_short_cents,
      countedBy: r.counted_by ?? '',
      countedAt: r.counted_at ?? 0,
      needsSignOff: r.needs_sign_off === 1,
      ...(r.signed_off_by !== null ? { signedOffBy: r.signed_off_by } : {}),
      ...(r.signed_off_at !== null ? { signedOffAt: r.signed_off_at } : {}),
      ...(r.sign_off_note !== null ? { note: r.sign_off_note } : {}),
    };
  }
  return view;
}

function toMovement(r: SqlMovement): TillMovementView {
  return {
    id: r.id,
    tillId: r.till_id,
    kind: r.kind,
    amountCents: r.amount_cents,
    employee: r.employee,
    at: r.at,
    ...(r.reason !== null ? { reason: r.reason } : {}),
    ...(r.approved_by !== null ? { approvedBy: r.approved_by } : {}),
    ...(r.utn !== null ? { userTransactionNumber: r.utn } : {}),
  };
}

const STATE_WORDS: Readonly<Record<TillState, string>> = {
  open: 'is still in the drawer',
  'handed-over': 'is handed over and not counted yet',
  counted: 'is counted and waits for a manager’s sign-off',
  closed: 'is closed',
};

export type TillOpen = {
  laneId: string;
  employee: string;
  floatCents: number;
  floatDetail: string | null;
  now: number;
};
export type TillMoveInput = {
  kind: Exclude<TillMovementKind, 'float' | 'refund'>;
  amountCents: number;
  reason: string;
  employee: string;
  approvedBy: string | null;
  now: number;
};
export type TillRefundInput = {
  utn: string;
  amountCents?: number | undefined;
  employee: string;
  approvedBy: string | null;
  now: number;
};
export type TillCountInput = {
  tillId: number;
  countedCents: number;
  detail: string | null;
  employee: string;
  toleranceCents: number;
  now: number;
};
export type DayReportInput = {
  laneId: string;
  timeZone: string;
  now: number;
  /** Where the first day begins when no Z was ever closed (the store day's start). */
  firstDayFrom: number;
};

export class TillStore {
  private readonly stmt;
  private readonly source: TillReportSource;

  constructor(
    private readonly db: Database.Database,
    private readonly journal: TillJournal,
  ) {
    this.stmt = {
      active: db.prepare<[], SqlTill>(`SELECT ${TILL_COLUMNS} FROM tills t WHERE t.state = 'open'`),
      get: db.prepare<[number], SqlTill>(`SELECT ${TILL_COLUMNS} FROM tills t WHERE t.id = ?`),
      latest: db.prepare<[], { ended_at: number | null }>(
        'SELECT ended_at FROM tills ORDER BY id DESC LIMIT 1',
      ),
      waiting: db.prepare<[], SqlTill>(
        `SELECT ${TILL_COLUMNS} FROM tills t WHERE t.state IN ('handed-over', 'counted') ORDER BY t.state, t.id`,
      ),
      unreported: db.prepare<[], SqlTill>(
        `SELECT ${TILL_COLUMNS} FROM tills t WHERE t.z_number IS NULL ORDER BY t.z_number, t.id`,
      ),
      ofZ: db.prepare<[number], SqlTill>(
        `SELECT ${TILL_COLUMNS} FROM tills t WHERE t.z_number = ? ORDER BY t.z_number, t.id`,
      ),
      insertTill: db.prepare<[string, string, number]>(
        "INSERT INTO tills (lane_id, state, employee, opened_at) VALUES (?, 'open', ?, ?)",
      ),
      insertMovement: db.prepare(
        `INSERT INTO till_movements (till_id, kind, amount_cents, reason, detail, employee, approved_by, utn, at)
         VALUES (@till_id, @kind, @amount_cents, @reason, @detail, @employee, @approved_by, @utn, @at)`,
      ),
      movement: db.prepare<[number | bigint], SqlMovement>('SELECT * FROM till_movements WHERE id = ?'),
      movements: db.prepare<[number, number], SqlMovement>(
        'SELECT * FROM till_movements WHERE till_id = ? ORDER BY id DESC LIMIT ?',
      ),
      movementGroups: db.prepare<
        [number],
        { kind: TillMovementKind; employee: string; n: number; cents: number }
      >(
        `SELECT kind, employee, count(*) AS n, sum(amount_cents) AS cents FROM till_movements
         WHERE till_id = ? GROUP BY kind, employee`,
      ),
      handOver: db.prepare<[number, string, number]>(
        "UPDATE tills SET state = 'handed-over', ended_at = ?, ended_by = ? WHERE id = ? AND state = 'open'",
      ),
      count: db.prepare(
        `UPDATE tills SET state = @state, ended_at = coalesce(ended_at, @ended), ended_by = coalesce(ended_by, @employee),
           counted_cents = @counted, count_detail = @detail, expected_cents = @expected,
           over_short_cents = @over_short, counted_by = @employee, counted_at = @now, needs_sign_off = @needs
         WHERE id = @id AND state IN ('open', 'handed-over')`,
      ),
      signOff: db.prepare<[string, number, string | null, number]>(
        `UPDATE tills SET state = 'closed', signed_off_by = ?, signed_off_at = ?, sign_off_note = ?
         WHERE id = ? AND state = 'counted'`,
      ),
      // One class today: the lane charges one tax rate. A ticket that carries tax lines by class (the
      // catalog's work) is read by class here.
      tax: db.prepare<[number, number], { n: number; taxable: number | null; tax: number | null }>(
        `SELECT count(*) AS n, sum(json_extract(data, '$.subtotalCents')) AS taxable,
           sum(json_extract(data, '$.taxCents')) AS tax
         FROM tickets INDEXED BY tickets_closed WHERE closed_at >= ? AND closed_at < ? AND status = 'paid'
           AND coalesce(json_extract(data, '$.purpose'), 'sale') <> 'gift-reload'`,
      ),
      zLast: db.prepare<[], SqlZ>('SELECT * FROM z_reports ORDER BY number DESC LIMIT 1'),
      zGet: db.prepare<[number], SqlZ>('SELECT * FROM z_reports WHERE number = ?'),
      zList: db.prepare<[number, number], SqlZ>(
        'SELECT * FROM z_reports WHERE number < ? ORDER BY number DESC LIMIT ?',
      ),
      zInsert: db.prepare(
        `INSERT INTO z_reports (number, lane_id, from_at, until_at, closed_by, report, created_at)
         VALUES (@number, @lane_id, @from_at, @until_at, @closed_by, @report, @created_at)`,
      ),
      zMark: db.prepare<[number]>(
        "UPDATE tills INDEXED BY tills_z SET z_number = ? WHERE z_number IS NULL AND state = 'closed'",
      ),
    };
    this.source = {
      figureGroups: (since, until) => this.journal.figureGroups(since, until),
      movementGroups: (tillId) => this.movementGroups(tillId),
      taxGroups: (since, until) => this.taxGroups(since, until),
      returnFigures: (since, until) => this.journal.returnFigures(since, until),
    };
  }

  /** The till in the lane's drawer, if one is. */
  active(): TillView | undefined {
    const r = this.stmt.active.get();
    return r ? toTill(r) : undefined;
  }

  get(tillId: number): TillView | undefined {
    const r = this.stmt.get.get(tillId);
    return r ? toTill(r) : undefined;
  }

  /** Out of the drawer and not closed yet: waiting for a count or a sign-off. */
  waiting(): TillView[] {
    return this.stmt.waiting.all().map(toTill);
  }

  /** The tills no Z has closed yet: the day's. */
  unreported(): TillView[] {
    return this.stmt.unreported.all().map(toTill);
  }

  ofZ(zNumber: number): TillView[] {
    return this.stmt.ofZ.all(zNumber).map(toTill);
  }

  open(o: TillOpen): TillView {
    const active = this.active();
    if (active)
      throw new TillRefusal(
        'conflict',
        `Till ${active.tillId} (${active.employee}) is in the drawer: hand it over or count it first.`,
        'till.alreadyOpen',
        { tillId: active.tillId, employee: active.employee },
      );
    // The spans of the tills never overlap, also if the clock stepped back: a till starts no earlier than
    // the last one ended (its rows are the journal's from then on).
    const openedAt = Math.max(o.now, this.stmt.latest.get()?.ended_at ?? 0);
    const id = Number(this.stmt.insertTill.run(o.laneId, o.employee, openedAt).lastInsertRowid);
    this.insertMovement(id, 'float', o.floatCents, null, o.floatDetail, o.employee, null, null, openedAt);
    return this.mustGet(id);
  }

  private insertMovement(
    tillId: number,
    kind: TillMovementKind,
    amountCents: number,
    reason: string | null,
    detail: string | null,
    employee: string,
    approvedBy: string | null,
    utn: string | null,
    at: number,
  ): TillMovementView {
    const r = this.stmt.insertMovement.run({
      till_id: tillId,
      kind,
      amount_cents: amountCents,
      reason,
      detail,
      employee,
      approved_by: approvedBy,
      utn,
      at,
    });
    const row = this.stmt.movement.get(r.lastInsertRowid);
    if (!row) throw new Error('till movement not recorded');
    return toMovement(row);
  }

  private requireActive(): TillView {
    const active = this.active();
    if (!active)
      throw new TillRefusal(
        'conflict',
        'No till is open on this lane: open a till first (Till screen).',
        'till.noTillOpen',
      );
    return active;
  }

  /** Paid in, paid out, safe drop or "No sale", into the till in the drawer. */
  move(o: TillMoveInput): TillMovementView {
    const till = this.requireActive();
    const amount = o.kind === 'no-sale' ? 0 : o.amountCents;
    if (o.kind !== 'no-sale' && (!Number.isSafeInteger(amount) || amount <= 0))
      throw new TillRefusal(
        'invalid',
        'The amount must be a positive number of cents.',
        'till.amountPositive',
      );
    return this.insertMovement(
      till.tillId,
      o.kind,
      amount,
      o.reason,
      null,
      o.employee,
      o.approvedBy,
      null,
      o.now,
    );
  }

  /**
   * Cash given back on a cash sale of this lane, out of the till in the drawer: the sale's row keeps what
   * it took (cash taken stays what was taken) and learns what was refunded; the till records the refund.
   */
  refund(o: TillRefundInput): { movement: TillMovementView; refundedCents: number } {
    const till = this.requireActive();
    const row = this.journal.cashRow(o.utn);
    if (!row || row.operation !== 'cash')
      throw new TillRefusal('not-found', 'No cash sale with that number on this lane.', 'till.noCashSale');
    if (row.state !== 'approved')
      throw new TillRefusal('conflict', `That cash sale is ${row.state}.`, 'till.cashSaleState', {
        state: row.state,
      });
    const refundable = refundableCents(row);
    const amount = o.amountCents ?? refundable;
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > refundable)
      throw new TillRefusal(
        'invalid',
        refundable === 0
          ? 'That cash sale is refunded in full already.'
          : `At most ${(refundable / 100).toFixed(2)} can be refunded on that sale.`,
        refundable === 0 ? 'till.refundedInFull' : 'till.refundAtMost',
        { amountCents: refundable },
      );
    this.journal.setRefunded(o.utn, row.refundedCents + amount, o.now);
    const movement = this.insertMovement(
      till.tillId,
      'refund',
      amount,
      null,
      null,
      o.employee,
      o.approvedBy,
      o.utn,
      o.now,
    );
    return { movement, refundedCents: row.refundedCents + amount };
  }

  /**
   * Cash given back for a return (journal/return-store.ts, inside its transaction), out of the till in the
   * drawer: a refund movement like `refund`'s. A return of a sale paid in cash (or by check, which a store
   * gives back in cash) names that payment, which learns what was refunded; a return without a receipt
   * names none. The return's rules decided the amount: it is only checked against the payment here.
   */
  returnCash(o: {
    utn: string | null;
    amountCents: number;
    reason: string;
    employee: string;
    approvedBy: string | null;
    now: number;
  }): TillMovementView {
    const till = this.requireActive();
    if (!Number.isSafeInteger(o.amountCents) || o.amountCents <= 0)
      throw new TillRefusal(
        'invalid',
        'The amount must be a positive number of cents.',
        'till.amountPositive',
      );
    if (o.utn !== null) {
      const row = this.journal.cashRow(o.utn);
      if (!row || (row.operation !== 'cash' && row.operation !== 'check'))
        throw new TillRefusal(
          'not-found',
          'No cash or check payment with that number on this lane.',
          'till.noCashOrCheckPayment',
        );
      if (o.amountCents > refundableCents(row))
        throw new TillRefusal(
          'conflict',
          'That payment has less left to give back.',
          'till.lessLeftToGiveBack',
        );
      this.journal.setRefunded(o.utn, row.refundedCents + o.amountCents, o.now);
    }
    return this.insertMovement(
      till.tillId,
      'refund',
      o.amountCents,
      o.reason,
      null,
      o.employee,
      o.approvedBy,
      o.utn,
      o.now,
    );
  }

  /** The till leaves the drawer for its count (the cashier's shift ends; the next opens their own). */
  handOver(employee: string, now: number): TillView {
    const till = this.requireActive();
    this.stmt.handOver.run(Math.max(now, till.openedAt), employee, till.tillId);
    return this.mustGet(till.tillId);
  }

  movements(tillId: number, limit: number): TillMovementView[] {
    return this.stmt.movements.all(tillId, Math.max(1, Math.min(limit, 1000))).map(toMovement);
  }

  movementGroups(tillId: number): MovementGroup[] {
    return this.stmt.movementGroups.all(tillId).map((g) => ({
      kind: g.kind,
      employee: g.employee,
      count: g.n,
      amountCents: g.cents,
    }));
  }

  taxGroups(since: number, until: number): TaxGroup[] {
    const r = this.stmt.tax.get(since, until);
    return [
      { taxClass: 'Sales tax', tickets: r?.n ?? 0, taxableCents: r?.taxable ?? 0, taxCents: r?.tax ?? 0 },
    ];
  }

  /** What the till should hold now (or held when it left the drawer): its rows and its movements. */
  private expectedOf(till: TillView, until: number): number {
    return tillFigures(
      this.journal.figureGroups(till.openedAt, till.endedAt ?? until),
      this.movementGroups(till.tillId),
    ).expectedCents;
  }

  /**
   * The blind count: what was counted is recorded with what the till should have held and the difference,
   * in one step (the counter saw no expected figure before this). A till still in the drawer leaves it now.
   */
  count(o: TillCountInput): TillView {
    const till = this.get(o.tillId);
    if (!till)
      throw new TillRefusal('not-found', `No till ${o.tillId} on this lane.`, 'till.noSuchTill', {
        tillId: o.tillId,
      });
    if (till.state !== 'open' && till.state !== 'handed-over')
      throw new TillRefusal(
        'conflict',
        `Till ${till.tillId} ${STATE_WORDS[till.state]}: it was counted already.`,
        'till.countedAlready',
        { tillId: till.tillId },
      );
    const endedAt = till.endedAt ?? Math.max(o.now, till.openedAt);
    const expected = this.expectedOf({ ...till, endedAt }, endedAt);
    const overShort = overShortCents(o.countedCents, expected);
    const needs = needsSignOff(overShort, o.toleranceCents);
    this.stmt.count.run({
      id: till.tillId,
      state: needs ? 'counted' : 'closed',
      ended: endedAt,
      now: o.now,
      employee: o.employee,
      counted: o.countedCents,
      detail: o.detail,
      expected,
      over_short: overShort,
      needs: needs ? 1 : 0,
    });
    return this.mustGet(till.tillId);
  }

  signOff(tillId: number, employee: string, note: string | null, now: number): TillView {
    const till = this.get(tillId);
    if (!till)
      throw new TillRefusal('not-found', `No till ${tillId} on this lane.`, 'till.noSuchTill', { tillId });
    if (till.state !== 'counted')
      throw new TillRefusal(
        'conflict',
        `Till ${tillId} ${STATE_WORDS[till.state]}: nothing to sign off.`,
        'till.nothingToSignOff',
        { tillId },
      );
    this.stmt.signOff.run(employee, now, note, tillId);
    return this.mustGet(tillId);
  }

  private mustGet(tillId: number): TillView {
    const t = this.get(tillId);
    if (!t) throw new Error(`till ${tillId} not found`);
    return t;
  }

  /** An X report of one till's shift: its span, its rows, its movements. */
  tillReport(tillId: number, o: Omit<DayReportInput, 'firstDayFrom'>): TillReportView {
    const till = this.get(tillId);
    if (!till)
      throw new TillRefusal('not-found', `No till ${tillId} on this lane.`, 'till.noSuchTill', { tillId });
    return buildTillReport(this.source, {
      kind: 'x',
      scope: 'till',
      tillId,
      tills: [till],
      from: till.openedAt,
      until: till.endedAt ?? Math.max(o.now, till.openedAt),
      laneId: o.laneId,
      timeZone: o.timeZone,
    });
  }

  /** Where the open day begins: the last Z's end, or (never closed) the earliest of its tills or the store day. */
  private dayFrom(tills: readonly TillView[], firstDayFrom: number): number {
    const last = this.stmt.zLast.get();
    if (last) return last.until_at;
    return Math.min(firstDayFrom, ...tills.map((t) => t.openedAt));
  }

  /** An X report of the day so far: nothing closes. */
  dayReport(o: DayReportInput): TillReportView {
    const tills = this.unreported();
    const from = this.dayFrom(tills, o.firstDayFrom);
    return buildTillReport(this.source, {
      kind: 'x',
      scope: 'day',
      tills,
      from,
      until: Math.max(o.now, from),
      laneId: o.laneId,
      timeZone: o.timeZone,
    });
  }

  /**
   * The Z: the day closes when every till of it is closed (counted, signed off where needed). The report
   * is computed, numbered, kept whole and its tills marked in this one transaction, so nothing can open or
   * move between the check and the record.
   */
  closeDay(o: DayReportInput & { employee: string }): TillReportView {
    const tills = this.unreported();
    const notClosed = tills.filter((t) => t.state !== 'closed');
    if (notClosed.length > 0)
      throw new TillRefusal(
        'conflict',
        `The day cannot close yet: ${notClosed.map((t) => `till ${t.tillId} (${t.employee}) ${STATE_WORDS[t.state]}`).join('; ')}.`,
        'till.dayNotClosed',
        { count: notClosed.length, tills: notClosed.map((t) => t.tillId).join(', ') },
      );
    const from = this.dayFrom(tills, o.firstDayFrom);
    const zNumber = (this.stmt.zLast.get()?.number ?? 0) + 1;
    const until = Math.max(o.now, from);
    const report = buildTillReport(this.source, {
      kind: 'z',
      scope: 'day',
      zNumber,
      closedBy: o.employee,
      tills: tills.map((t) => ({ ...t, zNumber })),
      from,
      until,
      laneId: o.laneId,
      timeZone: o.timeZone,
    });
    this.stmt.zInsert.run({
      number: zNumber,
      lane_id: o.laneId,
      from_at: from,
      until_at: until,
      closed_by: o.employee,
      report: JSON.stringify(report),
      created_at: o.now,
    });
    this.stmt.zMark.run(zNumber);
    return report;
  }

  /** A closed day's Z, as it was closed. */
  zReport(zNumber: number): TillReportView {
    const z = this.stmt.zGet.get(zNumber);
    if (!z)
      throw new TillRefusal('not-found', `No Z report ${zNumber} on this lane.`, 'till.noSuchZ', { zNumber });
    return JSON.parse(z.report) as TillReportView;
  }

  /** Closed days, newest first, a page at a time (keyset on the number). */
  zList(before: number | undefined, limit: number): ZSummaryView[] {
    return this.stmt.zList
      .all(before ?? Number.MAX_SAFE_INTEGER, Math.max(1, Math.min(limit, 200)))
      .map((z) => {
        const r = JSON.parse(z.report) as TillReportView;
        return {
          zNumber: z.number,
          from: z.from_at,
          until: z.until_at,
          closedBy: z.closed_by,
          tills: r.tills.length,
          salesCents: r.sales.cents,
          overShortCents: r.counted.overShortCents,
        };
      });
  }
}
