import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type EmbeddedGateway = {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** SIGTERM, then SIGKILL after 5 s: the gateway drains its group-commit queue on SIGTERM. */
  stop(): Promise<void>;
};

/** The sandbox merchant the embedded gateway seeds (DESIGN.md "Sandbox data"). */
export const sandboxCredentials = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
} as const;

/**
 * Starts the sandbox gateway as a child process — the terminal talks to it over HTTP exactly as to a
 * remote one, and never imports its code. It runs `gateway/server.ts` with the tsx loader under this
 * Node, and is ready when it prints its one `gateway listening on …` line.
 */
export function startEmbeddedGateway(options: {
  repoRoot: string;
  dataDir: string;
  slowMs?: number;
  timeoutMs?: number;
  onStderr?: (line: string) => void;
}): Promise<EmbeddedGateway> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const args = [
    '--import',
    tsx,
    join(options.repoRoot, 'gateway', 'server.ts'),
    '--port',
    '0',
    '--data',
    options.dataDir,
    '--sandbox',
    ...(options.slowMs !== undefined ? ['--sandbox-slow-ms', String(options.slowMs)] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: options.repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
    for (const line of chunk.split('\n')) if (line.trim()) options.onStderr?.(line.trim());
  });

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });

  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`the embedded gateway did not start within ${(options.timeoutMs ?? 60_000) / 1000} s`),
      );
    }, options.timeoutMs ?? 60_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      const m = /gateway listening on (http:\/\/\S+)/.exec(buffer);
      if (m?.[1]) {
        clearTimeout(timer);
        // Keep draining stdout so the child never blocks on a full pipe.
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ baseUrl: m[1], child, stop });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the embedded gateway exited (${signal ?? code ?? '?'}): ${stderrTail.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      );
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
