import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { prepare } from '../../../gateway/storage/prepared';
import { openPostgresStorage } from '../../../gateway/storage/postgres-storage';
import { UniqueViolation, type Storage } from '../../../gateway/storage/queryable';
import { countByKind, tracePg, withoutRetried } from '../../support/pg-trace';
import { adminQuery, createSchema, dropSchema } from '../../support/test-database';

/**
 * `Storage.batch` on PostgreSQL runs as one routine call on shared pipelined connections
 * (postgres-unit-routine.ts, postgres-multiplexer.ts). It must mean what the pipelined transaction meant:
 * the locks held to the end, each query's snapshot taken after them, all or nothing — and the calls of
 * different requests sharing a connection must not leak into each other.
 */
describe('a batch as one routine call (PostgreSQL)', () => {
  const open: Storage[] = [];
  const schemas: string[] = [];
  const clients: pg.Client[] = [];
  /** A storage's batch (PostgreSQL always has one). */
  const storageAt = async (url: string, lanes = 2) => {
    const s = await openPostgresStorage({ url, poolSize: 4, lanes });
    open.push(s);
    const batch = s.batch;
    if (!batch) throw new Error('PostgreSQL storage has batch');
    return { batch };
  };
  const fresh = async () => {
    const s = await createSchema();
    schemas.push(s.schema);
    return s;
  };
  /** A connection of its own, as another gateway process would have. */
  const rawClient = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end();
    for (const s of open.splice(0)) await s.close();
    for (const s of schemas.splice(0)) await dropSchema(s);
  });

  const addMerchant = prepare<{ mid: number; name: string }, { mid: number }>((qb, p) =>
    qb
      .insertInto('merchants')
      .values({
        mid: p('mid'),
        name: p('name'),
        time_zone: 'UTC',
        credit_processor: 'x',
        token_lookup_supported: 0,
        created_at: 'now',
      })
      .returning('mid'),
  );
  const countMerchants = prepare<{ mid: number }, { n: number }>((qb, p) =>
    qb
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mid', '=', p('mid')),
  );
  const sleepFor = prepare<{ seconds: number }, { slept: number }>((qb, p) => ({
    compile: () =>
      sql<{ slept: number }>`select 1 as slept from pg_sleep(${p('seconds')}::float8)`.compile(qb),
  }));
  const withLiteralDollar = prepare<{ mid: number }, { label: string }>((qb, p) => ({
    compile: () =>
      sql<{ label: string }>`select 'costs $1' as label from merchants where mid = ${p('mid')}`.compile(qb),
  }));

  const dollarQuoted = prepare<{ mid: number }, { label: string }>((qb, p) => ({
    compile: () =>
      sql<{ label: string }>`select $q$plain$q$ as label from merchants where mid = ${p('mid')}`.compile(qb),
  }));

  it('is one statement on the wire: no BEGIN, no COMMIT; each query answers its own rows', async () => {
    const { url } = await fresh();
    const { batch } = await storageAt(url);
    // The first call of a shape installs its routine; the one after is what every request costs.
    await batch([{ key: 'm:1' }], [addMerchant({ mid: 1, name: 'a' }), countMerchants({ mid: 1 })]);
    const trace = tracePg();
    try {
      const [added, counted] = await batch([{ key: 'm:2' }, { key: 'other', mode: 'shared' }], [
        addMerchant({ mid: 2, name: 'b' }),
        countMerchants({ mid: 2 }),
      ] as const);
      expect(added).toEqual([{ mid: 2 }]);
      // The insert before it in the same call is seen: one transaction, in order.
      expect(counted).toEqual([{ n: 1 }]);
      expect(countByKind(withoutRetried(trace.statements))).toEqual({ unit: 1 });
      expect(withoutRetried(trace.statements)[0]?.unitLocks).toEqual([
        { kind: 'm', shared: false },
        { kind: 'other', shared: true },
      ]);
    } finally {
      trace.stop();
    }
  });

  it('takes a fresh snapshot after its locks: it sees what the lock holder committed', async () => {
    const { url, schema } = await fresh();
    const storage = await storageAt(url);
    const holder = await rawClient(url);
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', ['card:7']);
    await holder.query(
      `insert into ${schema}.merchants (mid, name, time_zone, credit_processor, token_lookup_supported, created_at) values (7, 'h', 'UTC', 'x', 0, 'now')`,
    );
    const counted = storage.batch([{ key: 'card:7' }], [countMerchants({ mid: 7 })] as const);
    // The call waits for the lock; once the holder commits, the count is taken after it.
    await new Promise((r) => setTimeout(r, 150));
    await holder.query('commit');
    expect((await counted)[0]).toEqual([{ n: 1 }]);
  });

  it('holds its locks to the end of its transaction', async () => {
    const { url } = await fresh();
    const storage = await storageAt(url);
    let batchDone = false;
    const slow = storage.batch([{ key: 'utn:1:a' }], [sleepFor({ seconds: 1 })] as const).then(() => {
      batchDone = true;
    });
    const watcher = await rawClient(url);
    const advisory = async (granted: boolean): Promise<number> => {
      const { rows } = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_locks where locktype = 'advisory' and granted = $2
           and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
        ['utn:1:a', granted],
      );
      return Number(rows[0]?.n ?? 0);
    };
    // Until the batch holds its lock (seen in pg_locks): a fixed pause lost the race on a loaded machine.
    while ((await advisory(true)) === 0) await new Promise((r) => setTimeout(r, 10));
    const waiter = await rawClient(url);
    await waiter.query('begin');
    let waiterHasIt = false;
    const acquired = waiter
      .query('select pg_advisory_xact_lock(hashtextextended($1, 0))', ['utn:1:a'])
      .then(() => {
        waiterHasIt = true;
      });
    // The waiter queues behind the batch while the batch's statement still runs: the lock is the
    // transaction's, not the statement's. (Which answer the client reads first after the commit is a race
    // of two sockets, so the order of the two promises proves nothing.)
    let seenQueuedWhileBatchRan = false;
    while (!waiterHasIt && !seenQueuedWhileBatchRan) {
      seenQueuedWhileBatchRan = (await advisory(false)) > 0 && !batchDone;
      if (!seenQueuedWhileBatchRan) await new Promise((r) => setTimeout(r, 10));
    }
    await acquired;
    await waiter.query('commit');
    await slow;
    expect(seenQueuedWhileBatchRan).toBe(true);
    expect(batchDone).toBe(true);
  });

  it('is all or nothing: a failing query undoes the ones before it, with the constraint in SQLite words', async () => {
    const { url, schema } = await fresh();
    const storage = await storageAt(url);
    await storage.batch([], [addMerchant({ mid: 5, name: 'first' })]);
    const failed = await storage
      .batch([], [addMerchant({ mid: 6, name: 'second' }), addMerchant({ mid: 5, name: 'again' })])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(failed).toBeInstanceOf(UniqueViolation);
    expect((failed as UniqueViolation).constraint).toMatch(/^merchants\.mid /);
    const rows = await adminQuery(`select mid from ${schema}.merchants order by mid`);
    expect(rows.rows).toEqual([{ mid: '5' }]);
  });

  it('calls of many requests on one shared connection keep their own answers and errors', async () => {
    const { url, schema } = await fresh();
    const storage = await storageAt(url, 1);
    await storage.batch([], [addMerchant({ mid: 1000, name: 'taken' })]);
    // Forty calls at once on one lane; every fifth names a merchant that exists and must fail alone.
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const mid = i % 5 === 0 ? 1000 : 2000 + i;
        return storage.batch([{ key: `m:${mid}` }], [addMerchant({ mid, name: `n${i}` })] as const).then(
          ([rows]) => ({ i, mid: rows[0]?.mid }),
          (e: unknown) => ({ i, error: e instanceof UniqueViolation }),
        );
      }),
    );
    expect(outcomes.filter((o) => 'error' in o).map((o) => o.i)).toEqual([0, 5, 10, 15, 20, 25, 30, 35]);
    const answered = outcomes.filter((o) => 'mid' in o);
    expect(answered).toHaveLength(32);
    // Each call got its own row back, not a neighbour's on the same connection.
    expect(answered.map((o) => ('mid' in o ? o.mid : null))).toEqual(answered.map((o) => 2000 + o.i));
    const n = await adminQuery(`select count(*)::int as n from ${schema}.merchants`);
    expect(n.rows[0]).toEqual({ n: 33 });
  });

  it('a call waiting for a lock holds up its own lane only: the next calls take the other', async () => {
    const { url } = await fresh();
    const storage = await storageAt(url, 2);
    await storage.batch([{ key: 'k' }], [addMerchant({ mid: 1, name: 'a' })]);
    const holder = await rawClient(url);
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', ['utn:1:held']);
    let waiting = true;
    const blocked = storage
      .batch([{ key: 'utn:1:held' }], [countMerchants({ mid: 1 })] as const)
      .then((r) => {
        waiting = false;
        return r;
      });
    await new Promise((r) => setTimeout(r, 100));
    // Ten calls while one lane waits: they go to the lane with nothing in flight and are answered.
    for (let mid = 10; mid < 20; mid += 1) {
      const [rows] = await storage.batch([{ key: `m:${mid}` }], [addMerchant({ mid, name: 'x' })] as const);
      expect(rows).toEqual([{ mid }]);
    }
    expect(waiting).toBe(true);
    await holder.query('commit');
    expect((await blocked)[0]).toEqual([{ n: 1 }]);
  });

  it('a shared connection the server drops fails only the calls on it; the next call opens another', async () => {
    const { url } = await fresh();
    const storage = await storageAt(url, 1);
    await storage.batch([], [addMerchant({ mid: 1, name: 'a' })]);
    const inFlight = storage.batch([], [sleepFor({ seconds: 2 })] as const).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((r) => setTimeout(r, 200));
    await adminQuery(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where query like 'select %.tp_unit_%' and state = 'active' and pid <> pg_backend_pid()`,
    );
    expect(await inFlight).toBe('failed');
    const [rows] = await storage.batch([], [addMerchant({ mid: 2, name: 'b' })] as const);
    expect(rows).toEqual([{ mid: 2 }]);
  });

  it('a routine dropped under the running process: that batch still runs, the next reinstalls it', async () => {
    const { url, schema } = await fresh();
    const storage = await storageAt(url);
    await storage.batch([], [addMerchant({ mid: 1, name: 'a' })]);
    // As docs/postgres.md's tidy-up says, by its qualified signature (regprocedure names the schema).
    const ddl = await adminQuery(
      `select format('drop function %s', oid::regprocedure) as ddl from pg_proc where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [schema],
    );
    expect(ddl.rows).toHaveLength(1);
    await adminQuery((ddl.rows[0] as { ddl: string }).ddl);
    const [first] = await storage.batch([], [addMerchant({ mid: 2, name: 'b' })] as const);
    expect(first).toEqual([{ mid: 2 }]);
    const [second] = await storage.batch([], [addMerchant({ mid: 3, name: 'c' })] as const);
    expect(second).toEqual([{ mid: 3 }]);
    const fns = await adminQuery(
      `select count(*)::int as n from pg_proc where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [schema],
    );
    expect(fns.rows[0]).toEqual({ n: 1 });
  });

  it('two processes installing one routine at once make one function', async () => {
    const { url, schema } = await fresh();
    const [a, b] = await Promise.all([storageAt(url), storageAt(url)]);
    await Promise.all([
      a.batch([], [addMerchant({ mid: 1, name: 'a' })]),
      b.batch([], [addMerchant({ mid: 2, name: 'b' })]),
    ]);
    const fns = await adminQuery(
      `select count(*)::int as n from pg_proc where pronamespace = $1::regnamespace and proname like 'tp_unit_%'`,
      [schema],
    );
    expect(fns.rows[0]).toEqual({ n: 1 });
  });

  it('a $n inside a quoted literal is left alone: only placeholders are renumbered', async () => {
    const { url } = await fresh();
    const storage = await storageAt(url);
    await storage.batch([], [addMerchant({ mid: 3, name: 'c' })]);
    await storage.batch([], [countMerchants({ mid: 3 }), withLiteralDollar({ mid: 3 })]);
    const trace = tracePg();
    try {
      const [, rows] = (await storage.batch([{ key: 'x' }], [
        countMerchants({ mid: 3 }),
        withLiteralDollar({ mid: 3 }),
      ] as const)) ?? [[], []];
      expect(rows).toEqual([{ label: 'costs $1' }]);
      expect(countByKind(withoutRetried(trace.statements))).toEqual({ unit: 1 });
    } finally {
      trace.stop();
    }
  });

  it('a query no routine can carry (a dollar-quoted string) runs as the pipelined transaction', async () => {
    const { url } = await fresh();
    const storage = await storageAt(url);
    await storage.batch([], [addMerchant({ mid: 4, name: 'd' })]);
    await storage.batch([], [dollarQuoted({ mid: 4 })]);
    const trace = tracePg();
    try {
      const [rows] = await storage.batch([{ key: 'x' }], [dollarQuoted({ mid: 4 })] as const);
      expect(rows).toEqual([{ label: 'plain' }]);
      expect(countByKind(withoutRetried(trace.statements))).toEqual({
        begin: 1,
        lock: 1,
        select: 1,
        commit: 1,
      });
    } finally {
      trace.stop();
    }
  });
});
