import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp, type AppBundle } from '../../electron/app-bundle';
import { GATEWAY_ARGS_MARKER } from '../../electron/app-shell/gateway-argv';
import {
  fakeElectronWorld,
  fakeEvent,
  FakeWebContents,
  type FakeBrowserWindow,
  type FakeElectronWorld,
} from './support/fake-electron';

/**
 * electron/main.ts's real setup, run against a stand-in `electron` (support/fake-electron.ts) because the
 * Electron binary cannot be installed here: main.ts is bundled exactly as for the app, with `electron`
 * aliased to the stand-in, and booted — the real terminal core, the real bridge server and, for the
 * installed-app mode, the bundled gateway in a child process. The tests then drive the handlers main.ts
 * registered: a foreign navigation is really prevented, an IPC call from a foreign frame is really
 * refused while one from the window reaches the core, permissions are really denied.
 */

const repo = join(import.meta.dirname, '..', '..');
// Inside the repository so the bundle's external packages resolve from its node_modules.
const outDir = join(repo, '.tsbuild', 'test-build', `main-security-${process.pid}`);
const scratch = mkdtempSync(join(tmpdir(), 'tillpoint-main-security-'));
let bundle: AppBundle;
let boots = 0;

type Boot = { world: FakeElectronWorld; window: FakeBrowserWindow; origin: string; dataDir: string };

const ENV_KEYS = [
  'TILLPOINT_DATA',
  'TILLPOINT_GATEWAY_URL',
  'TILLPOINT_KIOSK',
  'TILLPOINT_RENDERER',
  'TILLPOINT_PRELOAD',
  'TILLPOINT_PORT',
  'TILLPOINT_LANE',
  'FAKE_ELECTRON_APP_PATH',
  'FAKE_ELECTRON_DISPLAYS',
];

async function until<T>(what: string, get: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Evaluates a fresh copy of the bundled main.ts with this environment and command line. */
async function boot(options: {
  dataDir: string;
  env?: Record<string, string>;
  argv?: string[];
}): Promise<Boot> {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, {
    TILLPOINT_DATA: options.dataDir,
    // The placeholder page: these tests are about the shell, not the screens.
    TILLPOINT_RENDERER: '',
    FAKE_ELECTRON_APP_PATH: repo,
    ...options.env,
  });
  const argv = process.argv;
  process.argv = [...argv, ...(options.argv ?? [])];
  try {
    boots += 1;
    await import(`${pathToFileURL(bundle.main).href}?boot=${boots}`);
  } finally {
    process.argv = argv;
  }
  const world = fakeElectronWorld();
  const window = await until('the window to load', () =>
    world.windows[0]?.loaded ? world.windows[0] : undefined,
  );
  return { world, window, origin: new URL(window.loaded?.url ?? '').origin, dataDir: options.dataDir };
}

async function quit(b: Boot): Promise<number> {
  b.world.app.quit();
  return b.world.exitCode;
}

function fire(contents: FakeWebContents, event: string, url: string): boolean {
  const e = fakeEvent(url);
  contents.fire(event, e, url);
  return e.defaultPrevented;
}

