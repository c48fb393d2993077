// Developer tool, not a benchmark: what one sale says to PostgreSQL, counted, not guessed
// (`npx tsx test/bench/profile-pg-sale.ts [concurrent-seconds]`, needs TILLPOINT_TEST_PG_URL).
//
// 1. Sequential sales on an in-process gateway with node-postgres instrumented (test/support/pg-trace.ts):
//    statements per sale by kind, advisory locks by key, the statement sequence of one sale.
// 2. The same through the delay proxy (0 ms): round trips seen on the wire, which must equal (1).
// 3. 32 clients for a few seconds: time waiting for a pooled connection, time in each lock statement
//    (its round trip plus any wait), COMMIT time, deadlock/serialization retries.
// 4. A settlement holding the merchant's batch while sales arrive: how long a sale waits for it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { keyedSale, startGateway, type TestGateway } from '../support/gateway-harness';
import { countByKind, locksByKey, roundTrips, tracePg, type Statement } from '../support/pg-trace';
import { createSchema, dropSchema } from '../support/test-database';
import { benchDatabase } from './bench-database';
import { startDelayProxy } from './delay-proxy';
import { closedLoop, fmt, openModel, percentile } from './load';

const concurrentSeconds = Number(process.argv[2] ?? 4);

const db = await benchDatabase();
if (!db) {
  console.log('no PostgreSQL server: set TILLPOINT_TEST_PG_URL (bash .ci/postgres start)');
  process.exit(0);
}

function stats(values: number[]): string {
  const s = values.slice().sort((a, b) => a - b);
  return `n ${s.length}  p50 ${percentile(s, 50).toFixed(2)} ms  p99 ${percentile(s, 99).toFixed(2)} ms  max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms`;
}

async function gatewayOn(url: string, poolSize = 10): Promise<TestGateway> {
  return startGateway({
    database: { kind: 'postgres', url, poolSize },
    backgroundTasks: false,
    sandboxSlowMs: 1_500,
  });
}

