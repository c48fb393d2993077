import pg from 'pg';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { compileQuery, type Query } from './prepared';
import type { Database } from './schema';
import { CheckViolation, UniqueViolation, type Queryable, type RunResult, type Storage } from './queryable';
import { migrate } from './migrate';

/** A Kysely that only builds and compiles PostgreSQL SQL; execution goes through node-postgres directly. */
export function postgresQueryBuilder(): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

// PostgreSQL's type oids (pg_type): bigint and numeric.
const INT8_OID = 20;
const NUMERIC_OID = 1700;

function toNumber(text: string): number {
  const n = Number(text);
  // Every integer the gateway keeps (cents, ids, counts) is far below 2^53; a larger one is a bug, not data.
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError(`integer ${text} exceeds 2^53`);
  return n;
}

type TextParser = (text: string) => unknown;

/**
 * Integers are 64-bit in both dialects (SQLite's INTEGER, PostgreSQL's bigint), and count()/sum() answer
 * bigint or numeric: node-postgres hands those over as strings unless told otherwise. The domain expects
 * numbers, as better-sqlite3 gives them. Scoped to this pool, never the process-wide pg.types.
 */
const numberTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): TextParser => {
    if (format !== 'binary' && (oid === INT8_OID || oid === NUMERIC_OID)) return toNumber;
    const builtin = (
      format === undefined ? pg.types.getTypeParser(oid) : pg.types.getTypeParser(oid, format)
    ) as TextParser;
    return builtin;
  }) as typeof pg.types.getTypeParser,
};

/** SQLSTATEs after which the whole unit of work is run again from the start (it has been rolled back). */
const RETRYABLE = new Set(['40001', '40P01']);

function sqlState(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/**
 * Constraint errors in the same words as the SQLite side, so the domain can tell them apart by table and
 * column (`transaction_numbers.mid, transaction_numbers.utn`) whatever the dialect. Only column NAMES are
 * taken from the server's detail: its values (which may be a card fingerprint) never reach a message.
 */
function translate(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError)) return error;
  if (error.code === '23505') {
    const columns = /^Key \(([^)]*)\)=/.exec(error.detail ?? '')?.[1];
    const table = error.table ?? '';
    const described = columns
      ? columns
          .split(',')
          .map((c) => `${table}.${c.trim()}`)
          .join(', ')
      : (error.constraint ?? table);
    return new UniqueViolation(`${described} (${error.constraint ?? 'unique'})`);
  }
  if (error.code === '23514') return new CheckViolation(error.constraint ?? error.table ?? 'check');
  return error;
}

function bindable(parameters: readonly unknown[]): unknown[] {
  // Flags are 0/1 integers in the schema (as in SQLite): a JS boolean would be sent as 'true'.
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p === undefined ? null : p));
}

/** Executes on whatever `exec` reaches: a pool (autocommit reads) or one client inside a transaction. */
export type Exec = (config: pg.QueryConfig) => Promise<pg.QueryResult>;

/**
 * Names for the prepared (fixed-shape) queries: PostgreSQL then parses and plans them once per connection.
 * Ad-hoc builder queries stay unnamed, so a connection never accumulates statements without bound.
 */
