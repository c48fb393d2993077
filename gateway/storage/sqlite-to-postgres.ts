import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { paymentReport } from '../domain/report-records';
import { openPostgresStorage } from './postgres-storage';
import type { Queryable, Storage } from './queryable';
import type { Database } from './schema';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteDatabase, openSqliteStorage, sqliteQueryable, sqliteQueryBuilder } from './sqlite-storage';

/**
 * Every table of the schema, parents before children (the order the migrations create them), so rows can be
 * inserted with foreign keys on. A table a later migration adds must be added here: the copy refuses a
 * source with a table it does not know, rather than leave it behind.
 */
export const TABLES_IN_ORDER = [
  'merchants',
  'business_settings',
  'applications',
  'users',
  'cashiers',
  'batches',
  'settlements',
  'transaction_numbers',
  'payments',
  'batch_totals',
  'batch_rollups',
  'group_rollups',
  'rollup_groups',
  'batch_detail_rows',
  'deposit_rollups',
  'vault_tokens',
  'customers',
  'payment_links',
  'recurring_billings',
  'recurring_runs',
  'mobile_wallet_transactions',
  'signatures',
  'fraud_options',
  'fraud_blacklist',
  'gift_cards',
  'ebt_accounts',
  'stored_value_ledger',
  'bank_transactions',
  'check_tokens',
  'processor_users',
  'cashier_settings',
  'batch_close_settings',
  'batch_close_runs',
  'disputes',
  'merchant_statements',
  'emv_card_counters',
  'login_throttle',
  'sandbox_processor_ledger',
  'checkout_throttle',
] as const satisfies readonly (keyof Database)[];

type Table = (typeof TABLES_IN_ORDER)[number];
type Row = Record<string, unknown>;

export class MigrationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationRefused';
  }
}

/** What a merchant's reports add up to: compared before and after, they must be identical. */
export type MerchantTotals = {
  mid: number;
  /** GetReportByMerchant: how many rows, and the cents of each status (Amount and TotalAmount). */
  transactions: number;
  byStatus: Record<string, { count: number; amountCents: number; totalCents: number }>;
  /** GetSettlementsByDate over all time: how many, and the cents settled. */
  settlements: number;
  settledCents: number;
};

export type TableCopy = { table: Table; rows: number; digest: string };

export type MigrationReport = {
  tables: TableCopy[];
  before: MerchantTotals[];
  after: MerchantTotals[];
};

const cents = (amount: number) => Math.round(amount * 100);

/** The report totals of every merchant, read through the same domain queries the Report group answers with. */
export async function reportTotals(q: Queryable): Promise<MerchantTotals[]> {
  const merchants = await q.all(q.qb.selectFrom('merchants').select('mid').orderBy('mid'));
  const out: MerchantTotals[] = [];
  for (const { mid } of merchants) {
    const byStatus: MerchantTotals['byStatus'] = {};
    let transactions = 0;
    for await (const r of paymentReport(q, { mid })) {
      transactions += 1;
      const s = (byStatus[r.Status] ??= { count: 0, amountCents: 0, totalCents: 0 });
      s.count += 1;
      s.amountCents += cents(r.Amount);
      s.totalCents += cents(r.TotalAmount);
    }
    const settled = await q.first(
      q.qb
        .selectFrom('settlements')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_settled_cents').as('c')])
        .where('mid', '=', mid),
    );
    out.push({
      mid,
      transactions,
      byStatus,
      settlements: Number(settled?.n ?? 0),
      settledCents: Number(settled?.c ?? 0),
    });
  }
  return out;
}

function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** The columns that order a table's rows the same way in both dialects: its primary key. */
function keyColumns(db: BetterSqlite3.Database, table: Table): string[] {
  const cols = db
    .prepare('select name, pk from pragma_table_info(?) where pk > 0 order by pk')
    .all(table) as { name: string; pk: number }[];
  return cols.map((c) => c.name);
}

/**
 * A digest of a table's content in key order, values as text (SQLite's flexible typing may keep 12 where
 * PostgreSQL keeps '12' in a text column: the same datum). Identifiers come from TABLES_IN_ORDER and the
 * schema, never from input.
 */
async function digestOf(
  q: Queryable,
  table: Table,
  keys: string[],
): Promise<{ rows: number; digest: string }> {
  const hash = createHash('sha256');
  const order = sql.join(keys.map((k) => sql.ref(k)));
  const rows = await q.all(sql<Row>`select * from ${sql.table(table)} order by ${order}`.compile(q.qb));
  for (const row of rows) {
    const names = Object.keys(row).sort();
    hash.update(JSON.stringify(names.map((k) => asText(row[k]))));
    hash.update('\n');
  }
  return { rows: rows.length, digest: hash.digest('hex') };
}

