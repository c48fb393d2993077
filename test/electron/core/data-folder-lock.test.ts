import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireLock,
  acquireLockWhenFree,
  OrphanRunningError,
  TerminalLockedError,
} from '../../../electron/core/data-folder-lock';

const repo = join(import.meta.dirname, '..', '..', '..');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process holding the lock on `dataDir` with a child recorded in it; resolves with both pids. */
async function holder(dataDir: string): Promise<{ pid: number; child: number; exited: Promise<void> }> {
  const p = spawn(
    process.execPath,
    ['--import', 'tsx', join(repo, 'test', 'electron', 'support', 'lock-holder.ts')],
    {
      cwd: repo,
      env: { ...process.env, TP_DATA: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  const child = await new Promise<number>((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    p.once('exit', () => reject(new Error('the lock holder exited')));
  });
  return { pid: p.pid ?? 0, child, exited };
}

describe('the data-folder lock (one terminal, and one gateway, per folder)', () => {
  const folders: string[] = [];
  const strays: number[] = [];
  const folder = (): string => {
    const f = mkdtempSync(join(tmpdir(), 'tillpoint-lock-'));
    folders.push(f);
    return f;
  };
  afterEach(() => {
    for (const pid of strays.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  });

  it(
    'a terminal killed with SIGKILL keeps the folder taken while the child it recorded runs',
    { timeout: 60_000 },
    async () => {
      const dir = folder();
      const h = await holder(dir);
      strays.push(h.pid, h.child);
      expect(() => acquireLock(dir)).toThrow(TerminalLockedError);

      process.kill(h.pid, 'SIGKILL');
      await h.exited;
      // The terminal is gone, its gateway is not: still taken, and the error names the gateway.
      expect(() => acquireLock(dir)).toThrow(OrphanRunningError);
      expect(() => acquireLock(dir)).toThrow(new RegExp(`process ${h.child}`));

      // The relaunch waits for that gateway to stop, then takes the folder.
      let waitedFor = 0;
      const relaunch = acquireLockWhenFree(dir, { waitMs: 20_000, onWait: (pid) => (waitedFor = pid) });
      await new Promise((r) => setTimeout(r, 300));
      process.kill(h.child, 'SIGKILL');
      const release = await relaunch;
      expect(waitedFor).toBe(h.child);
      expect(JSON.parse(readFileSync(join(dir, 'terminal.lock'), 'utf8'))).toMatchObject({
        pid: process.pid,
      });
      release();
    },
  );

  it(
    'gives up on a child that does not stop, with words for the person at the counter',
    { timeout: 60_000 },
    async () => {
      const dir = folder();
      const h = await holder(dir);
      strays.push(h.pid, h.child);
      process.kill(h.pid, 'SIGKILL');
      await h.exited;
      await expect(acquireLockWhenFree(dir, { waitMs: 300 })).rejects.toThrow(
        /still running on .*stops by itself/,
      );
    },
  );

  it('takes over a lock from an earlier boot, a torn one, and the first format (the pid alone)', () => {
    const dir = folder();
    const lock = join(dir, 'terminal.lock');
    // Before a power cut: the pids may since belong to anyone (this one is surely alive).
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.ppid, bootedAt: Date.now() - 86_400_000 * 30, children: [] }),
    );
    acquireLock(dir)();
    writeFileSync(lock, '{"pid":12');
    acquireLock(dir)();
    writeFileSync(lock, String(process.ppid));
    expect(() => acquireLock(dir)).toThrow(/already running/);
  });

  it('is shared within one process: the launcher’s lock and its core’s, the file going with the last', () => {
    const dir = folder();
    const launcher = acquireLock(dir);
    const core = acquireLock(dir);
    core();
    expect(JSON.parse(readFileSync(join(dir, 'terminal.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    launcher();
    expect(() => readFileSync(join(dir, 'terminal.lock'))).toThrow(/ENOENT/);
  });
});
