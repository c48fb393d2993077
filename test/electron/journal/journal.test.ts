import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../electron/journal/journal';
import {
  JournalStore,
  migrate,
  openJournalDatabase,
  SchemaTooNewError,
} from '../../../electron/journal/journal-store';
import { journalMigrations } from '../../../electron/journal/migrations/index';

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-journal-'));
  dirs.push(dir);
  return join(dir, 'journal.sqlite');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('journal migrations', () => {
  it('a new database gets every migration, WAL and synchronous=FULL', () => {
    const db = openJournalDatabase(tempDb());
    expect(db.pragma('user_version', { simple: true })).toBe(
      Math.max(...journalMigrations.map((m) => m.version)),
    );
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('synchronous=FULL is set again on every open (better-sqlite3 reopens WAL databases with NORMAL)', () => {
    const path = tempDb();
    openJournalDatabase(path).close();
    const db = openJournalDatabase(path);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('migrates a version-1 database with real rows to the newest version, keeping them', () => {
    const path = tempDb();
    const v1 = new Database(path);
    migrate(v1, journalMigrations.slice(0, 1));
    expect(v1.pragma('user_version', { simple: true })).toBe(1);
    // Rows as version 1 wrote them (the store itself needs the newest schema).
    v1.prepare('INSERT INTO lane_counter (id, last_seq, epoch) VALUES (1, 41, ?)').run('abc');
    v1.prepare(
      `INSERT INTO journal (utn, seq, lane_id, operation, state, amount_cents, last4, created_at, updated_at)
       VALUES ('L1-abc-41', 41, 'L1', 'sale', 'unknown', 500, '1111', 1, 1)`,
    ).run();
    v1.prepare(
      "INSERT INTO reversals (utn, state, attempts, next_attempt_at, created_at) VALUES ('L1-abc-41', 'pending', 2, 5, 1)",
    ).run();
    v1.close();

    const db = openJournalDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(
      Math.max(...journalMigrations.map((m) => m.version)),
    );
    const s = new JournalStore(db);
    expect(s.get('L1-abc-41')?.state).toBe('unknown');
    expect(s.pendingReversals().map((r) => [r.utn, r.attempts])).toEqual([['L1-abc-41', 2]]);
    const next = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 2 });
    expect(next.utn).toBe('L1-abc-42');
    s.safStore(
      next.utn,
      100,
      '1111',
      'Visa',
      { ciphertext: Buffer.from([1]), iv: Buffer.from([2]), tag: Buffer.from([3]) },
      3,
    );
    expect(s.safExposure()).toEqual({ exposureCents: 100, count: 1 });
    db.close();
  });

  it('refuses a database written by a newer build', () => {
    const path = tempDb();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openJournalDatabase(path)).toThrow(SchemaTooNewError);
  });

  it('has no column that could hold a PAN, track, CVN or PIN block', () => {
    const db = openJournalDatabase(tempDb());
    const columns = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).flatMap((t) =>
      (db.prepare('SELECT name FROM pragma_table_info(?)').all(t.name) as { name: string }[]).map(
        (c) => `${t.name}.${c.name}`,
      ),
    );
    expect(columns.filter((c) => /pan|track|cvn|cvv|pin_block|pinblock|card_number|emv/i.test(c))).toEqual(
      [],
    );
    db.close();
  });
});

