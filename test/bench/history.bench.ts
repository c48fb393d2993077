import { spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  rmSync,
  statSync,
  existsSync,
  openSync,
  readSync,
  closeSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { STATEMENTS_TASK } from '../../gateway/schedulers/statements';
import { SQLITE_FILE } from '../../gateway/storage/open-storage';
import { keyedSale, merchant1, startGateway, type Json } from '../support/gateway-harness';
import { growHistory } from '../support/history-sample';
import type { HistoryMade } from '../support/history-data';
import { repoRoot } from '../support/spawn-gateway';
import { createSchema } from '../support/test-database';
import { benchDatabase } from './bench-database';
import { percentile } from './load';

/**
 * Issue 22, "Years of data": databases of 10k, 100k and 1M payments of one merchant (1,000 a day, each
 * day's batch settled and closed, links and billings in proportion), grown from a real sample through the
 * API by SQL (test/support/history-data.ts), on SQLite and PostgreSQL; every operation of the table
 * timed against each, p50/p99 per size, and the verdict: every operation's p50 at the largest size within
 * 2x of its p50 at the smallest; the streamed "every transaction" answers instead by first byte (within
 * 2x), bytes per second (at least half) and the gateway's memory while streaming (no more than the
 * smallest size's plus 32 MB). Then a soak on SQLite at a fixed rate (RSS, heap, database and WAL size,
 * p99 over time).
 *
 * `npm run bench -- history [--sizes 10k,100k,1m] [--dbs sqlite,postgres] [--soak-minutes 10]
 *   [--part reporting] [--keep <dir>]`
 *
 * `--part reporting` times the Reporting group and the first byte of the links' and billings' lists only
 * (no sales, no whole streams); `--keep <dir>` builds the SQLite databases into `dir` once and reuses
 * them on later runs (a database built by older code is migrated by the gateway as it starts).
 */
const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
};
const sizeOf = (s: string) => {
  const m = /^(\d+)(k|m)?$/i.exec(s.trim());
  if (!m) throw new Error(`--sizes: not a size: ${s}`);
  return Number(m[1]) * (m[2]?.toLowerCase() === 'm' ? 1_000_000 : m[2] ? 1_000 : 1);
};
const sizes = flag('sizes', '10k,100k,1m').split(',').map(sizeOf);
const dbs = flag('dbs', 'sqlite,postgres').split(',');
const soakMinutes = Number(flag('soak-minutes', '10'));
const part = flag('part', 'all');
if (part !== 'all' && part !== 'reporting') throw new Error(`--part: all or reporting, not ${part}`);
const keep = flag('keep', '');
/** The operations `--part reporting` keeps: the Reporting group's and the lists' first bytes. */
const REPORTING_PART = /^(GetBatch|GetCard|GetDeposits|PaymentLinks GET \(all\)|RecurringBilling GetAll)/;
const wanted = (name: string) => part === 'all' || REPORTING_PART.test(name);
const PER_DAY = 1_000;
const OPEN_ROWS = 1_000;

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

type Child = { child: ChildProcess; url: string; memory: { rss: number; heap: number; at: number }[] };

