import pg from 'pg';

/**
 * What the gateway says to PostgreSQL, counted in the process that runs it: every statement node-postgres
 * sends, the round trips they cost, and every wait for a pooled connection. A statement starts a round trip
 * when it has to wait for an answer before it goes out: always on an ordinary connection (node-postgres
 * sends the next statement only after the server said ReadyForQuery), and on a pipelined one only when
 * nothing was in flight on it (the statements written behind an unanswered one share its round trip). For the round-trip test and the profile tool; it
 * patches the `pg` module of this process, so it sees every gateway built in-process (startGateway).
 *
 * Lock keys are kept by their kind only (`utn`, `card`, `batch` …): a key may hold a card fingerprint.
 */

export type StatementKind =
  | 'begin'
  | 'commit'
  | 'rollback'
  | 'lock'
  | 'lock-shared'
  | 'call'
  | 'unit'
  | 'select'
  | 'insert'
  | 'update'
  | 'delete'
  | 'other';

export type Statement = {
  kind: StatementKind;
  /** The SQL's beginning (no values). */
  sql: string;
  /** Lock statements: the key's kind (`utn`, `card`, `batch` …). */
  lockKind?: string;
  /** A unit routine's call (gateway/storage/postgres-unit-routine.ts): its name and the locks it takes. */
  routine?: string;
  unitLocks?: { kind: string; shared: boolean }[];
  startedAt: number;
  ms: number;
  /** It waited for an answer before going out: it starts a round trip. */
  roundTrip: boolean;
  /** SQLSTATE when it failed. */
  error?: string;
  /** Which connection ran it (to tell transactions apart). */
  connection: number;
};

export type PoolWait = { startedAt: number; ms: number };

/** A new server connection (TCP, startup, authentication): what a request waits for when the pool opens one. */
export type ConnectionSetup = { startedAt: number; ms: number };

export type Trace = {
  statements: Statement[];
  poolWaits: PoolWait[];
  connections: ConnectionSetup[];
  /** Forgets what was recorded so far. */
  reset(): void;
  /** Puts `pg` back as it was. */
  stop(): void;
};

function kindOf(sql: string): { kind: StatementKind; lockShared: boolean } {
  const s = sql.trimStart().toLowerCase();
  if (s.startsWith('begin')) return { kind: 'begin', lockShared: false };
  if (s.startsWith('commit')) return { kind: 'commit', lockShared: false };
  if (s.startsWith('rollback')) return { kind: 'rollback', lockShared: false };
  if (s.includes('pg_advisory_xact_lock_shared')) return { kind: 'lock-shared', lockShared: true };
  if (s.includes('pg_advisory_xact_lock')) return { kind: 'lock', lockShared: false };
  if (/^select \* from tillpoint_/.test(s)) return { kind: 'call', lockShared: false };
  // Called schema-qualified: `select "schema".tp_unit_…(…)`.
  if (/^select (?:"?[\w$]+"?\.)?tp_unit_/.test(s)) return { kind: 'unit', lockShared: false };
  for (const k of ['select', 'insert', 'update', 'delete'] as const) {
    if (s.startsWith(k) || (s.startsWith('with') && s.includes(` ${k} `)))
      return { kind: k, lockShared: false };
  }
  return { kind: 'other', lockShared: false };
}

type QueryArgs = [unknown, unknown?, unknown?];
type QueryFn = (this: pg.Client, ...args: QueryArgs) => unknown;
type ConnectFn = (this: pg.Pool, cb?: (...a: unknown[]) => void) => unknown;
type ClientConnectFn = (this: pg.Client, cb?: (err?: unknown) => void) => unknown;

let active = false;

