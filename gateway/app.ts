import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { systemClock, type Clock } from './domain/clock';
import { tenderFraudScreen } from './domain/fraud-options';
import { Authenticator } from './security/authenticator';
import { loadKeys } from './security/keys';
import { LoginThrottle, defaultThrottle, type ThrottleOptions } from './security/login-throttle';
import { storageAtcRegister } from './sandbox/atc-register';
import { createSandboxIssuers } from './sandbox/sandbox-issuers';
import { createSandboxProcessor } from './sandbox/sandbox-processor';
import type { Processor } from './domain/processor-port';
import { withProcessorLedger } from './sandbox/processor-ledger';
import { addDemoMerchant, isEmpty, seedSandbox } from './sandbox/seed';
import { tryItDocs, tryItUiConfig } from './sandbox/try-it-docs';
import { STATEMENTS_TASK } from './schedulers/statements';
import { openStorage, type DatabaseConfig } from './storage/open-storage';
import type { Storage } from './storage/queryable';
import { clientErrorHandler, frameworkErrors, registerErrorHandlers } from './http/errors';
import { registerJsonParsers, testingRewrite } from './http/wire';
import type { GatewayConfig, GatewayServices } from './http/services';
import { interfaceGroups } from './routes/groups';
import type { BackgroundTask } from './schedulers/background-task';
import { DEFAULT_MAX_TIP_PERCENT } from './domain/preauth';
import { recoverInterruptedPayments } from './domain/recovery';
import { outcome } from './domain/outcome';
import { sharedSchemas } from './contract/common';
import { ResponseCode } from './contract/response-codes';
import { intervalTask } from './schedulers/interval-task';

export type GatewayOptions = {
  /** The key file's folder (and the SQLite database's, when that is the database). */
  dataDir: string;
  /** SQLite in the data folder by default; PostgreSQL for several gateway processes on one database. */
  database?: DatabaseConfig;
  /** Seed the demo merchants into a new database and create keys on first run. */
  sandbox: boolean;
  basePath?: string;
  /**
   * Serve `{basePath}/testing/api/...` as `{basePath}/api/...`, the real service's test URL its published
   * clients use in test mode. On by default in sandbox mode, off otherwise.
   */
  testingPrefix?: boolean;
  publicUrl?: string;
  clock?: Clock;
  processor?: Processor;
  sandboxSlowMs?: number;
  /**
   * The sandbox processor keeps its own ledger in the database (sandbox/processor-ledger.ts), for the
   * model checker; off by default, since every processor call then costs a commit.
   */
  sandboxLedger?: boolean;
  throttle?: ThrottleOptions;
  duplicateWindowMs?: number;
  bodyLimitBytes?: number;
  processorTimeoutMs?: number;
  /** ClosePreauth's AdditionalTip bound, in percent of what the preauthorization held (20 by default). */
  maxAdditionalTipPercent?: number;
  tokenTtlSeconds?: number;
  credentialCacheTtlMs?: number;
  /** Pino logger options, or false for none. */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream };
  /**
   * Start the groups' background tasks (schedulers) on their timers; true by default. Tests that drive a
   * ManualClock turn it off and call `gateway.tasks.get(name)?.runOnce()` themselves.
   */
  backgroundTasks?: boolean;
};

export type Gateway = {
  app: FastifyInstance;
  services: GatewayServices;
  storage: Storage;
  /** The groups' background tasks by name. */
  tasks: ReadonlyMap<string, BackgroundTask>;
  close(): Promise<void>;
};

export const RECOVERY_TASK = 'payment-recovery';

/**
 * Several processes on one PostgreSQL database: when one dies mid-payment the others keep running, so no
 * restart would recover its pending payments. Every process sweeps for abandoned ones once a minute.
 */
function recoverySweep(sweep: () => Promise<number>, intervalMs = 60_000): BackgroundTask {
  // A failed sweep (database briefly away) is retried by the next one.
  return intervalTask(RECOVERY_TASK, sweep, intervalMs, () => undefined);
}

