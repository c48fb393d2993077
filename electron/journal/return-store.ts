import type Database from 'better-sqlite3';
import type {
  ReturnFiguresView,
  ReturnLegKind,
  ReturnLegState,
  ReturnMethod,
  ReturnState,
  TicketView,
  TillMovementView,
} from '../../common/bridge/contract';
import {
  checkReturnable,
  planReturn,
  ReturnRefusal,
  soldLinesOf,
  tenderFunds,
  type ReturnPlan,
  type SoldLineInfo,
  type TenderFunds,
} from '../returns/return-rules';
import type { JournalRow, TicketRecord } from './journal-store';
import type { TillStore } from './till-store';

/**
 * The returns' tables (migration 012), inside the journal's thread. A return is recorded by `reserve` in
 * one transaction (the worker's savepoint): the sale's lines and what every earlier return took of them
 * are read, the new units checked against them, the money worked out and spread over the tenders (the
 * rules of returns/return-rules.ts), and the return with its lines and its legs written — so two windows,
 * or one request sent twice, can never return more than was sold or promise a tender's money twice.
 * Each leg then moves its money (the card at the gateway, cash out of the till, a gift card) and is marked
 * here; cash leaves the till in the same transaction that marks its leg done.
 */

/** Every state of a leg that still holds its share of a tender (not given back yet, not released). */
const HOLDING = "('pending', 'sending', 'failed', 'unknown')";

export type ReturnLineRecord = {
  lineNo: number;
  lineId: string | null;
  name: string;
  quantity: number;
  totalCents: number;
  taxCents: number;
};

export type ReturnLegRecord = {
  position: number;
  kind: ReturnLegKind;
  tender: string;
  originalUtn: string | null;
  amountCents: number;
  state: ReturnLegState;
  method: ReturnMethod | null;
  utn: string | null;
  movementId: number | null;
  last4: string | null;
  cardType: string | null;
  message: string | null;
  doneAt: number | null;
};

export type ReturnRecord = {
  id: number;
  requestId: string;
  ticketId: string | null;
  state: ReturnState;
  totalCents: number;
  taxCents: number;
  employeeId: number | null;
  employee: string;
  approvedById: number | null;
  approvedBy: string | null;
  reason: string | null;
  createdAt: number;
  updatedAt: number;
  lines: ReturnLineRecord[];
  legs: ReturnLegRecord[];
};

/** Who makes the return, as the journal and the tills name them. */
export type ReturnBy = {
  employeeId: number | null;
  employee: string;
  approvedById: number | null;
  approvedBy: string | null;
};

export type ReserveInput = ReturnBy & {
  requestId: string;
  reason: string | null;
  now: number;
} & (
    | {
        kind: 'receipt';
        ticketId: string;
        lines: { lineNo: number; quantity: number }[];
        order?: string[] | undefined;
      }
    | {
        kind: 'no-receipt';
        lines: { name: string; quantity: number; totalCents: number; taxCents: number }[];
        refundTo: 'cash' | 'gift-card';
      }
  );

/** A sale as a return sees it, read in one transaction. */
export type SaleForReturn = {
  ticket: TicketRecord;
  sold: SoldLineInfo[];
  returnedBefore: number[];
  funds: TenderFunds[];
  returns: { id: number; createdAt: number; totalCents: number; state: ReturnState }[];
};

/** A page of found sales and where the next one starts. */
export type FoundSales = { tickets: TicketRecord[]; next?: { at: number; key: string } };

export type FindQuery = {
  from: number;
  until: number;
  amountCents?: number | undefined;
  last4?: string | undefined;
  before?: { at: number; key: string } | undefined;
  limit: number;
};

/** What the return store reads of the journal it lives beside. */
export type ReturnJournal = {
  getTicket(ticketId: string): TicketRecord | undefined;
  row(utn: string): JournalRow | undefined;
};

