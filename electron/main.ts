import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  screen,
  session,
  utilityProcess,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordCrash } from './app-shell/crash-loop';
import { GATEWAY_ARGS_MARKER } from './app-shell/gateway-argv';
import { resolveShellOptions } from './app-shell/shell-options';
import {
  customerDisplayBounds,
  customerWindowOptions,
  forbiddenCall,
  ipcConnectionKind,
  isAppUrl,
  kioskWindowOptions,
  permissionAllowed,
  secureWebPreferences,
} from './app-shell/window-policy';
import { CUSTOMER_DISPLAY_PATH, IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../common/bridge/contract';
import { contentSecurityPolicy, startBridgeServer, type BridgeServer } from './bridge/ws-server';
import type { BridgeConnection } from './bridge/connection';
import type { TerminalCore } from './core/config';
import { acquireLockWhenFree, addLockChild } from './core/data-folder-lock';
import { createTerminalCore } from './core/wiring';
import {
  sandboxCredentials,
  startEmbeddedGateway,
  type EmbeddedGateway,
  type GatewayLauncher,
} from './embedded-gateway';
import { newSecret } from './util/ids';

/**
 * The Electron main process, started by `npm start` when the Electron binary exists or as the installed
 * app. It hosts the terminal core and carries its bridge to the window over IPC. Security baseline
 * (app-shell/window-policy.ts, verified by test/build/main-security.test.ts): context isolation, the
 * renderer sandboxed with no Node integration, every IPC call checked to come from our window's top
 * frame on our origin, navigation, redirects, webviews and new windows refused, permissions and device
 * access denied, and a strict CSP. The loopback bridge (browser mode) runs too, for automation, and
 * prints the ready line.
 *
 * Kiosk mode (`--kiosk`, TILLPOINT_KIOSK=1 or `"kiosk": true` in shell.json): full screen, no menu, and a
 * crashed renderer or child process brings the app back, up to a crash-loop limit.
 */

const GATEWAY_SERVICE = 'Tillpoint gateway';
const BRIDGE_FILE = 'bridge.json';
const CRASH_LEDGER = 'shell-crashes.json';

const options = resolveShellOptions({
  argv: process.argv.slice(1),
  env: process.env,
  bundleDir: import.meta.dirname,
  appPath: app.getAppPath(),
  userData: app.getPath('userData'),
});
for (const warning of options.warnings) process.stderr.write(`tillpoint: ${warning}\n`);
/** The installed app runs its own gateway; under `npm start` the launcher owns it. */
const ownsGateway = options.gatewayUrl === undefined;

let core: TerminalCore | undefined;
let server: BridgeServer | undefined;
let gateway: EmbeddedGateway | undefined;
let window: BrowserWindow | undefined;
/** The customer display on the second screen, while one is attached. */
let customerWindow: BrowserWindow | undefined;
/** The loopback origin the window loads; until the server is up nothing is ours. */
let origin: string | undefined;
let quitting = false;
let stopped = false;
/** The data folder's lock, taken before the gateway starts on it (the core shares it). */
let releaseLock: (() => void) | undefined;
let exitCode = 0;
const connections = new Map<number, BridgeConnection>();

/** The bundled gateway in an Electron utility process (the installed app has no separate Node). */
function utilityGatewayLauncher(modulePath: string): GatewayLauncher {
  return (args) => {
    const child = utilityProcess.fork(modulePath, [GATEWAY_ARGS_MARKER, ...args], {
      stdio: 'pipe',
      serviceName: GATEWAY_SERVICE,
    });
    let exited = false;
    const listeners: ((how: string) => void)[] = [];
    child.once('exit', (code) => {
      exited = true;
      for (const l of listeners) l(`exit code ${code}`);
    });
    return {
      pid: child.pid,
      stdout: child.stdout,
      stderr: child.stderr,
      get exited() {
        return exited;
      },
      terminate(force) {
        // UtilityProcess.kill() is SIGTERM on POSIX (the gateway drains its commit queue); it has no
        // SIGKILL, so a gateway stuck past the grace period is killed by pid.
        if (force && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
        else child.kill();
      },
      onExit: (listener) => void listeners.push(listener),
    };
  };
}

/**
 * A renderer, GPU or utility process died (or the gateway exited). In kiosk mode the counter must come
 * back by itself: the installed app relaunches whole; under `npm start`, whose launcher owns the gateway
 * a relaunched app could not reach, the window reloads instead. The ledger stops a crash loop.
 */
function onCrash(what: string): void {
  if (quitting) return;
  process.stderr.write(`tillpoint: ${what}\n`);
  if (!options.kiosk) return;
  const decision = recordCrash(join(options.dataDir, CRASH_LEDGER), Date.now(), what, options.crashPolicy);
  if (!decision.relaunch) {
    process.stderr.write(
      `tillpoint: ${decision.recent} crashes within ${decision.policy.windowMs / 60_000} minutes; ` +
        `not restarting again (see ${CRASH_LEDGER} in the data folder)\n`,
    );
    exitCode = 1;
    app.quit();
    return;
  }
  if (ownsGateway) {
    process.stderr.write('tillpoint: kiosk mode: relaunching\n');
    app.relaunch();
    app.quit();
  } else if (window && !window.isDestroyed()) {
    process.stderr.write('tillpoint: kiosk mode: reloading the window\n');
    window.webContents.reload();
  }
}

/** Every webContents, including any created later, stays on our origin and opens nothing. */
function harden(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url, origin)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url, origin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  ses.setDevicePermissionHandler(() => false);
  // Belt and braces: the loopback server sends the same CSP; this also covers any other response.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [contentSecurityPolicy(server?.port ?? 0)],
      },
    });
  });
}

