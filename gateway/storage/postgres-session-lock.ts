import type pg from 'pg';

/** Runs `work` holding a session advisory lock; every process that wants the same key waits its turn. */
export async function withSessionLock<T>(
  client: pg.PoolClient,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  // Database and schema are part of the key: several schemas (test files) in one server migrate in parallel.
  const lockSql = (fn: string) =>
    `select ${fn}(hashtextextended($1 || ':' || current_database() || ':' || current_schema(), 0))`;
  await client.query(lockSql('pg_advisory_lock'), [key]);
  try {
    return await work();
  } finally {
    await client.query(lockSql('pg_advisory_unlock'), [key]);
  }
}
