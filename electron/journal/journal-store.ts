import Database from 'better-sqlite3';
import type {
  ReturnFiguresView,
  ReturnMethod,
  TillMovementView,
  TillReportView,
  TillView,
  ZSummaryView,
} from '../../common/bridge/contract';
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
import { AuditStore } from './audit-store';
import { recoverInFlight } from './crash-recovery';
import { EmployeeStore } from './employee-store';
import { ReversalStore, type ReversalRow } from './reversal-store';
import { SafStore } from './saf-store';
import { SalesStore, type JournalCursor, type JournalRow } from './sales-store';
import { SettingsStore } from './settings-store';
import { TicketStore } from './ticket-store';
import {
  TillStore,
  type DayReportInput,
  type TillCountInput,
  type TillMoveInput,
  type TillOpen,
  type TillRefundInput,
} from './till-store';

/**
 * The journal's synchronous store, composed of one store per table (sales-store.ts: the journal and its
 * numbers; reversal-store.ts; ticket-store.ts; settings-store.ts; employee-store.ts; audit-store.ts;
 * saf-store.ts; till-store.ts; return-store.ts; email-receipt-store.ts): their methods are this class's,
 * so the worker serves them all through one request type (journal-protocol.ts). It runs inside the journal worker thread (journal-worker.ts), never on
 * the core's event loop: better-sqlite3 blocks while SQLite fsyncs (docs/decisions.md#off-the-ui-thread).
 * Every query is a prepared statement with bound parameters; no value is ever spliced into SQL text.
 */

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`journal schema version ${found} is newer than this build knows (${known}); refusing to open it`);
    this.name = 'SchemaTooNewError';
  }
}

