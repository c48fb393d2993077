import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Kysely } from 'kysely';
import { withSessionLock } from './postgres-session-lock';
import { bindable, sqlState, translate } from './postgres-wire';
import { compileQuery, type Compiled, type Query } from './prepared';
import type { LockRequest } from './queryable';
import type { Database } from './schema';

/**
 * A `Storage.batch` of prepared queries as ONE statement: a PL/pgSQL function that takes the advisory
 * locks, then runs each query in order, and answers every query's rows as JSON. Called in autocommit, the
 * call is its own transaction — no BEGIN, no COMMIT, one Bind/Execute/Sync — and PL/pgSQL keeps each
 * statement's plan for the connection's life.
 *
 * Same meaning as the pipelined batch: the locks are held to the end of the transaction, and each query
 * in a VOLATILE function takes a fresh snapshot (READ COMMITTED) after the locks and sees the queries
 * before it; a failing query rolls the whole call back with its own SQLSTATE, table and constraint.
 *
 * The function is the compiled form of the TypeScript statements, not a rule of its own: its body is the
 * queries' SQL as Kysely compiled it, its argument types are what the server inferred for their
 * parameters (PREPARE, then pg_prepared_statements), and its name is a digest of its source. A build
 * whose statements change makes a new function; a function is never replaced under a running process.
 *
 * Where another role can create objects in the schema, a function is trusted by more than its name: an
 * existing one is called only when it is the gateway role's own, with exactly the expected body, language,
 * result and settings (else the batch runs as the pipelined transaction and the refusal is reported); the
 * call names the schema and casts every argument to the routine's own types, so an overload planted beside
 * it (an all-`text` one would win an untyped call) is never chosen; and the routine runs with
 * `search_path = pg_catalog, <schema>, pg_temp`, so what its body names cannot be shadowed from the
 * caller's path. docs/postgres.md ("A schema of its own") says how to keep other roles out altogether.
 */

export type UnitRoutine = {
  readonly name: string;
  /** The schema it lives in, as an identifier (quoted where it must be). */
  readonly schema: string;
  /** Its argument types, schema-qualified (`pg_catalog.int8`), as the call casts them. */
  readonly argumentTypes: readonly string[];
  /** What pg_proc.prosrc holds for it. */
  readonly body: string;
  readonly source: string;
};

/** Every `$n` outside a quoted literal or identifier is a placeholder, unless a dollar quote is about. */
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"/g;
const PLACEHOLDER = /\$(\d+)/g;
const DOLLAR_QUOTE = /\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

function renumbered(text: string, offset: number, count: number): string | null {
  // A dollar-quoted string could hold a `$n` that is not a placeholder, and would end the function's body.
  if (DOLLAR_QUOTE.test(text.replace(QUOTED, "''"))) return null;
  const parts = text.split(QUOTED);
  const quoted = text.match(QUOTED) ?? [];
  let highest = 0;
  const body = parts
    .map((part, i) => {
      const moved = part.replace(PLACEHOLDER, (_, n: string) => {
        highest = Math.max(highest, Number(n));
        return `$${Number(n) + offset}`;
      });
      return i < quoted.length ? moved + (quoted[i] as string) : moved;
    })
    .join('');
  // A `$n` the compiler did not put there (inside an unusual literal) would be renumbered wrongly: refuse.
  return highest === count ? body : null;
}

/** The settings every routine runs with; `<schema>` is the routine's own (not part of its name's digest). */
const SETTINGS = 'set search_path = pg_catalog, <schema>, pg_temp';

/**
 * The routine of `queries` in `schema` (an identifier as written in SQL). `types` are each query's
 * parameter types, schema-qualified. The lock loop's argument names cannot clash with a column: every
 * other name in the body is the queries'.
 */
