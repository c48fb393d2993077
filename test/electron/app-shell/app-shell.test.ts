import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { recordCrash } from '../../../electron/app-shell/crash-loop';
import { GATEWAY_ARGS_MARKER, gatewayArgv } from '../../../electron/app-shell/gateway-argv';
import { resolveShellOptions } from '../../../electron/app-shell/shell-options';
import { isAppUrl, isTrustedSender } from '../../../electron/app-shell/window-policy';
import { outsideAsar } from '../../../electron/journal/journal';

const scratch = mkdtempSync(join(tmpdir(), 'tillpoint-app-shell-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function options(argv: string[], env: Record<string, string> = {}, dataDir = join(scratch, 'data')) {
  return resolveShellOptions({
    argv,
    env: { TILLPOINT_DATA: dataDir, ...env },
    bundleDir: '/opt/Tillpoint/resources/app.asar/dist/app',
    appPath: '/opt/Tillpoint/resources/app.asar',
    userData: join(scratch, 'user'),
  });
}

describe('shell options', () => {
  it('an installed app with no launcher runs its own gateway and finds its files in the package', () => {
    const o = resolveShellOptions({
      argv: ['/opt/Tillpoint/tillpoint'],
      env: {},
      bundleDir: '/opt/Tillpoint/resources/app.asar/dist/app',
      appPath: '/opt/Tillpoint/resources/app.asar',
      userData: join(scratch, 'user'),
    });
    expect(o).toMatchObject({
      kiosk: false,
      dataDir: join(scratch, 'user', 'terminal'),
      port: 0,
      gatewayUrl: undefined,
      preload: '/opt/Tillpoint/resources/app.asar/dist/app/preload.js',
      gatewayModule: '/opt/Tillpoint/resources/app.asar/dist/app/gateway.mjs',
      crashPolicy: { limit: 3, windowMs: 600_000 },
      warnings: [],
    });
  });

  it('kiosk: command line over environment over shell.json; Chromium switches are ignored', () => {
    const dataDir = join(scratch, 'kiosk');
    expect(options(['app', '--no-sandbox', '--enable-logging'], {}, dataDir).kiosk).toBe(false);
    expect(options(['app', '--kiosk'], {}, dataDir).kiosk).toBe(true);
    expect(options(['app'], { TILLPOINT_KIOSK: '1' }, dataDir).kiosk).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, 'shell.json'),
      JSON.stringify({ kiosk: true, crashLimit: 5, crashWindowMinutes: 2 }),
    );
    const fromFile = options(['app'], {}, dataDir);
    expect(fromFile.kiosk).toBe(true);
    expect(fromFile.crashPolicy).toEqual({ limit: 5, windowMs: 120_000 });
    expect(options(['app'], { TILLPOINT_KIOSK: '0' }, dataDir).kiosk).toBe(false);
    expect(options(['app', '--no-kiosk'], { TILLPOINT_KIOSK: '1' }, dataDir).kiosk).toBe(false);
  });

  it('a broken shell.json or a bad flag is reported and ignored, never fatal', () => {
    const dataDir = join(scratch, 'broken');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'shell.json'), '{ "kiosk": tru');
    const broken = options(['app', '--port', 'x', '--lane', 'no spaces'], {}, dataDir);
    expect(broken.kiosk).toBe(false);
    expect(broken.port).toBe(0);
    expect(broken.lane).toBeUndefined();
    expect(broken.warnings).toHaveLength(3);
    writeFileSync(join(dataDir, 'shell.json'), JSON.stringify({ kiosk: 'yes', color: 'red' }));
    expect(options(['app'], {}, dataDir).warnings).toHaveLength(2);
  });

  it('npm start passes the gateway, preload and screens through the environment', () => {
    const o = options(['electron', 'main.mjs', '--port', '8123', '--lane', 'L7'], {
      TILLPOINT_GATEWAY_URL: 'http://127.0.0.1:9000',
      TILLPOINT_PRELOAD: '/repo/.tsbuild/electron-app/preload.js',
      TILLPOINT_RENDERER: '',
    });
    expect(o).toMatchObject({
      gatewayUrl: 'http://127.0.0.1:9000',
      preload: '/repo/.tsbuild/electron-app/preload.js',
      rendererDir: undefined,
      port: 8123,
      lane: 'L7',
    });
  });
});

