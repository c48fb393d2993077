import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema';

const PARAM = Symbol('prepared-parameter');
type Marker = { readonly [PARAM]: string };

function isMarker(v: unknown): v is Marker {
  return typeof v === 'object' && v !== null && PARAM in v;
}

/** Stands for the named argument inside a prepared query's builder (typed as the argument it stands for). */
export type ParamOf<A> = <K extends keyof A & string>(name: K) => A[K];

export type Compiled = { sql: string; parameters: readonly unknown[] };

/** A prepared query with its arguments, ready for a Queryable. */
export type BoundQuery<R> = {
  readonly kind: 'bound';
  compileWith(qb: Kysely<Database>): Compiled;
  /** Phantom: the row type. */
  readonly __row?: R;
};

/**
 * What a Queryable runs: a builder query, a prepared one with its arguments, or a query already compiled
 * (a `sql` template compiled against the storage's `qb`: its values are parameters too).
 */
export type Query<R> = Compilable<R> | BoundQuery<R> | CompiledQuery<R>;

/**
 * A query built with Kysely once per dialect, with named placeholders, then executed many times with new
 * arguments: the sale path pays neither the builder nor the compiler per request (~10 µs a query). Use it
 * for fixed-shape hot queries; lists (`in (...)`) must stay ordinary builders.
 */
export function prepare<A extends Record<string, unknown>, R>(
  build: (qb: Kysely<Database>, p: ParamOf<A>) => Compilable<R>,
): (args: A) => BoundQuery<R> {
  const byBuilder = new WeakMap<Kysely<Database>, CompiledQuery<R>>();
  const marker: ParamOf<A> = (name) => ({ [PARAM]: name }) as never;
  return (args) => ({
    kind: 'bound',
    compileWith(qb) {
      let compiled = byBuilder.get(qb);
      if (!compiled) {
        compiled = build(qb, marker).compile();
        byBuilder.set(qb, compiled);
      }
      return {
        sql: compiled.sql,
        parameters: compiled.parameters.map((v) => (isMarker(v) ? args[v[PARAM]] : v)),
      };
    },
  });
}

export function compileQuery<R>(query: Query<R>, qb: Kysely<Database>): Compiled {
  if ('kind' in query && query.kind === 'bound') return query.compileWith(qb);
  if ('sql' in query && 'parameters' in query) return query;
  return (query as Compilable<R>).compile();
}