export function unitRoutineSource(
  queries: readonly Compiled[],
  types: readonly string[][],
  schema: string,
): UnitRoutine | null {
  const args = ['pg_catalog._text', 'pg_catalog._bool'];
  const loops: string[] = [];
  const declared: string[] = [];
  for (const [i, q] of queries.entries()) {
    const body = renumbered(q.sql, args.length, q.parameters.length);
    const own = types[i];
    if (body === null || !own || own.length !== q.parameters.length) return null;
    args.push(...own);
    declared.push(`tp_rows_${i} json[] := '{}';`);
    loops.push(`for tp_row in ${body} loop tp_rows_${i} := tp_rows_${i} || to_json(tp_row); end loop;`);
  }
  const answer = queries.map((_, i) => `array_to_json(tp_rows_${i})`).join(', ');
  const body = [
    'declare tp_row record;',
    ...declared,
    'begin',
    'for tp_i in 1 .. coalesce(array_length($1, 1), 0) loop',
    '  if $2[tp_i] then perform pg_advisory_xact_lock_shared(hashtextextended($1[tp_i], 0));',
    '  else perform pg_advisory_xact_lock(hashtextextended($1[tp_i], 0)); end if;',
    'end loop;',
    ...loops,
    `return json_build_array(${answer});`,
    'end',
  ].join('\n');
  const signature = `(${args.join(', ')}) returns pg_catalog.json language plpgsql volatile`;
  // The schema stays out of the digest: one build's routine has one name in every schema.
  const digest = createHash('sha256')
    .update(signature)
    .update(SETTINGS)
    .update(body)
    .digest('hex')
    .slice(0, 16);
  const name = `tp_unit_${digest}`;
  const settings = SETTINGS.replace('<schema>', schema);
  return {
    name,
    schema,
    argumentTypes: args,
    body: `\n${body}\n`,
    source: `create function ${schema}.${name}${signature} ${settings} as $tp_unit$\n${body}\n$tp_unit$`,
  };
}

/**
 * The types the server infers for each query's parameters, as it does when it prepares them to run,
 * schema-qualified (`pg_catalog.int8`, `pg_catalog._text`): a type of the same name planted in another
 * schema cannot stand in for them in the routine's signature or the call's casts.
 */
export async function inferredParameterTypes(client: pg.PoolClient, queries: readonly Compiled[]) {
  const types: string[][] = [];
  for (const [i, q] of queries.entries()) {
    const name = `tp_unit_probe_${i}`;
    await client.query(`prepare ${name} as ${q.sql}`);
    try {
      const r = await client.query<{ types: string[] }>(
        `select array(
           select pg_catalog.format('%I.%I', n.nspname, t.typname)
             from pg_catalog.unnest(s.parameter_types::pg_catalog.oid[]) with ordinality as p(type, i)
             join pg_catalog.pg_type t on t.oid = p.type
             join pg_catalog.pg_namespace n on n.oid = t.typnamespace
            order by p.i) as types
           from pg_catalog.pg_prepared_statements s where s.name = $1`,
        [name],
      );
      types.push(r.rows[0]?.types ?? []);
    } finally {
      await client.query(`deallocate ${name}`);
    }
  }
  return types;
}

/**
 * Whether the function of `routine`'s exact signature exists (null: it does not), and if so whether it is
 * the gateway's: owned by the connection's role, PL/pgSQL, not SECURITY DEFINER, volatile, answering
 * json, with the expected body and settings. Run with `search_path = pg_catalog`.
 */
async function trusted(client: pg.PoolClient, routine: UnitRoutine): Promise<boolean | null> {
  const r = await client.query<{ trusted: boolean }>(
    `select p.proowner = (select oid from pg_roles where rolname = current_user)
            and p.prolang = (select oid from pg_language where lanname = 'plpgsql')
            and p.prokind = 'f' and not p.prosecdef and p.provolatile = 'v' and not p.proretset
            and p.prorettype = 'pg_catalog.json'::regtype
            and p.prosrc = $2
            and p.proconfig = array[$3]
            as trusted
       from pg_proc p where p.oid = to_regprocedure($1)`,
    [
      `${routine.schema}.${routine.name}(${routine.argumentTypes.join(', ')})`,
      routine.body,
      // As the server keeps a SET clause: `name=value`, identifiers quoted as quote_ident quotes them.
      `search_path=pg_catalog, ${routine.schema}, pg_temp`,
    ],
  );
  const row = r.rows[0];
  return row ? row.trusted === true : null;
}

/** Reports a refusal or a risk; never a value of any row. */
export type Warn = (message: string) => void;

/**
 * Creates the routine for `queries` in the connection's schema unless it exists, under a session lock so
 * two processes starting on one database create it once. Null: these queries cannot be one routine, or
 * the function of its name and signature is not the gateway's (reported through `warn`; it is left alone,
 * never called).
 */
