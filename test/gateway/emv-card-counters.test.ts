import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storageAtcRegister } from '../../gateway/sandbox/atc-register';
import { migrate } from '../../gateway/storage/migrate';
import { migrations } from '../../gateway/storage/migrations/index';
import { openStorage } from '../../gateway/storage/open-storage';
import {
  openSqliteDatabase,
  openSqliteStorage,
  sqliteQueryBuilder,
  sqliteQueryable,
} from '../../gateway/storage/sqlite-storage';
import { dropSchema, schemaOf, testDatabaseFor } from '../support/test-database';

const key = Buffer.alloc(32, 7);
const now = () => new Date('2030-01-01T00:00:00Z');

describe('the sandbox issuer ATC register (emv_card_counters)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-atc-db-'));
  afterAll(async () => {
    const schema = schemaOf(dir);
    if (schema) await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fresh, replayed, stale, higher; per card and PAN sequence number; no PAN stored', async () => {
    const storage = await openStorage(await testDatabaseFor(dir), dir);
    try {
      const atc = storageAtcRegister(storage, key, now);
      const card = { pan: '4012888888881881', panSequenceNumber: '01' };
      expect(await atc.advance(card, 5)).toBe(true);
      expect(await atc.advance(card, 5)).toBe(false);
      expect(await atc.advance(card, 4)).toBe(false);
      expect(await atc.advance(card, 6)).toBe(true);
      expect(await atc.advance({ ...card, panSequenceNumber: '02' }, 1)).toBe(true);
      expect(await atc.advance({ pan: '5100000000000016', panSequenceNumber: '01' }, 1)).toBe(true);
      const rows = await storage.read.all(storage.read.qb.selectFrom('emv_card_counters').selectAll());
      expect(rows).toHaveLength(3);
      expect(JSON.stringify(rows)).not.toContain('4012888888881881');
      expect(rows.map((r) => Number(r.highest_atc)).sort()).toEqual([1, 1, 6]);
    } finally {
      await storage.close();
    }
  });

  it('the same ATC verified at once by many requests is fresh for exactly one of them', async () => {
    const storage = await openStorage(await testDatabaseFor(dir), dir);
    try {
      const atc = storageAtcRegister(storage, key, now);
      const card = { pan: '4000000000000424', panSequenceNumber: '01' };
      const verdicts = await Promise.all(Array.from({ length: 12 }, () => atc.advance(card, 40)));
      expect(verdicts.filter(Boolean)).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });
});

describe('migration 004 (emv card transaction counters)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-m004-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates a version-3 database with rows, and its constraints hold', async () => {
    const file = join(dir, 'gateway.sqlite');
    const old = openSqliteDatabase(file);
    await migrate(
      sqliteQueryable(old, sqliteQueryBuilder()),
      (sql) => void old.exec(sql),
      migrations.slice(0, 3),
    );
    old.exec("insert into merchants values (7, 'Old', 'UTC', 'sandbox', 1, '2026-01-01T00:00:00.000Z')");
    old.close();
    const storage = await openSqliteStorage({ file });
    try {
      const versions = await storage.read.all(
        storage.read.qb.selectFrom('schema_migrations').select(['version', 'name']).orderBy('version'),
      );
      expect(versions.find((v) => v.version === 4)).toEqual({
        version: 4,
        name: 'emv card transaction counters',
      });
      // Every migration after it ran too (their numbers need not be contiguous).
      expect(versions.map((v) => v.version)).toEqual(migrations.map((m) => m.version));
      const merchants = await storage.read.all(storage.read.qb.selectFrom('merchants').select('mid'));
      expect(merchants.map((m) => m.mid)).toContain(7);
      const row = { card_fingerprint: 'f', pan_sequence: '00', highest_atc: 1, updated_at: 'x' };
      await storage.write((tx) => tx.run(tx.qb.insertInto('emv_card_counters').values(row)));
      await expect(
        storage.write((tx) =>
          tx.run(
            tx.qb.insertInto('emv_card_counters').values({ ...row, pan_sequence: '01', highest_atc: 70_000 }),
          ),
        ),
      ).rejects.toThrow(/check constraint violated: emv_card_counters_atc/);
      await expect(
        storage.write((tx) => tx.run(tx.qb.insertInto('emv_card_counters').values(row))),
      ).rejects.toThrow(/unique constraint/);
    } finally {
      await storage.close();
    }
  });
});