async function handleCall(event: IpcMainInvokeEvent, command: unknown, payload: unknown): Promise<unknown> {
  const frame = event.senderFrame;
  const kind = ipcConnectionKind(
    {
      fromTerminalWindow: window !== undefined && event.sender === window.webContents,
      fromCustomerWindow:
        customerWindow !== undefined &&
        !customerWindow.isDestroyed() &&
        event.sender === customerWindow.webContents,
      fromMainFrame: frame !== null && frame === event.sender.mainFrame,
      frameUrl: frame?.url,
    },
    origin,
  );
  if (!kind || !core) return forbiddenCall;
  if (typeof command !== 'string')
    return { ok: false, error: { code: 'invalid', message: 'The command is a string.' } };
  const target = event.sender;
  let connection = connections.get(target.id);
  if (!connection) {
    const created = core.connect(kind);
    created.onAny((name, data) => {
      if (target.isDestroyed()) return;
      try {
        target.send(IPC_EVENT_CHANNEL, name, data);
      } catch (error) {
        // An event that cannot cross IPC ends this window's connection (it reconnects on its next call),
        // never the core's work that raised it (docs/bridge.md).
        process.stderr.write(`tillpoint: an event could not reach the window (${(error as Error).name})\n`);
        created.close();
        connections.delete(target.id);
      }
    });
    connections.set(target.id, created);
    target.once('destroyed', () => {
      created.close();
      connections.delete(target.id);
    });
    connection = created;
  }
  return connection.dispatch(command, payload);
}