export { formatUtn } from './sales-store';
export type {
  EntryPatch,
  FigureGroup,
  JournalCursor,
  JournalQuery,
  JournalRow,
  NewEntry,
} from './sales-store';
export type { ReversalRow } from './reversal-store';
export type { TicketRecord } from './ticket-store';
export type { AuditRow } from './audit-store';
export type { EmployeePin, EmployeeRow, PinState } from './employee-store';
export type { SafRow, SafSealed } from './saf-store';

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
  private readonly sales: SalesStore;
  private readonly reversals: ReversalStore;
  private readonly tickets: TicketStore;
  private readonly settings: SettingsStore;
  private readonly staff: EmployeeStore;
  private readonly auditTrail: AuditStore;
  private readonly saf: SafStore;
  /** The tills (till-store.ts): their methods are the journal's below, so the worker serves them alike. */
  private readonly till: TillStore;
  /** The emailed-receipt queue (migration 009): its own file, reached through the `email*` methods. */
  private readonly emails: EmailReceiptStore;
  /** Returns from a receipt (return-store.ts), served the same way. */
  private readonly returns: ReturnStore;

  constructor(db: Database.Database) {
    this.db = db;
    this.emails = new EmailReceiptStore(db);
    this.sales = new SalesStore(db);
    this.reversals = new ReversalStore(db, this.sales);
    this.tickets = new TicketStore(db);
    this.settings = new SettingsStore(db);
    this.staff = new EmployeeStore(db);
    this.auditTrail = new AuditStore(db);
    this.saf = new SafStore(db, this.sales);
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

  // --- UserTransactionNumbers and entries (sales-store.ts)

  readonly allocate: SalesStore['allocate'] = (...a) => this.sales.allocate(...a);
  readonly epoch: SalesStore['epoch'] = (...a) => this.sales.epoch(...a);
  readonly lastSequence: SalesStore['lastSequence'] = (...a) => this.sales.lastSequence(...a);
  readonly get: SalesStore['get'] = (...a) => this.sales.get(...a);
  readonly bySrn: SalesStore['bySrn'] = (...a) => this.sales.bySrn(...a);
  readonly byTender: SalesStore['byTender'] = (...a) => this.sales.byTender(...a);
  readonly update: SalesStore['update'] = (...a) => this.sales.update(...a);
  readonly list: SalesStore['list'] = (...a) => this.sales.list(...a);
  readonly figureGroups: SalesStore['figureGroups'] = (...a) => this.sales.figureGroups(...a);
  readonly byTicket: SalesStore['byTicket'] = (...a) => this.sales.byTicket(...a);

  // --- reversals (reversal-store.ts)

  readonly markUnknown: ReversalStore['markUnknown'] = (...a) => this.reversals.markUnknown(...a);
  readonly queueReversal: ReversalStore['queueReversal'] = (...a) => this.reversals.queueReversal(...a);
  readonly dueReversals: ReversalStore['dueReversals'] = (...a) => this.reversals.dueReversals(...a);
  readonly pendingReversals: ReversalStore['pendingReversals'] = (...a) =>
    this.reversals.pendingReversals(...a);
  readonly failedReversals: ReversalStore['failedReversals'] = (...a) => this.reversals.failedReversals(...a);
  readonly recentReversals: ReversalStore['recentReversals'] = (...a) => this.reversals.recentReversals(...a);
  readonly reversalAttempt: ReversalStore['reversalAttempt'] = (...a) => this.reversals.reversalAttempt(...a);
  readonly reversalDone: ReversalStore['reversalDone'] = (...a) => this.reversals.reversalDone(...a);
  readonly reversalFailed: ReversalStore['reversalFailed'] = (...a) => this.reversals.reversalFailed(...a);
  readonly retryReversalsNow: ReversalStore['retryReversalsNow'] = (...a) =>
    this.reversals.retryReversalsNow(...a);

  // --- tickets (ticket-store.ts)

  readonly saveTicket: TicketStore['saveTicket'] = (...a) => this.tickets.saveTicket(...a);
  readonly getTicket: TicketStore['getTicket'] = (...a) => this.tickets.getTicket(...a);
  readonly openTickets: TicketStore['openTickets'] = (...a) => this.tickets.openTickets(...a);

  // --- settings (settings-store.ts)

  readonly getSetting: SettingsStore['getSetting'] = (...a) => this.settings.getSetting(...a);
  readonly setSetting: SettingsStore['setSetting'] = (...a) => this.settings.setSetting(...a);

  // --- employees and shifts (employee-store.ts)

  readonly employees: EmployeeStore['employees'] = (...a) => this.staff.employees(...a);
  readonly addEmployee: EmployeeStore['addEmployee'] = (...a) => this.staff.addEmployee(...a);
  readonly updateEmployee: EmployeeStore['updateEmployee'] = (...a) => this.staff.updateEmployee(...a);
  readonly setEmployeePin: EmployeeStore['setEmployeePin'] = (...a) => this.staff.setEmployeePin(...a);
  readonly clockIn: EmployeeStore['clockIn'] = (...a) => this.staff.clockIn(...a);
  readonly clockOut: EmployeeStore['clockOut'] = (...a) => this.staff.clockOut(...a);

  // --- audit (audit-store.ts)

  readonly audit: AuditStore['audit'] = (...a) => this.auditTrail.audit(...a);
  readonly auditList: AuditStore['auditList'] = (...a) => this.auditTrail.auditList(...a);

  // --- store-and-forward (saf-store.ts)

  readonly safStore: SafStore['safStore'] = (...a) => this.saf.safStore(...a);
  readonly safList: SafStore['safList'] = (...a) => this.saf.safList(...a);
  readonly safQueued: SafStore['safQueued'] = (...a) => this.saf.safQueued(...a);
  readonly safExposure: SafStore['safExposure'] = (...a) => this.saf.safExposure(...a);
  readonly safSealed: SafStore['safSealed'] = (...a) => this.saf.safSealed(...a);
  readonly safMark: SafStore['safMark'] = (...a) => this.saf.safMark(...a);
  readonly safFinish: SafStore['safFinish'] = (...a) => this.saf.safFinish(...a);

  /** After a restart: what a crash left in flight becomes reversals (crash-recovery.ts). */
  recoverInFlight(now: number): string[] {
    return recoverInFlight(this.db, this.sales, this.reversals, now);
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
