import pg from 'pg';
import { PG_RUN_URL_ENV, PG_URL_ENV, endAdminPool, withDatabase } from '../support/test-database';

/**
 * A database of the benchmark's own on the server named by TILLPOINT_TEST_PG_URL, dropped at the end, so
 * the figures never include another run's rows; every gateway of the run gets a schema in it
 * (test-database.ts createSchema). Null when no server is configured.
 */
export async function benchDatabase(): Promise<{ server: string; drop(): Promise<void> } | null> {
  const server = process.env[PG_URL_ENV];
  if (!server) return null;
  const name = `tillpoint_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8'`);
  process.env[PG_RUN_URL_ENV] = withDatabase(server, name);
  return {
    server,
    async drop() {
      await endAdminPool();
      const left = await admin.query(
        'select application_name, state, query from pg_stat_activity where datname = $1',
        [name],
      );
      if (left.rowCount) console.log('still connected:', JSON.stringify(left.rows));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
