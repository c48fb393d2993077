import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * A stand-in for the `electron` module, for running electron/main.ts where the Electron binary cannot
 * be installed. test/build bundles main.ts with `electron` aliased to this file; it implements the part
 * of Electron's API main.ts uses and records what main.ts does with it (window options, handlers,
 * permission and CSP hooks, IPC registrations, relaunch/exit), so a test can assert the behaviour and
 * drive the handlers. `utilityProcess.fork` starts a real Node child, and `loadURL` really fetches the
 * page, so the recorded boot is the real one.
 *
 * The recorder lives on globalThis: the bundle carries its own copy of this module, and the test reads
 * the copy the bundle created.
 */

export type FakeEvent = { preventDefault(): void; readonly defaultPrevented: boolean; url?: string };

export function fakeEvent(url?: string): FakeEvent {
  let prevented = false;
  return {
    preventDefault() {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
    ...(url !== undefined ? { url } : {}),
  };
}

export type FakeFrame = { url: string };

type Listener = (...args: never[]) => unknown;

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame: FakeFrame = { url: '' };
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  readonly sent: unknown[][] = [];
  reloads = 0;
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(...args: unknown[]): void {
    this.sent.push(args);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  reload(): void {
    this.reloads += 1;
  }
  /** Runs every listener of `event` with these arguments, as Electron would. */
  fire(event: string, ...args: unknown[]): void {
    for (const l of this.listeners(event) as Listener[]) (l as (...a: unknown[]) => unknown)(...args);
  }
}

export type LoadedPage = {
  url: string;
  status: number;
  contentSecurityPolicy: string | null;
  body: string;
};

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  readonly options: Record<string, unknown>;
  loaded: LoadedPage | undefined;
  shown = false;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    const world = fakeElectronWorld();
    world.windows.push(this);
    world.log.push('BrowserWindow');
    world.app.emit('web-contents-created', fakeEvent(), this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    const res = await fetch(url);
    this.loaded = {
      url,
      status: res.status,
      contentSecurityPolicy: res.headers.get('content-security-policy'),
      body: await res.text(),
    };
    this.webContents.mainFrame.url = url;
    this.emit('ready-to-show');
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {}
  closed = false;
  bounds: unknown;
  setBounds(bounds: unknown): void {
    this.bounds = bounds;
  }
  close(): void {
    this.closed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  isDestroyed(): boolean {
    return this.closed;
  }
}

/** The attached displays: FAKE_ELECTRON_DISPLAYS of them side by side (1 unless said), the first primary. */
export class FakeScreen extends EventEmitter {
  getAllDisplays(): { id: number; bounds: { x: number; y: number; width: number; height: number } }[] {
    const n = Math.max(1, Number(process.env.FAKE_ELECTRON_DISPLAYS ?? '1'));
    return Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      bounds: { x: i * 1920, y: 0, width: i === 0 ? 1920 : 1024, height: i === 0 ? 1080 : 768 },
    }));
  }
  getPrimaryDisplay(): { id: number } {
    return { id: 1 };
  }
}

type PermissionRequestHandler = (
  wc: unknown,
  permission: string,
  callback: (granted: boolean) => void,
) => void;
type PermissionCheckHandler = (wc: unknown, permission: string) => boolean;
type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

export class FakeSession {
  permissionRequestHandler: PermissionRequestHandler | undefined;
  permissionCheckHandler: PermissionCheckHandler | undefined;
  devicePermissionHandler: ((details: unknown) => boolean) | undefined;
  headersListener: HeadersListener | undefined;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: PermissionRequestHandler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void {
    this.devicePermissionHandler = handler;
  }
}

