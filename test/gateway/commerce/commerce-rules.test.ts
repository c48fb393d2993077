import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  calendarDateOf,
  dueDate,
  frequencies,
  frequencyById,
  localDate,
} from '../../../gateway/domain/frequency';
import { parseLinkAmount } from '../../../gateway/domain/payment-links';
import { migrate } from '../../../gateway/storage/migrate';
import { migrations } from '../../../gateway/storage/migrations/index';
import { UniqueViolation } from '../../../gateway/storage/queryable';
import {
  openSqliteDatabase,
  openSqliteStorage,
  sqliteQueryBuilder,
  sqliteQueryable,
} from '../../../gateway/storage/sqlite-storage';
import { commerceCatalog, commerceCodes } from '../../../gateway/contract/response-codes-commerce';

const f = (id: number) => {
  const found = frequencyById(id);
  if (!found) throw new Error(`no frequency ${id}`);
  return found;
};

describe('FrequencyId table and due dates', () => {
  it('publishes seven frequencies, ids 1 to 7', () => {
    expect(frequencies.map((x) => [x.id, x.name])).toEqual([
      [1, 'Daily'],
      [2, 'Weekly'],
      [3, 'Biweekly'],
      [4, 'Monthly'],
      [5, 'Quarterly'],
      [6, 'Semiannual'],
      [7, 'Annual'],
    ]);
    expect(frequencyById(0)).toBeUndefined();
    expect(frequencyById(8)).toBeUndefined();
  });

  it('steps days across month and year ends', () => {
    expect(dueDate('2030-12-30', f(1), 3)).toBe('2031-01-02');
    expect(dueDate('2030-02-25', f(2), 1)).toBe('2030-03-04');
    expect(dueDate('2028-02-20', f(3), 1)).toBe('2028-03-05');
  });

  it('steps months from the anchor without drifting, clamping to the month end', () => {
    const monthly = [0, 1, 2, 3, 4].map((n) => dueDate('2030-01-31', f(4), n));
    expect(monthly).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30', '2030-05-31']);
    expect(dueDate('2028-01-31', f(4), 1)).toBe('2028-02-29');
    expect(dueDate('2030-11-30', f(5), 1)).toBe('2031-02-28');
    expect(dueDate('2030-08-31', f(6), 1)).toBe('2031-02-28');
    expect(dueDate('2028-02-29', f(7), 1)).toBe('2029-02-28');
    expect(dueDate('2028-02-29', f(7), 4)).toBe('2032-02-29');
  });

  it("reads the merchant's calendar day in its time zone, across DST", () => {
    expect(localDate(new Date('2030-01-20T04:59:00Z'), 'America/New_York')).toBe('2030-01-19');
    expect(localDate(new Date('2030-01-20T05:00:00Z'), 'America/New_York')).toBe('2030-01-20');
    expect(localDate(new Date('2030-07-20T03:59:00Z'), 'America/New_York')).toBe('2030-07-19');
    expect(localDate(new Date('2030-07-20T04:00:00Z'), 'America/New_York')).toBe('2030-07-20');
    expect(localDate(new Date('2030-01-19T15:00:00Z'), 'Asia/Tokyo')).toBe('2030-01-20');
    expect(localDate(new Date('2030-01-20T05:30:00Z'), 'America/Chicago')).toBe('2030-01-19');
  });

  it('takes the calendar date a date-time was written with, and refuses impossible dates', () => {
    expect(calendarDateOf('2030-03-01T00:00:00-05:00')).toBe('2030-03-01');
    expect(calendarDateOf('2030-02-28T23:30:00+14:00')).toBe('2030-02-28');
    expect(calendarDateOf('2030-02-30T00:00:00Z')).toBeNull();
    expect(calendarDateOf('2030-13-01T00:00:00Z')).toBeNull();
    expect(calendarDateOf('soon')).toBeNull();
  });
});

