import { defineConfig } from 'vitest/config';
import { postgresServerInstalled } from './test/support/postgres-server';

// The gateway suite runs twice: on SQLite (with everything else) and on PostgreSQL. The postgres project
// needs a server: TILLPOINT_TEST_PG_URL (which .ci/run sets), or else the server binaries, from which the
// project's global setup starts a loopback server for the run and stops it after. With neither, it runs a
// single test that fails and says how to get one — missing coverage is never silent. TILLPOINT_TEST_PG=skip
// turns that failure into a skipped test, for a developer who knowingly runs without PostgreSQL.
const pgConfigured = Boolean(process.env.TILLPOINT_TEST_PG_URL) || postgresServerInstalled();

// The screen tests drive a terminal process and Chromium each: on two cores beside the CPU-bound model
// checkers and fuzzers they saw 15-second stalls and failed on timeouts, not on behaviour. They run as
// their own group after the rest, one file at a time, with the machine to themselves.
const chromiumTests = ['test/e2e/**/*.test.ts', 'test/gateway/commerce/checkout-chromium.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more forks than that only thrash.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          // Everything but the screens, the gateway on SQLite included.
          name: 'main',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/bench/**', 'node_modules/**', 'test/gateway/postgres/**', ...chromiumTests],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: chromiumTests,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
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
          // The hosted checkout page in Chromium runs once, in its own group; its API is tested here.
          exclude: ['test/gateway/storage.test.ts', 'node_modules/**', ...chromiumTests],
          env: { TILLPOINT_TEST_DATABASE: 'postgres' },
          sequence: { groupOrder: 0 },
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
