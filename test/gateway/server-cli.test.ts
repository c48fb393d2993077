import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyedSale, merchant1, utn } from '../support/gateway-harness';
import { postJson, run, spawnGateway, type SpawnedGateway } from '../support/spawn-gateway';
import { databaseArgs } from '../support/test-database';
import { ResponseCode } from '../../gateway/contract/response-codes';

const dirs: string[] = [];
const children: SpawnedGateway[] = [];
/**
 * Started through here so a failed test never leaves a gateway running; in the postgres project the data
 * folder's database is a PostgreSQL schema, passed as --db.
 */
async function start(args: string[]): Promise<SpawnedGateway> {
  const data = args[args.indexOf('--data') + 1];
  const gw = await spawnGateway([...args, ...(data ? await databaseArgs(data) : [])]);
  children.push(gw);
  return gw;
}
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tillpoint-cli-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// Each test starts real gateway processes (tsx compiles on start): generous timeouts for a loaded 2-core machine.
describe('npm run gateway', { timeout: 120_000 }, () => {
  it('starts a sandbox on a new folder with --sandbox, prints its ready line, and stops cleanly on SIGTERM', async () => {
    const data = tempDir();
    const gw = await start(['--port', '0', '--data', data, '--sandbox']);
    expect(gw.stdout()).toMatch(/^gateway listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const sale = await postJson(`${gw.url}/api/Transactions/Sale`, keyedSale());
    expect(sale.ResponseCode).toBe(200);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
    expect(gw.stderr()).toContain('gateway stopped (SIGTERM)');
  });

  it('finishes an in-flight sale before stopping, and the sale is there after restart', async () => {
    const data = tempDir();
    const gw = await start(['--port', '0', '--data', data, '--sandbox', '--sandbox-slow-ms', '800']);
    const number = utn('inflight');
    const inFlight = postJson(
      `${gw.url}/api/Transactions/Sale`,
      keyedSale({ UserTransactionNumber: number, CardNumber: '4000000000000119' }),
    );
    await new Promise((r) => setTimeout(r, 200));
    gw.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.ResponseCode).toBe(200);
    expect(await gw.exited).toBe(0);
    const again = await start(['--port', '0', '--data', data]);
    try {
      const rows = (await postJson(`${again.url}/api/Report/GetReportByMerchant`, merchant1))
        .Transactions as Record<string, unknown>[];
      expect(rows.find((r) => r.UserTransactionNumber === number)).toMatchObject({ Status: 'approved' });
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });

  it('keeps every answered approval across kill -9', async () => {
    const data = tempDir();
    const gw = await start(['--port', '0', '--data', data, '--sandbox']);
    const approved: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        const number = utn('k9');
        try {
          const r = await postJson(
            `${gw.url}/api/Transactions/Sale`,
            keyedSale({ UserTransactionNumber: number }),
          );
          if (r.ResponseCode === 200) approved.push(number);
        } catch {
          return;
        }
      }
    };
    const clients = Array.from({ length: 16 }, client);
    // Kill in the middle of the load: once enough sales were answered (bounded wait on a loaded machine).
    for (let waited = 0; approved.length < 40 && waited < 30_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    gw.child.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    expect(await gw.exited).toBe('SIGKILL');
    expect(approved.length).toBeGreaterThan(10);
    const again = await start(['--port', '0', '--data', data]);
    try {
      const rows = (await postJson(`${again.url}/api/Report/GetReportByMerchant`, merchant1))
        .Transactions as Record<string, unknown>[];
      const stored = new Set(rows.filter((r) => r.Status === 'approved').map((r) => r.UserTransactionNumber));
      const missing = approved.filter((n) => !stored.has(n));
      expect(missing).toEqual([]);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });

  it('refuses bad arguments with a usage line, never a stack trace', async () => {
    const r = await run(process.execPath, ['--import', 'tsx', 'gateway/server.ts', '--port', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gateway: --port must be 0-65535/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const unknown = await run(process.execPath, ['--import', 'tsx', 'gateway/server.ts', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run gateway');
    // Several processes on one SQLite file would only queue on its single writer: refused, with the way out.
    const workers = await run(
      process.execPath,
      ['--import', 'tsx', 'gateway/server.ts', '--workers', '2', '--data', tempDir()],
      { TILLPOINT_DATABASE_URL: '' },
    );
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(/^gateway: --workers 2 needs PostgreSQL \(--db postgres:\/\/…\)/);
    // Lanes are PostgreSQL connections: meaningless on SQLite, and a count.
    const lanes = await run(
      process.execPath,
      ['--import', 'tsx', 'gateway/server.ts', '--db-lanes', '2', '--data', tempDir()],
      { TILLPOINT_DATABASE_URL: '' },
    );
    expect(lanes.code).toBe(2);
    expect(lanes.stderr).toMatch(/^gateway: --db-lanes needs PostgreSQL/);
    const badLanes = await run(process.execPath, [
      '--import',
      'tsx',
      'gateway/server.ts',
      '--db-lanes',
      'x',
      '--db',
      'postgres://u:p@127.0.0.1:1/d',
    ]);
    expect(badLanes.code).toBe(2);
    expect(badLanes.stderr).toMatch(/^gateway: --db-lanes must be 0-64, not "x"/);
    expect(badLanes.stderr).not.toContain(':p@');
    // A new folder never silently becomes a sandbox: it needs --sandbox, or a production set-up first.
    const fresh = tempDir();
    const unset = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'gateway/server.ts',
        '--port',
        '0',
        '--data',
        fresh,
        ...(await databaseArgs(fresh)),
      ],
      { TILLPOINT_DATABASE_URL: '' },
    );
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/^gateway: .* is a new data folder/);
    expect(unset.stderr).toContain('--sandbox');
    expect(unset.stderr).toContain('init-keys');
    expect(unset.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(fresh).filter((f) => f !== 'test-database.json')).toEqual([]);
    const badDb = await run(process.execPath, ['--import', 'tsx', 'gateway/server.ts', '--db', 'mysql://x']);
    expect(badDb.code).toBe(2);
    expect(badDb.stderr).toMatch(/^gateway: --db must be "sqlite" or a PostgreSQL URL/);
    const prefix = await run(process.execPath, [
      '--import',
      'tsx',
      'gateway/server.ts',
      '--testing-prefix',
      'yes',
    ]);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(/^gateway: --testing-prefix must be on or off/);
  });

  it('onboards a merchant outside the sandbox with the admin command', async () => {
    const data = tempDir();
    const db = await databaseArgs(data);
    const admin = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'gateway/admin/cli.ts', ...args, '--data', data, ...db], {
        TILLPOINT_NEW_PASSWORD: 'correct horse battery',
      });
    expect((await admin('init-keys')).code).toBe(0);
    const app = await admin('add-application', '--app-type', '3', '--name', 'Counter POS');
    const { AppKey } = JSON.parse(app.stdout) as { AppKey: string };
    expect(
      (await admin('add-merchant', '--mid', '4242', '--name', 'Corner Shop', '--time-zone', 'Europe/Berlin'))
        .code,
    ).toBe(0);
    expect((await admin('add-user', '--mid', '4242', '--user', 'corner')).code).toBe(0);
    expect(
      (await admin('add-cashier', '--mid', '4242', '--cid', '7', '--first', 'Ana', '--last', 'Lopez')).code,
    ).toBe(0);
    const dup = await admin(
      'add-cashier',
      '--mid',
      '4242',
      '--cid',
      '7',
      '--first',
      'Ana',
      '--last',
      'Lopez',
    );
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/^gateway:admin: already exists/);

    const gw = await start(['--port', '0', '--data', data]);
    try {
      const creds = {
        AppKey,
        AppType: 3,
        mid: 4242,
        cid: 7,
        UserName: 'corner',
        Password: 'correct horse battery',
      };
      expect((await postJson(`${gw.url}/api/BusinessSettings`, creds)).ResponseCode).toBe(200);
      // Not a sandbox: the demo merchants do not exist here.
      expect((await postJson(`${gw.url}/api/BusinessSettings`, merchant1)).ResponseCode).toBe(
        ResponseCode.AuthenticationFailed,
      );
      // Nor the test environment's URL, unless asked for.
      expect((await postJson(`${gw.url}/testing/api/BusinessSettings`, creds)).ResponseCode).toBe(
        ResponseCode.NotFound,
      );
    } finally {
      gw.child.kill('SIGTERM');
      await gw.exited;
    }
    const withPrefix = await start(['--port', '0', '--data', data, '--testing-prefix', 'on']);
    try {
      const creds = {
        AppKey,
        AppType: 3,
        mid: 4242,
        cid: 7,
        UserName: 'corner',
        Password: 'correct horse battery',
      };
      expect((await postJson(`${withPrefix.url}/testing/api/BusinessSettings`, creds)).ResponseCode).toBe(
        200,
      );
    } finally {
      withPrefix.child.kill('SIGTERM');
      await withPrefix.exited;
    }
  });
});
