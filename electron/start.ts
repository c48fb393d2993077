import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBridgeServer, type BridgeServer } from './bridge/ws-server';
import type { TerminalCore } from './core/config';
import { acquireLock, acquireLockWhenFree, addLockChild, TerminalLockedError } from './core/data-folder-lock';
import { createTerminalCore } from './core/wiring';
import {
  nodeGatewayLauncher,
  sandboxCredentials,
  startEmbeddedGateway,
  type EmbeddedGateway,
} from './embedded-gateway';
import { defaultDataRoot } from './util/data-root';
import { bundleElectron, electronBinary } from './electron-binary';
import { newSecret } from './util/ids';

/**
 * `npm start` (docs/decisions.md#running): the whole terminal on its embedded defaults. The sandbox gateway
 * runs as a child process, devices are simulated unless a tech configured real ones, and the screens open in
 * the Electron window when the Electron binary is installed — otherwise they are served over loopback
 * (browser mode). Either way one line says where: `terminal ready at http://127.0.0.1:PORT/#launch=TOKEN`
 * (the token is good for one window).
 */

const usage = `usage: npm start -- [--data DIR] [--port N] [--lane ID] [--browser] [--kiosk] [--customer-display]
                   [--sandbox-slow-ms MS]
  --data DIR            data folder (default: the user's data folder)
  --port N              loopback port for the screens and the bridge (default: a free port)
  --lane ID             lane id on first start (letters and digits)
  --browser             browser mode even when the Electron binary is installed
  --kiosk               Electron window full screen, no menu, relaunched after a crash (docs/packaging.md)
  --customer-display    also print a customer display's address (its own one-time launch token): open it
                        on the customer's screen (the Electron app opens it on a second screen by itself)
  --sandbox-slow-ms MS  delay of the sandbox's slow test card (4000000000000119)`;

class UsageError extends Error {}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

type Args = {
  data: string;
  port: number;
  lane?: string;
  browser: boolean;
  kiosk: boolean;
  customerDisplay: boolean;
  slowMs?: number;
};

