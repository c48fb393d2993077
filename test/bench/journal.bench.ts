import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moneyFigures } from '../../common/money-figures';
import { JournalStore, openJournalDatabase } from '../../electron/journal/journal-store';

/**
 * Issue 22, "years of data", the terminal's side: the journal's request paths — today's transactions,
 * last-four search, the open batch's totals, a gift-card load's earlier attempts — timed on journals of
 * 10k, 100k and 1M rows (`BENCH_JOURNAL_SIZES=10000,100000` to choose). Each journal holds years of
 * history and one day like any other (300 rows today, the batch opened this morning), so what grows is
 * only what the queries must not read. The reference, in the same process on the same file, is the floor:
 * one row by its primary key. Verdict per query: p50 at the largest N within 2× of the smallest N.
 */

const SIZES = (process.env.BENCH_JOURNAL_SIZES ?? '10000,100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1000);
const SAMPLES = Number(process.env.BENCH_JOURNAL_SAMPLES ?? 300);
const WARMUP = 30;
const TODAY_ROWS = 300;
const YEARS_MS = 3 * 365 * 86_400_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

type Stat = { p50: number; p99: number };

/**
 * Times each of `fns` SAMPLES times, interleaved (one sample of each in turn): the machine is shared, and
 * a slow spell then costs every journal size alike instead of whichever was being measured.
 */
function timeTogether(fns: (() => unknown)[]): Stat[] {
  for (let i = 0; i < WARMUP; i += 1) for (const fn of fns) fn();
  const samples = fns.map(() => [] as number[]);
  for (let i = 0; i < SAMPLES; i += 1)
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      fn();
      samples[k]?.push(performance.now() - t0);
    });
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    return { p50: percentile(s, 0.5), p99: percentile(s, 0.99) };
  });
}

/** A journal of `n` rows: years of history, then today's TODAY_ROWS (gift loads and last fours among them). */
function build(path: string, n: number, now: number, startOfToday: number): void {
  const db = openJournalDatabase(path);
  // Building is not what is measured: one transaction, no fsync per row.
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO journal (utn, seq, lane_id, ticket_id, tender_id, operation, state, amount_cents, tip_cents,
       cashback_cents, tax_cents, approved_cents, last4, card_type, entry_mode, srn, created_at, updated_at)
     VALUES (?, ?, 'L1', ?, ?, ?, 'approved', ?, 0, ?, 0, ?, ?, ?, 'Swiped', ?, ?, ?)`,
  );
  const ops = ['sale', 'sale', 'sale', 'debit', 'cash', 'cash', 'refund', 'gift-reload'] as const;
  db.transaction(() => {
    const history = n - TODAY_ROWS;
    const historyStart = startOfToday - YEARS_MS;
    for (let i = 1; i <= n; i += 1) {
      const at =
        i <= history
          ? historyStart + Math.floor(((i - 1) * YEARS_MS) / history)
          : startOfToday + Math.floor(((i - history) * (now - startOfToday)) / (TODAY_ROWS + 1));
      const op = ops[i % ops.length] ?? 'sale';
      const cents = 100 + (i % 9000);
      const card = op !== 'cash';
      insert.run(
        `L1-bench-${i}`,
        i,
        // Each ticket's load paid and tried once or twice: tickets pair up rows.
        `T${Math.floor(i / 2)}`,
        `D${i}`,
        op,
        cents,
        op === 'debit' ? 2000 : 0,
        cents,
        card ? String(1000 + (i % 200)) : null,
        card ? 'Visa' : null,
        card ? `S${i}` : null,
        at,
        at,
      );
    }
    db.prepare('INSERT INTO lane_counter (id, last_seq, epoch) VALUES (1, ?, ?)').run(n, 'bench');
  })();
  db.pragma('synchronous = FULL');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

type Row = { n: number; query: string; stat: Stat; reference: Stat };

type Journal = {
  n: number;
  store: JournalStore;
  queries: [string, () => unknown][];
  reference: () => unknown;
};

export function run(): Promise<Row[]> {
  return Promise.resolve(measure());
}

function measure(): Row[] {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-bench-journal-'));
  const rows: Row[] = [];
  const now = Date.now();
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  const startOfToday = d.getTime();
  const journals: Journal[] = [];
  try {
    console.log(
      `journal queries (issue 22): ${SAMPLES} samples each after ${WARMUP} warm-up, interleaved across sizes; ${TODAY_ROWS} rows today, 3 years of history`,
    );
    for (const n of SIZES) {
      const path = join(dir, `journal-${n}.sqlite`);
      const t0 = performance.now();
      build(path, n, now, startOfToday);
      const store = JournalStore.open(path);
      console.log(`  N=${n}: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // Today's rows: a last four and a gift-load ticket that are there today.
      const today = store.list({ since: startOfToday, limit: 10 });
      const sample = today.find((r) => r.last4 !== null);
      const reload = today.find((r) => r.operation === 'gift-reload');
      if (!sample?.last4 || !reload?.ticketId) throw new Error('the bench journal has no row of today');
      const last4 = sample.last4;
      const ticket = reload.ticketId;
      journals.push({
        n,
        store,
        reference: () => store.get(sample.utn),
        queries: [
          ["today's transactions", () => store.list({ since: startOfToday, limit: 500 })],
          ['last-four search', () => store.list({ since: startOfToday, last4, limit: 500 })],
          ['batch totals', () => moneyFigures(store.figureGroups(startOfToday))],
          ['gift-reload history', () => store.byTicket(ticket, 'gift-reload')],
        ],
      });
    }
    const references = timeTogether(journals.map((j) => j.reference));
    const names = journals[0]?.queries.map(([q]) => q) ?? [];
    for (const [qi, query] of names.entries()) {
      const stats = timeTogether(journals.map((j) => j.queries[qi]?.[1] ?? (() => undefined)));
      journals.forEach((j, k) => {
        const stat = stats[k];
        const reference = references[k];
        if (stat && reference) rows.push({ n: j.n, query, stat, reference });
      });
    }
    for (const [k, j] of journals.entries()) {
      const reference = references[k];
      if (!reference) continue;
      console.log(`  N=${j.n}`);
      console.log(
        `    reference: one row by primary key  p50 ${reference.p50.toFixed(3)} ms  p99 ${reference.p99.toFixed(3)} ms`,
      );
      for (const r of rows.filter((x) => x.n === j.n))
        console.log(
          `    ${r.query.padEnd(28)}  p50 ${r.stat.p50.toFixed(3)} ms  p99 ${r.stat.p99.toFixed(3)} ms  (${(r.stat.p50 / Math.max(reference.p50, 1e-6)).toFixed(1)}× the reference)`,
        );
    }
    const smallest = Math.min(...SIZES);
    const largest = Math.max(...SIZES);
    if (names.length === 0 || smallest === largest) {
      console.log('  verdict: FAIL (fewer than two journal sizes were measured)');
      return rows;
    }
    console.log(`  verdict: p50 at N=${largest} within 2× of N=${smallest}`);
    for (const q of names) {
      const small = rows.find((r) => r.query === q && r.n === smallest)?.stat.p50 ?? Number.NaN;
      const large = rows.find((r) => r.query === q && r.n === largest)?.stat.p50 ?? Number.NaN;
      const ratio = large / small;
      console.log(
        `    ${q.padEnd(28)}  ${small.toFixed(3)} ms -> ${large.toFixed(3)} ms  ×${ratio.toFixed(2)}  ${ratio <= 2 ? 'PASS' : 'FAIL'}`,
      );
    }
    return rows;
  } finally {
    for (const j of journals) j.store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
