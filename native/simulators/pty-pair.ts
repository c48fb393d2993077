/**
 * A connected pair of pseudo-terminals from socat, so a simulator and a driver talk over real tty
 * devices through `serialport`, which opens them as it opens real ports (docs/decisions.md#build-machines):
 *
 *   socat -d -d pty,raw,echo=0,link=DIR/A pty,raw,echo=0,link=DIR/B
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PtyPair = {
  /** One end (the simulator's, by convention). */
  a: string;
  /** The other end (the driver's). */
  b: string;
  /** Kills socat (both ends hang up) and removes the links' folder. */
  close(): Promise<void>;
};

export type PtyPairOptions = {
  /** How long to wait for socat to create both links. Default 5000 ms. */
  timeoutMs?: number;
  /** Where to create the temporary folder for the links. Default: the OS temp folder. */
  parentDir?: string;
};

/** Thrown when socat is not installed; the message says how to install it. */
export class SocatMissingError extends Error {
  override readonly name = 'SocatMissingError';
  constructor() {
    super('socat is not installed: run `apt-get install -y socat` (CI installs it through .ci/run)');
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * Starts socat and resolves once both links exist and socat reports its transfer loop running (with
 * `-d -d` it logs "starting data transfer loop"), so the first write is never lost.
 */
export async function createPtyPair(opts: PtyPairOptions = {}): Promise<PtyPair> {
  const dir = mkdtempSync(join(opts.parentDir ?? tmpdir(), 'tillpoint-pty-'));
  const a = join(dir, 'A');
  const b = join(dir, 'B');
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  // socat outlives a parent that exits without closing the pair; take it down with us.
  const killOnExit = (): void => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const cleanup = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    child.kill('SIGTERM');
    await waitForExit(child, 2000);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(
        () =>
          reject(
            new Error(`socat did not create the pty pair within ${opts.timeoutMs ?? 5000} ms: ${log.trim()}`),
          ),
        opts.timeoutMs ?? 5000,
      );
      const done = (err?: Error): void => {
        clearTimeout(deadline);
        clearInterval(poll);
        child.stderr?.removeListener('data', onLog);
        if (err) reject(err);
        else resolve();
      };
      const ready = (): boolean =>
        log.includes('starting data transfer loop') && existsSync(a) && existsSync(b);
      const onLog = (chunk: Buffer): void => {
        log += chunk.toString('utf8');
        if (ready()) done();
      };
      const poll = setInterval(() => {
        if (ready()) done();
      }, 10);
      child.stderr?.on('data', onLog);
      child.once('error', (err: NodeJS.ErrnoException) =>
        done(err.code === 'ENOENT' ? new SocatMissingError() : err),
      );
      child.once('exit', (code) => done(new Error(`socat exited with code ${String(code)}: ${log.trim()}`)));
    });
  } catch (e) {
    await cleanup();
    throw e;
  }
  // Keep draining stderr so socat never blocks on a full pipe.
  child.stderr?.resume();
  let closed: Promise<void> | undefined;
  return {
    a,
    b,
    close: () => (closed ??= cleanup()),
  };
}