type SqlReturn = {
  id: number;
  request_id: string;
  ticket_id: string | null;
  state: ReturnState;
  total_cents: number;
  tax_cents: number;
  employee_id: number | null;
  employee: string;
  approved_by_id: number | null;
  approved_by: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
};
type SqlLine = {
  line_no: number;
  line_id: string | null;
  name: string;
  quantity: number;
  total_cents: number;
  tax_cents: number;
};
type SqlLeg = {
  position: number;
  kind: ReturnLegKind;
  tender: string;
  original_utn: string | null;
  amount_cents: number;
  state: ReturnLegState;
  method: ReturnMethod | null;
  utn: string | null;
  movement_id: number | null;
  last4: string | null;
  card_type: string | null;
  message: string | null;
  done_at: number | null;
};
type SqlTicket = {
  ticket_id: string;
  status: string;
  data: string;
  opened_at: number;
  closed_at: number | null;
};

const toTicket = (r: SqlTicket): TicketRecord => ({
  ticketId: r.ticket_id,
  status: r.status,
  data: r.data,
  openedAt: r.opened_at,
  closedAt: r.closed_at,
});

/** The sales a return can be made of: paid, and not a gift card load's payment. */
const RETURNABLE_TICKET = `t.status = 'paid' AND coalesce(json_extract(t.data, '$.purpose'), 'sale') <> 'gift-reload'`;

/** The payments a card's last four finds a sale by. */
const PAYMENTS = `('sale', 'debit', 'token-sale', 'preauth-complete', 'gift-sale', 'ebt-food', 'ebt-cash')`;

