import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../gateway/storage/open-storage';

/**
 * Which database the gateway tests run on. The `postgres` vitest project sets TILLPOINT_TEST_DATABASE to
 * `postgres`; then every test gateway gets a fresh schema of its own on the server named by
 * TILLPOINT_TEST_PG_URL (which `.ci/run` starts, and `bash .ci/postgres start` starts for a developer).
 */
export const BACKEND_ENV = 'TILLPOINT_TEST_DATABASE';
export const PG_URL_ENV = 'TILLPOINT_TEST_PG_URL';
/** Set by the postgres project's global setup: this run's own database on that server. */
export const PG_RUN_URL_ENV = 'TILLPOINT_TEST_PG_RUN_URL';

export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  return process.env[BACKEND_ENV] === 'postgres' ? 'postgres' : 'sqlite';
}

export class PostgresMissingError extends Error {
  constructor() {
    super(
      `${PG_URL_ENV} is not set and no PostgreSQL server binaries are installed: the PostgreSQL half of ` +
        'the gateway suite cannot run. Install the Debian package postgresql (the run then starts a ' +
        `loopback server itself), or point ${PG_URL_ENV} at a server.`,
    );
    this.name = 'PostgresMissingError';
  }
}

/** The server's URL (its maintenance database); throws a clear error when none is configured. */
export function pgServerUrl(): string {
  const url = process.env[PG_URL_ENV];
  if (!url) throw new PostgresMissingError();
  return url;
}

/** The database this test run works in: the run's own when the global setup made one. */
function runUrl(): string {
  return process.env[PG_RUN_URL_ENV] ?? pgServerUrl();
}

/** The same URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The same URL with `search_path` set to one schema, through libpq's `options` parameter. */
export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

let admin: pg.Pool | null = null;
function adminPool(): pg.Pool {
  // Small and allowed to go idle, so a test process is never kept alive by it.
  admin ??= new pg.Pool({ connectionString: runUrl(), max: 2, allowExitOnIdle: true });
  return admin;
}

/** Closes the admin connections (before the run's database is dropped, which would end them with an error). */
export async function endAdminPool(): Promise<void> {
  const pool = admin;
  admin = null;
  await pool?.end();
}

/** Runs one statement on the run's database (identifiers are generated here, never taken from input). */
export async function adminQuery(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  return adminPool().query(text, values);
}

let counter = 0;
function schemaName(): string {
  counter += 1;
  return `t_${process.pid}_${counter}_${randomBytes(3).toString('hex')}`;
}

/** A new, empty schema and the URL that works in it. */
export async function createSchema(): Promise<{ schema: string; url: string }> {
  const schema = schemaName();
  await adminQuery(`create schema ${schema}`);
  return { schema, url: withSchema(runUrl(), schema) };
}

export async function dropSchema(schema: string): Promise<void> {
  if (!/^t_[0-9a-z_]+$/.test(schema)) throw new Error(`not a test schema: ${schema}`);
  await adminQuery(`drop schema if exists ${schema} cascade`);
}

const MARKER = 'test-database.json';
type Marker = { schema: string };

/**
 * The database of a test data folder. SQLite: the file in it. PostgreSQL: a schema named in a marker file
 * in the folder, made on first use, so a test that restarts a gateway on the same folder finds its data.
 */
export async function testDatabaseFor(dataDir: string): Promise<DatabaseConfig> {
  if (testBackend() === 'sqlite') return { kind: 'sqlite' };
  const file = join(dataDir, MARKER);
  if (existsSync(file)) {
    const { schema } = JSON.parse(readFileSync(file, 'utf8')) as Marker;
    return { kind: 'postgres', url: withSchema(runUrl(), schema), poolSize: 4 };
  }
  const made = await createSchema();
  writeFileSync(file, JSON.stringify({ schema: made.schema } satisfies Marker));
  return { kind: 'postgres', url: made.url, poolSize: 4 };
}

/** The schema a data folder's gateway uses on PostgreSQL, if any. */
export function schemaOf(dataDir: string): string | null {
  const file = join(dataDir, MARKER);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Marker).schema : null;
}

/**
 * Everything the database holds, as text, for the tests that prove no card data is kept in clear:
 * SQLite's files (database and WAL) byte for byte, or every row of every table of the PostgreSQL schema.
 */
export async function storedText(dataDir: string): Promise<{ name: string; text: string }[]> {
  const schema = schemaOf(dataDir);
  if (!schema) {
    return readdirSync(dataDir)
      .filter((f) => f.startsWith('gateway.sqlite'))
      .map((f) => ({ name: f, text: readFileSync(join(dataDir, f)).toString('latin1') }));
  }
  const tables = await adminQuery(
    'select table_name from information_schema.tables where table_schema = $1 order by table_name',
    [schema],
  );
  const out: { name: string; text: string }[] = [];
  for (const { table_name: table } of tables.rows as { table_name: string }[]) {
    const rows = await adminQuery(`select row_to_json(t)::text as j from ${schema}."${table}" t`);
    out.push({
      name: `${schema}.${table}`,
      text: (rows.rows as { j: string }[]).map((r) => r.j).join('\n'),
    });
  }
  return out;
}

/** `--db URL` for a CLI (gateway or admin) that must reach the same database as a test gateway. */
export async function databaseArgs(dataDir: string): Promise<string[]> {
  const db = await testDatabaseFor(dataDir);
  return db.kind === 'postgres' ? ['--db', db.url] : [];
}