describe('journal entries and numbers', () => {
  it('hands out monotonic numbers that survive a reopen, and never reuses one', () => {
    const path = tempDb();
    let s = JournalStore.open(path);
    const a = s.allocate({ laneId: 'L7', operation: 'sale', amountCents: 100, now: Date.UTC(2030, 0, 1) });
    const b = s.allocate({ laneId: 'L7', operation: 'sale', amountCents: 200, now: Date.UTC(2030, 0, 1) });
    expect(a.utn).toMatch(/^L7-[0-9a-z]+-1$/);
    expect(b.seq).toBe(2);
    s.close();
    s = JournalStore.open(path);
    const c = s.allocate({ laneId: 'L8', operation: 'sale', amountCents: 300, now: 0 });
    expect(c.seq).toBe(3);
    // A new lane id keeps the counter and the database's epoch: numbers stay unique.
    expect(c.utn.split('-')[1]).toBe(a.utn.split('-')[1]);
    s.close();
  });

  it('two journals of one lane id created at the same instant never number a sale alike', () => {
    const at = Date.UTC(2030, 0, 1);
    const utns = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const s = JournalStore.open(tempDb());
      utns.add(s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: at }).utn);
      s.close();
    }
    expect(utns.size).toBe(20);
  });

  it('recovers entries left `sending` by a crash as unknown, each with a reversal queued', () => {
    const s = JournalStore.open(tempDb());
    const a = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 1 });
    const b = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 1 });
    s.update(b.utn, { state: 'approved' }, 2);
    expect(s.recoverInFlight(10)).toEqual([a.utn]);
    expect(s.get(a.utn)?.state).toBe('unknown');
    expect(s.dueReversals(10, 10).map((r) => r.utn)).toEqual([a.utn]);
    s.reversalAttempt(a.utn, 50, 'offline');
    expect(s.dueReversals(10, 10)).toEqual([]);
    expect(s.dueReversals(50, 10).map((r) => r.attempts)).toEqual([1]);
    s.reversalDone(a.utn, 'reversed', 'ok', 60);
    expect(s.get(a.utn)?.state).toBe('reversed');
    expect(s.pendingReversals()).toEqual([]);
    s.close();
  });
});

describe('chip sales in the journal', () => {
  it('an approval still awaiting the card at a restart is reversed, not kept (EMV Book 4 §6.3.8)', () => {
    const s = JournalStore.open(tempDb());
    const a = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 1 });
    s.update(a.utn, { state: 'awaiting-card', srn: '900', authCode: 'A1' }, 2);
    const b = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 3 });
    s.update(b.utn, { state: 'approved', cardDecision: 'TC' }, 4);
    expect(s.recoverInFlight(10)).toEqual([a.utn]);
    expect(s.get(a.utn)).toMatchObject({ state: 'reversing', srn: '900' });
    expect(s.get(a.utn)?.message).toContain('before the card confirmed');
    expect(s.dueReversals(10, 10).map((r) => r.utn)).toEqual([a.utn]);
    expect(s.get(b.utn)).toMatchObject({ state: 'approved', cardDecision: 'TC' });
    s.close();
  });

  it('keeps the card decision and script results, and refuses anything but 5-byte hex results', () => {
    const s = JournalStore.open(tempDb());
    const a = s.allocate({ laneId: 'L1', operation: 'sale', amountCents: 100, now: 1 });
    const row = s.queueReversal(a.utn, 'Declined by card', 2, {
      cardDecision: 'AAC',
      scriptResults: '2000000000',
    });
    expect(row).toMatchObject({ state: 'reversing', cardDecision: 'AAC', scriptResults: '2000000000' });
    expect(s.dueReversals(5, 10).map((r) => r.utn)).toEqual([a.utn]);
    expect(() => s.update(a.utn, { scriptResults: '9F26' }, 3)).toThrow();
    expect(() => s.update(a.utn, { scriptResults: '20000000zz' }, 3)).toThrow();
    expect(() => s.update(a.utn, { cardDecision: 'ARQC' as 'TC' }, 3)).toThrow();
    s.close();
  });
});

describe('journal worker', () => {
  it('answers after commit, off the main thread, and groups concurrent commits', async () => {
    const path = tempDb();
    const j = await openJournal(path);
    const rows = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        j.allocate({ laneId: 'L1', operation: 'sale', amountCents: i + 1, now: i }),
      ),
    );
    expect(new Set(rows.map((r) => r.utn)).size).toBe(200);
    expect(await j.lastSequence()).toBe(200);
    // A failing call answers with its error and does not undo the others of its batch.
    const [bad, good] = await Promise.allSettled([
      j.update('nope', { state: 'approved' }, 1),
      j.allocate({ laneId: 'L1', operation: 'sale', amountCents: 1, now: 1 }),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    await j.close();
    // Everything answered is on disk.
    const s = JournalStore.open(path);
    expect(s.lastSequence()).toBe(201);
    s.close();
  });
});