export async function installUnitRoutine(
  client: pg.PoolClient,
  queries: readonly Compiled[],
  warn: Warn,
): Promise<UnitRoutine | null> {
  if (!queries.every((q) => renumbered(q.sql, 0, q.parameters.length) !== null)) return null;
  const schema = (
    await client.query<{ s: string | null }>(
      'select pg_catalog.quote_ident(pg_catalog.current_schema()) as s',
    )
  ).rows[0]?.s;
  if (!schema) return null;
  const routine = unitRoutineSource(queries, await inferredParameterTypes(client, queries), schema);
  if (!routine) return null;
  const verdict = await withSessionLock(client, `tillpoint:unit-routine:${routine.name}`, async () => {
    // Only the catalogs are read and the DDL names its schema: nothing planted on the path takes part.
    await client.query('begin');
    try {
      await client.query('set local search_path = pg_catalog');
      let ok = await trusted(client, routine);
      if (ok === null) {
        await client.query(routine.source);
        ok = await trusted(client, routine);
      }
      await client.query('commit');
      return ok === true;
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  });
  if (verdict) return routine;
  warn(
    `PostgreSQL: function ${routine.schema}.${routine.name} is not the gateway's (another owner, body or ` +
      'settings): it is not called, and batches of its shape run as transactions. Drop it (docs/postgres.md, ' +
      '"A schema of its own").',
  );
  return null;
}

/** The call of a routine: schema-qualified, every argument cast to the routine's own type. */
export function unitRoutineCall(
  routine: UnitRoutine,
  locks: readonly { key: string; mode?: 'exclusive' | 'shared' }[],
  parameters: readonly unknown[],
): pg.QueryConfig {
  const placeholders = routine.argumentTypes.map((type, i) => `$${i + 1}::${type}`).join(', ');
  return {
    name: routine.name,
    text: `select ${routine.schema}.${routine.name}(${placeholders}) as rows`,
    values: [locks.map((l) => l.key), locks.map((l) => l.mode === 'shared'), ...parameters],
  };
}

/** SQLSTATE 42883: no function of that name and arguments. */
const UNDEFINED_FUNCTION = '42883';

/**
 * Runs batches as routine calls through `send` (a lane, or the pool), installing each shape's routine on
 * first use. Answers null when a batch has no routine — a query that is not prepared, a shape that cannot
 * be one, an install that failed three times, a routine dropped under the running process (installed
 * again by the next batch) — and then the caller runs the pipelined transaction.
 */
export function unitRoutineRunner(
  pool: pg.Pool,
  qb: Kysely<Database>,
  send: (call: pg.QueryConfig) => Promise<pg.QueryResult>,
  warn: Warn,
): (locks: readonly LockRequest[], queries: readonly Query<unknown>[]) => Promise<unknown[][] | null> {
  const routines = new Map<string, Promise<UnitRoutine | null>>();
  const installFailures = new Map<string, number>();
  const keyOf = (compiled: readonly Compiled[]) => compiled.map((c) => c.sql).join('\u0000');

  function routineFor(compiled: readonly Compiled[]): Promise<UnitRoutine | null> {
    const key = keyOf(compiled);
    let routine = routines.get(key);
    if (!routine) {
      routine = (async () => {
        const client = await pool.connect();
        try {
          return await installUnitRoutine(client, compiled, warn);
        } finally {
          client.release();
        }
      })().catch(() => {
        // A passing failure (a connection lost while installing) is tried again by a later batch.
        const failures = (installFailures.get(key) ?? 0) + 1;
        installFailures.set(key, failures);
        if (failures < 3) routines.delete(key);
        return null;
      });
      routines.set(key, routine);
    }
    return routine;
  }

  return async (locks, queries) => {
    if (!queries.every((q) => 'kind' in q && q.kind === 'bound')) return null;
    const compiled = queries.map((q) => compileQuery(q, qb));
    const routine = await routineFor(compiled);
    if (!routine) return null;
    const call = unitRoutineCall(
      routine,
      locks,
      compiled.flatMap((c) => bindable(c.parameters)),
    );
    try {
      const result = await send(call);
      // The routine answers one json value: each query's rows, in order.
      return (result.rows[0] as { rows?: unknown[][] } | undefined)?.rows ?? queries.map(() => []);
    } catch (error) {
      // Dropped under the running process (a tidy-up): this batch runs pipelined, the next reinstalls it.
      if (sqlState(error) === UNDEFINED_FUNCTION) {
        routines.delete(keyOf(compiled));
        return null;
      }
      throw translate(error);
    }
  };
}
