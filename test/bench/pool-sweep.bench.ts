import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LANES, DEFAULT_POOL_SIZE } from '../../gateway/storage/postgres-storage';
import { spawnGateway } from '../support/spawn-gateway';
import { createSchema } from '../support/test-database';
import { benchDatabase } from './bench-database';
import { fmtCpu, type CpuSplit } from './cpu-meter';
import { fmt, type LoadResult } from './load';
import { meteredCeiling, runWhenMain, stopGateway } from './sale-load';

/**
 * `npm run bench -- pool-sweep`: the PostgreSQL pool (`--db-pool`) and its shared lanes (`--db-lanes`)
 * swept at the ceiling (64 clients, one gateway process), each with where its CPU went. The defaults
 * (DEFAULT_POOL_SIZE, DEFAULT_LANES) rest on this; the reference is lanes 0 (every statement on a pooled
 * connection of its own, as before lanes existed), run in the same process.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const rounds = Number(process.env.BENCH_SWEEP_ROUNDS ?? 2);
const shapes: [pool: number, lanes: number][] = [
  [10, 0],
  [4, 0],
  [16, 0],
  [10, 1],
  [10, 2],
  [10, 4],
  [10, 8],
  [4, 2],
  [16, 4],
  [16, 8],
];

async function ceiling(dir: string, pool: number, lanes: number, n: number) {
  const { url } = await createSchema();
  const gw = await spawnGateway(
    [
      '--port',
      '0',
      '--data',
      join(dir, `p${pool}-l${lanes}-${n}`),
      '--sandbox',
      '--log-level',
      'silent',
      '--db',
      url,
      '--db-pool',
      String(pool),
      '--db-lanes',
      String(lanes),
    ],
    {},
    120_000,
  );
  try {
    const { cpu, ...result } = await meteredCeiling(gw, 's', seconds);
    return { result, cpu };
  } finally {
    await stopGateway(gw);
  }
}

export async function run(): Promise<void> {
  console.log('\n== PostgreSQL pool and lanes at the ceiling (64 clients, 1 gateway process) ==');
  const db = await benchDatabase();
  if (!db) {
    console.log(
      'skipped: no PostgreSQL server (TILLPOINT_TEST_PG_URL); start one with: bash .ci/postgres start',
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-poolsweep-'));
  console.log(
    `machine: ${cpus().length} cores; defaults: --db-pool ${DEFAULT_POOL_SIZE} --db-lanes ${DEFAULT_LANES}; ${rounds} rounds of ${seconds} s, interleaved`,
  );
  const runs = new Map<string, { result: LoadResult; cpu: CpuSplit }[]>();
  try {
    // Interleaved rounds: a machine whose load changes during the sweep shifts every shape alike.
    for (let n = 0; n < rounds; n += 1) {
      for (const [pool, lanes] of shapes) {
        const key = `${pool}/${lanes}`;
        const r = await ceiling(dir, pool, lanes, n);
        runs.set(key, [...(runs.get(key) ?? []), r]);
        console.log(
          `  round ${n + 1} pool ${pool} lanes ${lanes}: ${fmt(r.result)}; ${fmtCpu(r.cpu)} [load ${loadavg()[0]?.toFixed(1)}]`,
        );
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const reference = mean((runs.get('10/0') ?? []).map((r) => r.result.rate));
    console.log('summary (mean of rounds; reference pool 10 lanes 0 = 1.00x):');
    for (const [key, rs] of runs) {
      const [pool, lanes] = key.split('/');
      const rate = mean(rs.map((r) => r.result.rate));
      const server = mean(rs.map((r) => r.cpu.serverUs));
      console.log(
        `  pool ${pool} lanes ${lanes}: ${rate.toFixed(0)}/s (${(rate / reference).toFixed(2)}x), p99 ${mean(rs.map((r) => r.result.p99)).toFixed(0)} ms, ` +
          `server ${server.toFixed(0)} µs/sale (${(1e6 / server).toFixed(0)} sales/s per database core), gateway ${mean(rs.map((r) => r.cpu.gatewayUs)).toFixed(0)} µs/sale`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

runWhenMain(import.meta.url, run);
