import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPtyPair, type PtyPair } from '../../../native/simulators/pty-pair';
import type { ByteStream } from '../../../native/transports/byte-stream';
import { openSerialStream, type SerialSettings } from '../../../native/transports/serial-transport';

export type PtyStreams = {
  pair: PtyPair;
  /** The simulator's end. */
  device: ByteStream;
  /** The driver's end, opened through the real serial transport. */
  host: ByteStream;
  close(): Promise<void>;
};

const line: Omit<SerialSettings, 'path'> = { baudRate: 19200, dataBits: 8, parity: 'none', stopBits: 1 };

/** A socat pty pair with both ends opened by the serial transport (serialport over real ttys). */
export async function openPtyStreams(
  settings: Partial<Omit<SerialSettings, 'path'>> = {},
): Promise<PtyStreams> {
  const pair = await createPtyPair();
  const device = await openSerialStream({ path: pair.a, ...line, ...settings });
  const host = await openSerialStream({ path: pair.b, ...line, ...settings });
  return {
    pair,
    device,
    host,
    async close() {
      await Promise.allSettled([host.close(), device.close()]);
      await pair.close();
    },
  };
}

/**
 * A pty pair at FIXED link paths that can be torn down and brought back, as a USB-serial device that is
 * unplugged and plugged in again reappears at the same /dev path.
 */
export class ReplugablePty {
  readonly dir = mkdtempSync(join(tmpdir(), 'tillpoint-replug-'));
  readonly devicePath = join(this.dir, 'device');
  readonly hostPath = join(this.dir, 'host');
  private child: ChildProcess | undefined;

  async plug(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      'socat',
      ['-d', '-d', `pty,raw,echo=0,link=${this.devicePath}`, `pty,raw,echo=0,link=${this.hostPath}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`socat not ready: ${log}`)), 5000);
      const check = (): void => {
        if (
          log.includes('starting data transfer loop') &&
          existsSync(this.devicePath) &&
          existsSync(this.hostPath)
        ) {
          clearTimeout(deadline);
          clearInterval(poll);
          resolve();
        }
      };
      const poll = setInterval(check, 10);
      child.stderr?.on('data', (c: Buffer) => {
        log += c.toString('utf8');
        check();
      });
    });
    child.stderr?.resume();
  }

  /** Kills socat: both ends hang up and the links disappear, like a pulled USB cable. */
  async unplug(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async dispose(): Promise<void> {
    await this.unplug();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function waitFor<T>(
  subscribe: (resolve: (value: T) => void) => () => void,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let off: () => void = () => undefined;
    const t = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    off = subscribe((v) => {
      clearTimeout(t);
      off();
      resolve(v);
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true. */
export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