async function boot(): Promise<void> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // Before the gateway starts on the folder: after a crash, the dead app's gateway stops by itself first.
  releaseLock = await acquireLockWhenFree(options.dataDir);
  let gatewayUrl = options.gatewayUrl;
  if (!gatewayUrl) {
    const folder = options.dataDir;
    gateway = await startEmbeddedGateway({
      launch: utilityGatewayLauncher(options.gatewayModule),
      dataDir: join(options.dataDir, 'gateway'),
      onStderr: (line) => {
        if (!line.includes('sandbox mode')) process.stderr.write(`gateway: ${line}\n`);
      },
      onSpawn: (pid) => addLockChild(folder, pid),
    });
    gateway.process.onExit((how) => onCrash(`the embedded gateway stopped (${how})`));
    gatewayUrl = gateway.baseUrl;
  }

  core = await createTerminalCore({
    dataDir: options.dataDir,
    ...(options.lane ? { laneId: options.lane } : {}),
    gateway: { baseUrl: gatewayUrl, embedded: true, credentials: { ...sandboxCredentials } },
    devices: { kind: 'simulated' },
    sandbox: true,
  });
  await core.start();
  const running = core;
  const secret = newSecret();
  server = await startBridgeServer({
    connect: (kind) => running.connect(kind),
    secret,
    port: options.port,
    ...(options.rendererDir ? { staticDir: options.rendererDir } : {}),
  });
  origin = server.url;
  const served = server;
  running.serveCustomerDisplay(() => served.issueLaunchUrl('customer-display'));
  writeFileSync(
    join(options.dataDir, BRIDGE_FILE),
    JSON.stringify({ url: server.url, wsUrl: server.wsUrl, secret, pid: process.pid }),
    { mode: 0o600 },
  );

  hardenSession();
  ipcMain.handle(IPC_CALL_CHANNEL, handleCall);

  // No menu in kiosk mode: nothing for a customer to click, and no reload/devtools accelerators.
  if (options.kiosk) Menu.setApplicationMenu(null);
  window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'Tillpoint',
    show: false,
    backgroundColor: '#0f3b4c',
    ...kioskWindowOptions(options.kiosk),
    webPreferences: secureWebPreferences(options.preload),
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason !== 'clean-exit') onCrash(`the window's renderer is gone (${details.reason})`);
  });
  window.once('ready-to-show', () => window?.show());
  // The customer's screen goes with the cashier's (else the app would stay up behind a customer display).
  window.once('closed', () => {
    if (customerWindow && !customerWindow.isDestroyed()) customerWindow.close();
  });
  await window.loadURL(`${origin}/`);
  // A second screen shows the customer's side; plugged in or out later, the window follows.
  syncCustomerWindow();
  screen.on('display-added', syncCustomerWindow);
  screen.on('display-removed', syncCustomerWindow);
  // The window talks over IPC; the printed address (with a one-time launch token) opens one browser
  // window as well, as in browser mode.
  process.stdout.write(`terminal ready at ${server.issueLaunchUrl()}\n`);
}

/** Opens the customer display on the second screen when there is one, and closes it when it goes. */
function syncCustomerWindow(): void {
  if (quitting || !origin) return;
  const bounds = customerDisplayBounds(screen.getAllDisplays(), screen.getPrimaryDisplay().id);
  const open = customerWindow !== undefined && !customerWindow.isDestroyed();
  if (!bounds) {
    if (open) customerWindow?.close();
    customerWindow = undefined;
    return;
  }
  if (open) {
    customerWindow?.setBounds(bounds);
    return;
  }
  const created = new BrowserWindow(customerWindowOptions(bounds, options.preload));
  customerWindow = created;
  created.once('ready-to-show', () => created.show());
  created.once('closed', () => {
    if (customerWindow === created) customerWindow = undefined;
  });
  void created.loadURL(`${origin}${CUSTOMER_DISPLAY_PATH}`).catch(() => undefined);
}

/** Stops everything in order (bridge, core, gateway), then exits with `exitCode`. */
async function shutdown(): Promise<void> {
  await server?.close().catch(() => undefined);
  await core?.stop().catch(() => undefined);
  await gateway?.stop().catch(() => undefined);
  rmSync(join(options.dataDir, BRIDGE_FILE), { force: true });
  releaseLock?.();
  stopped = true;
  app.exit(exitCode);
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) {
  process.stderr.write('tillpoint: another Tillpoint window is already open\n');
  app.exit(1);
} else {
  app.on('web-contents-created', (_event, contents) => harden(contents));
  app.on('child-process-gone', (_event, details) => {
    // The gateway's own exit is reported by its launcher; a clean exit is no crash.
    if (details.reason === 'clean-exit' || details.serviceName === GATEWAY_SERVICE) return;
    onCrash(`a ${details.type} process is gone (${details.reason})`);
  });
  app.on('second-instance', () => {
    if (window && !window.isDestroyed()) {
      window.show();
      window.focus();
    }
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    void shutdown();
  });
  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => {
      process.stderr.write(`tillpoint: ${error instanceof Error ? error.message : String(error)}\n`);
      exitCode = 1;
      app.quit();
    });
}
