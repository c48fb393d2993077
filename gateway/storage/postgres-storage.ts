import pg from 'pg';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { compileQuery, type Query } from './prepared';
import type { Database } from './schema';
import type { LockRequest, Queryable, RunResult, Storage } from './queryable';
import { migrate } from './migrate';
import { multiplexer } from './postgres-multiplexer';
import { withSessionLock } from './postgres-session-lock';
import { otherSchemaCreators } from './postgres-schema-check';
import { unitRoutineRunner, type Warn } from './postgres-unit-routine';
import { bindable, sqlState, translate } from './postgres-wire';

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

/**
 * A unit of work's statements on a pipelined connection: BEGIN and lock statements go out without waiting
 * for their answer (the statements after them are written behind them at once, and the server runs those
 * only once the lock is granted). A failure nothing awaited — a lock that deadlocked — is kept here: every
 * statement after it is refused with 25P02 and COMMIT is answered ROLLBACK, and the unit fails with it.
 */
export type PipelineState = { failed?: unknown };

/** SQLSTATE 25P02: the transaction is aborted, an earlier statement failed. */
const IN_FAILED_TRANSACTION = '25P02';

function sendWithoutWaiting(sent: Promise<unknown>, state: PipelineState): void {
  sent.catch((error: unknown) => {
    state.failed ??= error;
  });
}

/** A Queryable over one client or the pool (exported for migration tests and the SQLite import). */
export function postgresQueryable(
  exec: Exec,
  qb: Kysely<Database>,
  inTransaction: boolean,
  pipeline?: PipelineState,
): Queryable {
  const failure = (error: unknown): unknown =>
    // Refused only because an earlier, unawaited statement failed: that one is the cause.
    pipeline?.failed !== undefined && sqlState(error) === IN_FAILED_TRANSACTION
      ? translate(pipeline.failed)
      : translate(error);
  const all = async <R>(query: Query<R>): Promise<R[]> => {
    try {
      return (await exec(config(query, qb))).rows as R[];
    } catch (error) {
      throw failure(error);
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
        throw failure(error);
      }
    },
    async lock(key, mode = 'exclusive') {
      // A lock outside a transaction would be released at once: only a unit of work can hold one.
      if (!inTransaction) throw new Error(`lock(${key}) outside a unit of work`);
      // Transaction-scoped: released by COMMIT or ROLLBACK, in every gateway process on this database.
      const sent = exec(mode === 'shared' ? lockShared(key) : lockExclusive(key));
      if (pipeline) sendWithoutWaiting(sent, pipeline);
      else await sent;
    },
  };
}

export type PostgresStorageOptions = {
  /** postgres://user:password@host:port/database (libpq URL; `?options=-c search_path=x` selects a schema). */
  url: string;
  /** Connections this process keeps (DEFAULT_POOL_SIZE by default). */
  poolSize?: number;
  /**
   * `at-start` (the default): every connection is opened before the gateway serves and kept, so a request
   * never waits for one to be opened. `on-demand`: node-postgres's own way (opened when a request finds
   * none idle, closed after 10 s idle), kept only so the profile can show what it cost (docs/postgres.md).
   */
  connections?: 'at-start' | 'on-demand';
  /**
   * Of those, how many carry the one-statement units (`batch`) of every request, pipelined
   * (postgres-multiplexer.ts): DEFAULT_LANES by default, at most poolSize - 1 (a unit of work always finds
   * a connection of its own); 0: each call takes a pooled connection of its own.
   */
  lanes?: number;
  /** Runs of a unit of work that keeps hitting a deadlock or serialization failure (5 by default). */
  maxAttempts?: number;
  applicationName?: string;
  /**
   * Where a risk the database set-up leaves open is reported (other roles can create objects in the
   * schema; a unit routine that is not the gateway's). One line each, no values; stderr by default.
   */
  warn?: Warn;
};

