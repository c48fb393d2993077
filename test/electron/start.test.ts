import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectBridge, readBridgeFile } from '../../electron/bridge/ws-client';
import { electronBinary } from '../../electron/electron-binary';
import { value } from './helpers';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const repo = join(import.meta.dirname, '..', '..');

function launch(dataDir: string): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    ['--import', tsx, join(repo, 'electron', 'start.ts'), '--data', dataDir, '--port', '0', '--browser'],
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
      const { bundleElectron } = await import('../../electron/electron-binary');
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
