import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorage } from '../../../gateway/storage/postgres-storage';
import type { Storage } from '../../../gateway/storage/queryable';
import { startGateway } from '../../support/gateway-harness';
import { spawnGateway, type SpawnedGateway } from '../../support/spawn-gateway';
import { dropSchema, schemaOf, testDatabaseFor } from '../../support/test-database';

/**
 * The gateway under check: one process on SQLite, or two processes on one PostgreSQL database, each with
 * the sandbox processor keeping its ledger (--sandbox-ledger). `storage` is the checker's own connection
 * to the same database: it onboards each run's merchant (as gateway:admin does) and reads the books.
 */
export type Target = {
  name: string;
  urls: string[];
  storage: Storage;
  slowMs: number;
  /** The command that runs the checker on this database again: a failure's replay line ends with it. */
  replayCommand: string;
  close(): Promise<void>;
};

const testFile = 'test/model/gateway-money.model.test.ts';

/** One in-process gateway on a SQLite file (test/support/gateway-harness), over real HTTP on loopback. */
export async function sqliteTarget(slowMs: number): Promise<Target> {
  const gw = await startGateway({ sandboxSlowMs: slowMs, sandboxLedger: true, backgroundTasks: false });
  return {
    name: 'SQLite, one gateway process',
    urls: [gw.baseUrl],
    storage: gw.gateway.storage,
    slowMs,
    replayCommand: `npx vitest run --project main ${testFile}`,
    close: () => gw.close(),
  };
}

/**
 * Two gateway processes (`npm run gateway -- --db …`, as test/gateway/postgres/multi-process.test.ts
 * starts them) on one PostgreSQL database: `url` when given (the bench's own database), else a schema of
 * the `postgres` vitest project's run database.
 */
export async function postgresTarget(slowMs: number, url?: string, processes = 2): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-model-'));
  let dbUrl = url;
  if (!dbUrl) {
    const db = await testDatabaseFor(dataDir);
    if (db.kind !== 'postgres') throw new Error('postgresTarget needs a URL outside the postgres project');
    dbUrl = db.url;
  }
  const schema = url ? null : schemaOf(dataDir);
  const args = [
    '--port',
    '0',
    '--data',
    dataDir,
    '--db',
    dbUrl,
    '--sandbox',
    '--sandbox-ledger',
    '--sandbox-slow-ms',
    String(slowMs),
    '--log-level',
    'silent',
  ];
  const gateways: SpawnedGateway[] = await Promise.all(
    Array.from({ length: processes }, () => spawnGateway(args, {}, 90_000)),
  );
  const storage = await openPostgresStorage({ url: dbUrl, poolSize: 4 });
  return {
    name: `PostgreSQL, ${processes} gateway processes`,
    urls: gateways.map((g) => g.url),
    storage,
    slowMs,
    // Two processes as here; the project needs TILLPOINT_TEST_PG_URL or the server binaries.
    replayCommand: `npx vitest run --project postgres ${testFile}`,
    async close() {
      await storage.close();
      for (const g of gateways) g.child.kill('SIGTERM');
      await Promise.all(gateways.map((g) => g.exited));
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