/** The bench's gateway process on a grown database (history-gateway.ts), with its memory reports. */
function startChild(dataDir: string, db: string): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/history-gateway.ts', dataDir, db], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const memory: Child['memory'] = [];
  let pending = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway not ready: ${err}`)), 300_000);
    child.on('exit', (code) => reject(new Error(`gateway exited ${code}: ${err}`)));
    child.stdout?.on('data', (c: Buffer) => {
      pending += c.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const ready = /^gateway listening on (\S+)$/.exec(line);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolve({ child, url: ready[1], memory });
        } else if (line.startsWith('{')) memory.push(JSON.parse(line) as Child['memory'][number]);
      }
    });
  });
}

async function stopChild(c: Child): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  // The start's "exited before ready" listener goes first: it must not fire on this exit.
  c.child.removeAllListeners('exit');
  const exited = new Promise((r) => c.child.once('exit', r));
  c.child.kill('SIGTERM');
  await exited;
}

async function post(url: string, path: string, body: Json, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Json;
}

type Timing = { p50: number; p99: number; n: number };

const progress = (what: string) => {
  if (process.env.BENCH_VERBOSE)
    process.stderr.write(`    ${new Date().toISOString().slice(11, 19)} ${what}\n`);
};

type Streamed = {
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  bytesPerSecond: number;
  rssGrowth: number;
};

/** A streamed answer read to its end: time to first byte, bytes per second, the gateway's RSS growth. */
async function stream(c: Child, path: string, body: Json, reps: number): Promise<Streamed> {
  progress(`streaming ${path}`);
  const runs: Streamed[] = [];
  for (let i = 0; i < reps; i += 1) {
    await new Promise((r) => setTimeout(r, 600));
    const before = Math.max(...c.memory.slice(-2).map((m) => m.rss));
    const startedAt = Date.now();
    const start = performance.now();
    const res = await fetch(c.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    let first = NaN;
    let bytes = 0;
    let tail = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (Number.isNaN(first)) first = performance.now() - start;
      bytes += value.byteLength;
      tail = (tail + Buffer.from(value).toString('latin1')).slice(-4);
    }
    const total = performance.now() - start;
    if (!tail.endsWith(']}')) throw new Error(`${path}: the answer did not end as JSON`);
    await new Promise((r) => setTimeout(r, 600));
    const during = c.memory.filter((m) => m.at >= startedAt).map((m) => m.rss);
    runs.push({
      firstByteMs: first,
      totalMs: total,
      bytes,
      bytesPerSecond: bytes / (total / 1000),
      rssGrowth: Math.max(0, Math.max(...during, before) - before),
    });
  }
  runs.sort((a, b) => a.totalMs - b.totalMs);
  const mid = runs[Math.floor(runs.length / 2)] as Streamed;
  return { ...mid, rssGrowth: Math.max(...runs.map((r) => r.rssGrowth)) };
}

type Figures = { timed: Map<string, Timing>; streamed: Map<string, Streamed> };

type Built = { size: number; dataDir: string; db: string; made: HistoryMade };

/** Builds one database of `size` payments: the real sample, then the synthesised history. */
async function build(dialect: string, size: number, dir: string): Promise<Built> {
  const dataDir = join(keep && dialect === 'sqlite' ? keep : dir, `${dialect}-${label(size)}`);
  const madeFile = join(dataDir, 'history-made.json');
  if (keep && dialect === 'sqlite' && existsSync(madeFile)) {
    console.log(`  ${dialect} ${label(size)}: reused from ${dataDir}`);
    return { size, dataDir, db: 'sqlite', made: JSON.parse(readFileSync(madeFile, 'utf8')) as HistoryMade };
  }
  mkdirSync(dataDir, { recursive: true });
  const db = dialect === 'sqlite' ? 'sqlite' : (await createSchema()).url;
  const database = db === 'sqlite' ? ({ kind: 'sqlite' } as const) : ({ kind: 'postgres', url: db } as const);
  const buildStart = performance.now();
  const builder = await startGateway({ dataDir, database, backgroundTasks: false });
  let made: HistoryMade;
  try {
    made = await growHistory(builder, { days: size / PER_DAY - 1, perDay: PER_DAY, openRows: OPEN_ROWS });
    // A restored database has its statements: the task that issues them has run.
    await builder.gateway.tasks.get(STATEMENTS_TASK)?.runOnce();
  } finally {
    await builder.gateway.close();
  }
  const seconds = (performance.now() - buildStart) / 1000;
  if (keep && dialect === 'sqlite') writeFileSync(madeFile, JSON.stringify(made));
  console.log(
    `  ${dialect} ${label(size)}: ${made.payments} payments, ${made.batches} closed batches, ${made.links} links, ${made.billings} billings, built in ${seconds.toFixed(0)} s`,
  );
  return { size, dataDir, db, made };
}

/** One size's gateway and what its calls need. */
type Target = Built & { c: Child; auth: Record<string, string>; srns: string[]; token: string };

const env = merchant1 as unknown as Json;
const ok = (r: Json) => {
  const good = r.ResponseCode === 0 || r.ResponseCode === 200;
  if (!good) console.log(`    refused: ${JSON.stringify(r).slice(0, 300)}`);
  return good;
};
let utnCounter = 0;
const utn = () => `HB-${process.pid}-${Date.now()}-${(utnCounter += 1)}`;
const dayAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);

/** A history sale: i in [0, 18) of every 20 (not refunded, not a refund) and not a decline. */
function historySale(made: HistoryMade, i: number): number {
  let k = Math.abs(i * 7919) % (made.payments - OPEN_ROWS);
  while (k % 20 >= 18 || k % 50 === 7) k += 1;
  return made.firstPaymentId + k;
}

/**
 * `reps` calls of `call` on every size, interleaved (one on each size in turn), after one untimed warm-up
 * each: the machine's other work falls on every size alike, so the sizes' ratio is the database's.
 */
async function timeAll(
  targets: Target[],
  figures: Map<number, Figures>,
  name: string,
  reps: number,
  call: (t: Target, i: number) => Promise<boolean>,
): Promise<void> {
  if (!wanted(name)) return;
  progress(name);
  const times = new Map<number, number[]>(targets.map((t) => [t.size, []]));
  for (const t of targets) if (!(await call(t, -1))) throw new Error(`${name}: warm-up failed`);
  for (let i = 0; i < reps; i += 1) {
    for (const t of targets) {
      const start = performance.now();
      const good = await call(t, i);
      times.get(t.size)?.push(performance.now() - start);
      if (!good) throw new Error(`${name}: call ${i} failed at ${label(t.size)}`);
    }
  }
  for (const t of targets) {
    const sorted = (times.get(t.size) ?? []).sort((a, b) => a - b);
    figures
      .get(t.size)
      ?.timed.set(name, { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: reps });
  }
}

/** Every operation of the table, on every size's gateway at once. */
async function measure(builts: Built[]): Promise<Map<number, Figures>> {
  const figures = new Map<number, Figures>(
    builts.map((b) => [b.size, { timed: new Map(), streamed: new Map() }]),
  );
  const targets: Target[] = [];
  try {
    for (const b of builts) {
      const startedAt = performance.now();
      const c = await startChild(b.dataDir, b.db);
      // A database built (or kept) by older code is migrated here, as a store's would be at its upgrade.
      console.log(`    ${label(b.size)}: gateway ready in ${ms(performance.now() - startedAt)} ms`);
      targets.push({ ...b, c, auth: {}, srns: [], token: '' });
    }
    for (const t of targets) {
      t.auth = { authorization: `Bearer ${String((await post(t.c.url, '/api/Auth', env)).Token)}` };
      const saved = await post(
        t.c.url,
        '/api/Transactions/Sale',
        keyedSale({
          UserTransactionNumber: utn(),
          SaveToken: true,
          CardNumber: '5555555555554444',
          ExpDate: '1230',
          ForceDuplication: true,
        }),
      );
      t.token = String(saved.Token);
      for (let i = 0; i < 31; i += 1) {
        const id = historySale(t.made, i + 5000);
        const r = await post(t.c.url, '/api/Transactions/GetTransaction', {
          ...env,
          UserTransactionNumber: `HIST-${id}`,
        });
        t.srns.push(String(r.ServiceReferenceNumber));
      }
    }
    const time = (name: string, reps: number, call: (t: Target, i: number) => Promise<boolean>) =>
      timeAll(targets, figures, name, reps, call);
    const at = (t: Target, path: string, body: Json, headers?: Record<string, string>) =>
      post(t.c.url, path, body, headers);

    await time('GetUnsettledTransactions', 30, async (t) =>
      ok(await at(t, '/api/Report/GetUnsettledTransactions', env)),
    );
    await time('Sale', 30, async (t) =>
      ok(
        await at(
          t,
          '/api/Transactions/Sale',
          keyedSale({ UserTransactionNumber: utn(), ForceDuplication: true }),
        ),
      ),
    );
    await time('SaleWithToken', 30, async (t) =>
      ok(
        await at(t, '/api/Transactions/SaleWithToken', {
          ...env,
          Amount: 5,
          TransactionType: 2,
          Token: t.token,
          UserTransactionNumber: utn(),
          ForceDuplication: true,
        }),
      ),
    );
    await time('GetTransaction', 30, async (t, i) =>
      ok(
        await at(t, '/api/Transactions/GetTransaction', {
          ...env,
          UserTransactionNumber: `HIST-${historySale(t.made, i + 1000)}`,
        }),
      ),
    );
    await time('DoRefund', 30, async (t, i) =>
      ok(
        await at(t, '/api/Transactions/DoRefund', {
          ...env,
          ServiceTransactionNumber: t.srns[i + 1],
          Amount: 0.01,
          UserTransactionNumber: utn(),
        }),
      ),
    );
    for (const t of part === 'all' ? targets : []) {
      const start = performance.now();
      await at(t, '/api/Transactions/DoSettlement', env);
      console.log(
        `    ${label(t.size)}: the day's DoSettlement (${OPEN_ROWS}+ open payments): ${ms(performance.now() - start)} ms`,
      );
    }
    await time('DoSettlement (a sale, then its close)', 20, async (t) => {
      await at(
        t,
        '/api/Transactions/Sale',
        keyedSale({ UserTransactionNumber: utn(), ForceDuplication: true }),
      );
      return ok(await at(t, '/api/Transactions/DoSettlement', env));
    });
    const yesterday = dayAgo(1);
    for (const name of ['GetReportByMerchant', 'GetReportByUserAndCashier']) {
      await time(`${name} (one day: StartDate/EndDate)`, 10, async (t) =>
        ok(
          await at(t, `/api/Report/${name}`, {
            ...env,
            StartDate: `${yesterday}T00:00:00Z`,
            EndDate: `${yesterday}T23:59:59Z`,
          }),
        ),
      );
      await time(`${name} (one batch: BatchNumber)`, 10, async (t) =>
        ok(await at(t, `/api/Report/${name}`, { ...env, BatchNumber: '000005' })),
      );
    }
    const reporting = (t: Target, op: string, body: Json) => at(t, `/api/Reporting/${op}`, body, t.auth);
    for (const [window, body] of [
      ['last 7 days', { FromDate: dayAgo(7), ToDate: dayAgo(1) }],
      ['all history', {}],
    ] as const) {
      const lastPage = new Map<number, number>();
      for (const t of targets) {
        const first = await reporting(t, 'GetBatchDetail', { ...body, PageSize: 100 });
        const records = Number((first.Paging as Json | undefined)?.NumberOfRecords ?? 0);
        lastPage.set(t.size, Math.max(0, Math.ceil(records / 100) - 1));
      }
      const ops: [string, string, (t: Target) => Json][] = [
        ['GetBatchDetail page 0', 'GetBatchDetail', () => ({ ...body, PageSize: 100 })],
        [
          'GetBatchDetail last page',
          'GetBatchDetail',
          (t) => ({ ...body, PageSize: 100, CurrentPageIndex: lastPage.get(t.size) }),
        ],
        ['GetBatchSummaryByMerchant', 'GetBatchSummaryByMerchant', () => body],
        ['GetBatchSummaryByEntity', 'GetBatchSummaryByEntity', () => ({ ...body, ViewLevel: 1 })],
        ['GetCardSummary', 'GetCardSummary', () => body],
        ['GetDepositsSummary', 'GetDepositsSummary', () => body],
      ];
      for (const [name, op, b] of ops)
        await time(`${name} (${window})`, 20, async (t) => ok(await reporting(t, op, b(t))));
    }
    await time('GetMerchantStatementList', 20, async (t) =>
      ok(await reporting(t, 'GetMerchantStatementList', {})),
    );
    const linksQuery = (extra: Record<string, string> = {}) =>
      new URLSearchParams({
        'request.appKey': merchant1.AppKey,
        'request.appType': String(merchant1.AppType),
        'request.mid': String(merchant1.mid),
        'request.cid': String(merchant1.cid),
        'request.userName': merchant1.UserName,
        'request.password': merchant1.Password,
        ...extra,
      }).toString();
    await time('PaymentLinks GET (one day: createdOn)', 20, async (t) =>
      ok(
        (await (
          await fetch(
            `${t.c.url}/api/PaymentLinks?${linksQuery({ 'request.paymentLink.createdOn': dayAgo(3) })}`,
          )
        ).json()) as Json,
      ),
    );

    // The streamed "every transaction" answers. Their first byte, interleaved like every timing (the
    // answer is dropped after it: the gateway must stop reading too); then each read whole, once, one
    // size at a time, for bytes per second and the gateway's memory.
    const streams: [string, (t: Target) => string, Json | null][] = [
      ['GetReportByMerchant', () => '/api/Report/GetReportByMerchant', env],
      ['GetReportByUserAndCashier', () => '/api/Report/GetReportByUserAndCashier', env],
      ['GetTransactionNumbers', () => '/api/Report/GetTransactionNumbers', env],
      ['PaymentLinks GET (all)', () => `/api/PaymentLinks?${linksQuery()}`, null],
      ['RecurringBilling GetAll', () => '/api/RecurringBilling/GetAll', env],
    ];
    for (const [name, path, body] of streams)
      await time(`${name}: first byte`, 10, (t) => firstByte(t.c, path(t), body));
    for (const t of part === 'all' ? targets : []) {
      const f = figures.get(t.size);
      if (!f) continue;
      for (const [name, path, body] of streams)
        f.streamed.set(name, body ? await stream(t.c, path(t), body, 1) : await streamGet(t.c, path(t)));
    }
  } finally {
    for (const t of targets) await stopChild(t.c);
  }
  return figures;
}

