import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminQuery, PG_RUN_URL_ENV } from '../support/test-database';

/**
 * What the database alone does with a sale's writes on this machine, with no gateway at all: pgbench
 * (PostgreSQL's own load generator) sends, per "sale", the two statements a sale's units write — the
 * number reserved and the payment recorded (a copy of a real payment row), then the payment and its number
 * marked done — each in autocommit, prepared, from 8 clients. No locks, no fraud read, no JSON: a ceiling
 * the gateway cannot pass on the same cores. Null when pgbench is not installed.
 */
export async function databaseAlone(
  schema: string,
  seconds: number,
): Promise<{ salesPerSecond: number; clients: number } | null> {
  const bin = ['/usr/lib/postgresql']
    .filter(existsSync)
    .flatMap((root) => readdirSync(root).map((v) => join(root, v, 'bin', 'pgbench')))
    .find(existsSync);
  const url = process.env[PG_RUN_URL_ENV];
  if (!bin || !url || !/^t_[0-9a-z_]+$/.test(schema)) return null;
  const columns = (
    await adminQuery(
      `select column_name as c from information_schema.columns where table_schema = $1 and table_name = 'payments'
       and column_name not in ('id', 'srn', 'utn') order by ordinal_position`,
      [schema],
    )
  ).rows.map((r) => (r as { c: string }).c);
  const source = await adminQuery(`select id, mid from ${schema}.payments order by id limit 1`);
  const row = source.rows[0] as { id: string; mid: string } | undefined;
  if (!row) throw new Error('database alone: the schema has no payment to copy');
  const key = (prefix: string) => `'${prefix}' || :n || '-' || :client_id`;
  const script = [
    '\\set n random(1, 2000000000)',
    `with tn as (insert into ${schema}.transaction_numbers values (${row.mid}, ${key('a')}, 'sale', null, 'reserved', 'now') returning 1)` +
      ` insert into ${schema}.payments (srn, utn, ${columns.join(', ')})` +
      ` select ${key('s')}, ${key('a')}, ${columns.map((c) => `p.${c}`).join(', ')} from ${schema}.payments p, tn where p.id = ${row.id};`,
    `with p as (update ${schema}.payments set status = 'approved', updated_at = 'done' where srn = ${key('s')} returning id)` +
      ` update ${schema}.transaction_numbers set state = 'used', payment_id = (select id from p) where mid = ${row.mid} and utn = ${key('a')};`,
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-pgbench-'));
  try {
    const file = join(dir, 'sale.sql');
    writeFileSync(file, script + '\n');
    const clients = 8;
    const run = spawnSync(
      bin,
      ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', file, url],
      { encoding: 'utf8' },
    );
    const tps = /tps = ([\d.]+)/.exec(run.stdout)?.[1];
    if (run.status !== 0 || tps === undefined)
      throw new Error(`pgbench failed: ${run.stderr.split('\n').slice(0, 3).join(' ')}`);
    return { salesPerSecond: Number(tps), clients };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
