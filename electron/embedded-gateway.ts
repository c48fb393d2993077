import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The embedded gateway's process, however it was started: a Node child running the TypeScript source
 * (`npm start`) or an Electron utility process running the bundled gateway (the installed app, where
 * there is no separate Node and the RunAsNode fuse is off).
 */
export type GatewayProcess = {
  /** Undefined when the process could not be started. */
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  readonly exited: boolean;
  /** Graceful stop (SIGTERM: the gateway drains its group-commit queue), or a kill when `force`. */
  terminate(force: boolean): void;
  /** Called once when the process ends, with a few words on how. */
  onExit(listener: (how: string) => void): void;
};

/** Starts the gateway with these command-line arguments (`--port 0 --data DIR --sandbox …`). */
export type GatewayLauncher = (args: readonly string[]) => GatewayProcess;

export type EmbeddedGateway = {
  readonly baseUrl: string;
  readonly process: GatewayProcess;
  /** SIGTERM, then a kill after 5 s. */
  stop(): Promise<void>;
};

/** The sandbox merchant the embedded gateway seeds (docs/decisions.md#sandbox-data). */
export const sandboxCredentials = {
  AppKey: 'sandbox-app-key',
  AppType: 1,
  mid: 1001,
  cid: 1,
  UserName: 'sandbox',
  Password: 'sandbox-pass',
} as const;

/**
 * `npm start`'s launcher: `gateway/server.ts` with the tsx loader under this Node. The terminal talks to
 * it over HTTP exactly as to a remote gateway and never imports its code.
 */
export function nodeGatewayLauncher(repoRoot: string): GatewayLauncher {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return (args) => {
    const child = spawn(
      process.execPath,
      ['--import', tsx, join(repoRoot, 'gateway', 'server.ts'), ...args],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let exited = false;
    const listeners: ((how: string) => void)[] = [];
    const ended = (how: string) => {
      if (exited) return;
      exited = true;
      for (const l of listeners) l(how);
    };
    child.once('exit', (code, signal) => ended(signal ?? `exit code ${code ?? '?'}`));
    child.once('error', (e) => ended(e.message));
    return {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      get exited() {
        return exited;
      },
      terminate: (force) => void child.kill(force ? 'SIGKILL' : 'SIGTERM'),
      onExit: (listener) => void listeners.push(listener),
    };
  };
}

/**
 * Starts the sandbox gateway and resolves when it prints its one `gateway listening on …` line. The
 * gateway lives and dies with this process (`--parent-pid`): a terminal that crashes, or is killed with
 * SIGKILL, takes no cleanup path, and a gateway left running would keep its port and its database while
 * the terminal's next launch started another on them. `onSpawn` learns its pid at once, before it is
 * ready (the terminal records it in its data-folder lock: core/data-folder-lock.ts).
 */
export function startEmbeddedGateway(options: {
  launch: GatewayLauncher;
  dataDir: string;
  slowMs?: number;
  timeoutMs?: number;
  onStderr?: (line: string) => void;
  onSpawn?: (pid: number) => void;
}): Promise<EmbeddedGateway> {
  const child = options.launch([
    '--port',
    '0',
    '--data',
    options.dataDir,
    '--sandbox',
    '--parent-pid',
    String(process.pid),
    ...(options.slowMs !== undefined ? ['--sandbox-slow-ms', String(options.slowMs)] : []),
  ]);
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
    for (const line of chunk.split('\n')) if (line.trim()) options.onStderr?.(line.trim());
  });

  const exited = new Promise<void>((resolve) => child.onExit(() => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exited) return;
    const kill = setTimeout(() => child.terminate(true), 5_000);
    child.terminate(false);
    await exited;
    clearTimeout(kill);
  };

  return new Promise((resolve, reject) => {
    let buffer = '';
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      void stop();
      reject(
        new Error(`the embedded gateway did not start within ${(options.timeoutMs ?? 60_000) / 1000} s`),
      );
    }, options.timeoutMs ?? 60_000);
    child.stdout?.setEncoding('utf8');
    const onData = (chunk: string) => {
      buffer += chunk;
      const m = /gateway listening on (http:\/\/\S+)/.exec(buffer);
      if (m?.[1] && !settled) {
        settled = true;
        clearTimeout(timer);
        // Keep draining stdout so the child never blocks on a full pipe.
        child.stdout?.removeListener('data', onData);
        child.stdout?.resume();
        resolve({ baseUrl: m[1], process: child, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.onExit((how) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(
        new Error(
          `the embedded gateway exited (${how}): ${stderrTail.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      );
    });
  });
}