const trace = tracePg();
const schemas: string[] = [];
try {
  // 1. Sequential sales, every statement counted.
  const made = await createSchema();
  schemas.push(made.schema);
  let gw = await gatewayOn(made.url);
  for (let i = 0; i < 5; i += 1) await gw.post('/api/Transactions/Sale', keyedSale()); // warm: credential cache, plans
  const perSale: Statement[][] = [];
  for (let i = 0; i < 50; i += 1) {
    trace.reset();
    const r = await gw.post('/api/Transactions/Sale', keyedSale());
    if (r.body.ResponseCode !== 200) throw new Error(`sale not approved: ${JSON.stringify(r.body)}`);
    perSale.push(trace.statements.slice());
  }
  const counts = perSale.map((s) => s.length);
  const trips = perSale.map(roundTrips);
  console.log(`== 1. a keyed sale (ForceDuplication), sequential, in-process gateway ==`);
  console.log(
    `per sale: statements ${Math.min(...counts)}-${Math.max(...counts)}, round trips ${Math.min(...trips)}-${Math.max(...trips)}; pool checkouts: ${trace.poolWaits.length} (last sale)`,
  );
  const last = perSale[perSale.length - 1] ?? [];
  console.log(`by kind: ${JSON.stringify(countByKind(last))}; locks: ${JSON.stringify(locksByKey(last))}`);
  console.log('sequence of one sale (connection: statement):');
  for (const s of last)
    console.log(
      `  c${s.connection} ${s.roundTrip ? 'RT' : '  '} ${s.kind.padEnd(11)} ${s.ms.toFixed(2).padStart(6)} ms  ${s.sql.slice(0, 90)}`,
    );
  trace.reset();
  // A new amount: the duplicate rule applies, and finds none.
  await gw.post('/api/Transactions/Sale', keyedSale({ ForceDuplication: false, Amount: 12.34 }));
  console.log(
    `without ForceDuplication: ${trace.statements.length} statements, ${roundTrips(trace.statements)} round trips; locks ${JSON.stringify(locksByKey(trace.statements))}`,
  );
  trace.reset();
  const dup = await gw.post('/api/Transactions/Sale', keyedSale({ ForceDuplication: false, Amount: 12.34 }));
  console.log(
    `the same card and amount again (answered ${String(dup.body.ResponseCode)}, a duplicate): ${trace.statements.length} statements, ${roundTrips(trace.statements)} round trips`,
  );
  await gw.close();

  // 2. The same through the proxy: round trips on the wire.
  const proxy = await startDelayProxy(
    { host: new URL(made.url).hostname, port: Number(new URL(made.url).port) },
    0,
  );
  gw = await gatewayOn(proxy.rewrite(made.url));
  for (let i = 0; i < 5; i += 1) await gw.post('/api/Transactions/Sale', keyedSale());
  proxy.resetStats();
  trace.reset();
  for (let i = 0; i < 50; i += 1) await gw.post('/api/Transactions/Sale', keyedSale());
  console.log(
    `== 2. through the proxy: ${(proxy.stats().roundTrips / 50).toFixed(2)} round trips per sale on the wire (counted by the client: ${(roundTrips(trace.statements) / 50).toFixed(2)}), ${(trace.statements.length / 50).toFixed(2)} statements per sale ==`,
  );
  await gw.close();
  await proxy.close();

  // 3. Concurrency: pool waits, lock statement times, commit times, retries.
  const c = await createSchema();
  schemas.push(c.schema);
  gw = await gatewayOn(c.url, 10);
  await gw.post('/api/Transactions/Sale', keyedSale());
  trace.reset();
  const loop = closedLoop(
    {
      url: gw.baseUrl,
      path: '/api/Transactions/Sale',
      body: () => JSON.stringify(keyedSale()),
      accept: (j) => j.ResponseCode === 200,
    },
    32,
    concurrentSeconds,
    0,
  );
  const result = await loop;
  console.log(`== 3. 32 clients for ${concurrentSeconds} s, pool 10: ${fmt(result)} ==`);
  console.log(`pool checkout waits: ${stats(trace.poolWaits.map((w) => w.ms))}`);
  const byLock = new Map<string, number[]>();
  for (const s of trace.statements) {
    const key = s.lockKind ? `lock ${s.lockKind}${s.kind === 'lock-shared' ? ' (shared)' : ''}` : s.kind;
    byLock.set(key, [...(byLock.get(key) ?? []), s.ms]);
  }
  for (const [k, v] of [...byLock].sort()) console.log(`  ${k.padEnd(22)} ${stats(v)}`);
  const failed = trace.statements.filter((s) => s.error);
  console.log(
    `statement errors: ${failed.length} (${[...new Set(failed.map((f) => f.error))].join(', ') || 'none'}); deadlock/serialization retries: ${failed.filter((f) => f.error === '40P01' || f.error === '40001').length}`,
  );
  await gw.close();

  // 4. A settlement that waits for a sale in flight, and a new sale of the merchant arriving meanwhile: how
  //    long does the new sale wait? As the gateway locked before (an advisory lock per merchant, shared by
  //    sales, exclusive for settlement) and as it locks now (the open batch's row, KEY SHARE / FOR UPDATE).
  const s = await createSchema();
  schemas.push(s.schema);
  gw = await gatewayOn(s.url, 10);
  await gw.post('/api/Transactions/Sale', keyedSale());
  await gw.close();
  const patterns = {
    'advisory batch:mid (before)': {
      sale: `select pg_advisory_xact_lock_shared(hashtextextended('batch:1001', 0))`,
      settle: `select pg_advisory_xact_lock(hashtextextended('batch:1001', 0))`,
    },
    'batch row (now)': {
      sale: `select id from batches where mid = 1001 and status = 'open' for key share`,
      settle: `select id from batches where mid = 1001 and status = 'open' for update`,
    },
  };
  for (const [name, sqlOf] of Object.entries(patterns)) {
    const [inFlight, settlement, next] = await Promise.all(
      [0, 1, 2].map(async () => {
        const c = new pg.Client({ connectionString: s.url });
        await c.connect();
        return c;
      }),
    );
    if (!inFlight || !settlement || !next) throw new Error('no connection');
    await inFlight.query('begin');
    await inFlight.query(sqlOf.sale);
    await settlement.query('begin');
    const settled = settlement.query(sqlOf.settle).then(async () => {
      await new Promise((r) => setTimeout(r, 20)); // counting the batch
      await settlement.query('commit');
    });
    await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    await next.query('begin');
    const waited = next.query(sqlOf.sale).then(() => performance.now() - t0);
    // The sale in flight finishes 200 ms later.
    await new Promise((r) => setTimeout(r, 200));
    await inFlight.query('commit');
    const ms = await waited;
    await next.query('commit');
    await settled;
    console.log(
      `== 4. ${name}: a settlement waits for a sale in flight (200 ms); a new sale arriving meanwhile waited ${ms.toFixed(1)} ms ==`,
    );
    for (const c of [inFlight, settlement, next]) await c.end();
  }

  // 5. The open model at 60/s (the issue's stall): where the slow sales' time went.
  const o = await createSchema();
  schemas.push(o.schema);
  gw = await gatewayOn(o.url, 10);
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  trace.reset();
  const open = await openModel(
    {
      url: gw.baseUrl,
      path: '/api/Transactions/Sale',
      body: () => JSON.stringify(keyedSale()),
      accept: (j) => j.ResponseCode === 200,
    },
    60,
    concurrentSeconds * 2,
  );
  loopDelay.disable();
  console.log(`== 5. open model 60/s for ${concurrentSeconds * 2} s: ${fmt(open)} ==`);
  console.log(
    `event-loop delay (this process: gateway and load): p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
  );
  console.log(`pool checkout waits: ${stats(trace.poolWaits.map((w) => w.ms))}`);
  const setups = trace.connections.slice();
  console.log(
    `new server connections opened during the run: ${setups.length}${setups.length > 0 ? `, setup ${stats(setups.map((c) => c.ms))}` : ''}`,
  );
  const longWaits = trace.poolWaits.filter((w) => w.ms > 20);
  const duringSetup = longWaits.filter((w) =>
    setups.some((c) => c.startedAt >= w.startedAt - 1 && c.startedAt <= w.startedAt + w.ms),
  );
  console.log(
    `pool waits over 20 ms: ${longWaits.length}, of which ${duringSetup.length} waited while a new connection was being opened`,
  );
  const slow = trace.statements.filter((x) => x.ms > 50).slice(0, 10);
  for (const x of slow)
    console.log(`  slow statement: ${x.kind} ${x.lockKind ?? ''} ${x.ms.toFixed(0)} ms  ${x.sql}`);

  // 6. What the background tasks hold while they run (one pass each, traced).
  for (const name of ['payment-recovery', 'batch-close', 'recurring-billing']) {
    const task = gw.gateway.tasks.get(name);
    if (!task) continue;
    trace.reset();
    const t0 = performance.now();
    await task.runOnce();
    const ran = trace.statements.slice();
    console.log(
      `== 6. ${name}: one pass ${(performance.now() - t0).toFixed(1)} ms, ${ran.length} statements ${JSON.stringify(countByKind(ran))}, locks ${JSON.stringify(locksByKey(ran))} ==`,
    );
  }
  await gw.close();
} finally {
  trace.stop();
  for (const schema of schemas) await dropSchema(schema).catch(() => undefined);
  await db.drop();
}
