import { app, BrowserWindow, ipcMain, session, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { writeFileSync, rmSync } from 'node:fs';
import { contentSecurityPolicy, startBridgeServer, type BridgeServer } from './bridge/ws-server';
import { createTerminalCore, type BridgeConnection, type TerminalCore } from './core';
import { sandboxCredentials } from './embedded-gateway';
import { newSecret } from './util/ids';

/**
 * The Electron main process (started by `npm start` when the Electron binary exists, or by a packaged
 * build). It hosts the terminal core and carries its bridge to the window over IPC: context isolation,
 * the renderer sandboxed with no Node integration, every IPC call checked to come from our window's
 * main frame on our origin, navigation and new windows refused, permissions denied, and a strict CSP.
 * The loopback bridge (browser mode) runs too, for kiosks and automation, and prints the ready line.
 */

const CALL = 'tillpoint:call';
const EVENT = 'tillpoint:event';

const dataDir = process.env.TILLPOINT_DATA ?? join(app.getPath('userData'), 'terminal');
const gatewayUrl = process.env.TILLPOINT_GATEWAY_URL ?? '';
const port = Number(process.env.TILLPOINT_PORT ?? '0');
const preload = process.env.TILLPOINT_PRELOAD ?? join(import.meta.dirname, 'preload.js');
const rendererDir = process.env.TILLPOINT_RENDERER ?? '';

let core: TerminalCore | undefined;
let server: BridgeServer | undefined;
let window: BrowserWindow | undefined;
const connections = new Map<number, BridgeConnection>();

function fail(message: string): never {
  process.stderr.write(`tillpoint: ${message}\n`);
  app.exit(1);
  throw new Error(message);
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) fail('another Tillpoint window is already open');

async function boot(): Promise<void> {
  if (!gatewayUrl) fail('no gateway address (TILLPOINT_GATEWAY_URL); start the terminal with npm start');
  core = await createTerminalCore({
    dataDir,
    ...(process.env.TILLPOINT_LANE ? { laneId: process.env.TILLPOINT_LANE } : {}),
    gateway: { baseUrl: gatewayUrl, embedded: true, credentials: { ...sandboxCredentials } },
    devices: { kind: 'simulated' },
    sandbox: true,
  });
  await core.start();
  const running = core;
  const secret = newSecret();
  server = await startBridgeServer({
    connect: () => running.connect(),
    secret,
    port,
    ...(rendererDir ? { staticDir: rendererDir } : {}),
  });
  const origin = server.url;
  writeFileSync(
    join(dataDir, 'bridge.json'),
    JSON.stringify({ url: server.url, wsUrl: server.wsUrl, secret, pid: process.pid }),
    { mode: 0o600 },
  );

  // Belt and braces: the CSP also comes from the loopback server's headers.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [contentSecurityPolicy(server?.port ?? 0)],
      },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));

  ipcMain.handle(CALL, async (event: IpcMainInvokeEvent, command: unknown, payload: unknown) => {
    // Only our window's top frame, on our own origin, may call the core.
    const frame = event.senderFrame;
    if (
      !window ||
      event.sender !== window.webContents ||
      !frame ||
      frame !== event.sender.mainFrame ||
      !frame.url.startsWith(origin + '/')
    ) {
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Calls come only from the terminal window.' },
      };
    }
    if (typeof command !== 'string')
      return { ok: false, error: { code: 'invalid', message: 'The command is a string.' } };
    let connection = connections.get(event.sender.id);
    if (!connection) {
      const created = running.connect();
      const target = event.sender;
      created.onAny((name, data) => {
        if (!target.isDestroyed()) target.send(EVENT, name, data);
      });
      connections.set(target.id, created);
      target.once('destroyed', () => {
        created.close();
        connections.delete(target.id);
      });
      connection = created;
    }
    return connection.dispatch(command, payload);
  });

  window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'Tillpoint',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (e, url) => {
    if (!url.startsWith(origin + '/')) e.preventDefault();
  });
  window.once('ready-to-show', () => window?.show());
  await window.loadURL(`${origin}/`);
  process.stdout.write(`terminal ready at ${origin}\n`);
}

app.on('window-all-closed', () => app.quit());
app.on('before-quit', (e) => {
  if (!core) return;
  e.preventDefault();
  const stopping = core;
  core = undefined;
  void (async () => {
    await server?.close().catch(() => undefined);
    await stopping.stop().catch(() => undefined);
    rmSync(join(dataDir, 'bridge.json'), { force: true });
    app.exit(0);
  })();
});

app
  .whenReady()
  .then(boot)
  .catch((error: unknown) => {
    fail(error instanceof Error ? error.message : String(error));
  });