const toStderr: Warn = (message) => {
  process.stderr.write(`gateway: ${message}\n`);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Connections per process unless `--db-pool` says otherwise. A sale holds a connection for one round trip
 * per unit of work (two units), so 10 carry well past what one process can compute (docs/postgres.md,
 * "Sizing"); more only queue at the server.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Shared connections for one-statement units (a sale's two), from the pool. Fewer server processes each
 * kept busy cost the server less per sale than many that sleep between statements (docs/postgres.md,
 * "Pool and lanes").
 */
export const DEFAULT_LANES = 2;

/**
 * The gateway's storage on PostgreSQL. Each unit of work is one READ COMMITTED transaction on its own
 * connection; what SQLite's single writer gave for free (no two units interleave) comes from the schema's
 * constraints and the domain's `lock(key)` advisory locks, which hold across gateway processes. PostgreSQL
 * groups concurrent commits into one WAL flush by itself.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const maxAttempts = options.maxAttempts ?? 5;
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const lanes = Math.max(0, Math.min(options.lanes ?? DEFAULT_LANES, poolSize - 1));
  const atStart = (options.connections ?? 'at-start') === 'at-start';
  const warn = options.warn ?? toStderr;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: poolSize,
    types: numberTypes,
    application_name: options.applicationName ?? 'tillpoint-gateway',
    // A unit of work never waits on anything but the database: an idle open transaction is a bug or a
    // vanished process, and must not hold its locks for long.
    idle_in_transaction_session_timeout: 60_000,
    // Statements are written without waiting for the answer to the one before (protocol pipelining): a
    // unit of work's BEGIN and locks, and a batch() whole, cost no round trip of their own.
    pipeline: true,
    // Opened once and kept: opening one (TCP, SCRAM authentication, a new server process, its catalog
    // caches, every statement parsed again) costs far more than a sale. node-postgres's default closes a
    // connection after 10 s idle and opens a new one for a request that finds none idle, even when a busy
    // one would be free a millisecond later: that was the open model's stall (docs/postgres.md).
    idleTimeoutMillis: atStart ? 0 : 10_000,
    // A peer that vanished (a database host gone, a middlebox that dropped the flow) is noticed.
    keepAlive: true,
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
      const { schema, others } = await otherSchemaCreators(client);
      if (others.length > 0)
        warn(
          `PostgreSQL schema ${schema}: ${others.join(', ')} can create objects in it besides the gateway's role; ` +
            'give the gateway a schema of its own with CREATE revoked from PUBLIC (docs/postgres.md, ' +
            '"A schema of its own").',
        );
    } finally {
      client.release();
    }
    if (atStart) {
      const clients = await Promise.all(Array.from({ length: poolSize }, () => pool.connect()));
      for (const c of clients) c.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }

  const read = postgresQueryable((c) => pool.query(c), qb, false);
  const mux = multiplexer(pool, lanes);
  let closed = false;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  async function attempt<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    const pipeline: PipelineState = {};
    try {
      // Written together with the unit's first statement: no round trip of its own.
      sendWithoutWaiting(client.query('BEGIN'), pipeline);
      try {
        const value = await work(postgresQueryable((c) => client.query(c), qb, true, pipeline));
        const done = await client.query('COMMIT');
        // A statement nothing awaited (a pipelined lock) failed: the server rolled back instead.
        if (done.command !== 'COMMIT')
          throw translate(pipeline.failed ?? new Error('transaction rolled back'));
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

  async function attemptBatch(
    locks: readonly LockRequest[],
    queries: readonly Query<unknown>[],
  ): Promise<unknown[][]> {
    const client = await pool.connect();
    let broken = false;
    try {
      // BEGIN, every statement and COMMIT are written at once; the answers come back together.
      const sent = [
        client.query('BEGIN'),
        ...locks.map((l) => client.query(l.mode === 'shared' ? lockShared(l.key) : lockExclusive(l.key))),
        ...queries.map((q) => client.query(config(q, qb))),
        client.query('COMMIT'),
      ];
      const settled = await Promise.allSettled(sent);
      // The first failure in order is the cause; the statements after it were refused (25P02) and the
      // server answered COMMIT with ROLLBACK: nothing of the batch was kept.
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      const commit = settled[settled.length - 1];
      if (failed) {
        if (commit?.status === 'rejected') {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        }
        throw translate(failed.reason);
      }
      if (commit?.status !== 'fulfilled' || commit.value.command !== 'COMMIT')
        throw new Error('batch rolled back');
      return queries.map((_, i) => {
        const r = settled[1 + locks.length + i];
        return r?.status === 'fulfilled' ? (r.value.rows as unknown[]) : [];
      });
    } finally {
      client.release(broken);
    }
  }

  const callRoutine = unitRoutineRunner(
    pool,
    qb,
    (call) => (lanes > 0 ? mux.query(call) : pool.query(call)),
    warn,
  );

  async function retried<T>(run: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('storage is closed');
    inFlight += 1;
    try {
      for (let n = 1; ; n += 1) {
        try {
          return await run();
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
  }

  return {
    dialect: 'postgres',
    read,
    write: <T>(work: (q: Queryable) => Promise<T>): Promise<T> => retried(() => attempt(work)),
    batch: ((locks: readonly LockRequest[], queries: readonly Query<unknown>[]) =>
      retried(
        async () => (await callRoutine(locks, queries)) ?? attemptBatch(locks, queries),
      )) as NonNullable<Storage['batch']>,
    async close() {
      if (closed) return;
      closed = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      mux.close();
      await pool.end();
    },
  };
}
