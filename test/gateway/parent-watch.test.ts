import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopWithParent } from '../../gateway/parent-watch';
import { keyedSale, utn } from '../support/gateway-harness';
import { postJson, run, spawnGateway, type SpawnedGateway } from '../support/spawn-gateway';
import { databaseArgs } from '../support/test-database';

/** A process that does nothing until killed: the program a gateway was started for. */
function idleProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => undefined, 60_000)'], { stdio: 'ignore' });
}

describe('stopWithParent', () => {
  it('stops once when the process is gone, and at once if it already is', async () => {
    const parent = idleProcess();
    const pid = parent.pid ?? 0;
    let stops = 0;
    stopWithParent(pid, () => (stops += 1), 20);
    await new Promise((r) => setTimeout(r, 100));
    expect(stops).toBe(0);
    parent.kill('SIGKILL');
    await new Promise((r) => parent.once('exit', r));
    await new Promise((r) => setTimeout(r, 200));
    expect(stops).toBe(1);
    stopWithParent(pid, () => (stops += 1), 20);
    expect(stops).toBe(2);
  });
});

const dirs: string[] = [];
const children: (SpawnedGateway | ChildProcess)[] = [];
afterEach(() => {
  for (const c of children.splice(0)) {
    const p = 'child' in c ? c.child : c;
    if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('npm run gateway -- --parent-pid N', { timeout: 120_000 }, () => {
  it('stops as on SIGTERM when process N dies (SIGKILL): the sale in flight is answered, exit 0', async () => {
    const data = mkdtempSync(join(tmpdir(), 'tillpoint-parent-'));
    dirs.push(data);
    const parent = idleProcess();
    children.push(parent);
    const gw = await spawnGateway([
      ...['--port', '0', '--data', data, '--sandbox', '--sandbox-slow-ms', '800'],
      ...['--parent-pid', String(parent.pid)],
      ...(await databaseArgs(data)),
    ]);
    children.push(gw);
    const inFlight = postJson(
      `${gw.url}/api/Transactions/Sale`,
      keyedSale({ UserTransactionNumber: utn('orphan'), CardNumber: '4000000000000119' }),
    );
    await new Promise((r) => setTimeout(r, 200));
    parent.kill('SIGKILL');
    expect((await inFlight).ResponseCode).toBe(200);
    expect(await gw.exited).toBe(0);
    expect(gw.stderr()).toContain('gateway stopped (its parent exited)');
  });

  it('refuses a --parent-pid that is not a process id', async () => {
    const r = await run(process.execPath, ['--import', 'tsx', 'gateway/server.ts', '--parent-pid', 'me']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gateway: --parent-pid must be a process id/);
  });
});