/** The first bytes of a streamed answer, then the answer is dropped. */
async function firstByte(c: Child, path: string, body: Json | null): Promise<boolean> {
  const res = await fetch(
    c.url + path,
    body
      ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {},
  );
  const reader = res.body?.getReader();
  const first = await reader?.read();
  await reader?.cancel();
  return res.status === 200 && !!first?.value && first.value.byteLength > 0;
}

/** The links list is a GET: `stream` with its own request. */
async function streamGet(c: Child, path: string): Promise<Streamed> {
  const start = performance.now();
  const before = Math.max(...c.memory.slice(-2).map((m) => m.rss));
  const startedAt = Date.now();
  const res = await fetch(c.url + path);
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  let first = NaN;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(first)) first = performance.now() - start;
    bytes += value.byteLength;
  }
  const total = performance.now() - start;
  await new Promise((r) => setTimeout(r, 600));
  const during = c.memory.filter((m) => m.at >= startedAt).map((m) => m.rss);
  return {
    firstByteMs: first,
    totalMs: total,
    bytes,
    bytesPerSecond: bytes / (total / 1000),
    rssGrowth: Math.max(0, Math.max(...during, before) - before),
  };
}

function report(dialect: string, results: Map<number, Figures>): boolean {
  const ns = [...results.keys()].sort((a, b) => a - b);
  const small = results.get(ns[0] as number) as Figures;
  const large = results.get(ns[ns.length - 1] as number) as Figures;
  let allMet = true;
  console.log(
    `\n  ${dialect}: p50 / p99 ms per size; verdict: p50 at ${label(ns[ns.length - 1] as number)} within 2x of p50 at ${label(ns[0] as number)}`,
  );
  for (const name of small.timed.keys()) {
    const cells = ns.map((n) => {
      const t = results.get(n)?.timed.get(name);
      return t ? `${label(n)} ${ms(t.p50)} / ${ms(t.p99)}` : `${label(n)} -`;
    });
    const a = small.timed.get(name)?.p50 ?? NaN;
    const b = large.timed.get(name)?.p50 ?? NaN;
    const met = b <= 2 * a;
    allMet &&= met;
    console.log(
      `    ${name.padEnd(52)} ${cells.join('   ')}   x${(b / a).toFixed(2)} ${met ? 'met' : 'NOT MET'}`,
    );
  }
  // Constant memory: the gateway's RSS while streaming the largest answer grows no more than while
  // streaming one a tenth of its size (the middle size, or the smallest), plus 32 MB of V8's own sizing.
  const middle = results.get(ns[Math.floor((ns.length - 1) / 2)] as number) as Figures;
  console.log(
    `  ${dialect}: streamed answers read whole: total, bytes, MB/s, gateway RSS growth while streaming; verdict: first byte above, MB/s at least half (answers of 1 MB or more), RSS growth at ${label(ns[ns.length - 1] as number)} within that at ${label(ns[Math.floor((ns.length - 1) / 2)] as number)} + 32 MB`,
  );
  for (const name of small.streamed.keys()) {
    const cells = ns.map((n) => {
      const s = results.get(n)?.streamed.get(name);
      return s
        ? `${label(n)} ${ms(s.totalMs)} ms, ${mb(s.bytes)}, ${(s.bytesPerSecond / 1048576).toFixed(1)} MB/s, +${mb(s.rssGrowth)}`
        : `${label(n)} -`;
    });
    const a = small.streamed.get(name);
    const m = middle.streamed.get(name);
    const b = large.streamed.get(name);
    const met =
      !!a &&
      !!b &&
      !!m &&
      // Bytes per second says something of answers of a megabyte or more; a smaller one is its first byte.
      (a.bytes < 1048576 || b.bytes < 1048576 || b.bytesPerSecond >= 0.5 * a.bytesPerSecond) &&
      b.rssGrowth <= m.rssGrowth + 32 * 1048576;
    allMet &&= met;
    console.log(`    ${name.padEnd(28)} ${cells.join(' | ')}  ${met ? 'met' : 'NOT MET'}`);
  }
  return allMet;
}