export class FakeApp extends EventEmitter {
  private readonly world: FakeElectronWorld;
  constructor(world: FakeElectronWorld) {
    super();
    this.world = world;
  }
  enableSandbox(): void {
    this.world.log.push('app.enableSandbox');
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  getAppPath(): string {
    return process.env.FAKE_ELECTRON_APP_PATH ?? process.cwd();
  }
  getPath(_name: string): string {
    return (this.world.userData ??= mkdtempSync(`${tmpdir()}/fake-electron-user-`));
  }
  whenReady(): Promise<void> {
    this.world.log.push('app.whenReady');
    return new Promise((resolve) => setImmediate(resolve));
  }
  relaunch(): void {
    this.world.log.push('app.relaunch');
    this.world.relaunched = true;
  }
  quit(): void {
    this.world.log.push('app.quit');
    const event = fakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code = 0): void {
    this.world.log.push(`app.exit:${code}`);
    this.world.settleExit(code);
    // Out of a test's process (the packaged app booted under Node), exiting is the real thing.
    if (process.env.FAKE_ELECTRON_REAL_EXIT === '1') process.exit(code);
  }
}

export type UtilityFork = {
  modulePath: string;
  args: string[];
  options: Record<string, unknown>;
  pid: number | undefined;
};

/** A utility process as a Node child: same stdio pipes, `kill()` is SIGTERM, `exit` carries the code. */
class FakeUtilityProcess extends EventEmitter {
  readonly stdout;
  readonly stderr;
  readonly pid: number | undefined;
  private readonly child;
  constructor(modulePath: string, args: string[]) {
    super();
    this.child = spawn(process.execPath, [modulePath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.stdout = this.child.stdout;
    this.stderr = this.child.stderr;
    this.pid = this.child.pid;
    this.child.once('exit', (code) => this.emit('exit', code ?? 1));
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

export type FakeElectronWorld = {
  app: FakeApp;
  /** Electron's `screen`: the displays attached (FAKE_ELECTRON_DISPLAYS), and their plug events. */
  screen: FakeScreen;
  windows: FakeBrowserWindow[];
  session: FakeSession;
  ipcHandlers: Map<string, (...args: unknown[]) => unknown>;
  /** Arguments of every Menu.setApplicationMenu call. */
  menus: unknown[];
  forks: UtilityFork[];
  log: string[];
  userData: string | undefined;
  relaunched: boolean;
  exitCode: Promise<number>;
  settleExit(code: number): void;
};

const KEY = Symbol.for('tillpoint.test.fake-electron');

function newWorld(): FakeElectronWorld {
  let settle: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (settle = resolve));
  const world = {
    windows: [],
    session: new FakeSession(),
    ipcHandlers: new Map(),
    menus: [],
    forks: [],
    log: [],
    userData: undefined,
    relaunched: false,
    exitCode,
    settleExit: (code: number) => settle(code),
  } as unknown as FakeElectronWorld;
  world.app = new FakeApp(world);
  world.screen = new FakeScreen();
  return world;
}

/** The recorder of the bundle evaluated last (each evaluation of the bundle starts a fresh one). */
export function fakeElectronWorld(): FakeElectronWorld {
  const holder = globalThis as unknown as Record<symbol, FakeElectronWorld | undefined>;
  return (holder[KEY] ??= newWorld());
}

/** Starts a fresh recorder; called once per evaluation of this module (i.e. per boot of the bundle). */
function resetWorld(): FakeElectronWorld {
  const holder = globalThis as unknown as Record<symbol, FakeElectronWorld | undefined>;
  return (holder[KEY] = newWorld());
}

const world = resetWorld();

// Booted as a real process (the packaged app under Node), SIGTERM quits the way a user's quit does, so
// the test can stop it and see the gateway child stopped with it.
if (process.env.FAKE_ELECTRON_REAL_EXIT === '1') process.once('SIGTERM', () => world.app.quit());

export const app = world.app;
export const BrowserWindow = FakeBrowserWindow;
export const screen = world.screen;
export const session = { defaultSession: world.session };
export const ipcMain = {
  handle(channel: string, handler: (...args: unknown[]) => unknown): void {
    world.ipcHandlers.set(channel, handler);
  },
};
export const Menu = {
  setApplicationMenu(menu: unknown): void {
    world.menus.push(menu);
  },
};
export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}): FakeUtilityProcess {
    const child = new FakeUtilityProcess(modulePath, args);
    world.forks.push({ modulePath, args, options, pid: child.pid });
    return child;
  },
};
