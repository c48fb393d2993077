import { defineConfig } from 'vitest/config';
import { postgresServerInstalled } from './test/support/postgres-server';

// The gateway suite runs twice: on SQLite (with everything else) and on PostgreSQL. The postgres project
// needs a server: TILLPOINT_TEST_PG_URL (which .ci/run sets), or else the server binaries, from which the
// project's global setup starts a loopback server for the run and stops it after. With neither, it runs a
// single test that fails and says how to get one — missing coverage is never silent. TILLPOINT_TEST_PG=skip
// turns that failure into a skipped test, for a developer who knowingly runs without PostgreSQL.
const pgConfigured = Boolean(process.env.TILLPOINT_TEST_PG_URL) || postgresServerInstalled();

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more forks than that only thrash.
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          // Everything, the gateway on SQLite included.
          name: 'main',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/bench/**', 'node_modules/**', 'test/gateway/postgres/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          // The gateway's model checker runs here too (two gateway processes); the terminal's model tests
          // in test/model do not touch a database and stay in `main` only.
          include: pgConfigured
            ? ['test/gateway/**/*.test.ts', 'test/model/gateway-*.test.ts']
            : ['test/gateway/postgres/server-available.test.ts'],
          // SQLite's own storage tests (WAL, pragmas, its files) have PostgreSQL counterparts in postgres/.
          exclude: ['test/gateway/storage.test.ts', 'node_modules/**'],
          env: { TILLPOINT_TEST_DATABASE: 'postgres' },
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
