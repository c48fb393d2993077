import cluster, { type Worker } from 'node:cluster';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildGateway } from './app';
import { DEFAULT_LANES } from './storage/postgres-storage';
import { defaultDataRoot, parsePort, UsageError } from './cli-args';
import { stopWithParent } from './parent-watch';
import { loadKeys } from './security/keys';
import {
  DATABASE_URL_ENV,
  DatabaseConfigError,
  parseDatabase,
  SQLITE_FILE,
  type DatabaseConfig,
} from './storage/open-storage';

const usage = `usage: npm run gateway -- [--port N] [--host H] [--data DIR] [--sandbox] [--base-path /prefix]
                           [--testing-prefix on|off] [--public-url URL] [--sandbox-slow-ms MS]
                           [--sandbox-ledger]
                           [--log-level info|warn|error|silent]
                           [--db sqlite|postgres://user:password@host:port/database] [--db-pool N]
                           [--db-lanes N]
                           [--workers N] [--max-tip-percent N] [--parent-pid N]
  --testing-prefix  serve {base}/testing/api/... as {base}/api/... (the real service's test URL); on by
              default in sandbox mode, off otherwise
  --db        the database (default: $${DATABASE_URL_ENV}, else SQLite in the data folder); the key file
              stays in --data, and every process on one PostgreSQL database needs the same one
  --db-pool   PostgreSQL connections per process (default 10)
  --db-lanes  of those, how many carry every request's one-statement units, pipelined (default 2; 0: none);
              with --workers, shared out among the workers (at least one each)
  --workers   N processes sharing the port (Node cluster); more than 1 needs PostgreSQL
  --max-tip-percent  ClosePreauth's AdditionalTip bound, in percent of the hold (default 20)
  --sandbox   demo merchants, simulated processor, generated keys; required for a new data folder that
              was not set up with gateway:admin init-keys
  --sandbox-ledger  the sandbox processor keeps its ledger in the database (for the model checker)
  --parent-pid  stop (as on SIGTERM) when process N exits: for a gateway a program runs for itself, such as
              the terminal's embedded gateway`;

type Settings = {
  port: number;
  host: string;
  dataDir: string;
  sandbox: boolean;
  basePath: string;
  testingPrefix: boolean | undefined;
  publicUrl: string | undefined;
  sandboxSlowMs: number | undefined;
  sandboxLedger: boolean;
  level: string;
  database: DatabaseConfig;
  workers: number;
  maxTipPercent: number | undefined;
  parentPid: number | undefined;
};

