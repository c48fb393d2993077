import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalState } from '../../../common/bridge/contract';
import {
  JournalStore,
  migrate,
  openJournalDatabase,
  type JournalQuery,
} from '../../../electron/journal/journal-store';
import { journalMigrations } from '../../../electron/journal/migrations/index';

/**
 * Issue 22, "years of data": every query the terminal's journal runs must be read along an index that
 * bounds it, so a journal of years answers like a journal of a day. The check is SQLite's own plan
 * (EXPLAIN QUERY PLAN) of every statement the store holds and of every shape its list takes: a `SCAN` of
 * a table that grows with the years is refused unless the statement is a plain newest-N (no WHERE, a
 * LIMIT, read in index order without a sort). A new query that would walk the journal fails here.
 */

/** Tables that grow with every sale or shift; the others hold a row per employee, setting or lane. */
const GROWING = new Set([
  'journal',
  'reversals',
  'saf_queue',
  'audit',
  'tickets',
  'shifts',
  'tills',
  'till_movements',
  'z_reports',
  'email_receipts',
]);
const ALIASES: Readonly<Record<string, string>> = {
  j: 'journal',
  r: 'reversals',
  t: 'tills',
  m: 'till_movements',
};

type PlanRow = { id: number; parent: number; detail: string };

let dir = '';
let db: Database.Database;
let store: JournalStore;
/** Every SQL text the store prepared during the run (list shapes, updates). */
const prepared = new Set<string>();

function plan(sql: string, on: Database.Database = db): PlanRow[] {
  // Every parameter NULL: the plan depends on the text, not the values.
  const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1] ?? '');
  const explain = on.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = named.length
    ? explain.all(Object.fromEntries(named.map((n) => [n, null])))
    : explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null));
  return rows as PlanRow[];
}

/** What is wrong with a statement's plan, or nothing. */
function unbounded(sql: string, on: Database.Database = db): string[] {
  const rows = plan(sql, on);
  const sorts = rows.some((r) => r.detail.startsWith('USE TEMP B-TREE FOR ORDER BY'));
  const newestN = !/\bWHERE\b/i.test(sql) && /\bLIMIT\b/i.test(sql) && !sorts;
  return rows
    .filter((r) => {
      const m = /^SCAN (\w+)/.exec(r.detail);
      if (!m?.[1]) return false;
      const table = ALIASES[m[1]] ?? m[1];
      return GROWING.has(table) && !newestN;
    })
    .map((r) => `${r.detail}  <=  ${sql.replace(/\s+/g, ' ').trim()}`);
}

