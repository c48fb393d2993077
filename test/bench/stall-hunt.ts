// Developer tool: the issue's open-model stall, reproduced as the PostgreSQL bench runs it (a 64-client
// ceiling run, then a fresh gateway process at 60 sales/s), with the gateway's node-postgres traced from
// inside (trace-child.ts) and the server's wait events sampled every 20 ms. For every slow sale it prints
// what was going on in that window: pool waits, connections being opened, long statements, event-loop
// stalls of the gateway, and what the server's backends were waiting on.
// `npx tsx test/bench/stall-hunt.ts [ceiling-seconds] [open-seconds] [rate] [workers]`
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { keyedSale } from '../support/gateway-harness';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway';
import { createSchema } from '../support/test-database';
import type { ConnectionSetup, PoolWait, Statement } from '../support/pg-trace';
import { benchDatabase } from './bench-database';
import { closedLoop, fmt, openModel, type Target } from './load';

const ceilingSeconds = Number(process.argv[2] ?? 10);
const openSeconds = Number(process.argv[3] ?? 20);
const rate = Number(process.argv[4] ?? 60);
const workers = Number(process.argv[5] ?? 1);
const pool = process.env.BENCH_PG_POOL ?? '16';

const db = await benchDatabase();
if (!db) {
  console.log('no PostgreSQL server: set TILLPOINT_TEST_PG_URL');
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'tillpoint-stall-'));

function target(url: string, prefix: string, onLatency?: Target['onLatency']): Target {
  const template = JSON.stringify(keyedSale({ UserTransactionNumber: '@@UTN@@', ForceDuplication: true }));
  return {
    url,
    path: '/api/Transactions/Sale',
    body: (i) => template.replace('@@UTN@@', `${prefix}-${i}`),
    accept: (j) => j.ResponseCode === 200,
    ...(onLatency ? { onLatency } : {}),
  };
}

async function gateway(name: string, traceFile?: string): Promise<SpawnedGateway> {
  const { url } = await createSchema();
  return spawnGateway(
    [
      ...['--port', '0', '--data', join(dir, name), '--db', url, '--db-pool', pool],
      ...['--workers', String(workers), '--sandbox', '--log-level', 'silent'],
    ],
    traceFile ? { TILLPOINT_PG_TRACE_FILE: traceFile } : {},
    120_000,
    traceFile ? ['--import', 'tsx', '--import', './test/bench/trace-child.ts'] : [],
  );
}

