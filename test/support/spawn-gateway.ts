import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type SpawnedGateway = {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
};

/** Starts `gateway/server.ts` as its own process (as `npm run gateway` does) and waits for its ready line. */
export function spawnGateway(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
  /** Flags for node itself (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs: string[] = [],
): Promise<SpawnedGateway> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'gateway/server.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`gateway not ready in ${timeoutMs} ms: ${err}`)),
      timeoutMs,
    );
    const onData = () => {
      const m = /^gateway listening on (http:\/\/\S+)$/m.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited });
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}) before it was ready: ${err}`));
    });
  });
}

/** Runs a command to completion, collecting its output. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}
