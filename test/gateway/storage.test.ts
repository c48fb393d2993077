import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSqliteDatabase,
  openSqliteStorage,
  sqliteQueryable,
  sqliteQueryBuilder,
} from '../../gateway/storage/sqlite-storage';
import { migrations } from '../../gateway/storage/migrations/index';
import { migrate, SchemaTooNewError, type Migration } from '../../gateway/storage/migrate';
import { UniqueViolation, type Storage } from '../../gateway/storage/queryable';

describe('SQLite storage', () => {
  let dir: string;
  let file: string;
  let storage: Storage | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tillpoint-store-'));
    file = join(dir, 'gateway.sqlite');
  });
  afterEach(async () => {
    await storage?.close();
    storage = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('numbers its migrations in increasing order, applies them once, and opens WAL with synchronous=FULL', async () => {
    // Increasing and unique, not necessarily contiguous: a number reserved by a branch that lands later
    // leaves a gap until it does (the runner applies by version, see the next test).
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(versions[0]).toBe(1);
    storage = await openSqliteStorage({ file });
    await storage.close();
    storage = await openSqliteStorage({ file });
    const db = new BetterSqlite3(file, { readonly: true });
    const applied = db.prepare('select version from schema_migrations order by version').all() as {
      version: number;
    }[];
    expect(applied.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('migrates a database that already holds rows of an earlier version', async () => {
    // A version-1 database with a merchant in it, as an older build left it.
    const old = openSqliteDatabase(file);
    await migrate(
      sqliteQueryable(old, sqliteQueryBuilder()),
      (sql) => void old.exec(sql),
      migrations.slice(0, 1),
    );
    old.exec("insert into merchants values (7, 'Old', 'UTC', 'sandbox', 1, '2026-01-01T00:00:00.000Z')");
    old.close();
    storage = await openSqliteStorage({ file });
    const m = await storage.read.first(
      storage.read.qb.selectFrom('merchants').selectAll().where('mid', '=', 7),
    );
    expect(m?.name).toBe('Old');
    const versions = await storage.read.all(
      storage.read.qb.selectFrom('schema_migrations').select('version'),
    );
    expect(versions.map((v) => v.version)).toEqual(migrations.map((x) => x.version));
  });

  it('migration 5 makes vault tokens unique per merchant, keeping every row and the billings that use them', async () => {
    /** Inserts a row, giving every other NOT NULL column a placeholder of its type. */
    const insert = (db: BetterSqlite3.Database, table: string, values: Record<string, string | number>) => {
      const cols = db.prepare('select name, type, "notnull", pk from pragma_table_info(?)').all(table) as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      const row: Record<string, string | number> = {};
      for (const c of cols) if (c.notnull && !c.pk) row[c.name] = /int/i.test(c.type) ? 0 : 'x';
      Object.assign(row, values);
      const names = Object.keys(row);
      db.prepare(
        `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`,
      ).run(...names.map((n) => row[n]));
    };
    // A version-4 database: two merchants' tokens and a recurring billing that charges one of them.
    const old = openSqliteDatabase(file);
    await migrate(
      sqliteQueryable(old, sqliteQueryBuilder()),
      (sql) => void old.exec(sql),
      migrations.slice(0, 4),
    );
    insert(old, 'merchants', { mid: 7, name: 'Seven' });
    insert(old, 'merchants', { mid: 8, name: 'Eight' });
    insert(old, 'vault_tokens', { id: 1, mid: 7, token: 'tok-a', identifier: 'id-1', last4: '1111' });
    insert(old, 'vault_tokens', { id: 2, mid: 8, token: 'tok-b', identifier: 'id-2', last4: '4242' });
    insert(old, 'recurring_billings', { id: 1, mid: 7, vault_token_id: 1, amount_cents: 500 });
    // Before: one merchant's token value blocks every other merchant's.
    expect(() => insert(old, 'vault_tokens', { id: 3, mid: 8, token: 'tok-a', identifier: 'id-3' })).toThrow(
      /UNIQUE/,
    );
    old.close();

    storage = await openSqliteStorage({ file });
    await storage.close();
    storage = null;
    const db = openSqliteDatabase(file);
    try {
      expect(db.prepare('select id, mid, token, last4 from vault_tokens order by id').all()).toEqual([
        { id: 1, mid: 7, token: 'tok-a', last4: '1111' },
        { id: 2, mid: 8, token: 'tok-b', last4: '4242' },
      ]);
      insert(db, 'vault_tokens', { id: 3, mid: 8, token: 'tok-a', identifier: 'id-3' });
      expect(() => insert(db, 'vault_tokens', { id: 4, mid: 8, token: 'tok-a', identifier: 'id-4' })).toThrow(
        /UNIQUE/,
      );
      // The billing still names its token, and the foreign key still holds (and still refuses a bad one).
      expect(db.prepare('pragma foreign_key_check').all()).toEqual([]);
      expect(() =>
        insert(db, 'recurring_billings', { id: 2, mid: 7, vault_token_id: 99, amount_cents: 500 }),
      ).toThrow(/FOREIGN KEY/);
      expect(db.prepare('select vault_token_id from recurring_billings').all()).toEqual([
        { vault_token_id: 1 },
      ]);
    } finally {
      db.close();
    }
  });

  it('accepts a gap in the numbers, and applies the missing migration when a later build brings it', async () => {
    // As when migration 8 lands before 7 (two branches): a database at 1, 2, 4 later gets 3, once.
    const table = (version: number): Migration => ({
      version,
      name: `table ${version}`,
      async up(ctx) {
        await ctx.exec(`create table t${version} (id integer primary key)`);
      },
    });
    const db = openSqliteDatabase(file);
    const q = sqliteQueryable(db, sqliteQueryBuilder());
    const exec = (sql: string) => void db.exec(sql);
    try {
      expect(await migrate(q, exec, [table(1), table(2), table(4)])).toBe(3);
      expect(await migrate(q, exec, [table(1), table(2), table(3), table(4)])).toBe(1);
      expect(await migrate(q, exec, [table(1), table(2), table(3), table(4)])).toBe(0);
      const applied = db.prepare('select version from schema_migrations order by version').all();
      expect(applied).toEqual([1, 2, 3, 4].map((version) => ({ version })));
      expect(db.prepare("select name from sqlite_master where name = 't3'").all()).toEqual([{ name: 't3' }]);
    } finally {
      db.close();
    }
  });

  it('refuses a database written by a newer build', async () => {
    storage = await openSqliteStorage({ file });
    await storage.close();
    storage = null;
    const raw = new BetterSqlite3(file);
    raw
      .prepare("insert into schema_migrations (version, name, applied_at) values (999, 'future', 'x')")
      .run();
    raw.close();
    await expect(openSqliteStorage({ file })).rejects.toBeInstanceOf(SchemaTooNewError);
  });

  it('groups concurrent units of work into one commit, isolating a failing one', async () => {
    storage = await openSqliteStorage({ file });
    const s = storage;
    const ok = (mid: number) =>
      s.write((tx) =>
        tx.run(
          tx.qb.insertInto('merchants').values({
            mid,
            name: `m${mid}`,
            time_zone: 'UTC',
            credit_processor: 'x',
            token_lookup_supported: 0,
            created_at: 'now',
          }),
        ),
      );
    const results = await Promise.allSettled([ok(1), ok(2), ok(1), ok(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(UniqueViolation);
    const rows = await s.read.all(s.read.qb.selectFrom('merchants').select('mid').orderBy('mid'));
    expect(rows.map((r) => r.mid)).toEqual([1, 2, 3]);
  });

  it('a unit of work that throws after writing leaves no trace', async () => {
    storage = await openSqliteStorage({ file });
    const s = storage;
    await expect(
      s.write(async (tx) => {
        await tx.run(
          tx.qb.insertInto('merchants').values({
            mid: 9,
            name: 'x',
            time_zone: 'UTC',
            credit_processor: 'x',
            token_lookup_supported: 0,
            created_at: 'now',
          }),
        );
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(
      await s.read.first(s.read.qb.selectFrom('merchants').select('mid').where('mid', '=', 9)),
    ).toBeUndefined();
  });

  it('the refund ceiling is a database constraint', async () => {
    storage = await openSqliteStorage({ file });
    const raw = new BetterSqlite3(file);
    raw.exec("insert into merchants values (5, 'm', 'UTC', 'x', 0, 'now')");
    const insert = (refunded: number) =>
      raw
        .prepare(
          `insert into payments (srn, mid, cid, user_id, utn, operation, transaction_type, status, requested_cents, amount_cents, tax_cents, tip_cents, surcharge_cents, card_difference_cents, cashback_cents, currency, card_type, first6, last4, fingerprint, entry_mode, pos_code, auth_code, avs_result, cvn_result, response_code, response_msg, refunded_cents, pending_refund_cents, reversal_requested, is_test, created_at, updated_at)
           values (?, 5, 1, 1, ?, 'sale', 1, 'approved', 1000, 1000, 0, 0, 0, 0, 0, 'USD', 'Visa', '411111', '1111', 'f', 'KeyEntered', 'Retail', 'A', 'U', 'P', 200, '', ?, 0, 0, 0, 'now', 'now')`,
        )
        .run(`s${refunded}`, `u${refunded}`, refunded);
    expect(() => insert(1000)).not.toThrow();
    expect(() => insert(1001)).toThrow(/CHECK constraint failed/);
    raw.close();
  });
});
