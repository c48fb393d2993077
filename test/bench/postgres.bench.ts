import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { keyedSale, merchant1 } from '../support/gateway-harness';
import { postJson, spawnGateway, type SpawnedGateway } from '../support/spawn-gateway';
import { PG_RUN_URL_ENV, PG_URL_ENV, createSchema, withDatabase } from '../support/test-database';
import { closedLoop, fmt, openModel, type LoadResult, type Target } from './load';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const openSeconds = Number(process.env.BENCH_OPEN_SECONDS ?? 20);
// About half the 1-process ceiling measured on the 2-core build machines (docs/postgres.md): a rate both
// configurations can carry, so the p99s compare latency, not a growing queue.
const openRate = Number(process.env.BENCH_PG_OPEN_RATE ?? 60);
// Connections per gateway process: 64 clients, and room for the work that waits on locks.
const poolSize = process.env.BENCH_PG_POOL ?? '16';

function saleTarget(url: string | string[], prefix: string, onAnswer?: Target['onAnswer']): Target {
  // One body template; only the UserTransactionNumber changes (ForceDuplication: the card and amount repeat).
  const template = JSON.stringify(keyedSale({ UserTransactionNumber: '@@UTN@@', ForceDuplication: true }));
  return {
    url: Array.isArray(url) ? (url[0] ?? '') : url,
    path: '/api/Transactions/Sale',
    body: (i) => template.replace('@@UTN@@', `${prefix}-${i}`),
    accept: (j) => j.ResponseCode === 200,
    ...(onAnswer ? { onAnswer } : {}),
  };
}

async function stop(gw: SpawnedGateway): Promise<void> {
  gw.child.kill('SIGTERM');
  await gw.exited;
}

/** A gateway of `workers` processes (Node cluster, one port) on a fresh schema of the bench database. */
async function gateway(dir: string, name: string, workers: number): Promise<SpawnedGateway> {
  const { url } = await createSchema();
  return spawnGateway(
    [
      '--port',
      '0',
      '--data',
      join(dir, name),
      '--db',
      url,
      '--db-pool',
      poolSize,
      '--workers',
      String(workers),
      '--sandbox',
      '--log-level',
      'silent',
    ],
    {},
    120_000,
  );
}

async function scenario(dir: string, workers: number): Promise<{ ceiling: LoadResult; open: LoadResult }> {
  let gw = await gateway(dir, `ceiling-${workers}`, workers);
  const ceiling = await closedLoop(saleTarget(gw.url, `c${workers}`), 64, seconds);
  await stop(gw);
  gw = await gateway(dir, `open-${workers}`, workers);
  const open = await openModel(saleTarget(gw.url, `o${workers}`), openRate, openSeconds);
  await stop(gw);
  return { ceiling, open };
}

/**
 * kill -9 of every gateway process in the middle of a run: two separate processes on one database, clients
 * on both; every sale answered approved must be there when a process starts again.
 */
async function killCheck(dir: string): Promise<string> {
  const { url } = await createSchema();
  const data = join(dir, 'kill');
  const args = ['--port', '0', '--data', data, '--db', url, '--db-pool', poolSize, '--log-level', 'silent'];
  const first = await spawnGateway([...args, '--sandbox'], {}, 120_000);
  const second = await spawnGateway(args, {}, 120_000);
  const approved = new Set<string>();
  const remember = (prefix: string) => (i: number, j: { ResponseCode?: unknown }) => {
    if (j.ResponseCode === 200) approved.add(`${prefix}-${i}`);
  };
  const killer = setTimeout(
    () => {
      first.child.kill('SIGKILL');
      second.child.kill('SIGKILL');
    },
    1_000 + Math.random() * 2_000,
  );
  await Promise.all([
    closedLoop(saleTarget(first.url, 'ka', remember('ka')), 32, 4, 0).catch(() => undefined),
    closedLoop(saleTarget(second.url, 'kb', remember('kb')), 32, 4, 0).catch(() => undefined),
  ]);
  clearTimeout(killer);
  await Promise.all([first.exited, second.exited]);
  const after = await spawnGateway(args, {}, 120_000);
  try {
    const report = await postJson(`${after.url}/api/Report/GetReportByMerchant`, merchant1);
    const stored = new Set(
      ((report.Transactions as { UserTransactionNumber: string; Status: string }[] | undefined) ?? [])
        .filter((t) => t.Status === 'approved')
        .map((t) => t.UserTransactionNumber),
    );
    const missing = [...approved].filter((u) => !stored.has(u));
    return `${approved.size} answered approved, ${missing.length} missing after restart ${missing.length === 0 ? '(ok)' : '(LOST SALES)'}`;
  } finally {
    await stop(after);
  }
}

export async function run(): Promise<void> {
  console.log(`\n== gateway on PostgreSQL: approved sales over loopback, 1 and 2 gateway processes ==`);
  const server = process.env[PG_URL_ENV];
  if (!server) {
    console.log(`skipped: no PostgreSQL server (${PG_URL_ENV}); start one with: bash .ci/postgres start`);
    return;
  }
  // A database of its own, dropped at the end, so the figures never include another run's rows.
  const name = `tillpoint_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8'`);
  process.env[PG_RUN_URL_ENV] = withDatabase(server, name);
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-pgbench-'));
  try {
    const one = await scenario(dir, 1);
    console.log(`(a) ceiling  sales, 64 clients, 1 process:          ${fmt(one.ceiling)}`);
    console.log(`(b) open model ${openRate}/s for ${openSeconds} s, 1 process:   ${fmt(one.open)}`);
    const two = await scenario(dir, 2);
    console.log(`(a) ceiling  sales, 64 clients, 2 processes:        ${fmt(two.ceiling)}`);
    console.log(`(b) open model ${openRate}/s for ${openSeconds} s, 2 processes: ${fmt(two.open)}`);
    console.log(
      `    scaling 2 processes / 1: ceiling ${(two.ceiling.rate / one.ceiling.rate).toFixed(2)}x, ` +
        `p99 under the open model ${one.open.p99.toFixed(1)} ms -> ${two.open.p99.toFixed(1)} ms ` +
        `(PostgreSQL, both processes and the load generator share this machine's cores)`,
    );
    console.log(`(c) kill -9 of both processes mid-run: ${await killCheck(dir)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