type Sample = { at: number; waits: string[] };
try {
  const ceilingGw = await gateway('ceiling');
  console.log(`ceiling: ${fmt(await closedLoop(target(ceilingGw.url, 'c'), 64, ceilingSeconds))}`);
  ceilingGw.child.kill('SIGTERM');
  await ceilingGw.exited;

  const traceFile = join(dir, 'trace.json');
  const gw = await gateway('open', traceFile);
  const server = new pg.Client({ connectionString: process.env.TILLPOINT_TEST_PG_RUN_URL });
  await server.connect();
  const checkpoints = async () =>
    Number(
      (
        await server.query<{ n: string }>(
          'select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter',
        )
      ).rows[0]?.n,
    );
  const before = await checkpoints();
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const r = await server.query<{ w: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' ' || coalesce(backend_type, '') as w
           from pg_stat_activity where pid <> pg_backend_pid() and (state = 'active' or backend_type <> 'client backend')
            and coalesce(wait_event, '') not in ('WalWriterMain', 'CheckpointerMain', 'BgWriterMain', 'BgWriterHibernate', 'AutoVacuumMain', 'LogicalLauncherMain', 'ArchiverMain')`,
      );
      samples.push({ at: Date.now(), waits: r.rows.map((x) => x.w) });
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  const sales: { due: number; ms: number }[] = [];
  const open = await openModel(
    target(gw.url, 'o', (due, ms) => sales.push({ due, ms })),
    rate,
    openSeconds,
  );
  sampling = false;
  await sampler;
  const after = await checkpoints();
  await server.end();
  gw.child.kill('SIGTERM');
  await gw.exited;
  console.log(`open model ${rate}/s for ${openSeconds} s, ${workers} process(es): ${fmt(open)}`);
  console.log(`checkpoints during the open run: ${after - before}`);

  const t = JSON.parse(readFileSync(traceFile, 'utf8')) as {
    statements: Statement[];
    poolWaits: PoolWait[];
    connections: ConnectionSetup[];
    stalls: { at: number; ms: number }[];
    loopP99: number;
    loopMax: number;
  };
  console.log(
    `gateway: event loop p99 ${t.loopP99.toFixed(1)} ms max ${t.loopMax.toFixed(1)} ms; connections opened while serving: ${t.connections.length}; pool waits > 20 ms: ${t.poolWaits.filter((w) => w.ms > 20).length}`,
  );
  const t0 = sales.reduce((m, s) => Math.min(m, s.due), Infinity);
  const rel = (at: number) => `${((at - t0) / 1000).toFixed(2)}s`;
  console.log(
    `connections opened (relative to the first counted sale): ${t.connections.map((c) => `${rel(c.startedAt)}/${c.ms.toFixed(0)}ms`).join(' ')}`,
  );
  console.log(
    `gateway event-loop stalls over 100 ms: ${t.stalls
      .filter((x) => x.ms > 100)
      .map((x) => `${rel(x.at)}/${x.ms.toFixed(0)}ms`)
      .join(' ')}`,
  );
  const slow = sales.filter((s) => s.ms > 100).sort((a, b) => a.due - b.due);
  console.log(`sales over 100 ms: ${slow.length} of ${sales.length}`);
  // Group slow sales into episodes (gaps under 200 ms), then describe each.
  const episodes: { from: number; to: number; worst: number; n: number }[] = [];
  for (const s of slow) {
    const last = episodes[episodes.length - 1];
    if (last && s.due - last.to < 200) {
      last.to = Math.max(last.to, s.due + s.ms);
      last.worst = Math.max(last.worst, s.ms);
      last.n += 1;
    } else episodes.push({ from: s.due, to: s.due + s.ms, worst: s.ms, n: 1 });
  }
  const inside = (at: number, ms: number, e: { from: number; to: number }) => at <= e.to && at + ms >= e.from;
  for (const e of episodes.slice(0, 12)) {
    const waits = new Map<string, number>();
    for (const s of samples.filter((x) => x.at >= e.from && x.at <= e.to))
      for (const w of s.waits) waits.set(w, (waits.get(w) ?? 0) + 1);
    console.log(
      `-- episode +${((e.from - (sales[0]?.due ?? e.from)) / 1000).toFixed(2)} s, ${(e.to - e.from).toFixed(0)} ms, ${e.n} slow sales, worst ${e.worst.toFixed(0)} ms`,
    );
    console.log(
      `   gateway: ${t.connections.filter((c) => inside(c.startedAt, c.ms, e)).length} connections opened (${t.connections
        .filter((c) => inside(c.startedAt, c.ms, e))
        .map((c) => c.ms.toFixed(0))
        .join(
          ', ',
        )} ms); pool waits > 20 ms: ${t.poolWaits.filter((w) => w.ms > 20 && inside(w.startedAt, w.ms, e)).length}; event-loop stalls: ${t.stalls
        .filter((s) => inside(s.at, s.ms, e))
        .map((s) => s.ms.toFixed(0))
        .join(', ')} ms`,
    );
    const long = t.statements.filter((s) => s.ms > 20 && inside(s.startedAt, s.ms, e));
    const byKind = new Map<string, number[]>();
    for (const s of long)
      byKind.set(s.lockKind ? `lock ${s.lockKind}` : s.kind, [
        ...(byKind.get(s.lockKind ? `lock ${s.lockKind}` : s.kind) ?? []),
        s.ms,
      ]);
    console.log(
      `   statements > 20 ms: ${[...byKind].map(([k, v]) => `${k} ×${v.length} (max ${Math.max(...v).toFixed(0)})`).join(', ') || 'none'}`,
    );
    console.log(
      `   server waits sampled: ${
        [...waits]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([w, n]) => `${w} ×${n}`)
          .join(', ') || 'none'
      }`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
}
