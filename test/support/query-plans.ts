import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { compileQuery, type Compiled, type Query } from '../../gateway/storage/prepared';
import type { Queryable } from '../../gateway/storage/queryable';
import { SQLITE_FILE } from '../../gateway/storage/open-storage';
import type { TestGateway } from './gateway-harness';
import { testDatabaseFor } from './test-database';

/**
 * The tables that grow with years of business. A request path may read them only through an index that
 * bounds what it reads (a merchant's window, a batch, a slice after a keyset): never a scan.
 */
const GROWING = new Set([
  'payments',
  'batches',
  'batch_totals',
  'batch_rollups',
  'group_rollups',
  'rollup_groups',
  'batch_detail_rows',
  'deposit_rollups',
  'settlements',
  'transaction_numbers',
  'payment_links',
  'recurring_billings',
  'merchant_statements',
]);

/**
 * The tables that grow with every payment (links and billings in proportion): reading them by the
 * merchant alone, with no window, no slice (LIMIT) and no min/max, is a scan of the merchant's whole
 * history however it is indexed.
 */
const PER_PAYMENT = new Set([
  'payments',
  'transaction_numbers',
  'payment_links',
  'recurring_billings',
  'batch_detail_rows',
]);

/**
 * The tables that grow by a few rows a day (a batch, its sums, its settlement, a deposit): read by the
 * merchant alone with no window, slice or min/max they are every day of the history, which a report of
 * "all history" must not cost (issue 22: its running totals are read at the window's two ends instead).
 */
const PER_BATCH = new Set([
  'batches',
  'batch_totals',
  'batch_rollups',
  'group_rollups',
  'settlements',
  'deposit_rollups',
]);

const everyRowOfMerchant = (table: string) => PER_PAYMENT.has(table) || PER_BATCH.has(table);

/** Every read a gateway makes while `during` runs, as compiled SQL with its parameters. */
export async function readsDuring(gw: TestGateway, during: () => Promise<void>): Promise<Compiled[]> {
  const read = gw.gateway.storage.read;
  const original = { all: read.all.bind(read), first: read.first.bind(read) };
  const seen: Compiled[] = [];
  const record = <R>(query: Query<R>) => seen.push(compileQuery(query, read.qb));
  Object.assign(read, {
    all: <R>(query: Query<R>) => (record(query), original.all(query)),
    first: <R>(query: Query<R>) => (record(query), original.first(query)),
  } satisfies Pick<Queryable, 'all' | 'first'>);
  try {
    await during();
  } finally {
    // The queryable's own methods again (bound: they behave as before the recording).
    Object.assign(read, original);
  }
  return seen;
}

const KEYWORDS = new Set(
  'where on join left right inner outer cross full natural order group limit offset using union select set values having window'.split(
    ' ',
  ),
);

/** The tables a query names, by the name or alias the plan shows. */
function tablesOf(text: string): Map<string, string> {
  const names = new Map<string, string>();
  // An alias with or without AS (hand-written SQL often leaves it out); a keyword after a table is none.
  for (const m of text.matchAll(/(?:from|join)\s+"?(\w+)"?(?:\s+(?:as\s+)?"?(\w+)"?)?/gi)) {
    const table = (m[1] ?? '').toLowerCase();
    const alias = (m[2] ?? '').toLowerCase();
    names.set(alias && !KEYWORDS.has(alias) ? alias : table, table);
  }
  return names;
}

const sliced = (text: string) => /\blimit\b|\bmax\(|\bmin\(/i.test(text);

/**
 * Whether a read of `alias` (a table of PER_BATCH) by the merchant alone stops early: a LIMIT with no
 * GROUP BY (a grouped page aggregates every row before its LIMIT), or a min/max of that table's own
 * column. A LIMIT or max elsewhere in the query does not stop it.
 */
const slicedBatchRead = (text: string, alias: string) =>
  (/\blimit\b/i.test(text) && !/\bgroup by\b/i.test(text)) ||
  new RegExp(`\\b(?:max|min)\\(\\s*"?${alias}"?\\.`, 'i').test(text);

const stopsEarly = (text: string, table: string, alias: string) =>
  PER_BATCH.has(table) ? slicedBatchRead(text, alias) : sliced(text);

/** The columns a request narrows the growing tables by: a day, a window, a batch. */
const WINDOW = ['created_at', 'created_on', 'paid_on', 'disabled_on', 'batch_id'];

/**
 * The window columns a query narrows `alias` by (a column named without a table belongs to every alias).
 * A slice (LIMIT) is no bound when the index it walks ignores the window: it reads past every row outside
 * it, the merchant's whole history for a day's rows.
 */
function windowsOf(text: string, alias: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:"(\w+)"\.)?"(\w+)"\s*(?:>=|<=|=|<|>)\s*(?:\?|\$\d+)/g)) {
    const column = m[2] ?? '';
    if (WINDOW.includes(column) && (m[1] === undefined || m[1] === alias)) found.add(column);
  }
  return [...found];
}

export type PlanVerdict = { sql: string; plan: string[]; problems: string[] };

/**
 * Partial indexes bound a read by their own condition (batches_one_open: the merchant's one open batch), so
 * a read of one by the merchant alone is not every row of it.
 */