function parseInRange(value: string, name: string, min: number, max: number): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be ${min}-${max}, not "${value}"`);
  return Number(value);
}

function parsePositive(value: string | undefined, name: string, fallback: number, max: number): number {
  return value === undefined ? fallback : parseInRange(value, name, 1, max);
}

const parseCount = (value: string, name: string, max: number) => parseInRange(value, name, 0, max);

function settings(): Settings | null {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        sandbox: { type: 'boolean' },
        'base-path': { type: 'string' },
        'testing-prefix': { type: 'string' },
        'public-url': { type: 'string' },
        'sandbox-slow-ms': { type: 'string' },
        'sandbox-ledger': { type: 'boolean' },
        'log-level': { type: 'string' },
        db: { type: 'string' },
        'max-tip-percent': { type: 'string' },
        'db-pool': { type: 'string' },
        'db-lanes': { type: 'string' },
        workers: { type: 'string' },
        'parent-pid': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  if (args.help) {
    process.stdout.write(usage + '\n');
    return null;
  }
  const dataDir = args.data ?? join(defaultDataRoot(), 'gateway');
  let database: DatabaseConfig;
  try {
    database = parseDatabase(args.db ?? process.env[DATABASE_URL_ENV]);
  } catch (error) {
    if (error instanceof DatabaseConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (database.kind === 'postgres' && args['db-pool'] !== undefined)
    database = { ...database, poolSize: parsePositive(args['db-pool'], 'db-pool', 10, 200) };
  if (args['db-lanes'] !== undefined) {
    if (database.kind !== 'postgres') throw new UsageError('--db-lanes needs PostgreSQL (--db postgres://…)');
    database = { ...database, lanes: parseCount(args['db-lanes'], 'db-lanes', 64) };
  }
  const workers = parsePositive(args.workers, 'workers', 1, 64);
  if (workers > 1 && database.kind === 'postgres') {
    // Lanes are for the host: the workers share them out (at least one each). Measured on 2 cores, two
    // processes with one lane each beat two with two (docs/postgres.md, "Pool and lanes").
    const lanes = database.lanes ?? DEFAULT_LANES;
    database = { ...database, lanes: lanes === 0 ? 0 : Math.max(1, Math.round(lanes / workers)) };
  }
  if (workers > 1 && database.kind === 'sqlite')
    throw new UsageError(
      `--workers ${workers} needs PostgreSQL (--db postgres://…): a SQLite file has a single writer, so ` +
        'more processes would only queue on it. Run one process on SQLite, or move to PostgreSQL ' +
        '(docs/postgres.md).',
    );
  // A new folder (no key file, no database; on PostgreSQL the database may already serve other processes,
  // so the key file alone decides) is never silently made a sandbox with demo merchants and generated keys:
  // the operator says which it is (an early plan said otherwise: docs/decisions.md#running gives the reason).
  const keysExist = existsSync(join(dataDir, 'keys.json'));
  const fresh = !keysExist && (database.kind === 'postgres' || !existsSync(join(dataDir, SQLITE_FILE)));
  const basePath = args['base-path'] ?? '';
  if (basePath && !/^\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(basePath))
    throw new UsageError('--base-path must look like /testing');
  const prefixFlag = args['testing-prefix'];
  if (prefixFlag !== undefined && prefixFlag !== 'on' && prefixFlag !== 'off')
    throw new UsageError(`--testing-prefix must be on or off, not "${prefixFlag}"`);
  const port = parsePort(args.port, 8080);
  const parentPid = args['parent-pid'];
  if (parentPid !== undefined && !/^[1-9]\d{0,9}$/.test(parentPid))
    throw new UsageError(`--parent-pid must be a process id, not "${parentPid}"`);
  const maxTipPercent =
    args['max-tip-percent'] === undefined
      ? undefined
      : parsePositive(args['max-tip-percent'], 'max-tip-percent', 20, 100);
  // Last, so that a mistyped argument is reported as such first.
  if (fresh && args.sandbox !== true && !cluster.isWorker) {
    throw new UsageError(
      `${dataDir} is a new data folder with no production set-up. Start it with --sandbox for the demo ` +
        'sandbox (demo merchants, simulated processor, generated keys), or set it up for production first: ' +
        `npm run gateway:admin -- init-keys --data ${dataDir} (then add-application, add-merchant, add-user, ` +
        'add-cashier; README "The gateway alone").',
    );
  }
  return {
    port,
    host: args.host ?? '127.0.0.1',
    dataDir,
    // A worker asks the primary, which decided before it made the key file (the folder is no longer new).
    sandbox: cluster.isWorker ? process.env[WORKER_SANDBOX_ENV] === '1' : args.sandbox === true,
    basePath,
    testingPrefix: prefixFlag === undefined ? undefined : prefixFlag === 'on',
    publicUrl: args['public-url'],
    sandboxSlowMs: args['sandbox-slow-ms'] ? Number(args['sandbox-slow-ms']) : undefined,
    sandboxLedger: args['sandbox-ledger'] === true,
    level: args['log-level'] ?? 'warn',
    database,
    workers,
    maxTipPercent,
    parentPid: parentPid === undefined ? undefined : Number(parentPid),
  };
}

/** The primary's sandbox decision, handed to its workers. */
const WORKER_SANDBOX_ENV = 'TILLPOINT_GATEWAY_WORKER_SANDBOX';

/** What a cluster worker tells the primary once its server listens. */
type WorkerMessage = { type: 'listening'; address: string };

function isWorkerMessage(m: unknown): m is WorkerMessage {
  return (
    typeof m === 'object' &&
    m !== null &&
    (m as { type?: unknown }).type === 'listening' &&
    typeof (m as { address?: unknown }).address === 'string'
  );
}

