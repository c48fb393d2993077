import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { PG_RUN_URL_ENV, PG_URL_ENV, withDatabase } from './test-database';
import { postgresServerInstalled } from './postgres-server';

/**
 * The postgres project's run gets a database of its own on the server (dropped at the end), so two runs
 * on one server never meet, and each test gateway makes a schema in it (test-database.ts).
 */
let created: { server: string; name: string } | null = null;
/** True when this run started the loopback server itself (and so stops it). */
let startedServer = false;

const serverScript = join(import.meta.dirname, '..', '..', '.ci', 'postgres');

/**
 * A newcomer's `npm test` runs both halves with no extra step: with no server URL given and the server
 * binaries installed, the run starts the same throwaway loopback cluster `.ci/run` starts, and stops it
 * after (a server that was already running, like CI's, is left alone).
 */
function startLoopbackServer(): string {
  const running = (): boolean => {
    try {
      execFileSync('bash', [serverScript, 'status'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const wasRunning = running();
  const url = execFileSync('bash', [serverScript, 'start'], { encoding: 'utf8' }).trim();
  startedServer = !wasRunning;
  return url;
}

export async function setup(): Promise<void> {
  if (!process.env[PG_URL_ENV] && postgresServerInstalled()) process.env[PG_URL_ENV] = startLoopbackServer();
  const server = process.env[PG_URL_ENV];
  if (!server) return;
  const name = `tillpoint_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    // Code-point collation, as SQLite compares text (docs/postgres.md recommends it for production too).
    await client.query(`create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8'`);
  } finally {
    await client.end();
  }
  created = { server, name };
  // Inherited by the test workers, which vitest forks after the global setup.
  process.env[PG_RUN_URL_ENV] = withDatabase(server, name);
}

export async function teardown(): Promise<void> {
  try {
    if (!created) return;
    const client = new pg.Client({ connectionString: created.server });
    await client.connect();
    try {
      await client.query(`drop database if exists ${created.name} with (force)`);
    } finally {
      await client.end();
    }
  } finally {
    if (startedServer) execFileSync('bash', [serverScript, 'stop'], { stdio: 'ignore' });
  }
}