function parse(): Args | undefined {
  let values;
  try {
    values = parseArgs({
      options: {
        data: { type: 'string' },
        port: { type: 'string' },
        lane: { type: 'string' },
        browser: { type: 'boolean' },
        kiosk: { type: 'boolean' },
        'customer-display': { type: 'boolean' },
        'sandbox-slow-ms': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  if (values.help) {
    process.stdout.write(usage + '\n');
    return undefined;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '0') || port > 65535)
    throw new UsageError(`--port must be 0-65535\n${usage}`);
  if (values.lane !== undefined && !/^[A-Za-z0-9]{1,16}$/.test(values.lane))
    throw new UsageError('--lane is 1 to 16 letters or digits');
  const slow = values['sandbox-slow-ms'];
  if (slow !== undefined && !/^\d{1,6}$/.test(slow))
    throw new UsageError('--sandbox-slow-ms is a number of milliseconds');
  return {
    data: resolve(values.data ?? join(defaultDataRoot(), 'terminal')),
    port,
    ...(values.lane ? { lane: values.lane } : {}),
    browser: values.browser === true,
    kiosk: values.kiosk === true,
    customerDisplay: values['customer-display'] === true,
    ...(slow !== undefined ? { slowMs: Number(slow) } : {}),
  };
}

/** Builds the renderer when its source exists and its build does not; false when there is nothing to serve. */
function ensureRenderer(): string | undefined {
  const dist = join(repoRoot, 'renderer', 'dist');
  if (existsSync(join(dist, 'index.html'))) return dist;
  // Tests of the launcher itself skip the build (docs/terminal.md).
  if (process.env.TILLPOINT_SKIP_RENDERER_BUILD === '1') return undefined;
  if (!existsSync(join(repoRoot, 'renderer', 'index.html'))) return undefined;
  process.stderr.write('building the renderer (npm run build:renderer)…\n');
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--config', join(repoRoot, 'renderer', 'vite.config.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  if (r.status !== 0 || !existsSync(join(dist, 'index.html'))) {
    const why = (r.stderr ?? '').trim().split('\n').slice(-2).join(' | ');
    process.stderr.write(`the renderer did not build (${why || 'no output'}); serving a placeholder page\n`);
    return undefined;
  }
  return dist;
}

async function main(): Promise<void> {
  const args = parse();
  if (!args) return;
  mkdirSync(args.data, { recursive: true, mode: 0o700 });
  // Refuse a second terminal before starting anything else on the same folder; after a crash, wait for
  // the gateway the dead terminal left to stop by itself (never two gateways on one database).
  let releaseLock = await acquireLockWhenFree(args.data, {
    onWait: (pid) =>
      process.stderr.write(`waiting for the gateway of a terminal that stopped (process ${pid}) to exit\n`),
  });

  let gateway: EmbeddedGateway | undefined;
  let core: TerminalCore | undefined;
  let server: BridgeServer | undefined;
  let stopping = false;
  const bridgeFile = join(args.data, 'bridge.json');

  const shutdown = async (code: number, why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`terminal stopping (${why})\n`);
    await server?.close().catch(() => undefined);
    await core?.stop().catch(() => undefined);
    await gateway?.stop().catch(() => undefined);
    rmSync(bridgeFile, { force: true });
    releaseLock();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));

  try {
    gateway = await startEmbeddedGateway({
      launch: nodeGatewayLauncher(repoRoot),
      dataDir: join(args.data, 'gateway'),
      ...(args.slowMs !== undefined ? { slowMs: args.slowMs } : {}),
      onStderr: (line) => {
        if (!line.includes('sandbox mode')) process.stderr.write(`gateway: ${line}\n`);
      },
      // The folder stays taken while the gateway runs, even if this process is killed (data-folder-lock.ts).
      onSpawn: (pid) => addLockChild(args.data, pid),
    });
    gateway.process.onExit((how) => {
      if (!stopping)
        process.stderr.write(`the embedded gateway stopped (${how}); sales are refused until it returns\n`);
    });

    const binary = args.browser ? undefined : electronBinary(repoRoot);
    if (binary) {
      const bundle = await bundleElectron(repoRoot);
      // Electron's main process hosts the core itself; release our early lock for it.
      releaseLock();
      const ready = await new Promise<boolean>((done) => {
        const child = spawn(binary, [bundle.main, ...(args.kiosk ? ['--kiosk'] : [])], {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'inherit'],
          env: {
            ...process.env,
            TILLPOINT_DATA: args.data,
            TILLPOINT_GATEWAY_URL: gateway?.baseUrl ?? '',
            TILLPOINT_PORT: String(args.port),
            TILLPOINT_PRELOAD: bundle.preload,
            TILLPOINT_RENDERER: ensureRenderer() ?? '',
            ...(args.lane ? { TILLPOINT_LANE: args.lane } : {}),
          },
        });
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (chunk: string) => {
          process.stdout.write(chunk);
          if (chunk.includes('terminal ready at')) done(true);
        });
        child.once('exit', (code) => {
          if (!stopping) {
            if (code === 0) void shutdown(0, 'window closed');
            else done(false);
          }
        });
      });
      if (ready) return;
      process.stderr.write('the Electron window could not start; falling back to browser mode\n');
      releaseLock = acquireLock(args.data);
      if (gateway.process.pid !== undefined) addLockChild(args.data, gateway.process.pid);
    }
    if (args.kiosk)
      process.stderr.write(
        '--kiosk is for the Electron window; in browser mode open the address in a kiosk browser (chromium --kiosk URL)\n',
      );

    core = await createTerminalCore({
      dataDir: args.data,
      ...(args.lane ? { laneId: args.lane } : {}),
      gateway: { baseUrl: gateway.baseUrl, embedded: true, credentials: { ...sandboxCredentials } },
      devices: { kind: 'simulated' },
      sandbox: true,
      logSink: (e) => {
        if (e.level === 'warn' || e.level === 'error') process.stderr.write(`${e.scope}: ${e.message}\n`);
      },
    });
    await core.start();
    const secret = newSecret();
    const staticDir = ensureRenderer();
    const coreRef = core;
    server = await startBridgeServer({
      connect: (kind) => coreRef.connect(kind),
      secret,
      port: args.port,
      ...(staticDir ? { staticDir } : {}),
      placeholderNote: 'Bridge address and secret for tools: bridge.json in the data folder.',
      log: (m) => process.stderr.write(m + '\n'),
    });
    // Automation clients (tests, a store's tools) read the address and secret here; owner-only.
    writeFileSync(
      bridgeFile,
      JSON.stringify({ url: server.url, wsUrl: server.wsUrl, secret, pid: process.pid }),
      { mode: 0o600 },
    );
    // The one line says where, with the one-time launch token for the first window (docs/bridge.md):
    // whoever opens this exact address gets in, once; the page alone (any local process can GET it)
    // grants nothing. Tools use bridge.json; another window: POST /launch with the secret.
    const served = server;
    coreRef.serveCustomerDisplay(() => served.issueLaunchUrl('customer-display'));
    process.stdout.write(`terminal ready at ${server.issueLaunchUrl()}\n`);
    // The customer's screen: its own one-time token, for the customer's view and answers only.
    if (args.customerDisplay)
      process.stdout.write(`customer display at ${server.issueLaunchUrl('customer-display')}\n`);
  } catch (error) {
    await server?.close().catch(() => undefined);
    await core?.stop().catch(() => undefined);
    await gateway?.stop().catch(() => undefined);
    rmSync(bridgeFile, { force: true });
    releaseLock();
    throw error;
  }
}

main().catch((error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  const message =
    error instanceof TerminalLockedError || error instanceof UsageError
      ? e.message
      : e.code === 'EADDRINUSE'
        ? 'that port is already in use: choose another with --port N'
        : (e.message ?? String(error));
  process.stderr.write(`tillpoint: ${message}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
