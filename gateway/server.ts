import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildGateway } from './app';
import { breadthGroups, breadthFraudScreen } from './breadth';
import { defaultDataRoot, parsePort, UsageError } from './cli-args';

const usage = `usage: npm run gateway -- [--port N] [--host H] [--data DIR] [--sandbox] [--base-path /prefix]
                           [--public-url URL] [--sandbox-slow-ms MS] [--log-level info|warn|error|silent]`;

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        sandbox: { type: 'boolean' },
        'base-path': { type: 'string' },
        'public-url': { type: 'string' },
        'sandbox-slow-ms': { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  if (args.help) {
    process.stdout.write(usage + '\n');
    return;
  }
  const port = parsePort(args.port, 8080);
  const host = args.host ?? '127.0.0.1';
  const dataDir = args.data ?? join(defaultDataRoot(), 'gateway');
  // Sandbox is the default for a new folder with no production config (no key file, no database).
  const fresh = !existsSync(join(dataDir, 'keys.json')) && !existsSync(join(dataDir, 'gateway.sqlite'));
  const sandbox = args.sandbox === true || fresh;
  const basePath = args['base-path'] ?? '';
  if (basePath && !/^\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(basePath))
    throw new UsageError('--base-path must look like /testing');
  const level = args['log-level'] ?? 'warn';

  const gateway = await buildGateway(
    {
      dataDir,
      sandbox,
      basePath,
      ...(args['public-url'] ? { publicUrl: args['public-url'] } : {}),
      ...(args['sandbox-slow-ms'] ? { sandboxSlowMs: Number(args['sandbox-slow-ms']) } : {}),
      logger: level === 'silent' ? false : { level },
    },
    breadthGroups,
    breadthFraudScreen,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Close the listener, let in-flight requests finish, then drain the group-commit queue: no answered sale is lost.
    gateway
      .close()
      .then(() => {
        process.stderr.write(`gateway stopped (${signal})\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(`gateway stopped with an error: ${(error as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const address = await gateway.app.listen({ port, host });
  if (!gateway.services.config.publicUrl) gateway.services.config.publicUrl = address;
  if (sandbox) process.stderr.write('sandbox mode: demo merchants 1001 and 1002, simulated processor\n');
  process.stdout.write(`gateway listening on ${address}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gateway: ${message}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
