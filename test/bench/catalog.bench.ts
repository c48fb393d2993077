import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalog, type Catalog } from '../../electron/catalog/catalog';
import { openJournal } from '../../electron/journal/journal';
import { gs1CheckDigit } from '../../native/protocols/gs1-check-digit';

/**
 * A store may have 50,000 items. The catalog's request paths — a scan's lookup, a SKU, the first page of
 * a name search, a page deep in the list, the quick keys — timed through the real worker on catalogs of
 * 1,000 and 50,000 items (`BENCH_CATALOG_SIZES`), sampled interleaved; verdict: p50 at the largest size
 * within 2× of the smallest. Then the import of the 50,000-row file (one transaction), the export of it
 * page by page, and the journal's commit latency while that import runs in the catalog's own thread —
 * what keeping the catalog out of the journal's file buys (docs/catalog.md).
 */

const SIZES = (process.env.BENCH_CATALOG_SIZES ?? '1000,50000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 100);
const SAMPLES = Number(process.env.BENCH_CATALOG_SAMPLES ?? 200);

const HEADER = 'sku,name,price,tax_class,category,barcodes,open_price,quick_key,price_embedded_code,active';
const WORDS = ['Apple', 'Bread', 'Cheese', 'Detergent', 'Eggs', 'Flour', 'Grapes', 'Honey', 'Ink', 'Jam'];

function file(n: number): string {
  const rows = [HEADER];
  for (let i = 0; i < n; i += 1) {
    const payload = `4${String(i).padStart(11, '0')}`;
    const ean = `${payload}${gs1CheckDigit(payload)}`;
    rows.push(
      `SKU-${i},${WORDS[i % WORDS.length]} ${i},${1 + (i % 90)}.${String(i % 100).padStart(2, '0')},standard,Aisle ${i % 40},${ean},no,${i < 60 ? i + 1 : ''},,${i % 7 === 0 ? 'no' : 'yes'}`,
    );
  }
  return rows.join('\r\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function catalogOf(dir: string, n: number): Promise<{ catalog: Catalog; importMs: number }> {
  const catalog = await openCatalog(join(dir, `catalog-${n}.sqlite`));
  await catalog.saveTaxClass(
    { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
    1,
  );
  const text = file(n);
  const t0 = performance.now();
  await catalog.importCsv(text, 1);
  return { catalog, importMs: performance.now() - t0 };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-catalog-bench-'));
  try {
    const built: { n: number; catalog: Catalog; importMs: number }[] = [];
    for (const n of SIZES) built.push({ n, ...(await catalogOf(dir, n)) });
    console.log('catalog bench: request paths through the catalog worker');
    for (const b of built)
      console.log(`  N=${b.n}: import of the whole file in one transaction ${b.importMs.toFixed(0)} ms`);

    // A scan of one of the items' EAN-13 labels (its check digit is part of the code).
    const scan = (n: number, i: number) => {
      const payload = `4${String((i * 7919) % n).padStart(11, '0')}`;
      return `${payload}${gs1CheckDigit(payload)}`;
    };
    const paths: [string, (c: Catalog, n: number, i: number) => Promise<unknown>][] = [
      ['scan lookup (barcode)', (c, n, i) => c.lookup({ barcode: scan(n, i) })],
      ['SKU lookup', (c, n, i) => c.lookup({ sku: `SKU-${(i * 104729) % n}` })],
      [
        'name search, first page',
        (c, _n, i) => c.listItems({ prefix: WORDS[i % WORDS.length], activeOnly: true, limit: 50 }),
      ],
      // Eight tenths into the list (names run Apple … Jam): a full page follows at every size.
      [
        'list page deep in the catalog',
        (c) => c.listItems({ activeOnly: false, after: { key: 'honey', id: 0 }, limit: 50 }),
      ],
      ['quick keys', (c) => c.quickKeys()],
    ];
    const verdicts: string[] = [];
    for (const [name, fn] of paths) {
      const samples = built.map(() => [] as number[]);
      for (let i = 0; i < SAMPLES; i += 1)
        for (const [k, b] of built.entries()) {
          const t0 = performance.now();
          await fn(b.catalog, b.n, i);
          samples[k]?.push(performance.now() - t0);
        }
      const p50 = samples.map((s) =>
        percentile(
          s.sort((a, b) => a - b),
          0.5,
        ),
      );
      const p99 = samples.map((s) => percentile(s, 0.99));
      const ratio = (p50.at(-1) ?? 0) / (p50[0] || 1);
      console.log(
        `  ${name.padEnd(30)} ${built.map((b, k) => `N=${b.n} p50 ${p50[k]?.toFixed(3)} ms p99 ${p99[k]?.toFixed(3)} ms`).join('   ')}`,
      );
      verdicts.push(`    ${name.padEnd(30)} ×${ratio.toFixed(2)}  ${ratio <= 2 ? 'PASS' : 'FAIL'}`);
    }
    console.log(`  verdict: p50 at N=${SIZES.at(-1)} within 2× of N=${SIZES[0]}`);
    for (const v of verdicts) console.log(v);

    const largest = built.at(-1);
    if (largest) {
      const t0 = performance.now();
      let rows = 0;
      let after: number | undefined = 0;
      while (after !== undefined) {
        const page = await largest.catalog.exportCsv(after, 'bench');
        rows += page.rows;
        after = page.next;
      }
      console.log(
        `  export of N=${largest.n} in pages: ${rows} rows in ${(performance.now() - t0).toFixed(0)} ms`,
      );
    }

    // The journal's commits while a 50,000-row import runs in the catalog's thread, and without one.
    const journal = await openJournal(join(dir, 'journal.sqlite'));
    const commits = async (until: () => boolean, min: number): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; until() || i < min; i += 1) {
        const t0 = performance.now();
        await journal.setSetting('bench', String(i), i);
        out.push(performance.now() - t0);
      }
      return out.sort((a, b) => a - b);
    };
    const idle = await commits(() => false, 200);
    const busyCatalog = await openCatalog(join(dir, 'catalog-busy.sqlite'));
    await busyCatalog.saveTaxClass(
      { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
      1,
    );
    let importing = true;
    const t0 = performance.now();
    const importDone = busyCatalog.importCsv(file(50_000), 1).finally(() => (importing = false));
    const during = await commits(() => importing, 20);
    await importDone;
    console.log(
      `  journal commit, idle:                      p50 ${percentile(idle, 0.5).toFixed(2)} ms  p99 ${percentile(idle, 0.99).toFixed(2)} ms (${idle.length} commits)`,
    );
    console.log(
      `  journal commit, during a 50k-row import:   p50 ${percentile(during, 0.5).toFixed(2)} ms  p99 ${percentile(during, 0.99).toFixed(2)} ms (${during.length} commits over the import's ${(performance.now() - t0).toFixed(0)} ms)`,
    );
    await busyCatalog.close();
    await journal.close();
    for (const b of built) await b.catalog.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