/** Starts recording (one trace at a time per process). */
export function tracePg(): Trace {
  if (active) throw new Error('a pg trace is already running in this process');
  active = true;
  const statements: Statement[] = [];
  const poolWaits: PoolWait[] = [];
  const connections: ConnectionSetup[] = [];
  const connectionIds = new WeakMap<object, number>();
  const inFlight = new WeakMap<object, number>();
  let nextConnection = 1;
  const connectionOf = (client: object): number => {
    let id = connectionIds.get(client);
    if (id === undefined) {
      id = nextConnection++;
      connectionIds.set(client, id);
    }
    return id;
  };

  const clientProto = pg.Client.prototype as unknown as { query: QueryFn };
  const originalQuery = clientProto.query;
  clientProto.query = function (this: pg.Client, ...args: QueryArgs): unknown {
    const [config, values] = args;
    const text =
      typeof config === 'string'
        ? config
        : ((config as { text?: unknown } | null)?.text as string | undefined);
    // Submittables without text (cursors) and internal calls pass through uncounted.
    if (typeof text !== 'string') return originalQuery.apply(this, args);
    const { kind } = kindOf(text);
    const params: unknown[] | undefined = Array.isArray(values)
      ? (values as unknown[])
      : (config as { values?: unknown[] } | null)?.values;
    const firstParam: unknown = params?.[0];
    const keyKind = (key: unknown) => (typeof key === 'string' ? (key.split(':')[0] ?? '?') : '?');
    const unit =
      kind === 'unit' && Array.isArray(firstParam) && Array.isArray(params?.[1])
        ? {
            routine: /^select (?:"?[\w$]+"?\.)?(tp_unit_[0-9a-f]+)/i.exec(text)?.[1] ?? '?',
            unitLocks: firstParam.map((key, i) => ({
              kind: keyKind(key),
              shared: (params[1] as unknown[])[i] === true,
            })),
          }
        : {};
    const entry: Statement = {
      kind,
      sql: text.replace(/\s+/g, ' ').trim().slice(0, 240),
      ...(kind === 'lock' || kind === 'lock-shared' ? { lockKind: keyKind(firstParam) } : {}),
      ...unit,
      startedAt: performance.now(),
      ms: 0,
      roundTrip: !(this as unknown as { pipeline?: boolean }).pipeline || (inFlight.get(this) ?? 0) === 0,
      connection: connectionOf(this),
    };
    statements.push(entry);
    inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
    const done = (error?: unknown) => {
      inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      entry.ms = performance.now() - entry.startedAt;
      if (error instanceof pg.DatabaseError && error.code) entry.error = error.code;
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const cb = last as (err: unknown, res: unknown) => void;
      const wrapped = [
        ...args.slice(0, -1),
        (err: unknown, res: unknown) => {
          done(err ?? undefined);
          cb(err, res);
        },
      ] as unknown as QueryArgs;
      return originalQuery.apply(this, wrapped);
    }
    const result = originalQuery.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => done(),
        (e: unknown) => done(e),
      );
    }
    return result;
  };

  const poolProto = pg.Pool.prototype as unknown as { connect: ConnectFn };
  const ownConnect = Object.prototype.hasOwnProperty.call(poolProto, 'connect');
  const originalConnect = poolProto.connect;
  poolProto.connect = function (this: pg.Pool, cb?: (...a: unknown[]) => void): unknown {
    const wait: PoolWait = { startedAt: performance.now(), ms: 0 };
    poolWaits.push(wait);
    if (typeof cb === 'function') {
      return originalConnect.call(this, (...a: unknown[]) => {
        wait.ms = performance.now() - wait.startedAt;
        cb(...a);
      });
    }
    const result = originalConnect.call(this) as Promise<unknown>;
    void result.then(
      () => (wait.ms = performance.now() - wait.startedAt),
      () => (wait.ms = performance.now() - wait.startedAt),
    );
    return result;
  };

  const clientConnectProto = pg.Client.prototype as unknown as { connect: ClientConnectFn };
  const originalClientConnect = clientConnectProto.connect;
  clientConnectProto.connect = function (this: pg.Client, cb?: (err?: unknown) => void): unknown {
    const setup: ConnectionSetup = { startedAt: performance.now(), ms: 0 };
    connections.push(setup);
    const finish = () => (setup.ms = performance.now() - setup.startedAt);
    if (typeof cb === 'function') {
      return originalClientConnect.call(this, (err?: unknown) => {
        finish();
        cb(err);
      });
    }
    const result = originalClientConnect.call(this) as Promise<unknown>;
    void result.then(finish, finish);
    return result;
  };

  return {
    statements,
    poolWaits,
    connections,
    reset() {
      statements.length = 0;
      poolWaits.length = 0;
      connections.length = 0;
    },
    stop() {
      clientProto.query = originalQuery;
      clientConnectProto.connect = originalClientConnect;
      if (ownConnect) poolProto.connect = originalConnect;
      else delete (poolProto as { connect?: ConnectFn }).connect;
      active = false;
    },
  };
}

/** Round trips the statements cost. */
export function roundTrips(statements: readonly Statement[]): number {
  return statements.filter((s) => s.roundTrip).length;
}

/** Statements by kind, e.g. `{ begin: 2, lock: 3, select: 4 … }`. */
/**
 * The statements minus the attempts the storage rolled back and ran again (a deadlock or serialization
 * failure, SQLSTATE 40P01 / 40001 — gateway/storage/postgres-storage.ts retries those whole): on a loaded
 * server another test process's locks can make one, and what a test counts is what ran to its end.
 */
export function withoutRetried(statements: readonly Statement[]): Statement[] {
  return statements.filter((s) => s.error !== '40001' && s.error !== '40P01');
}

export function countByKind(statements: readonly Statement[]): Partial<Record<StatementKind, number>> {
  const out: Partial<Record<StatementKind, number>> = {};
  for (const s of statements) out[s.kind] = (out[s.kind] ?? 0) + 1;
  return out;
}

/** Advisory locks by the kind of key, e.g. `{ utn: 2, batch: 1 }`: lock statements and units' locks. */
export function locksByKey(statements: readonly Statement[]): Record<string, number> {
  const out: Record<string, number> = {};
  const count = (kind: string, shared: boolean) => {
    const key = shared ? `${kind} (shared)` : kind;
    out[key] = (out[key] ?? 0) + 1;
  };
  for (const s of statements) {
    if (s.lockKind !== undefined) count(s.lockKind, s.kind === 'lock-shared');
    for (const l of s.unitLocks ?? []) count(l.kind, l.shared);
  }
  return out;
}