/** One gateway in this process: alone (prints the ready line) or as a cluster worker (tells the primary). */
async function serve(s: Settings): Promise<void> {
  const gateway = await buildGateway({
    dataDir: s.dataDir,
    database: s.database,
    sandbox: s.sandbox,
    basePath: s.basePath,
    ...(s.testingPrefix !== undefined ? { testingPrefix: s.testingPrefix } : {}),
    ...(s.publicUrl ? { publicUrl: s.publicUrl } : {}),
    ...(s.sandboxSlowMs !== undefined ? { sandboxSlowMs: s.sandboxSlowMs } : {}),
    sandboxLedger: s.sandboxLedger,
    ...(s.maxTipPercent !== undefined ? { maxAdditionalTipPercent: s.maxTipPercent } : {}),
    logger: s.level === 'silent' ? false : { level: s.level },
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Close the listener, let in-flight requests finish, then drain the storage: no answered sale is lost.
    gateway
      .close()
      .then(() => {
        if (!cluster.isWorker) process.stderr.write(`gateway stopped (${signal})\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(`gateway stopped with an error: ${(error as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A worker stops when the primary says so (SIGTERM): Ctrl-C reaches the whole process group, and the
  // primary must see its workers finish before it reports.
  process.on('SIGINT', () => (cluster.isWorker ? undefined : stop('SIGINT')));
  if (s.parentPid !== undefined && !cluster.isWorker)
    stopWithParent(s.parentPid, () => stop('its parent exited'));

  const address = await gateway.app.listen({ port: s.port, host: s.host });
  if (!gateway.services.config.publicUrl) gateway.services.config.publicUrl = address;
  if (cluster.isWorker) {
    process.send?.({ type: 'listening', address } satisfies WorkerMessage);
    return;
  }
  if (s.sandbox)
    process.stderr.write('sandbox mode: demo merchants 1001, 1002 and 76074, simulated processor\n');
  process.stdout.write(`gateway listening on ${address}\n`);
}

/**
 * The cluster's primary: makes the key file once (workers racing to create it would each write their
 * own), starts the workers, prints the ready line once they all listen, replaces a worker that dies, and
 * on SIGTERM/SIGINT stops them all and waits for each to finish its in-flight requests.
 */
function supervise(s: Settings): Promise<void> {
  mkdirSync(s.dataDir, { recursive: true, mode: 0o700 });
  loadKeys(join(s.dataDir, 'keys.json'), s.sandbox);
  let ready = false;
  let stopping: string | null = null;
  const alive = new Map<number, Worker>();
  const listening = new Set<number>();

  return new Promise((resolve) => {
    const fork = (): void => {
      const worker = cluster.fork({ [WORKER_SANDBOX_ENV]: s.sandbox ? '1' : '0' });
      alive.set(worker.id, worker);
      worker.on('message', (m: unknown) => {
        if (!isWorkerMessage(m)) return;
        listening.add(worker.id);
        if (!ready && listening.size === s.workers) {
          ready = true;
          if (s.sandbox)
            process.stderr.write('sandbox mode: demo merchants 1001, 1002 and 76074, simulated processor\n');
          process.stdout.write(`gateway listening on ${m.address}\n`);
        }
      });
    };
    const stopAll = (reason: string) => {
      stopping ??= reason;
      if (alive.size === 0) resolve();
      for (const w of alive.values()) w.process.kill('SIGTERM');
    };
    cluster.on('exit', (worker, code, signal) => {
      alive.delete(worker.id);
      listening.delete(worker.id);
      if (stopping !== null) {
        if (alive.size > 0) return;
        if (stopping.startsWith('SIG')) process.stderr.write(`gateway stopped (${stopping})\n`);
        resolve();
        return;
      }
      if (!ready) {
        // A worker that cannot start (database unreachable, bad config) has said why on stderr.
        process.exitCode = 1;
        stopAll('startup failed');
        return;
      }
      process.stderr.write(
        `gateway: worker ${worker.process.pid ?? '?'} exited (${signal ?? code}); starting another\n`,
      );
      fork();
    });
    process.on('SIGTERM', () => stopAll('SIGTERM'));
    process.on('SIGINT', () => stopAll('SIGINT'));
    if (s.parentPid !== undefined) stopWithParent(s.parentPid, () => stopAll('its parent exited'));
    for (let i = 0; i < s.workers; i += 1) fork();
  });
}

async function main(): Promise<void> {
  const s = settings();
  if (!s) return;
  if (s.workers > 1 && cluster.isPrimary) await supervise(s);
  else await serve(s);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