const statementNames = new Map<string, string>();
function nameOf(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `tp${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

function config<R>(query: Query<R>, qb: Kysely<Database>): pg.QueryConfig {
  const compiled = compileQuery(query, qb);
  const named = 'kind' in query && query.kind === 'bound';
  return {
    text: compiled.sql,
    values: bindable(compiled.parameters),
    ...(named ? { name: nameOf(compiled.sql) } : {}),
  };
}

const lockExclusive = (key: string): pg.QueryConfig => ({
  name: 'tp_lock',
  text: 'select pg_advisory_xact_lock(hashtextextended($1, 0))',
  values: [key],
});
const lockShared = (key: string): pg.QueryConfig => ({
  name: 'tp_lock_shared',
  text: 'select pg_advisory_xact_lock_shared(hashtextextended($1, 0))',
  values: [key],
});

/** A Queryable over one client or the pool (exported for migration tests and the SQLite import). */
export function postgresQueryable(exec: Exec, qb: Kysely<Database>, inTransaction: boolean): Queryable {
  const all = async <R>(query: Query<R>): Promise<R[]> => {
    try {
      return (await exec(config(query, qb))).rows as R[];
    } catch (error) {
      throw translate(error);
    }
  };
  return {
    dialect: 'postgres',
    qb,
    all,
    first: async (query) => (await all(query))[0],
    run: async (query): Promise<RunResult> => {
      try {
        return { changes: (await exec(config(query, qb))).rowCount ?? 0 };
      } catch (error) {
        throw translate(error);
      }
    },
    async lock(key, mode = 'exclusive') {
      // A lock outside a transaction would be released at once: only a unit of work can hold one.
      if (!inTransaction) throw new Error(`lock(${key}) outside a unit of work`);
      // Transaction-scoped: released by COMMIT or ROLLBACK, in every gateway process on this database.
      await exec(mode === 'shared' ? lockShared(key) : lockExclusive(key));
    },
  };
}

export type PostgresStorageOptions = {
  /** postgres://user:password@host:port/database (libpq URL; `?options=-c search_path=x` selects a schema). */
  url: string;
  /** Connections this process keeps (10 by default). */
  poolSize?: number;
  /** Runs of a unit of work that keeps hitting a deadlock or serialization failure (5 by default). */
  maxAttempts?: number;
  applicationName?: string;
};

/** Runs `work` holding a session advisory lock; every process that wants the same key waits its turn. */
async function withSessionLock<T>(client: pg.PoolClient, key: string, work: () => Promise<T>): Promise<T> {
  // Database and schema are part of the key: several schemas (test files) in one server migrate in parallel.
  const lockSql = (fn: string) =>
    `select ${fn}(hashtextextended($1 || ':' || current_database() || ':' || current_schema(), 0))`;
  await client.query(lockSql('pg_advisory_lock'), [key]);
  try {
    return await work();
  } finally {
    await client.query(lockSql('pg_advisory_unlock'), [key]);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's storage on PostgreSQL. Each unit of work is one READ COMMITTED transaction on its own
 * connection; what SQLite's single writer gave for free (no two units interleave) comes from the schema's
 * constraints and the domain's `lock(key)` advisory locks, which hold across gateway processes. PostgreSQL
 * groups concurrent commits into one WAL flush by itself.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const maxAttempts = options.maxAttempts ?? 5;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types: numberTypes,
    application_name: options.applicationName ?? 'tillpoint-gateway',
    // A unit of work never waits on anything but the database: an idle open transaction is a bug or a
    // vanished process, and must not hold its locks for long.
    idle_in_transaction_session_timeout: 60_000,
  });
  // An idle connection the server dropped (restart, timeout) must not crash the process: the pool
  // replaces it on next use.
  pool.on('error', () => undefined);
  const qb = postgresQueryBuilder();

  try {
    const client = await pool.connect();
    try {
      await withSessionLock(client, 'tillpoint:migrate', () =>
        migrate(
          postgresQueryable((c) => client.query(c), qb, true),
          async (text) => {
            await client.query(text);
          },
        ),
      );
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }

  const read = postgresQueryable((c) => pool.query(c), qb, false);
  let closed = false;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  async function attempt<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const value = await work(postgresQueryable((c) => client.query(c), qb, true));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection itself failed: it goes, the error that caused it is what the caller sees.
          broken = true;
        }
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  return {
    dialect: 'postgres',
    read,
    async write<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
      if (closed) throw new Error('storage is closed');
      inFlight += 1;
      try {
        for (let n = 1; ; n += 1) {
          try {
            return await attempt(work);
          } catch (error) {
            // Two units that took the same locks in opposite orders, or a serialization failure: the
            // loser was rolled back whole, so running it again is safe.
            if (n >= maxAttempts || !RETRYABLE.has(sqlState(error) ?? '')) throw error;
            await sleep(Math.random() * 5 * n);
          }
        }
      } finally {
        inFlight -= 1;
        if (inFlight === 0) idle?.();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await pool.end();
    },
  };
}