beforeAll(async () => {
  bundle = await bundleApp({
    repoRoot: repo,
    outDir,
    gateway: true,
    alias: { electron: join(import.meta.dirname, 'support', 'fake-electron.ts') },
  });
}, 120_000);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('Electron main process (installed-app mode)', () => {
  let b: Boot;
  const dataDir = join(scratch, 'installed');

  beforeAll(async () => {
    b = await boot({ dataDir });
  }, 120_000);

  it('enables the sandbox for every renderer before the app is ready', () => {
    const log = b.world.log;
    expect(log).toContain('app.enableSandbox');
    expect(log.indexOf('app.enableSandbox')).toBeLessThan(log.indexOf('app.whenReady'));
  });

  it('runs the bundled gateway as a utility process and the core against it', () => {
    expect(b.world.forks).toHaveLength(1);
    const fork = b.world.forks[0];
    expect(fork?.modulePath).toBe(bundle.gateway);
    expect(fork?.args[0]).toBe(GATEWAY_ARGS_MARKER);
    expect(fork?.args).toEqual(expect.arrayContaining(['--sandbox', '--data', join(dataDir, 'gateway')]));
    expect(fork?.options).toMatchObject({ stdio: 'pipe', serviceName: 'Tillpoint gateway' });
    const bridge = JSON.parse(readFileSync(join(dataDir, 'bridge.json'), 'utf8')) as { url: string };
    expect(bridge.url).toBe(b.origin);
  });

  it('opens one window: context isolation, sandbox, no Node, no webview, the bundled preload', () => {
    expect(b.world.windows).toHaveLength(1);
    const prefs = b.window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(prefs.preload).toBe(bundle.preload);
    expect(existsSync(bundle.preload)).toBe(true);
    // A sandboxed preload can require nothing but electron.
    const requires = [...readFileSync(bundle.preload, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map(
      (m) => m[1],
    );
    expect([...new Set(requires)]).toEqual(['electron']);
    expect(b.window.options.kiosk).toBe(false);
    expect(b.world.menus).toEqual([]);
  });

  it('loads only its own loopback origin, served with a strict CSP', () => {
    expect(b.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(b.window.loaded?.status).toBe(200);
    const csp = b.window.loaded?.contentSecurityPolicy ?? '';
    expectStrictCsp(csp, b.origin);
  });

  it('adds the same CSP to every response the session sees', () => {
    const listener = b.world.session.headersListener;
    expect(listener).toBeDefined();
    let headers: Record<string, string[]> | undefined;
    listener?.({ url: `${b.origin}/`, responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => {
      headers = r.responseHeaders;
    });
    expect(headers?.['Content-Type']).toEqual(['text/html']);
    const csp = headers?.['Content-Security-Policy'];
    expect(csp).toHaveLength(1);
    expectStrictCsp(csp?.[0] ?? '', b.origin);
  });

  it('prevents navigation and redirects away from its origin, and lets its own through', () => {
    const wc = b.window.webContents;
    for (const event of ['will-navigate', 'will-redirect']) {
      expect(fire(wc, event, 'https://evil.example/')).toBe(true);
      expect(fire(wc, event, 'file:///etc/passwd')).toBe(true);
      // Prefix tricks: credentials before the host, a longer port, another loopback port.
      expect(fire(wc, event, `${b.origin}@evil.example/`)).toBe(true);
      expect(fire(wc, event, `${b.origin}0/`)).toBe(true);
      expect(fire(wc, event, 'http://127.0.0.1:1/')).toBe(true);
      expect(fire(wc, event, `${b.origin}/`)).toBe(false);
      expect(fire(wc, event, `${b.origin}/index.html#manager`)).toBe(false);
    }
  });

  it('denies every new window, even to its own origin, and every webview', () => {
    const open = b.window.webContents.windowOpenHandler;
    expect(open?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(open?.({ url: `${b.origin}/` })).toEqual({ action: 'deny' });
    const attach = fakeEvent();
    b.window.webContents.fire('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('hardens web contents created later the same way', () => {
    const other = new FakeWebContents();
    b.world.app.emit('web-contents-created', fakeEvent(), other);
    expect(other.windowOpenHandler?.({ url: `${b.origin}/` })).toEqual({ action: 'deny' });
    expect(fire(other, 'will-navigate', 'https://evil.example/')).toBe(true);
  });

  it('denies every permission request and check, and device access', () => {
    const ses = b.world.session;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
      'serial',
      'usb',
      'openExternal',
      'fullscreen',
      'midiSysex',
    ]) {
      let granted: boolean | undefined;
      ses.permissionRequestHandler?.(b.window.webContents, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
      expect(ses.permissionCheckHandler?.(b.window.webContents, permission), permission).toBe(false);
    }
    expect(ses.devicePermissionHandler?.({ deviceType: 'hid', origin: b.origin })).toBe(false);
  });

  it('answers IPC from its window top frame and refuses every other sender', async () => {
    const call = b.world.ipcHandlers.get('tillpoint:call');
    expect(call).toBeDefined();
    const wc = b.window.webContents;
    const invoke = (sender: FakeWebContents, frame: { url: string } | null) =>
      call?.({ sender, senderFrame: frame }, 'terminal.status', {}) as Promise<{
        ok: boolean;
        error?: { code: string };
      }>;

    const trusted = await invoke(wc, wc.mainFrame);
    expect(trusted.ok).toBe(true);

    // An iframe on the same origin, another window, a main frame that left our origin, no frame at all.
    const forbidden = [
      await invoke(wc, { url: `${b.origin}/` }),
      await invoke(new FakeWebContents(), wc.mainFrame),
      await invoke(wc, null),
    ];
    const stray = new FakeWebContents();
    stray.mainFrame.url = `${b.origin}/`;
    forbidden.push(await invoke(stray, stray.mainFrame));
    const saved = wc.mainFrame.url;
    wc.mainFrame.url = 'https://evil.example/';
    forbidden.push(await invoke(wc, wc.mainFrame));
    wc.mainFrame.url = saved;
    for (const answer of forbidden) expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // The trusted sender has a session with the core, and its events come back over IPC.
    const signedIn = (await call?.({ sender: wc, senderFrame: wc.mainFrame }, 'session.signIn', {
      pin: '1111',
    })) as {
      ok: boolean;
    };
    expect(signedIn.ok).toBe(true);
    expect(wc.sent.some((m) => m[0] === 'tillpoint:event')).toBe(true);
  });

  it('outside kiosk mode a renderer crash is reported, not relaunched', () => {
    b.window.webContents.fire('render-process-gone', fakeEvent(), { reason: 'crashed', exitCode: 139 });
    expect(b.world.relaunched).toBe(false);
    expect(b.window.webContents.reloads).toBe(0);
  });

  it('quits cleanly: bridge, core and gateway stopped, bridge.json removed, exit 0', async () => {
    const pid = b.world.forks[0]?.pid;
    expect(pid).toBeDefined();
    expect(alive(pid ?? 0)).toBe(true);
    expect(await quit(b)).toBe(0);
    expect(existsSync(join(dataDir, 'bridge.json'))).toBe(false);
    expect(alive(pid ?? 0)).toBe(false);
    await expect(fetch(`${b.origin}/`)).rejects.toThrow();
  });
});

describe('kiosk mode', () => {
  const dataDir = join(scratch, 'kiosk');

  it(
    'full screen without a menu; a crashed renderer relaunches the app, and the crash-loop limit stops it',
    { timeout: 180_000 },
    async () => {
      mkdirSync(dataDir, { recursive: true });
      // One relaunch allowed per window: the second crash ends the loop.
      writeFileSync(join(dataDir, 'shell.json'), JSON.stringify({ crashLimit: 1 }));

      const first = await boot({ dataDir, argv: ['--kiosk'] });
      expect(first.window.options).toMatchObject({
        kiosk: true,
        fullscreen: true,
        autoHideMenuBar: true,
        frame: false,
      });
      expect(first.world.menus).toEqual([null]);
      // A clean renderer exit (a window closing) is no crash.
      first.window.webContents.fire('render-process-gone', fakeEvent(), {
        reason: 'clean-exit',
        exitCode: 0,
      });
      expect(first.world.relaunched).toBe(false);
      first.window.webContents.fire('render-process-gone', fakeEvent(), { reason: 'crashed', exitCode: 139 });
      expect(first.world.relaunched).toBe(true);
      expect(await first.world.exitCode).toBe(0);
      const ledger = JSON.parse(readFileSync(join(dataDir, 'shell-crashes.json'), 'utf8')) as {
        crashes: { reason: string }[];
      };
      expect(ledger.crashes).toHaveLength(1);

      // The relaunched app (kiosk now from shell.json, as a counter is provisioned) crashes again.
      writeFileSync(join(dataDir, 'shell.json'), JSON.stringify({ kiosk: true, crashLimit: 1 }));
      const second = await boot({ dataDir });
      expect(second.window.options.kiosk).toBe(true);
      second.world.app.emit('child-process-gone', fakeEvent(), {
        type: 'GPU',
        reason: 'crashed',
        exitCode: 1,
      });
      expect(second.world.relaunched).toBe(false);
      expect(await second.world.exitCode).toBe(1);
    },
  );

  it(
    'under npm start (the launcher owns the gateway) a crash reloads the window instead',
    { timeout: 120_000 },
    async () => {
      const b = await boot({
        dataDir: join(scratch, 'launcher'),
        // Nothing listens there: the core starts offline, which is all this test needs.
        env: { TILLPOINT_GATEWAY_URL: 'http://127.0.0.1:9', TILLPOINT_KIOSK: '1' },
      });
      expect(b.world.forks).toHaveLength(0);
      b.window.webContents.fire('render-process-gone', fakeEvent(), { reason: 'oom', exitCode: 1 });
      expect(b.window.webContents.reloads).toBe(1);
      expect(b.world.relaunched).toBe(false);
      expect(await quit(b)).toBe(0);
    },
  );
});

describe('a second screen: the customer display', () => {
  it(
    'opens on the second display, answers its IPC as a customer display’s only, and closes when it goes',
    { timeout: 120_000 },
    async () => {
      const b = await boot({
        dataDir: join(scratch, 'two-screens'),
        env: { TILLPOINT_GATEWAY_URL: 'http://127.0.0.1:9', FAKE_ELECTRON_DISPLAYS: '2' },
      });
      const customer = await until('the customer display to load', () =>
        b.world.windows[1]?.loaded ? b.world.windows[1] : undefined,
      );
      expect(b.world.windows).toHaveLength(2);
      expect(customer.loaded?.url).toBe(`${b.origin}/customer`);
      expect(customer.loaded?.status).toBe(200);
      expect(customer.options).toMatchObject({ x: 1920, y: 0, width: 1024, height: 768, frame: false });
      expect(customer.options.webPreferences).toEqual(b.window.options.webPreferences);

      const call = b.world.ipcHandlers.get('tillpoint:call');
      const invoke = (w: FakeBrowserWindow, command: string, payload: unknown) =>
        call?.({ sender: w.webContents, senderFrame: w.webContents.mainFrame }, command, payload) as Promise<{
          ok: boolean;
          error?: { code: string };
        }>;
      // The customer's window: its view, and none of the cashier's commands, not even a sign-in.
      expect((await invoke(customer, 'customer.view', {})).ok).toBe(true);
      expect(await invoke(customer, 'session.signIn', { pin: '1111' })).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
      expect(await invoke(customer, 'terminal.status', {})).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
      // The cashier's window cannot answer for the customer.
      expect((await invoke(b.window, 'session.signIn', { pin: '1111' })).ok).toBe(true);
      expect(await invoke(b.window, 'customer.view', {})).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });

      // The second screen is unplugged: its window closes with it.
      process.env.FAKE_ELECTRON_DISPLAYS = '1';
      b.world.screen.emit('display-removed');
      expect(customer.closed).toBe(true);
      expect(await quit(b)).toBe(0);
    },
  );
});

function expectStrictCsp(csp: string, origin: string): void {
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map((d) => [d[0] ?? '', d.slice(1)]),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  expect(directives.get('form-action')).toEqual(["'none'"]);
  // The bridge's WebSocket on this very port, and nothing else off-origin.
  const port = new URL(origin).port;
  expect(directives.get('connect-src')).toEqual([
    "'self'",
    `ws://127.0.0.1:${port}`,
    `ws://localhost:${port}`,
  ]);
  expect(csp).not.toMatch(/unsafe-eval|\*/);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
