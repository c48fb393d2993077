import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { keyedSale } from '../support/gateway-harness';
import { repoRoot, type SpawnedGateway } from '../support/spawn-gateway';
import { meterCpu, type CpuSplit } from './cpu-meter';
import { closedLoop, type LoadResult, type Target } from './load';

/** Approved keyed sales: one body template, only the UserTransactionNumber changes (ForceDuplication). */
export function saleTarget(url: string, prefix: string, onAnswer?: Target['onAnswer']): Target {
  const template = JSON.stringify(keyedSale({ UserTransactionNumber: '@@UTN@@', ForceDuplication: true }));
  return {
    url,
    path: '/api/Transactions/Sale',
    body: (i) => template.replace('@@UTN@@', `${prefix}-${i}`),
    accept: (j) => j.ResponseCode === ResponseCode.Success,
    ...(onAnswer ? { onAnswer } : {}),
  };
}

/** The bare Fastify endpoint (bare-server.ts) with `workers` processes: the machine's own reference. */
export async function startBare(workers = 1): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/bench/bare-server.ts', '--workers', String(workers)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /bare listening on (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error('bare server exited')));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

export const echoTarget = (url: string): Target => ({
  url,
  path: '/echo',
  body: (i) => JSON.stringify({ UserTransactionNumber: `b-${i}`, Amount: 10 }),
  accept: () => true,
});

export async function stopGateway(gw: SpawnedGateway): Promise<void> {
  gw.child.kill('SIGTERM');
  await gw.exited;
}

/** A gateway's ceiling: warmed, then 64 clients for `seconds`, with where the CPU went. */
export async function meteredCeiling(
  gw: SpawnedGateway,
  prefix: string,
  seconds: number,
): Promise<LoadResult & { cpu: CpuSplit }> {
  await closedLoop(saleTarget(gw.url, `${prefix}w`), 16, 2, 0);
  const pid = gw.child.pid;
  if (pid === undefined) throw new Error('gateway has no pid');
  const meter = meterCpu(pid);
  const result = await closedLoop(saleTarget(gw.url, prefix), 64, seconds, 0);
  return { ...result, cpu: meter.stop(result.completed) };
}

/** Runs a bench file's `run` when the file itself is what node was asked to run (`npx tsx test/bench/x.ts`). */
export function runWhenMain(moduleUrl: string, run: () => Promise<void>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  run().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
