import type { Kysely } from 'kysely';
import type { Query } from './prepared';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export type RunResult = { changes: number };

/**
 * What the domain sees of the database: a Kysely query builder used only to BUILD queries (so one query
 * serves both dialects), and three executors. The SQLite side runs compiled SQL through cached
 * better-sqlite3 statements (Kysely's own async driver costs ~30 µs a query, too much for the sale path).
 */
export type Queryable = {
  readonly dialect: Dialect;
  readonly qb: Kysely<Database>;
  all<R>(query: Query<R>): Promise<R[]>;
  first<R>(query: Query<R>): Promise<R | undefined>;
  run(query: Query<unknown>): Promise<RunResult>;
  /**
   * Serializes units of work that touch the same thing (a payment's refundable balance, a card's duplicate
   * window) until the end of the transaction. SQLite's single writer serializes everything already, so it
   * is a no-op there; PostgreSQL takes a transaction-scoped advisory lock, across processes.
   *
   * `shared`: many units hold it at once, and only an exclusive holder of the same key waits for them all
   * (every sale joins the open batch; only closing the batch must have it to itself).
   */
  lock(key: string, mode?: 'exclusive' | 'shared'): Promise<void>;
};

/** An advisory lock a `Storage.batch` takes before its queries (as `Queryable.lock`). */
export type LockRequest = { readonly key: string; readonly mode?: 'exclusive' | 'shared' };

/** The rows a batch answers for each of its queries, in order. */
export type BatchRows<Q extends readonly Query<unknown>[]> = {
  -readonly [K in keyof Q]: Q[K] extends Query<infer R> ? R[] : never;
};

export type Storage = {
  readonly dialect: Dialect;
  /** Reads that need no consistency with a concurrent write (reports, lookups). */
  readonly read: Queryable;
  /**
   * Runs `work` in a transaction. SQLite: concurrent calls are grouped into one transaction with one
   * savepoint each, committed with one fsync, and each caller is answered only after that commit (group
   * commit); the work of one call is isolated from the others and sees their effects in order. `work` must
   * only touch the database: no network or timers inside.
   */
  write<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: `locks`, then `queries`, as one transaction in ONE round trip — BEGIN, each lock, each
   * query and COMMIT written together (pipelined) and answered together; the server runs each statement
   * only once the one before it is done, so the queries run holding the locks, each with a snapshot taken
   * after them (READ COMMITTED). No query may depend on another's result in JavaScript: a decision belongs
   * in the SQL (a guarded statement that writes nothing when the rule says no). A failing statement rolls
   * the whole batch back and is thrown, as from `write`; deadlocks are retried the same way. Absent on
   * SQLite, where a statement is a function call and there is no round trip to save.
   */
  readonly batch?: <const Q extends readonly Query<unknown>[]>(
    locks: readonly LockRequest[],
    queries: Q,
  ) => Promise<BatchRows<Q>>;
  close(): Promise<void>;
};

/** Thrown by `run`/`all` when a unique constraint rejects a row: the domain maps it to its own code. */
export class UniqueViolation extends Error {
  constructor(readonly constraint: string) {
    super(`unique constraint violated: ${constraint}`);
    this.name = 'UniqueViolation';
  }
}

/**
 * Thrown by `run`/`all` when a CHECK constraint rejects a row (the refund ceiling, a balance that would go
 * negative): a rule the domain also checks, enforced again by the database for what a race or bug lets by.
 */
export class CheckViolation extends Error {
  constructor(readonly constraint: string) {
    super(`check constraint violated: ${constraint}`);
    this.name = 'CheckViolation';
  }
}
