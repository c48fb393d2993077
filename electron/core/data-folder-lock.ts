import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class TerminalLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another Tillpoint terminal (process ${pid}) is already running on ${dataDir}. Close it first, or start with --data <another folder>.`,
    );
    this.name = 'TerminalLockedError';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One terminal per data folder: the journal's single writer and the lane's counter depend on it. A lock
 * left by a process that died (kill -9, power loss) is taken over. Returns the release function.
 */
export function acquireLock(dataDir: string): () => void {
  const path = join(dataDir, 'terminal.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) rmSync(path);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid))
        throw new TerminalLockedError(dataDir, pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}