/**
 * The soak: the gateway on the grown SQLite database at a fixed rate (sales, lookups, a reporting call,
 * and a streamed report a minute), sampled every 10 s: RSS, heap, database and WAL size, the WAL's
 * checkpoint count, and p99 of the window. Verdict: RSS after warm-up grows less than 10 % (and 32 MB),
 * the WAL was checkpointed and stays bounded, p99 of every window within 2x of the median window's.
 */
async function soak(dataDir: string, minutes: number): Promise<boolean> {
  const c = await startChild(dataDir, 'sqlite');
  const file = join(dataDir, SQLITE_FILE);
  const wal = `${file}-wal`;
  const walCheckpoints = () => {
    if (!existsSync(wal) || statSync(wal).size < 32) return 0;
    const fd = openSync(wal, 'r');
    const b = Buffer.alloc(4);
    readSync(fd, b, 0, 4, 12);
    closeSync(fd);
    return b.readUInt32BE(0);
  };
  const rate = 40;
  const endAt = Date.now() + minutes * 60_000;
  const samples: {
    t: number;
    rss: number;
    heap: number;
    db: number;
    wal: number;
    ckpt: number;
    p99: number;
    n: number;
  }[] = [];
  let window: number[] = [];
  let errors = 0;
  let i = 0;
  const env = merchant1 as unknown as Json;
  const token = String((await post(c.url, '/api/Auth', env)).Token);
  const started = Date.now();
  let nextSample = started + 10_000;
  let nextReport = started + 60_000;
  // One streamed report of the whole history at a time, a minute after the last one ended.
  let streaming = false;
  const inFlight = new Set<Promise<void>>();
  const one = async (k: number) => {
    const s = performance.now();
    let r: Json;
    // A lookup asks for a sale sent 2 s before (80 requests at 40/s): answered by then.
    if (k % 10 < 7 || k < 80)
      r = await post(
        c.url,
        '/api/Transactions/Sale',
        keyedSale({ UserTransactionNumber: `SOAK-${process.pid}-${k}`, ForceDuplication: true }),
      );
    else if (k % 10 < 9)
      r = await post(c.url, '/api/Transactions/GetTransaction', {
        ...env,
        UserTransactionNumber: `SOAK-${process.pid}-${Math.floor((k - 80) / 10) * 10}`,
      });
    else
      r = await post(
        c.url,
        '/api/Reporting/GetBatchSummaryByMerchant',
        { PageSize: 10 },
        { authorization: `Bearer ${token}` },
      );
    window.push(performance.now() - s);
    if (r.ResponseCode !== 0 && r.ResponseCode !== 200) {
      errors += 1;
      if (errors <= 3) console.log(`    soak: refused: ${JSON.stringify(r).slice(0, 200)}`);
    }
  };
  while (Date.now() < endAt) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p = one(i)
      .catch(() => void (errors += 1))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    i += 1;
    if (Date.now() >= nextReport && !streaming) {
      nextReport = Date.now() + 60_000;
      streaming = true;
      // A long streamed read while the writes go on: the WAL must still checkpoint.
      const r = stream(c, '/api/Report/GetReportByMerchant', env, 1);
      const tracked = r
        .then(
          () => undefined,
          () => void (errors += 1),
        )
        .finally(() => {
          inFlight.delete(tracked);
          streaming = false;
        });
      inFlight.add(tracked);
    }
    if (Date.now() >= nextSample) {
      nextSample += 10_000;
      const sorted = window.slice().sort((a, b) => a - b);
      const m = c.memory[c.memory.length - 1];
      samples.push({
        t: (Date.now() - started) / 1000,
        rss: m?.rss ?? NaN,
        heap: m?.heap ?? NaN,
        db: statSync(file).size,
        wal: existsSync(wal) ? statSync(wal).size : 0,
        ckpt: walCheckpoints(),
        // A window in which nothing was answered is the worst a window can be.
        p99: sorted.length > 0 ? percentile(sorted, 99) : Infinity,
        n: sorted.length,
      });
      window = [];
    }
  }
  await Promise.all([...inFlight]);
  await stopChild(c);
  console.log(
    `\n  soak, SQLite, ${minutes} min at ${rate} requests/s (70 % sales, 20 % GetTransaction, 10 % GetBatchSummaryByMerchant, a streamed GetReportByMerchant of the whole history a minute after the last ended): ${i} requests, ${errors} errors`,
  );
  console.log('    t (s)   RSS        heap       database    WAL        checkpoints  p99 ms  n');
  for (const s of samples)
    console.log(
      `    ${s.t.toFixed(0).padStart(5)}   ${mb(s.rss).padEnd(10)} ${mb(s.heap).padEnd(10)} ${mb(s.db).padEnd(11)} ${mb(s.wal).padEnd(10)} ${String(s.ckpt).padEnd(12)} ${ms(s.p99).padEnd(7)} ${s.n}`,
    );
  const warm = Math.max(1, Math.floor(samples.length / 5));
  const after = samples.slice(warm);
  if (after.length < 2) {
    console.log('    soak too short for a verdict (at least 2 samples after the warm-up fifth): NOT MET');
    return false;
  }
  const rssAtWarm = Math.max(...samples.slice(0, warm).map((s) => s.rss));
  const rssEnd = Math.max(...after.slice(-3).map((s) => s.rss));
  const rssOk = rssEnd <= rssAtWarm * 1.1 + 0 && rssEnd - rssAtWarm <= 32 * 1048576;
  const walMax = Math.max(...after.map((s) => s.wal));
  const walOk = (after[after.length - 1]?.ckpt ?? 0) > (samples[0]?.ckpt ?? 0) && walMax <= 64 * 1048576;
  const p99s = after.map((s) => s.p99).sort((a, b) => a - b);
  const median = percentile(p99s, 50);
  const p99Ok = (p99s[p99s.length - 1] ?? Infinity) <= 2 * median;
  console.log(
    `    RSS at the end of warm-up ${mb(rssAtWarm)}, at the end ${mb(rssEnd)}: ${rssOk ? 'met' : 'NOT MET'} (no growth beyond 10 % / 32 MB)`,
  );
  console.log(
    `    WAL: ${(after[after.length - 1]?.ckpt ?? 0) - (samples[0]?.ckpt ?? 0)} checkpoints during the soak, largest ${mb(walMax)}: ${walOk ? 'met' : 'NOT MET'} (checkpointed, bounded by 64 MB)`,
  );
  console.log(
    `    p99 per 10 s window: median ${ms(median)} ms, worst ${ms(p99s[p99s.length - 1] ?? NaN)} ms: ${p99Ok ? 'met' : 'NOT MET'} (steady: worst within 2x of the median)`,
  );
  return rssOk && walOk && p99Ok && errors === 0;
}

