// Developer tool, not a benchmark: drives sales at a gateway started with --cpu-prof and prints where its
// CPU time went by function and by file (`npx tsx test/bench/profile-sale.ts [seconds] [dir]`).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyedSale } from '../support/gateway-harness';
import { spawnGateway } from '../support/spawn-gateway';
import { closedLoop, fmt } from './load';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; endTime: number };

const seconds = Number(process.argv[2] ?? 8);
// `-` as the folder: no profiler, only the CPU time per sale (the profiler itself costs some).
const profiling = process.argv[3] !== '-';
const profDir = profiling ? (process.argv[3] ?? mkdtempSync(join(tmpdir(), 'tillpoint-prof-'))) : '';
const data = mkdtempSync(join(tmpdir(), 'tillpoint-prof-data-'));
const gw = await spawnGateway(
  ['--port', '0', '--data', data, '--sandbox', '--log-level', 'silent'],
  {},
  30_000,
  profiling ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
);
const cpuTicks = (): number => {
  // utime + stime of the gateway process, in clock ticks (100 per second on Linux).
  const fields = readFileSync(`/proc/${gw.child.pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const template = JSON.stringify(keyedSale({ UserTransactionNumber: '@@UTN@@', ForceDuplication: true }));
const ticksBefore = cpuTicks();
const r = await closedLoop(
  {
    url: gw.url,
    path: '/api/Transactions/Sale',
    body: (i) => template.replace('@@UTN@@', `p-${i}`),
    accept: (j) => j.ResponseCode === 200,
  },
  64,
  seconds,
);
const cpuMs = (cpuTicks() - ticksBefore) * 10;
console.log(`sales: ${fmt(r)}; gateway CPU ${((cpuMs * 1000) / r.completed).toFixed(0)} us per sale`);
gw.child.kill('SIGTERM');
await gw.exited;
if (!profiling) process.exit(0);
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as Profile;
// Only the samples of the load itself: start-up (module loading, schema compilation) and shutdown are
// not what a sale costs.
const hits = new Map<number, number>();
let at = 0;
const loadStartsAt = profile.endTime - (seconds + 0.5) * 1e6;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (i === 0) at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  if (at >= loadStartsAt + 1e6 && at <= profile.endTime - 0.5e6) hits.set(id, (hits.get(id) ?? 0) + 1);
});
for (const n of profile.nodes) n.hitCount = hits.get(n.id) ?? 0;
const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const n of profile.nodes) {
  const h = n.hitCount ?? 0;
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'nm:');
  const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + h);
  const pkg = url.startsWith('nm:')
    ? url
        .split('/')
        .slice(0, url.startsWith('nm:@') ? 2 : 1)
        .join('/')
    : url;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + h);
}
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([f, h]) => `${((100 * h) / total).toFixed(1).padStart(5)}%  ${f}`);
console.log(
  `profile ${join(profDir, file)}: ${total} samples, ${(r.completed / r.seconds).toFixed(0)} sales/s`,
);
console.log('-- by file/package --\n' + top(byFile, 30).join('\n'));
console.log('-- by function --\n' + top(byFn, 40).join('\n'));