/**
 * Copies a stopped gateway's SQLite database into an empty PostgreSQL database: the schema is created by
 * the same migrations, every table is copied in one PostgreSQL transaction (all or nothing), identity
 * sequences continue past the highest id SQLite ever gave (AUTOINCREMENT never reuses one), and the result
 * is verified table by table (row count and content digest) and by the merchants' report totals.
 */
export async function copySqliteToPostgres(options: {
  file: string;
  url: string;
  batchRows?: number;
}): Promise<MigrationReport> {
  if (!existsSync(options.file)) throw new MigrationRefused(`no SQLite database at ${options.file}`);
  // Brought to this build's schema first, as the gateway would on start; then read from a snapshot.
  await (await openSqliteStorage({ file: options.file })).close();
  const db = openSqliteDatabase(options.file, true);
  const source = sqliteQueryable(db, sqliteQueryBuilder());
  let target: Storage | null = null;
  try {
    const present = (
      db
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> 'schema_migrations'",
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
    const unknown = present.filter((t) => !(TABLES_IN_ORDER as readonly string[]).includes(t));
    if (unknown.length > 0)
      throw new MigrationRefused(
        `the SQLite database has tables this build cannot copy: ${unknown.join(', ')}`,
      );
    target = await openPostgresStorage({ url: options.url, poolSize: 2 });
    const t = target;
    for (const table of TABLES_IN_ORDER) {
      const any = await t.read.first(sql`select 1 from ${sql.table(table)} limit 1`.compile(t.read.qb));
      if (any) throw new MigrationRefused(`the PostgreSQL database is not empty (table ${table} has rows)`);
    }
    const before = await reportTotals(source);
    const sequences = new Map(
      (db.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map(
        (r) => [r.name, Number(r.seq)],
      ),
    );
    const batchRows = options.batchRows ?? 500;
    const keys = new Map<Table, string[]>();
    for (const table of TABLES_IN_ORDER) keys.set(table, keyColumns(db, table));

    db.exec('BEGIN');
    try {
      await t.write(async (tx) => {
        for (const table of TABLES_IN_ORDER) {
          // Streamed from SQLite, written in batches: a store's years of payments never sit in memory.
          const statement = db.prepare(`select * from "${table}"`);
          let batch: Row[] = [];
          const columns = statement.columns().map((c) => c.name);
          const flush = async () => {
            if (batch.length === 0) return;
            // Every value a parameter; column names from the source's own schema.
            const values = batch.map((r) => sql`(${sql.join(columns.map((c) => r[c]))})`);
            await tx.run(
              sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.compile(
                tx.qb,
              ),
            );
            batch = [];
          };
          for (const row of statement.iterate() as IterableIterator<Row>) {
            batch.push(row);
            if (batch.length >= batchRows) await flush();
          }
          await flush();
          // Tables with an identity id (withId): the next id follows the highest SQLite ever handed out,
          // deleted rows included.
          if (keys.get(table)?.join() !== 'id') continue;
          const max = await tx.first(
            sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.compile(tx.qb),
          );
          const next = Math.max(Number(max?.m ?? 0), sequences.get(table) ?? 0) + 1;
          await tx.run(
            sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${next}, false)`.compile(tx.qb),
          );
        }
      });
    } finally {
      db.exec('COMMIT');
    }

    const tables: TableCopy[] = [];
    const mismatched: string[] = [];
    for (const table of TABLES_IN_ORDER) {
      const k = keys.get(table) ?? [];
      const a = await digestOf(source, table, k);
      const b = await digestOf(t.read, table, k);
      if (a.rows !== b.rows || a.digest !== b.digest)
        mismatched.push(`${table} (${a.rows} rows in SQLite, ${b.rows} in PostgreSQL)`);
      tables.push({ table, rows: b.rows, digest: b.digest });
    }
    const after = await reportTotals(t.read);
    if (JSON.stringify(before) !== JSON.stringify(after)) mismatched.push('report totals');
    if (mismatched.length > 0)
      throw new MigrationRefused(`the copy does not match its source: ${mismatched.join('; ')}`);
    return { tables, before, after };
  } finally {
    db.close();
    await target?.close();
  }
}
