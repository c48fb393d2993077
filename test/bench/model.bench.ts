import { randomInt } from 'node:crypto';
import pg from 'pg';
import { PG_URL_ENV, withDatabase } from '../support/test-database';
import { describeReport, runChecker, type CheckerReport } from '../model/support/checker';
import { configFromEnv, slowMsFromEnv, type CheckerConfig } from '../model/support/config';
import { ALL_SPECS } from '../model/support/operations';
import { postgresTarget, sqliteTarget, type Target } from '../model/support/targets';
import { runWhenMain } from './sale-load';

/**
 * `npm run bench -- model`: the gateway model checker of issue 11 (docs/model-checker.md) for a long run
 * with a random seed, on SQLite and then on PostgreSQL with two gateway processes (when
 * TILLPOINT_TEST_PG_URL names a server). It prints what it ran, the interleavings checked and any shrunk
 * counterexample with the command that replays it. TILLPOINT_MODEL_* set the seed, time and commands.
 */
function config(): CheckerConfig {
  return configFromEnv({
    seed: randomInt(2 ** 31),
    runs: 1_000_000,
    timeMs: 5 * 60_000,
    shrinkMs: 5 * 60_000,
    maxGroups: 16,
    maxGroupSize: 5,
    commands: ALL_SPECS,
    shrinkTries: 4,
  });
}

async function check(start: () => Promise<Target>, c: CheckerConfig): Promise<CheckerReport> {
  const target = await start();
  try {
    const report = await runChecker(target, c);
    for (const line of describeReport(target, report)) console.log(line);
    return report;
  } finally {
    await target.close();
  }
}

export async function run(): Promise<void> {
  const c = config();
  const slowMs = slowMsFromEnv(250);
  console.log(
    `\n== model checker: ${Math.round(c.timeMs / 1000)} s of random command sequences per database (seed ${c.seed}) ==`,
  );
  // TILLPOINT_MODEL_DATABASES=sqlite or =postgres runs one of them (a replay, say).
  const only = process.env.TILLPOINT_MODEL_DATABASES;
  const reports: CheckerReport[] = [];
  if (only !== 'postgres') reports.push(await check(() => sqliteTarget(slowMs), c));
  const server = process.env[PG_URL_ENV];
  if (only !== 'sqlite' && !server)
    console.log(`PostgreSQL skipped: no server (${PG_URL_ENV}); start one with: bash .ci/postgres start`);
  if (only !== 'sqlite' && server) {
    // A database of its own, dropped at the end.
    const name = `tillpoint_model_${process.pid}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8'`);
    try {
      reports.push(await check(() => postgresTarget(slowMs, withDatabase(server, name)), c));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
  if (reports.some((r) => r.failure)) process.exitCode = 1;
}

runWhenMain(import.meta.url, run);