function judgeSqlite(q: Compiled, plan: string[], partial: Set<string>): string[] {
  const tables = tablesOf(q.sql);
  const problems: string[] = [];
  for (const line of plan) {
    const scan = /^SCAN (\w+)/.exec(line);
    const table = scan ? tables.get((scan[1] ?? '').toLowerCase()) : undefined;
    if (table && GROWING.has(table)) problems.push(`scans ${table}: ${line}`);
    const search = /^SEARCH (\w+) USING (?:COVERING )?INDEX (\w+) \((.*)\)/.exec(line);
    const bounded = partial.has(search?.[2] ?? '');
    const searched = search ? tables.get((search[1] ?? '').toLowerCase()) : undefined;
    if (
      searched &&
      everyRowOfMerchant(searched) &&
      search?.[3] === 'mid=?' &&
      !stopsEarly(q.sql, searched, search[1] ?? '') &&
      !bounded
    )
      problems.push(`reads every ${searched} row of the merchant: ${line}`);
    const windows = searched && PER_PAYMENT.has(searched) ? windowsOf(q.sql, search?.[1] ?? '') : [];
    if (windows.length > 0 && !windows.some((w) => (search?.[3] ?? '').includes(w)))
      problems.push(`walks ${searched} outside its window (${windows.join(', ')}): ${line}`);
    if (/USE TEMP B-TREE FOR ORDER BY/.test(line) && /\boffset\b/i.test(q.sql))
      problems.push(`pages with OFFSET over a sorted temporary table: ${line}`);
  }
  return problems;
}

type PgNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
};

function judgePostgres(
  q: Compiled,
  root: PgNode,
  leading: Map<string, string>,
  partial: Set<string>,
): string[] {
  const problems: string[] = [];
  const visit = (node: PgNode) => {
    const relation = node['Relation Name'] ?? '';
    const index = node['Index Name'] ?? '';
    const table = relation || [...GROWING].find((t) => index.startsWith(`${t}_`)) || '';
    if (node['Node Type'] === 'Seq Scan' && GROWING.has(relation)) problems.push(`Seq Scan on ${relation}`);
    if (/Index/.test(node['Node Type']) && GROWING.has(table)) {
      const cond = node['Index Cond'];
      const first = leading.get(index);
      if (!cond) problems.push(`${node['Node Type']} on ${table} (${index}) without an index condition`);
      // A condition on a later column only still walks the whole index.
      else if (first && !new RegExp(`\\b${first}\\b`).test(cond))
        problems.push(`${node['Node Type']} on ${table} (${index}) not bounded by its first column: ${cond}`);
      else if (
        everyRowOfMerchant(table) &&
        /^\(mid = [^()]*\)$/.test(cond) &&
        !stopsEarly(q.sql, table, (node as { Alias?: string }).Alias ?? table) &&
        !partial.has(index)
      )
        problems.push(`reads every ${table} row of the merchant: ${node['Node Type']} ${index} ${cond}`);
      const alias = (node as { Alias?: string }).Alias ?? table;
      const windows = cond && PER_PAYMENT.has(table) ? windowsOf(q.sql, alias) : [];
      if (cond && windows.length > 0 && !windows.some((w) => cond.includes(w)))
        problems.push(`walks ${table} outside its window (${windows.join(', ')}): ${index} ${cond}`);
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  return problems;
}

/**
 * Each query's plan in the gateway's own database, and what is wrong with it. PostgreSQL plans with
 * sequential scans disabled: on a test's small tables a scan is cheapest and says nothing, while a query
 * that no index can bound is still planned as one (or as an index read with no condition).
 */
export async function explainAll(gw: TestGateway, queries: Compiled[]): Promise<PlanVerdict[]> {
  const out: PlanVerdict[] = [];
  if (gw.gateway.storage.dialect === 'sqlite') {
    const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      const partial = new Set(
        (
          db
            .prepare("select name from sqlite_master where type = 'index' and sql like '% WHERE %'")
            .all() as { name: string }[]
        ).map((r) => r.name),
      );
      for (const q of queries) {
        const rows = db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.parameters) as { detail: string }[];
        const plan = rows.map((r) => r.detail);
        out.push({ sql: q.sql, plan, problems: judgeSqlite(q, plan, partial) });
      }
    } finally {
      db.close();
    }
    return out;
  }
  const config = await testDatabaseFor(gw.dataDir);
  if (config.kind !== 'postgres') throw new Error('no PostgreSQL schema for this gateway');
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    // Joins as nested loops too: a merge or hash join of small tables reads a whole index or table and
    // hides whether an index could bound the inner side, which a nested loop shows as its condition.
    await client.query('set enable_seqscan = off; set enable_mergejoin = off; set enable_hashjoin = off');
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      'select indexname, indexdef from pg_indexes where schemaname = current_schema()',
    );
    const partial = new Set(indexes.rows.filter((i) => / WHERE /i.test(i.indexdef)).map((i) => i.indexname));
    const leading = new Map(
      indexes.rows.map((i) => [i.indexname, /\(\s*"?(\w+)"?/.exec(i.indexdef)?.[1] ?? '']),
    );
    for (const q of queries) {
      const r = await client.query<{ 'QUERY PLAN': { Plan: PgNode }[] }>(`EXPLAIN (FORMAT JSON) ${q.sql}`, [
        ...q.parameters,
      ]);
      const root = r.rows[0]?.['QUERY PLAN'][0]?.Plan;
      if (!root) throw new Error(`no plan for ${q.sql}`);
      out.push({
        sql: q.sql,
        plan: [JSON.stringify(root)],
        problems: judgePostgres(q, root, leading, partial),
      });
    }
  } finally {
    await client.end();
  }
  return out;
}