/** Every combination of the list's filters (an amount search needs a bound, as the store requires). */
function listShapes(): JournalQuery[] {
  const parts: Partial<JournalQuery>[] = [
    { since: 1 },
    { until: 2 },
    { last4: '1111' },
    { states: ['unknown', 'sending'] as JournalState[] },
    { before: { createdAt: 5, seq: 5 } },
    { amountCents: 100 },
  ];
  const shapes: JournalQuery[] = [];
  for (let mask = 0; mask < 1 << parts.length; mask += 1) {
    const q: JournalQuery = {};
    parts.forEach((p, i) => {
      if (mask & (1 << i)) Object.assign(q, p);
    });
    if (q.amountCents !== undefined && q.since === undefined && q.last4 === undefined) continue;
    shapes.push({ ...q, limit: 50 });
  }
  return shapes;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-plans-'));
  db = openJournalDatabase(join(dir, 'journal.sqlite'));
  const prepare = db.prepare.bind(db);
  db.prepare = (source: string) => {
    prepared.add(source);
    return prepare(source);
  };
  store = new JournalStore(db);
  // A few days of rows: enough that the planner sees tables, not a benchmark.
  for (let i = 0; i < 300; i += 1) {
    const row = store.allocate({
      laneId: 'L1',
      operation: i % 7 === 0 ? 'cash' : 'sale',
      amountCents: 100 + i,
      last4: String(1000 + (i % 50)),
      ticketId: `T${i % 40}`,
      tenderId: `D${i}`,
      now: 1_700_000_000_000 + i * 600_000,
    });
    store.update(row.utn, { state: 'approved', approvedCents: row.amountCents, srn: `S${i}` }, row.createdAt);
  }
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the terminal journal: every query is read along a bounding index (EXPLAIN QUERY PLAN)', () => {
  it('every statement the store prepares up front', () => {
    // One store per table (journal-store.ts composes them): each prepares its own statements.
    type Table = { stmt: Record<string, Database.Statement> };
    const tables = store as unknown as Record<
      'sales' | 'reversals' | 'tickets' | 'settings' | 'staff' | 'auditTrail' | 'saf',
      Table
    >;
    const statements = [
      tables.sales,
      tables.reversals,
      tables.tickets,
      tables.settings,
      tables.staff,
      tables.auditTrail,
      tables.saf,
    ].flatMap((t) => Object.entries(t.stmt));
    expect(statements.length).toBeGreaterThan(20);
    const problems = statements.flatMap(([name, s]) => unbounded(s.source).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('every shape of the newest-first list, the figures of a range, a ticket’s rows, an update', () => {
    const before = prepared.size;
    const shapes = listShapes();
    expect(shapes.length).toBeGreaterThan(40);
    for (const q of shapes) store.list(q);
    store.list({ limit: 10 });
    store.figureGroups(1);
    store.figureGroups(1, 2);
    store.byTicket('T1', 'gift-reload');
    const newest = store.list({ limit: 1 })[0];
    expect(newest).toBeDefined();
    store.update(newest?.utn ?? '', { message: 'x' }, 1);
    // The emailed-receipt queue's statements (email-receipt-store.ts) are prepared with the store.
    expect([...prepared].some((s) => s.includes('FROM email_receipts'))).toBe(true);
    const texts = [...prepared].filter((s) => /^\s*(SELECT|UPDATE|DELETE)/i.test(s));
    expect(prepared.size).toBeGreaterThan(before);
    const problems = texts.flatMap((s) => unbounded(s));
    expect(problems).toEqual([]);
  });

  it('every statement of the tills (issue 20): the drawer, its movements, the tax of a period, the Z reports', () => {
    const tills = Object.entries(
      (store as unknown as { till: { stmt: Record<string, Database.Statement> } }).till.stmt,
    );
    expect(tills.length).toBeGreaterThanOrEqual(20);
    const problems = tills.flatMap(([name, s]) => unbounded(s.source).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
    // A SEARCH on a column every old row shares (`status = 'paid'`, `state = 'closed'`) walks the years
    // as surely as a SCAN: the period's tax and the Z's marking go along their own indexes.
    const along = (name: string) =>
      plan(tills.find(([n]) => n === name)?.[1].source ?? '')
        .map((r) => r.detail)
        .join('; ');
    expect(along('tax')).toMatch(/USING INDEX tickets_closed \(closed_at>\? AND closed_at<\?\)/);
    expect(along('zMark')).toMatch(/USING INDEX tills_z \(z_number=\?\)/);
    expect(along('unreported')).toMatch(/USING INDEX tills_z \(z_number=\?\)/);
  });

  it('the rule refuses what the journal used to do: the newest rows filtered while walking back by seq', () => {
    // The schema and the list's text before issue 22: today's list and last-four search walked `seq`.
    const old = new Database(':memory:');
    migrate(
      old,
      journalMigrations.filter((m) => m.version <= 4),
    );
    const texts = [
      'SELECT * FROM journal WHERE (created_at >= ?) ORDER BY seq DESC LIMIT ?',
      'SELECT * FROM journal WHERE (created_at >= ?) AND (last4 = ?) ORDER BY seq DESC LIMIT ?',
      'SELECT * FROM journal WHERE (operation IN (?)) ORDER BY seq DESC LIMIT ?',
    ];
    for (const sql of texts) expect(unbounded(sql, old), sql).toHaveLength(1);
    old.close();
  });

  it('an amount search without a bound is refused, not walked', () => {
    expect(() => store.list({ amountCents: 100 })).toThrow(/needs a since or a last four/);
  });
});