describe('payment link Amount text', () => {
  it('reads en-US currency text exactly, without floats', () => {
    const ok: [unknown, number | null][] = [
      [undefined, null],
      [null, null],
      ['', null],
      ['  ', null],
      ['0.29', 29],
      ['1.10', 110],
      ['$ 1,234.89', 123489],
      ['999,999.99', 99999999],
    ];
    for (const [input, cents] of ok)
      expect(parseLinkAmount(input), String(input)).toEqual({ ok: true, cents });
  });

  it('refuses what is not a positive amount with at most two decimals', () => {
    const bad: [unknown, RegExp][] = [
      ['-1.00', /positive/],
      ['$-1.00', /positive/],
      ['(1.00)', /positive/],
      ['0', /positive/],
      ['0.00', /positive/],
      ['1.005', /two decimals/],
      ['1,000.123', /two decimals/],
      ['1.2.3', /en-US/],
      ['12,34', /en-US/],
      ['1 000', /en-US/],
      ['€5', /en-US/],
      ['1000000.00', /exceed/],
      ['9999999999999999999', /exceed/],
      [5, /string/],
      [{}, /string/],
    ];
    for (const [input, reason] of bad) {
      const r = parseLinkAmount(input);
      expect(r.ok, String(input)).toBe(false);
      expect(r.ok ? '' : r.reason, String(input)).toMatch(reason);
    }
  });
});

describe('commerce response codes', () => {
  it('stay in 600-649, each with its catalog entry', () => {
    for (const code of Object.values(commerceCodes)) {
      expect(code).toBeGreaterThanOrEqual(600);
      expect(code).toBeLessThanOrEqual(649);
      expect(commerceCatalog[code].meaning.length).toBeGreaterThan(10);
    }
    expect(new Set(Object.values(commerceCodes)).size).toBe(Object.values(commerceCodes).length);
  });
});

describe('migration 002', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-m002-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates a version-1 database with rows, and its constraints hold', async () => {
    const file = join(dir, 'gateway.sqlite');
    const old = openSqliteDatabase(file);
    await migrate(
      sqliteQueryable(old, sqliteQueryBuilder()),
      (sql) => void old.exec(sql),
      migrations.slice(0, 1),
    );
    old.exec("insert into merchants values (7, 'Old', 'UTC', 'sandbox', 1, '2026-01-01T00:00:00.000Z')");
    old.close();
    const storage = await openSqliteStorage({ file });
    try {
      const base = {
        mid: 7,
        user_id: 1,
        cid: 1,
        description: '',
        status: 'UnPaid' as const,
        active: 1 as const,
        created_on: '2026-01-01T00:00:00.000Z',
        paid_on: null,
        disabled_on: null,
        deleted_on: null,
        srn: null,
        invoice: '',
        forced_payment_method: null,
        allowed_payment_schedule: 'OnlySingle',
        payment_schedule: 'Single',
        is_open_payment_schedule: 0 as const,
        frequency_id: null,
        start_date: null,
        end_date: null,
        recurring_description: '',
        installment_total: null,
        paying_utn: null,
        paying_since: null,
        paying_choice: null,
        recurring_billing_id: null,
        updated_at: '2026-01-01T00:00:00.000Z',
      };
      await storage.write((tx) =>
        tx.run(
          tx.qb
            .insertInto('payment_links')
            .values({ ...base, link_id: 'a', type: 'Fixed', amount_cents: 100 }),
        ),
      );
      // Open vs Fixed by amount: the database refuses rows where they disagree.
      await expect(
        storage.write((tx) =>
          tx.run(
            tx.qb
              .insertInto('payment_links')
              .values({ ...base, link_id: 'b', type: 'Fixed', amount_cents: null }),
          ),
        ),
      ).rejects.toThrow(/check constraint violated: payment_links_type_by_amount/);
      await expect(
        storage.write((tx) =>
          tx.run(
            tx.qb
              .insertInto('payment_links')
              .values({ ...base, link_id: 'c', type: 'Open', amount_cents: 5 }),
          ),
        ),
      ).rejects.toThrow(/check constraint violated: payment_links_type_by_amount/);
      await expect(
        storage.write((tx) =>
          tx.run(
            tx.qb
              .insertInto('payment_links')
              .values({ ...base, link_id: 'a', type: 'Open', amount_cents: null }),
          ),
        ),
      ).rejects.toBeInstanceOf(UniqueViolation);
      const tables = await storage.read.all(
        storage.read.qb.selectFrom('schema_migrations').select('version').orderBy('version'),
      );
      expect(tables.map((t) => t.version)).toContain(2);
    } finally {
      await storage.close();
    }
  });
});
