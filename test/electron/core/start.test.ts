import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectBridge, readBridgeFile } from '../../../electron/bridge/ws-client';
import { electronBinary } from '../../../electron/electron-binary';
import { value } from '../helpers';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const repo = join(import.meta.dirname, '..', '..', '..');

function launch(
  dataDir: string,
  extra: string[] = [],
): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    [
      '--import',
      tsx,
      join(repo, 'electron', 'start.ts'),
      '--data',
      dataDir,
      '--port',
      '0',
      '--browser',
      ...extra,
    ],
    {
      cwd: repo,
      env: { ...process.env, TILLPOINT_SKIP_RENDERER_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  return {
    child,
    out: () => out,
    err: () => err,
    exit: new Promise((r) => child.once('exit', (code) => r(code))),
  };
}

/** The gateway processes running on `folder` (their command line names it), with their parents. */
function gatewaysOn(folder: string): { pid: number; ppid: number }[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .filter((line) => line.includes('gateway/server.ts') && line.includes(`--data ${folder} `))
    .map((line) => {
      const [pid, ppid] = line.trim().split(/\s+/, 2).map(Number);
      return { pid: pid ?? 0, ppid: ppid ?? 0 };
    });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm start (browser mode)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('detects the Electron binary without requiring the package', () => {
    // This machine has the npm package but not its binary.
    expect(electronBinary(repo)).toBeUndefined();
  });

  it(
    'starts the embedded gateway, prints one ready line, refuses a second instance and stops cleanly',
    { timeout: 120_000 },
    async () => {
      const first = launch(dataDir);
      await until(() => first.out().includes('terminal ready at'), 90_000);
      const lines = first.out().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^terminal ready at http:\/\/127\.0\.0\.1:\d+\/#launch=[\w-]{43}$/);

      const { wsUrl, secret } = readBridgeFile(dataDir);
      const bridge = await connectBridge(wsUrl, secret);
      value(await bridge.send('session.signIn', { pin: '1111' }));
      const t = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
      const pay = bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'swipe' },
      });
      await new Promise((r) => setTimeout(r, 200));
      value(await bridge.send('simulator.swipe', {}));
      expect(value(await pay).tender.status).toBe('approved');
      await bridge.close();

      const second = launch(dataDir);
      expect(await second.exit).toBe(1);
      expect(second.err()).toMatch(/already running on/);
      expect(second.err()).not.toMatch(/\n\s+at /);

      first.child.kill('SIGTERM');
      expect(await first.exit).toBe(0);
      const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      expect(left).not.toContain(join(dataDir, 'gateway'));
    },
  );

  it(
    'killed with SIGKILL, its gateway ends by itself; a relaunch on the folder runs exactly one gateway',
    { timeout: 240_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'tillpoint-orphan-'));
      const gatewayFolder = join(folder, 'gateway');
      const launches: ReturnType<typeof launch>[] = [];
      try {
        const first = launch(folder);
        launches.push(first);
        await until(() => first.out().includes('terminal ready at'), 90_000);
        const [orphan, ...others] = gatewaysOn(gatewayFolder);
        expect(others).toEqual([]);
        expect(orphan?.ppid).toBe(first.child.pid);

        first.child.kill('SIGKILL');
        await first.exit;
        // Relaunched at once, as a kiosk's supervisor would: never two gateways on the folder at a time.
        const second = launch(folder);
        launches.push(second);
        let most = 0;
        const deadline = Date.now() + 120_000;
        while (!second.out().includes('terminal ready at')) {
          if (Date.now() > deadline) throw new Error(`the relaunch did not start: ${second.err()}`);
          most = Math.max(most, gatewaysOn(gatewayFolder).length);
          expect(second.child.exitCode, second.err()).toBeNull();
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(most).toBeLessThanOrEqual(1);
        expect(alive(orphan?.pid ?? 0)).toBe(false);
        const now = gatewaysOn(gatewayFolder);
        expect(now.map((g) => g.ppid)).toEqual([second.child.pid]);

        // The relaunched terminal sells through its gateway.
        const { wsUrl, secret } = readBridgeFile(folder);
        const bridge = await connectBridge(wsUrl, secret);
        value(await bridge.send('session.signIn', { pin: '1111' }));
        const t = value(await bridge.send('sale.open', { subtotalCents: 1500 }));
        const pay = bridge.send('sale.pay', {
          ticketId: t.ticketId,
          tender: { kind: 'credit', entry: 'swipe' },
        });
        await new Promise((r) => setTimeout(r, 200));
        value(await bridge.send('simulator.swipe', {}));
        expect(value(await pay).tender.status).toBe('approved');
        await bridge.close();

        second.child.kill('SIGTERM');
        expect(await second.exit).toBe(0);
        expect(gatewaysOn(gatewayFolder)).toEqual([]);
      } finally {
        for (const l of launches) l.child.kill('SIGKILL');
        for (const g of gatewaysOn(gatewayFolder)) process.kill(g.pid, 'SIGKILL');
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it(
    '--customer-display also prints a customer display’s address, whose token opens the customer’s connection',
    { timeout: 120_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'tillpoint-start-customer-'));
      const run = launch(folder, ['--customer-display']);
      try {
        await until(() => run.out().includes('customer display at'), 90_000);
        const lines = run.out().trim().split('\n');
        expect(lines[0]).toMatch(/^terminal ready at http:\/\/127\.0\.0\.1:\d+\/#launch=[\w-]{43}$/);
        const m = /^customer display at (http:\/\/127\.0\.0\.1:\d+)\/customer#launch=([\w-]{43})$/.exec(
          lines[1] ?? '',
        );
        expect(m).not.toBeNull();
        const origin = m?.[1] ?? '';
        const codes = await new Promise<string[]>((resolve, reject) => {
          const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, { headers: { origin } });
          const got: string[] = [];
          const calls = ['customer.view', 'sale.current'];
          ws.on('open', () =>
            ws.send(JSON.stringify({ type: 'hello', launchToken: m?.[2], contractVersion: 1 })),
          );
          ws.on('message', (d: Buffer) => {
            const msg = JSON.parse(d.toString()) as {
              type: string;
              result?: { ok: boolean; error?: { code: string } };
            };
            if (msg.type === 'result') got.push(msg.result?.ok ? 'ok' : (msg.result?.error?.code ?? '?'));
            if (msg.type === 'refused') got.push('refused');
            const next = calls[got.length];
            if (msg.type !== 'refused' && next)
              ws.send(JSON.stringify({ type: 'call', id: got.length, command: next, payload: {} }));
            else {
              ws.close();
              resolve(got);
            }
          });
          ws.on('error', reject);
        });
        expect(codes).toEqual(['ok', 'forbidden']);
      } finally {
        run.child.kill('SIGTERM');
        await run.exit;
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it('answers a bad argument with usage, not a stack trace', async () => {
    const bad = spawn(
      process.execPath,
      ['--import', tsx, join(repo, 'electron', 'start.ts'), '--port', 'x'],
      { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    bad.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((r) => bad.once('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/usage: npm start/);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe('Electron app bundle', () => {
  it(
    'bundles main (with the journal worker) and a CommonJS preload that requires only electron',
    { timeout: 60_000 },
    async () => {
      const { bundleElectron } = await import('../../../electron/electron-binary');
      const { readFileSync, existsSync } = await import('node:fs');
      const out = await bundleElectron(repo);
      expect(existsSync(out.main)).toBe(true);
      expect(existsSync(join(out.main, '..', 'journal-worker.mjs'))).toBe(true);
      const preload = readFileSync(out.preload, 'utf8');
      const requires = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      expect([...new Set(requires)]).toEqual(['electron']);
      expect(preload).toContain('exposeInMainWorld');
    },
  );
});
