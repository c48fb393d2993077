import BetterSqlite3 from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { compileQuery, type Query } from './prepared';
import type { Database } from './schema';
import { CheckViolation, UniqueViolation, type Queryable, type RunResult, type Storage } from './queryable';
import { migrate } from './migrate';

/** A Kysely that only builds and compiles SQLite SQL; execution goes through better-sqlite3 directly. */
export function sqliteQueryBuilder(): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

const STATEMENT_CACHE_LIMIT = 512;

function bindable(parameters: readonly unknown[]): unknown[] {
  // better-sqlite3 binds numbers, strings, bigints, buffers and null only.
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p === undefined ? null : p));
}

function translate(error: unknown): unknown {
  if (
    error instanceof BetterSqlite3.SqliteError &&
    /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(error.code)
  ) {
    return new UniqueViolation(error.message.replace(/^UNIQUE constraint failed: /, ''));
  }
  if (error instanceof BetterSqlite3.SqliteError && error.code === 'SQLITE_CONSTRAINT_CHECK') {
    return new CheckViolation(error.message.replace(/^CHECK constraint failed: /, ''));
  }
  return error;
}

function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

export function sqliteQueryable(db: BetterSqlite3.Database, qb: Kysely<Database>): Queryable {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const statement = (sql: string): BetterSqlite3.Statement => {
    let s = cache.get(sql);
    if (!s) {
      if (cache.size >= STATEMENT_CACHE_LIMIT) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const allSync = <R>(query: Query<R>): R[] => {
    const compiled = compileQuery(query, qb);
    const s = statement(compiled.sql);
    try {
      if (s.reader) return s.all(...bindable(compiled.parameters)) as R[];
      s.run(...bindable(compiled.parameters));
      return [];
    } catch (error) {
      throw translate(error);
    }
  };
  return {
    dialect: 'sqlite',
    qb,
    // Resolved promises, not deferred work: the statement runs now, which keeps a unit of work's queries
    // in order and costs no extra event-loop hop on the sale path.
    all: (query) => settle(() => allSync(query)),
    first: (query) => settle(() => allSync(query)[0]),
    lock: () => Promise.resolve(),
    run: (query) =>
      settle((): RunResult => {
        const compiled = compileQuery(query, qb);
        try {
          const r = statement(compiled.sql).run(...bindable(compiled.parameters));
          return { changes: r.changes };
        } catch (error) {
          throw translate(error);
        }
      }),
  };
}

export type SqliteStorageOptions = {
  file: string;
  /** Most transactions grouped into one commit. */
  maxBatch?: number;
};

type PendingWrite = {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export function openSqliteDatabase(file: string, readonly = false): BetterSqlite3.Database {
  const db = new BetterSqlite3(file, readonly ? { readonly: true, fileMustExist: true } : {});
  if (!readonly) db.pragma('journal_mode = WAL');
  // rule: group-commit
  // better-sqlite3 opens an existing WAL database with synchronous=NORMAL: a commit could be lost on
  // power failure. FULL fsyncs the WAL at every commit; group commit keeps that affordable.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const maxBatch = options.maxBatch ?? 256;
  const writer = openSqliteDatabase(options.file);
  const qb = sqliteQueryBuilder();
  const tx = sqliteQueryable(writer, qb);
  try {
    await migrate(tx, (sql) => {
      writer.exec(sql);
    });
  } catch (error) {
    writer.close();
    throw error;
  }
  const reader = openSqliteDatabase(options.file, true);
  const read = sqliteQueryable(reader, qb);

  const queue: PendingWrite[] = [];
  let scheduled = false;
  let draining: Promise<void> | null = null;
  let closed = false;

  const drain = async (): Promise<void> => {
    scheduled = false;
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    writer.exec('BEGIN IMMEDIATE');
    for (const item of batch) {
      writer.exec('SAVEPOINT unit');
      try {
        const value = await item.work(tx);
        writer.exec('RELEASE unit');
        outcomes.push({ ok: true, value });
      } catch (error) {
        writer.exec('ROLLBACK TO unit');
        writer.exec('RELEASE unit');
        outcomes.push({ ok: false, value: error });
      }
    }
    try {
      writer.exec('COMMIT');
    } catch (error) {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.value);
    });
  };

  const schedule = (): void => {
    if (scheduled || draining) return;
    scheduled = true;
    // setImmediate lets every request that arrived in this event-loop turn join the same commit.
    setImmediate(() => {
      draining = drain().finally(() => {
        draining = null;
        if (queue.length > 0) schedule();
      });
    });
  };

  return {
    dialect: 'sqlite',
    read,
    write<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new Error('storage is closed'));
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    async close() {
      closed = true;
      while (draining || scheduled || queue.length > 0) {
        if (draining) await draining;
        else await new Promise((r) => setImmediate(r));
      }
      reader.close();
      writer.pragma('wal_checkpoint(TRUNCATE)');
      writer.close();
    },
  };
}
