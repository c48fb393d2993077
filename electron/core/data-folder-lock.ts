import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync, writeFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { join, resolve } from 'node:path';

export class TerminalLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TerminalLockedError';
  }
}

const LOCK_FILE = 'terminal.lock';

/**
 * What the lock file says: the terminal holding the folder, when its machine booted (a pid from an earlier
 * boot names nobody), and the child processes that work in the folder with it — the embedded gateway —
 * which keep the folder taken while they run, also after the terminal itself died.
 */
type LockRecord = { pid: number; bootedAt?: number; children: number[] };

/** Clocks drift and NTP steps them; a different boot is minutes to days apart. */
const SAME_BOOT_MS = 5 * 60_000;

const bootedAt = (): number => Date.now() - uptime() * 1000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isPid = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;

/** The record, or undefined for a file that is not one (torn by a power cut: nobody's lock). */
function readRecord(path: string): LockRecord | undefined {
  const text = readFileSync(path, 'utf8').trim();
  // The first format was the pid alone.
  if (/^\d+$/.test(text)) return { pid: Number(text), children: [] };
  try {
    const r = JSON.parse(text) as Partial<LockRecord>;
    if (!isPid(r.pid)) return undefined;
    return {
      pid: r.pid,
      ...(typeof r.bootedAt === 'number' ? { bootedAt: r.bootedAt } : {}),
      children: Array.isArray(r.children) ? r.children.filter(isPid) : [],
    };
  } catch {
    return undefined;
  }
}

function writeRecord(path: string, record: LockRecord): void {
  // Whole or not at all: a torn record would read as nobody's lock.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
  renameSync(temp, path);
}

/** Who holds the folder, from its record: the terminal itself, a child it left behind, or nobody. */
function holder(record: LockRecord | undefined): { live: 'terminal' | 'child'; pid: number } | undefined {
  if (!record) return undefined;
  if (record.bootedAt !== undefined && Math.abs(record.bootedAt - bootedAt()) > SAME_BOOT_MS)
    return undefined;
  if (record.pid !== process.pid && pidAlive(record.pid)) return { live: 'terminal', pid: record.pid };
  const child = record.children.find((pid) => pid !== process.pid && pidAlive(pid));
  return child === undefined ? undefined : { live: 'child', pid: child };
}

/** The folder's last terminal died, and a child it left (its gateway) still runs there. */
export class OrphanRunningError extends TerminalLockedError {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `The gateway of a Tillpoint terminal that stopped (process ${pid}) is still running on ${dataDir}; it stops by itself within seconds. Try again, or end process ${pid}.`,
    );
    this.name = 'OrphanRunningError';
    this.pid = pid;
  }
}

/** The folders this process holds, and how many holders in it share each (start.ts and the core). */
const held = new Map<string, number>();

function releaser(dataDir: string, path: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const count = (held.get(dataDir) ?? 1) - 1;
    if (count > 0) {
      held.set(dataDir, count);
      return;
    }
    held.delete(dataDir);
    try {
      if (readRecord(path)?.pid === process.pid) rmSync(path);
    } catch {
      // Already gone.
    }
  };
}

/**
 * One terminal per data folder: the journal's single writer, the lane's counter and the embedded
 * gateway's database depend on it. A lock left by a process that died (kill -9, power loss) is taken
 * over — unless a child it recorded (`addLockChild`) still runs: a terminal killed with SIGKILL leaves
 * its gateway behind for the moment that gateway takes to notice and stop, and a second gateway on its
 * database must not start meanwhile. Within one process the lock is shared (the launcher takes it, then
 * the core it starts): the file goes with the last release. Returns the release function.
 */
export function acquireLock(dataDir: string): () => void {
  const folder = resolve(dataDir);
  const path = join(folder, LOCK_FILE);
  const count = held.get(folder);
  if (count !== undefined) {
    held.set(folder, count + 1);
    return releaser(folder, path);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(
        fd,
        JSON.stringify({ pid: process.pid, bootedAt: bootedAt(), children: [] } satisfies LockRecord),
      );
      closeSync(fd);
      held.set(folder, 1);
      return releaser(folder, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const who = holder(readRecord(path));
      if (who?.live === 'terminal')
        throw new TerminalLockedError(
          `Another Tillpoint terminal (process ${who.pid}) is already running on ${dataDir}. Close it first, or start with --data <another folder>.`,
        );
      if (who?.live === 'child') throw new OrphanRunningError(dataDir, who.pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

/**
 * `acquireLock`, waiting (up to `waitMs`) for a child left by a terminal that died to stop by itself: the
 * relaunch after a crash, which must not run a second gateway on the folder, nor give up while the
 * first is still draining its commit queue.
 */
export async function acquireLockWhenFree(
  dataDir: string,
  options: { waitMs?: number; onWait?: (pid: number) => void } = {},
): Promise<() => void> {
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  let told = false;
  for (;;) {
    try {
      return acquireLock(dataDir);
    } catch (error) {
      if (!(error instanceof OrphanRunningError) || Date.now() > deadline) throw error;
      if (!told) options.onWait?.(error.pid);
      told = true;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Records a child process working in the folder (the embedded gateway): the lock stays taken while it
 * runs, even if this process dies without releasing it. This process must hold the lock.
 */
export function addLockChild(dataDir: string, pid: number): void {
  const folder = resolve(dataDir);
  if (!held.has(folder)) throw new Error(`this process does not hold the lock on ${dataDir}`);
  const path = join(folder, LOCK_FILE);
  const record = readRecord(path) ?? { pid: process.pid, bootedAt: bootedAt(), children: [] };
  writeRecord(path, { ...record, children: [...record.children.filter(pidAlive), pid] });
}