/**
 * Builds the gateway (routes, storage, processor) without listening: server.ts listens, tests inject or
 * listen on port 0. Every route is declared in contract/, so validation, serialization and /openapi.json
 * come from the same schemas.
 */
export async function buildGateway(options: GatewayOptions): Promise<Gateway> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const keys = loadKeys(join(options.dataDir, 'keys.json'), options.sandbox);
  const storage = await openStorage(options.database ?? { kind: 'sqlite' }, options.dataDir);
  const slowMs = options.sandboxSlowMs ?? 3_000;
  const sandboxProcessor = (): Processor => {
    const simulated = createSandboxProcessor(
      { slowMs, latencyMs: 0 },
      () => clock.now(),
      // The sandbox issuer's ATC register lives in the database: a replay is caught across processes.
      storageAtcRegister(storage, keys.fingerprintKey, () => clock.now()),
    );
    return options.sandboxLedger
      ? withProcessorLedger(simulated, storage, { slowMs, now: () => clock.now() })
      : simulated;
  };
  const processor = options.processor ?? sandboxProcessor();
  if (options.sandbox) {
    if (await isEmpty(storage)) await seedSandbox(storage, processor.name, clock.now());
    else await addDemoMerchant(storage, processor.name, clock.now());
  }
  const processorTimeoutMs = options.processorTimeoutMs ?? 30_000;
  // SQLite has one process: every pending payment at start is a crash's. On PostgreSQL other live
  // processes may have payments at the processor right now (domain/recovery.ts).
  const abandonedAfterMs = storage.dialect === 'postgres' ? processorTimeoutMs + 60_000 : 0;
  await recoverInterruptedPayments(storage, processor, clock.now(), abandonedAfterMs);

  const rewriteOn = options.testingPrefix ?? options.sandbox;
  const config: GatewayConfig = {
    basePath: options.basePath ?? '',
    publicUrl: options.publicUrl ?? '',
    bodyLimitBytes: options.bodyLimitBytes ?? 64 * 1024,
    processorTimeoutMs,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 15 * 60,
    sandbox: options.sandbox,
    testingPrefix: rewriteOn,
  };
  const services: GatewayServices = {
    storage,
    processor,
    issuers: createSandboxIssuers(),
    keys,
    clock,
    rules: {
      duplicateWindowMs: options.duplicateWindowMs ?? 5 * 60_000,
      amountCeilingCents: 99_999_999,
      maxAdditionalTipPercent: options.maxAdditionalTipPercent ?? DEFAULT_MAX_TIP_PERCENT,
    },
    authenticator: new Authenticator(
      storage,
      keys.fingerprintKey,
      clock,
      new LoginThrottle(storage, options.throttle ?? defaultThrottle),
      {
        cacheTtlMs: options.credentialCacheTtlMs ?? 60_000,
        cacheMaxEntries: 10_000,
      },
    ),
    // The fraud auto-deny checks act on every sale (domain/fraud-options.ts).
    fraud: tenderFraudScreen,
    config,
    processorTimeoutMs: config.processorTimeoutMs,
  };

  const rewrite = config.testingPrefix ? testingRewrite(config.basePath) : undefined;
  const app = Fastify({
    bodyLimit: config.bodyLimitBytes,
    // Paths match case-insensitively, as the real service's do (`/testing/api/Transactions/sale`).
    routerOptions: { caseSensitive: false },
    ...(rewrite ? { rewriteUrl: (req: { url?: string }) => rewrite(req.url ?? '/') } : {}),
    // Our own onRequest hook answers 503 while closing, in the interface's shape.
    return503OnClosing: false,
    // Faults before routing and HTTP the parser refuses answer in the interface's shape too (http/errors.ts).
    frameworkErrors,
    clientErrorHandler,
    logger:
      options.logger === undefined || options.logger === false
        ? false
        : {
            level: options.logger === true ? 'info' : options.logger.level,
            ...(options.logger !== true && options.logger.stream ? { stream: options.logger.stream } : {}),
            // Query strings can carry the Payment Links credentials: log paths only, never bodies or headers.
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                path: req.url.split('?')[0],
                ip: req.ip,
              }),
            },
          },
    ajv: {
      customOptions: { allErrors: true, coerceTypes: false, removeAdditional: true, useDefaults: true },
    },
  });

  // While closing, every answer tells the client to drop its keep-alive connection, so the server
  // stops as soon as the last in-flight request is answered instead of waiting out keepAliveTimeout.
  let closing = false;
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply
      .code(503)
      .header('connection', 'close')
      .send(
        outcome(ResponseCode.ProcessorUnavailable, [
          'The gateway is shutting down; retry shortly (nothing was done)',
        ]),
      );
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  const known = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const key = route.url.toLowerCase();
    const set = known.get(key) ?? new Set<string>();
    for (const m of methods) set.add(m);
    known.set(key, set);
  });
  registerErrorHandlers(app, () => known);

  // Every handler still running, answered or not: a client that hung up (a terminal killed mid-sale) leaves
  // no connection for app.close() to wait on, yet its payment is at the processor. close() waits for the
  // handler so that answer is committed, not left pending for the next start's recovery to undo.
  const running = new Set<Promise<unknown>>();
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracked(request, reply) {
      const run = Promise.resolve(handler.call(this, request, reply));
      running.add(run);
      const done = () => running.delete(run);
      run.then(done, done);
      return run;
    };
  });

  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  registerJsonParsers(app, config.bodyLimitBytes);
  // The credential envelope is registered once and referenced by every body (contract/common.ts).
  for (const { schema } of sharedSchemas) app.addSchema(schema);
  await app.register(swagger, {
    // A shared schema appears in components/schemas under its $id (`Envelope`), not as `def-0`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tillpoint payment gateway',
        version: '1.0.0',
        description:
          'The merchant payment-gateway interface, as implemented by Tillpoint. Outcomes travel in ResponseCode.',
      },
      components: {
        securitySchemes: {
          // The Reporting group's `Authorization: Bearer <Token>`, the Token /api/Auth answers.
          bearer: { type: 'http', scheme: 'bearer', description: 'the Token POST /api/Auth answers' },
        },
      },
    },
  });
  // In the sandbox every operation of the page carries an example that works there (sandbox/try-it-docs.ts).
  const tasks = new Map<string, BackgroundTask>();
  const tryIt = config.sandbox
    ? tryItDocs(
        app,
        config.basePath,
        () => clock.now(),
        async () => {
          await tasks.get(STATEMENTS_TASK)?.runOnce();
        },
      )
    : undefined;
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    ...(tryIt
      ? {
          uiHooks: {
            preHandler: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
              void tryIt.prepare(request).then(() => done(), done);
            },
          },
          transformSpecification: (document, request) => tryIt.transform(document, request),
          uiConfig: tryItUiConfig,
        }
      : {}),
  });
  // A newcomer who opens the gateway's address lands on the page, not on a JSON 404.
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/docs'));
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  app.get('/health', { schema: { hide: true } }, () => ({ status: 'ok' }));

  // Also on SQLite: a refund whose processor never confirmed taking its credit back stays pending, and is
  // retried here rather than only at the next start. Past the processor timeout and a margin, nothing
  // pending belongs to a live request.
  const sweep = recoverySweep(() =>
    recoverInterruptedPayments(storage, processor, clock.now(), processorTimeoutMs + 60_000),
  );
  tasks.set(sweep.name, sweep);
  await app.register(
    (scoped, _opts, done) => {
      for (const group of Object.values(interfaceGroups).flat()) {
        for (const task of group(scoped, services) ?? []) tasks.set(task.name, task);
      }
      done();
    },
    { prefix: config.basePath },
  );
  await app.ready();
  if (options.backgroundTasks !== false) for (const task of tasks.values()) task.start();

  return {
    app,
    services,
    storage,
    tasks,
    async close() {
      // Tasks first: a charge in progress finishes and commits before the listener and storage go away.
      for (const task of tasks.values()) await task.stop();
      closing = true;
      app.server.closeIdleConnections();
      await app.close();
      await Promise.allSettled([...running]);
      await storage.close();
    },
  };
}
