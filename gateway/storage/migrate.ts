import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema';
import type { Dialect, Queryable } from './queryable';
import { migrations } from './migrations/index';

export type MigrationContext = {
  dialect: Dialect;
  schema: Kysely<Database>['schema'];
  /**
   * The column type of every integer (cents, ids, counts, 0/1 flags): 64-bit in both dialects. SQLite's
   * INTEGER already is; PostgreSQL's `integer` is 32-bit (a day's batch of a large merchant could overflow
   * it), so there it is `bigint`.
   */
  integer: 'integer' | 'bigint';
  /** Executes DDL built with `schema` (or raw SQL for dialect-specific statements). */
  exec(statement: { compile(): { sql: string } } | string): Promise<void>;
  /** A raw SQL fragment (check constraints, partial indexes), the same text in both dialects. */
  raw(fragment: string): RawBuilder<unknown>;
};

export type Migration = {
  version: number;
  name: string;
  /**
   * SQLite: the migration rebuilds a table that other tables reference (SQLite cannot drop a constraint
   * in place). Its documented procedure runs with foreign keys off, which only takes effect outside a
   * transaction; the runner turns them off around this migration and checks every foreign key before
   * committing it, refusing the migration if any dangles.
   */
  rebuildsTables?: boolean;
  up(ctx: MigrationContext): Promise<void>;
};

export class ForeignKeyCheckError extends Error {
  constructor(migration: string, count: number) {
    super(`migration "${migration}" would leave ${count} dangling foreign key(s); rolled back`);
    this.name = 'ForeignKeyCheckError';
  }
}

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`database schema version ${found} is newer than this build knows (${known}); refusing to open it`);
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Applies the numbered migrations that have not run yet, each in its own transaction, and refuses a
 * database written by a newer build (Signal's rule: never guess at a schema you do not know).
 */
export async function migrate(
  q: Queryable,
  execRaw: (sql: string) => void | Promise<void>,
  list: readonly Migration[] = migrations,
): Promise<number> {
  await execRaw(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
  );
  const rows = await q.all(q.qb.selectFrom('schema_migrations').select(['version']).orderBy('version'));
  const applied = new Set(rows.map((r) => Number(r.version)));
  const known = Math.max(0, ...list.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) throw new SchemaTooNewError(newest, known);

  const ctx: MigrationContext = {
    dialect: q.dialect,
    schema: q.qb.schema,
    integer: q.dialect === 'postgres' ? 'bigint' : 'integer',
    raw: (fragment) => sql.raw(fragment),
    exec: async (statement) => {
      await execRaw(typeof statement === 'string' ? statement : statement.compile().sql);
    },
  };
  let count = 0;
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    const foreignKeysOff = m.rebuildsTables === true && q.dialect === 'sqlite';
    if (foreignKeysOff) await execRaw('PRAGMA foreign_keys = OFF');
    await execRaw('BEGIN');
    try {
      await m.up(ctx);
      if (foreignKeysOff) {
        const dangling = await q.all(sql`PRAGMA foreign_key_check`.compile(q.qb));
        if (dangling.length > 0) throw new ForeignKeyCheckError(m.name, dangling.length);
      }
      await q.run(
        q.qb
          .insertInto('schema_migrations')
          .values({ version: m.version, name: m.name, applied_at: new Date().toISOString() }),
      );
      await execRaw('COMMIT');
    } catch (error) {
      await execRaw('ROLLBACK');
      throw error;
    } finally {
      if (foreignKeysOff) await execRaw('PRAGMA foreign_keys = ON');
    }
    count += 1;
  }
  return count;
}