describe('crash-loop ledger', () => {
  it('allows `limit` relaunches inside the window, then stops; old crashes are forgotten', () => {
    const file = join(scratch, 'crashes.json');
    const policy = { limit: 2, windowMs: 60_000 };
    expect(recordCrash(file, 1_000, 'a', policy)).toMatchObject({ relaunch: true, recent: 1 });
    expect(recordCrash(file, 2_000, 'b', policy)).toMatchObject({ relaunch: true, recent: 2 });
    expect(recordCrash(file, 3_000, 'c', policy)).toMatchObject({ relaunch: false, recent: 3 });
    // A minute later the early ones have left the window.
    expect(recordCrash(file, 62_500, 'd', policy)).toMatchObject({ relaunch: true, recent: 2 });
    const ledger = JSON.parse(readFileSync(file, 'utf8')) as { crashes: { reason: string }[] };
    expect(ledger.crashes.map((c) => c.reason)).toEqual(['c', 'd']);
  });

  it('a torn or foreign ledger starts afresh instead of refusing to run', () => {
    const file = join(scratch, 'torn.json');
    writeFileSync(file, '{"crashes": [{"at": 1');
    expect(recordCrash(file, 10, 'x')).toMatchObject({ relaunch: true, recent: 1 });
    writeFileSync(file, JSON.stringify({ crashes: [{ at: 'yesterday' }, 5] }));
    expect(recordCrash(file, 10, 'y')).toMatchObject({ relaunch: true, recent: 1 });
  });
});

describe('window policy', () => {
  const origin = 'http://127.0.0.1:4567';

  it('own-origin URLs are parsed, not prefix-matched', () => {
    expect(isAppUrl(`${origin}/`, origin)).toBe(true);
    expect(isAppUrl(`${origin}/x?y#z`, origin)).toBe(true);
    expect(isAppUrl(`${origin}0/`, origin)).toBe(false);
    expect(isAppUrl(`${origin}@evil.example/`, origin)).toBe(false);
    expect(isAppUrl('http://user@127.0.0.1:4567/', origin)).toBe(false);
    expect(isAppUrl('https://127.0.0.1:4567/', origin)).toBe(false);
    expect(isAppUrl('not a url', origin)).toBe(false);
    expect(isAppUrl(`${origin}/`, undefined)).toBe(false);
  });

  it('a trusted IPC sender is our window, its top frame, on our origin', () => {
    const ok = { fromTerminalWindow: true, fromMainFrame: true, frameUrl: `${origin}/` };
    expect(isTrustedSender(ok, origin)).toBe(true);
    expect(isTrustedSender({ ...ok, fromTerminalWindow: false }, origin)).toBe(false);
    expect(isTrustedSender({ ...ok, fromMainFrame: false }, origin)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: undefined }, origin)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: 'https://evil.example/' }, origin)).toBe(false);
  });
});

describe('packaged paths', () => {
  it('the journal worker is loaded from beside the archive, never from inside it', () => {
    const inside = pathToFileURL('/opt/Tillpoint/resources/app.asar/dist/app/journal-worker.mjs');
    expect(outsideAsar(inside).pathname).toBe(
      '/opt/Tillpoint/resources/app.asar.unpacked/dist/app/journal-worker.mjs',
    );
    const dev = pathToFileURL('/repo/.tsbuild/electron-app/journal-worker.mjs');
    expect(outsideAsar(dev).href).toBe(dev.href);
  });

  it('the gateway entry rebuilds a plain argv from after its marker', () => {
    expect(
      gatewayArgv([
        '/opt/Tillpoint/tillpoint',
        '--type=utility',
        'gw.mjs',
        GATEWAY_ARGS_MARKER,
        '--port',
        '0',
      ]),
    ).toEqual(['/opt/Tillpoint/tillpoint', 'tillpoint-gateway', '--port', '0']);
    expect(gatewayArgv(['node', 'gw.mjs', '--sandbox'])).toEqual(['node', 'tillpoint-gateway', '--sandbox']);
  });
});