export class ReturnStore {
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    private readonly journal: ReturnJournal,
    private readonly till: TillStore,
  ) {
    this.stmt = {
      byRequest: db.prepare<[string], SqlReturn>('SELECT * FROM returns WHERE request_id = ?'),
      get: db.prepare<[number], SqlReturn>('SELECT * FROM returns WHERE id = ?'),
      lines: db.prepare<[number], SqlLine>(
        'SELECT * FROM return_lines WHERE return_id = ? ORDER BY return_id, line_no',
      ),
      legs: db.prepare<[number], SqlLeg>(
        'SELECT * FROM return_tenders WHERE return_id = ? ORDER BY return_id, position',
      ),
      ofTicket: db.prepare<[string], SqlReturn>(
        'SELECT * FROM returns WHERE ticket_id = ? ORDER BY ticket_id, id',
      ),
      returned: db.prepare<[string], { line_no: number; q: number }>(
        `SELECT l.line_no, sum(l.quantity) AS q FROM returns r JOIN return_lines l ON l.return_id = r.id
         WHERE r.ticket_id = ? AND r.state <> 'cancelled' GROUP BY l.line_no`,
      ),
      reserved: db.prepare<[string], { cents: number | null }>(
        `SELECT sum(amount_cents) AS cents FROM return_tenders WHERE original_utn = ? AND state IN ${HOLDING}`,
      ),
      reservedByOthers: db.prepare<[string, number], { cents: number | null }>(
        `SELECT sum(amount_cents) AS cents FROM return_tenders
         WHERE original_utn = ? AND state IN ${HOLDING} AND return_id <> ?`,
      ),
      insertReturn: db.prepare(
        `INSERT INTO returns (request_id, ticket_id, state, total_cents, tax_cents, employee_id, employee,
           approved_by_id, approved_by, reason, created_at, updated_at)
         VALUES (@request_id, @ticket_id, 'open', @total_cents, @tax_cents, @employee_id, @employee,
           @approved_by_id, @approved_by, @reason, @now, @now)`,
      ),
      insertLine: db.prepare(
        `INSERT INTO return_lines (return_id, line_no, line_id, name, quantity, total_cents, tax_cents)
         VALUES (@return_id, @line_no, @line_id, @name, @quantity, @total_cents, @tax_cents)`,
      ),
      insertLeg: db.prepare(
        `INSERT INTO return_tenders (return_id, position, kind, tender, original_utn, amount_cents, state, last4,
           card_type, updated_at)
         VALUES (@return_id, @position, @kind, @tender, @original_utn, @amount_cents, 'pending', @last4,
           @card_type, @now)`,
      ),
      claim: db.prepare<[number, number, number]>(
        `UPDATE return_tenders SET state = 'sending', message = NULL, updated_at = ?
         WHERE return_id = ? AND position = ? AND state IN ('pending', 'failed')`,
      ),
      number: db.prepare<[string, string, number, number, number]>(
        'UPDATE return_tenders SET utn = ?, method = ?, updated_at = ? WHERE return_id = ? AND position = ?',
      ),
      done: db.prepare(
        `UPDATE return_tenders SET state = 'done', method = @method, utn = coalesce(@utn, utn),
           movement_id = coalesce(@movement_id, movement_id), last4 = coalesce(@last4, last4),
           card_type = coalesce(@card_type, card_type), message = NULL, done_at = @now, updated_at = @now
         WHERE return_id = @return_id AND position = @position AND state = 'sending'`,
      ),
      failed: db.prepare(
        `UPDATE return_tenders SET state = @state, message = @message, updated_at = @now
         WHERE return_id = @return_id AND position = @position AND state = 'sending'`,
      ),
      release: db.prepare<[number, number]>(
        `UPDATE return_tenders SET state = 'cancelled', updated_at = ?
         WHERE return_id = ? AND state IN ('pending', 'failed')`,
      ),
      setState: db.prepare<[ReturnState, number, number]>(
        'UPDATE returns SET state = ?, updated_at = ? WHERE id = ?',
      ),
      // Look-ups: newest first along an index, a page at a time after the cursor.
      // The range's end is the first cursor: `(closed_at, ticket_id) < (until, '')` is `closed_at < until`,
      // and a row value bounds the index walk where a second condition on closed_at would not.
      findClosed: db.prepare<[number, number, string, number], SqlTicket>(
        `SELECT t.* FROM tickets t INDEXED BY tickets_closed_id
         WHERE t.closed_at >= ? AND (t.closed_at, t.ticket_id) < (?, ?) AND ${RETURNABLE_TICKET}
         ORDER BY t.closed_at DESC, t.ticket_id DESC LIMIT ?`,
      ),
      findTotal: db.prepare<[number, number, number, string, number], SqlTicket>(
        `SELECT t.* FROM tickets t INDEXED BY tickets_total
         WHERE json_extract(t.data, '$.totalCents') = ? AND t.closed_at >= ?
           AND (t.closed_at, t.ticket_id) < (?, ?) AND ${RETURNABLE_TICKET}
         ORDER BY t.closed_at DESC, t.ticket_id DESC LIMIT ?`,
      ),
      findLast4: db.prepare<
        [string, number, number, number, number | null, number | null, number],
        SqlTicket & { j_created: number; j_seq: number }
      >(
        `SELECT t.*, j.created_at AS j_created, j.seq AS j_seq FROM journal j INDEXED BY journal_last4
           JOIN tickets t ON t.ticket_id = j.ticket_id
         WHERE j.last4 = ? AND j.created_at >= ? AND (j.created_at, j.seq) < (?, ?)
           AND j.operation IN ${PAYMENTS} AND ${RETURNABLE_TICKET}
           AND (? IS NULL OR json_extract(t.data, '$.totalCents') = ?)
         ORDER BY j.created_at DESC, j.seq DESC LIMIT ?`,
      ),
      figures: db.prepare<
        [number, number],
        { tender: string; method: ReturnMethod | null; n: number; cents: number }
      >(
        `SELECT tender, method, count(DISTINCT return_id) AS n, sum(amount_cents) AS cents
         FROM return_tenders INDEXED BY return_tenders_done WHERE done_at >= ? AND done_at < ?
         GROUP BY tender, method`,
      ),
      figuresTotal: db.prepare<[number, number], { n: number; cents: number | null }>(
        `SELECT count(DISTINCT return_id) AS n, sum(amount_cents) AS cents
         FROM return_tenders INDEXED BY return_tenders_done WHERE done_at >= ? AND done_at < ?`,
      ),
    };
  }

  // --- look-ups

  find(q: FindQuery): FoundSales {
    const limit = Math.max(1, Math.min(q.limit, 50));
    // A page starts after the cursor, or at the range's end: a cursor past the end starts at the end.
    const within = q.before !== undefined && q.before.at < q.until ? q.before : undefined;
    if (q.last4 !== undefined) {
      // `seq` starts at 1: (until, 0) stops right before the range's end.
      const before = within ?? { at: q.until, key: '0' };
      const amount = q.amountCents ?? null;
      const rows = this.stmt.findLast4.all(
        q.last4,
        q.from,
        before.at,
        Number(before.key),
        amount,
        amount,
        limit,
      );
      // One sale paid twice by the card is one sale.
      const seen = new Set<string>();
      const tickets = rows.filter((r) => !seen.has(r.ticket_id) && seen.add(r.ticket_id)).map(toTicket);
      const last = rows[rows.length - 1];
      return rows.length === limit && last
        ? { tickets, next: { at: last.j_created, key: String(last.j_seq) } }
        : { tickets };
    }
    const before = within ?? { at: q.until, key: '' };
    const rows =
      q.amountCents !== undefined
        ? this.stmt.findTotal.all(q.amountCents, q.from, before.at, before.key, limit)
        : this.stmt.findClosed.all(q.from, before.at, before.key, limit);
    const last = rows[rows.length - 1];
    return rows.length === limit && last
      ? { tickets: rows.map(toTicket), next: { at: last.closed_at ?? 0, key: last.ticket_id } }
      : { tickets: rows.map(toTicket) };
  }

  /** A sale with its lines, what earlier returns took, and what each tender can still take back. */
  sale(ticketId: string): SaleForReturn {
    const record = this.journal.getTicket(ticketId);
    if (!record)
      throw new ReturnRefusal(
        'not-found',
        'No sale with that receipt number on this lane.',
        'returns.noSuchReceipt',
      );
    const ticket = parse(record);
    checkReturnable(ticket);
    const sold = soldLinesOf(ticket);
    const returnedBefore = sold.map(() => 0);
    for (const r of this.stmt.returned.all(ticketId)) returnedBefore[r.line_no] = r.q;
    const rows = new Map<string, JournalRow>();
    const reserved = new Map<string, number>();
    for (const x of ticket.tenders) {
      const utn = x.userTransactionNumber;
      if (!utn) continue;
      const row = this.journal.row(utn);
      if (row) rows.set(utn, row);
      reserved.set(utn, this.stmt.reserved.get(utn)?.cents ?? 0);
    }
    return {
      ticket: record,
      sold,
      returnedBefore,
      funds: tenderFunds(ticket, rows, reserved),
      returns: this.stmt.ofTicket.all(ticketId).map((r) => ({
        id: r.id,
        createdAt: r.created_at,
        totalCents: r.total_cents,
        state: r.state,
      })),
    };
  }

  /** What a return would be now (the screen's preview): the same plan `reserve` records. */
  quote(ticketId: string, lines: { lineNo: number; quantity: number }[], order?: string[]): ReturnPlan {
    const s = this.sale(ticketId);
    return planReturn({
      sold: s.sold,
      returnedBefore: s.returnedBefore,
      returning: lines,
      funds: s.funds,
      order,
    });
  }

  // --- recording

  /**
   * Records a return and its legs, or answers the one already recorded for `requestId` (`replay`). Refused
   * — nothing written — when the plan is (return-rules.ts), or when cash is to come out of a drawer with no
   * till in it.
   */
  reserve(input: ReserveInput): { record: ReturnRecord; replay: boolean } {
    const earlier = this.stmt.byRequest.get(input.requestId);
    if (earlier) {
      const same =
        input.kind === 'receipt' ? earlier.ticket_id === input.ticketId : earlier.ticket_id === null;
      if (!same)
        throw new ReturnRefusal('conflict', 'That request was for another return.', 'returns.otherRequest');
      return { record: this.get(earlier.id), replay: true };
    }
    let lines: {
      lineNo: number;
      lineId: string | null;
      name: string;
      quantity: number;
      totalCents: number;
      taxCents: number;
    }[];
    let legs: {
      kind: ReturnLegKind;
      tender: string;
      originalUtn: string | null;
      amountCents: number;
      last4: string | null;
      cardType: string | null;
    }[];
    let ticketId: string | null = null;
    if (input.kind === 'receipt') {
      const s = this.sale(input.ticketId);
      const plan = planReturn({
        sold: s.sold,
        returnedBefore: s.returnedBefore,
        returning: input.lines,
        funds: s.funds,
        order: input.order,
      });
      ticketId = input.ticketId;
      lines = plan.lines.map((l) => ({
        lineNo: l.line.lineNo,
        lineId: l.line.lineId ?? null,
        name: l.line.name,
        quantity: l.quantity,
        totalCents: l.totalCents,
        taxCents: l.taxCents,
      }));
      legs = plan.legs.map((l) => ({
        kind: l.kind,
        tender: l.tender,
        originalUtn: l.key,
        amountCents: l.amountCents,
        last4: l.funds.last4 ?? null,
        cardType: l.funds.cardType ?? null,
      }));
    } else {
      lines = input.lines.map((l, lineNo) => ({ lineNo, lineId: null, ...l }));
      const total = lines.reduce((s, l) => s + l.totalCents, 0);
      if (total <= 0) throw new ReturnRefusal('invalid', 'Nothing to give back.', 'returns.nothingToGive');
      legs = [
        {
          kind: input.refundTo,
          tender: input.refundTo === 'cash' ? 'Cash' : 'Gift card',
          originalUtn: null,
          amountCents: total,
          last4: null,
          cardType: null,
        },
      ];
    }
    if (legs.some((l) => l.kind === 'cash') && !this.till.active())
      throw new ReturnRefusal(
        'conflict',
        'No till is open on this lane: open a till on the Till screen to give cash back.',
        'returns.noTillForCash',
      );
    const total = lines.reduce((s, l) => s + l.totalCents, 0);
    const tax = lines.reduce((s, l) => s + l.taxCents, 0);
    const id = Number(
      this.stmt.insertReturn.run({
        request_id: input.requestId,
        ticket_id: ticketId,
        total_cents: total,
        tax_cents: tax,
        employee_id: input.employeeId,
        employee: input.employee,
        approved_by_id: input.approvedById,
        approved_by: input.approvedBy,
        reason: input.reason,
        now: input.now,
      }).lastInsertRowid,
    );
    for (const l of lines)
      this.stmt.insertLine.run({
        return_id: id,
        line_no: l.lineNo,
        line_id: l.lineId,
        name: l.name,
        quantity: l.quantity,
        total_cents: l.totalCents,
        tax_cents: l.taxCents,
      });
    legs.forEach((l, position) =>
      this.stmt.insertLeg.run({
        return_id: id,
        position,
        kind: l.kind,
        tender: l.tender,
        original_utn: l.originalUtn,
        amount_cents: l.amountCents,
        last4: l.last4,
        card_type: l.cardType,
        now: input.now,
      }),
    );
    return { record: this.get(id), replay: false };
  }

  get(returnId: number): ReturnRecord {
    const r = this.stmt.get.get(returnId);
    if (!r)
      throw new ReturnRefusal('not-found', `No return ${returnId} on this lane.`, 'returns.noSuchReturn', {
        returnId,
      });
    return {
      id: r.id,
      requestId: r.request_id,
      ticketId: r.ticket_id,
      state: r.state,
      totalCents: r.total_cents,
      taxCents: r.tax_cents,
      employeeId: r.employee_id,
      employee: r.employee,
      approvedById: r.approved_by_id,
      approvedBy: r.approved_by,
      reason: r.reason,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      lines: this.stmt.lines.all(returnId).map((l) => ({
        lineNo: l.line_no,
        lineId: l.line_id,
        name: l.name,
        quantity: l.quantity,
        totalCents: l.total_cents,
        taxCents: l.tax_cents,
      })),
      legs: this.stmt.legs.all(returnId).map((l) => ({
        position: l.position,
        kind: l.kind,
        tender: l.tender,
        originalUtn: l.original_utn,
        amountCents: l.amount_cents,
        state: l.state,
        method: l.method,
        utn: l.utn,
        movementId: l.movement_id,
        last4: l.last4,
        cardType: l.card_type,
        message: l.message,
        doneAt: l.done_at,
      })),
    };
  }

  /** What other returns not finished yet hold of a payment (a void must find none: it takes all of it). */
  reservedByOthers(utn: string, returnId: number): number {
    return this.stmt.reservedByOthers.get(utn, returnId)?.cents ?? 0;
  }

  /** Takes a leg to move its money: false when it is not waiting (done, at the gateway, or taken by another). */
  claim(returnId: number, position: number, now: number): boolean {
    return this.stmt.claim.run(now, returnId, position).changes === 1;
  }

  /** The journal number of the request a leg's money leaves by, recorded before it leaves. */
  numbered(returnId: number, position: number, utn: string, method: ReturnMethod, now: number): void {
    this.stmt.number.run(utn, method, now, returnId, position);
  }

  legDone(
    returnId: number,
    position: number,
    done: { method: ReturnMethod; utn?: string | null; last4?: string | null; cardType?: string | null },
    now: number,
  ): void {
    this.stmt.done.run({
      return_id: returnId,
      position,
      method: done.method,
      utn: done.utn ?? null,
      movement_id: null,
      last4: done.last4 ?? null,
      card_type: done.cardType ?? null,
      now,
    });
  }

  /** The money did not go back: `failed` may be tried again, `unknown` waits for the reconciliation view. */
  legFailed(
    returnId: number,
    position: number,
    state: 'failed' | 'unknown',
    message: string,
    now: number,
  ): void {
    this.stmt.failed.run({ return_id: returnId, position, state, message, now });
  }

  /**
   * Cash back from the till in the drawer, in one transaction: the leg is taken, the till records the
   * refund (and the sale's cash row what was refunded), the leg is done.
   */
  cashLeg(returnId: number, position: number, by: ReturnBy, now: number): TillMovementView {
    const leg = this.get(returnId).legs.find((l) => l.position === position);
    if (!leg || leg.kind !== 'cash')
      throw new ReturnRefusal('not-found', 'No such cash refund on this return.', 'returns.noSuchCashRefund');
    if (!this.claim(returnId, position, now))
      throw new ReturnRefusal(
        'conflict',
        'That cash refund is given already or under way.',
        'returns.cashUnderWay',
      );
    const movement = this.till.returnCash({
      utn: leg.originalUtn,
      amountCents: leg.amountCents,
      reason: `Return ${returnId}`,
      employee: by.employee,
      approvedBy: by.approvedBy,
      now,
    });
    this.stmt.done.run({
      return_id: returnId,
      position,
      method: 'drawer',
      utn: null,
      movement_id: movement.id,
      last4: null,
      card_type: null,
      now,
    });
    return movement;
  }

  /**
   * The return's state from its legs: done when every leg is; cancelled (its units and money released)
   * when none moved any money — nothing happened, the cashier may start again; incomplete otherwise.
   */
  finish(returnId: number, now: number): ReturnRecord {
    const r = this.get(returnId);
    const states = r.legs.map((l) => l.state);
    let state: ReturnState;
    if (states.every((s) => s === 'done')) state = 'done';
    else if (states.every((s) => s === 'pending' || s === 'failed' || s === 'cancelled')) {
      state = 'cancelled';
      this.stmt.release.run(now, returnId);
    } else state = 'incomplete';
    this.stmt.setState.run(state, now, returnId);
    return this.get(returnId);
  }

  /** The returns' money given back in `[since, until)`, by the tender it went back to. */
  figures(since: number, until: number): ReturnFiguresView {
    const t = this.stmt.figuresTotal.get(since, until);
    const byTender = this.stmt.figures
      .all(since, until)
      .map((g) => ({
        // The suffix is common/figure-labels.ts's: the screens and the printed reports name it in words.
        key: g.method === 'void' ? `${g.tender} (voided)` : g.tender,
        count: g.n,
        amountCents: g.cents,
      }))
      .sort((a, b) => b.amountCents - a.amountCents || a.key.localeCompare(b.key));
    return { total: { count: t?.n ?? 0, cents: t?.cents ?? 0 }, byTender };
  }
}

function parse(record: TicketRecord): TicketView {
  try {
    return JSON.parse(record.data) as TicketView;
  } catch {
    throw new ReturnRefusal('conflict', 'That sale’s record cannot be read.', 'returns.unreadable');
  }
}