export async function run(): Promise<void> {
  console.log(
    `history bench (issue 22): sizes ${sizes.map(label).join(', ')} on ${dbs.join(', ')}; soak ${soakMinutes} min`,
  );
  const dir = join(tmpdir(), `tillpoint-history-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const pg = dbs.includes('postgres') ? await benchDatabase() : null;
  if (dbs.includes('postgres') && !pg) console.log('  PostgreSQL: TILLPOINT_TEST_PG_URL is not set: skipped');
  let verdict = true;
  let soakDir: string | null = null;
  try {
    for (const dialect of dbs) {
      if (dialect === 'postgres' && !pg) continue;
      const builts: Built[] = [];
      for (const size of sizes) builts.push(await build(dialect, size, dir));
      const results = await measure(builts);
      for (const b of builts) {
        if (dialect === 'sqlite' && b === builts[builts.length - 1]) soakDir = b.dataDir;
        else if (!(keep && dialect === 'sqlite')) rmSync(b.dataDir, { recursive: true, force: true });
      }
      verdict = report(dialect, results) && verdict;
    }
    if (soakMinutes > 0 && soakDir) verdict = (await soak(soakDir, soakMinutes)) && verdict;
  } finally {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n  history verdict: ${verdict ? 'every target met' : 'NOT every target met'}`);
}

const main = process.argv[1] ?? '';
if (main.endsWith('history.bench.ts')) await run();
