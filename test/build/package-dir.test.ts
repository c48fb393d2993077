import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../common/bridge/contract';
import { connectBridge, readBridgeFile } from '../../electron/bridge/ws-client';
import { ABSENT_OPTIONAL_MODULES, bundleApp, type AppBundle } from '../../electron/app-bundle';
import config from '../../build/electron-builder.config';
import { asar, fuses, packageName } from './support/builder-internals';

/**
 * The packaging steps, run for real as far as this machine allows: `npm run build:app`'s bundler, then
 * electron-builder on build/electron-builder.config.ts up to the unpacked Linux app — with a stand-in
 * Electron (a file carrying Electron's fuse sentinel, so electron-builder's fuse flipping is exercised)
 * and without the native rebuild (it needs Electron's headers from the network). What lands in the
 * package is then checked and run: the unpacked journal worker with Node's own loader, and the whole
 * packaged app booted under Node with the stand-in `electron` module, through to an approved sale.
 * Installers (AppImage, deb, NSIS) need tools downloaded from GitHub and are not built here.
 */

const repo = join(import.meta.dirname, '..', '..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const scratch = mkdtempSync(join(tmpdir(), 'tillpoint-package-'));
const out = join(scratch, 'release');
const unpackedApp = join(out, 'linux-unpacked');
const resources = join(unpackedApp, 'resources');
const archive = join(resources, 'app.asar');
const rendererDist = join(scratch, 'renderer-dist');
let externals: AppBundle['externals'];
let listing: Set<string>;

/** Electron ships these fuses in this state; the wire format is @electron/fuses' (sentinel, version 1). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_WIRE = '10110001';

function value<T>(r: BridgeResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function fakeElectronDist(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const wire = Buffer.from([1, ELECTRON_DEFAULT_WIRE.length, ...Buffer.from(ELECTRON_DEFAULT_WIRE)]);
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.from(SENTINEL), wire, Buffer.from('\n')]),
  );
  chmodSync(join(dir, 'electron'), 0o755);
  const version = (
    JSON.parse(readFileSync(join(repo, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  writeFileSync(join(dir, 'version'), version);
  writeFileSync(join(dir, 'LICENSE'), '');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '');
}

function run(what: string, args: string[], timeoutMs: number): void {
  const r = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8', timeout: timeoutMs });
  if (r.status !== 0)
    throw new Error(
      `${what} failed (${r.status ?? r.signal}):\n${(r.stdout + r.stderr).split('\n').slice(-25).join('\n')}`,
    );
}

beforeAll(async () => {
  // The screens from a private build (see pack-dir.ts), the rest from `npm run build:app`'s bundler.
  const vite = spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--outDir',
      rendererDist,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: repo, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (vite.status !== 0) throw new Error(`the renderer build failed:\n${vite.stdout}${vite.stderr}`);
  run('npm run build:app', ['--import', tsx, 'build/bundle-app.ts', '--bundles-only'], 120_000);
  fakeElectronDist(join(scratch, 'electron-dist'));
  run(
    'electron-builder --dir',
    ['--import', tsx, 'test/build/support/pack-dir.ts', join(scratch, 'electron-dist'), out, rendererDist],
    300_000,
  );
  // What each bundle leaves to node_modules, from the same bundler (into a scratch folder in the repo).
  const probe = join(repo, '.tsbuild', 'test-build', `externals-${process.pid}`);
  externals = (await bundleApp({ repoRoot: repo, outDir: probe, gateway: true })).externals;
  rmSync(probe, { recursive: true, force: true });
  listing = new Set(asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/^[\\/]/, '')));
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type PackageJson = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

/** A file of the package, from the archive or the unpacked folder beside it. */
function packagedFile(path: string): Buffer | undefined {
  if (listing.has(path)) {
    const unpacked = join(resources, 'app.asar.unpacked', path);
    return existsSync(unpacked) ? readFileSync(unpacked) : asar.extractFile(archive, path);
  }
  const unpacked = join(resources, 'app.asar.unpacked', path);
  return existsSync(unpacked) ? readFileSync(unpacked) : undefined;
}

function packagedJson(path: string): PackageJson {
  return JSON.parse(packagedFile(path)?.toString('utf8') ?? '{}') as PackageJson;
}

/** Node's lookup of package `name` from folder `from` of the package: the nearest node_modules/name. */
function resolvePackaged(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = posix.dirname(dir)) {
    const base = dir === '.' ? '' : `${dir}/`;
    if (packagedFile(`${base}node_modules/${name}/package.json`)) return `${base}node_modules/${name}`;
    if (dir === '.') return undefined;
  }
}

describe('packaged app (electron-builder --dir)', () => {
  it('is the product executable, with the security fuses flipped as configured', async () => {
    const exe = join(unpackedApp, 'tillpoint');
    expect(existsSync(exe)).toBe(true);
    const wire = await fuses.getCurrentFuseWire(exe);
    const state = (name: string) => String.fromCharCode(Number(wire[String(fuses.FuseV1Options[name])]));
    expect(state('RunAsNode')).toBe('0');
    expect(state('EnableCookieEncryption')).toBe('1');
    expect(state('EnableNodeOptionsEnvironmentVariable')).toBe('0');
    expect(state('EnableNodeCliInspectArguments')).toBe('0');
    expect(state('EnableEmbeddedAsarIntegrityValidation')).toBe('1');
    expect(state('OnlyLoadAppFromAsar')).toBe('1');
    expect(state('GrantFileProtocolExtraPrivileges')).toBe('0');
  });

  it('app.asar holds the bundles, the screens and package.json pointing at the bundled main', () => {
    for (const file of [
      'package.json',
      'dist/app/main.mjs',
      'dist/app/preload.js',
      'dist/app/gateway.mjs',
      'dist/app/journal-worker.mjs',
      'dist/app/catalog-worker.mjs',
      'renderer/dist/index.html',
    ])
      expect(listing.has(file), file).toBe(true);
    const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as {
      main: string;
      type: string;
      productName?: string;
    };
    expect(pkg.main).toBe(config.extraMetadata.main);
    expect(pkg.type).toBe('module');
    // Electron names the user-data folder (where the journal lives) after productName.
    expect(pkg.productName).toBe('Tillpoint');
  });

  it('ships no sources, tests, build tooling or dev-only packages', () => {
    const offenders = [...listing].filter(
      (p) =>
        /^(electron|gateway|native|test|build|docs|renderer\/src)\//.test(p) ||
        p.endsWith('.map') ||
        /^node_modules\/(tsx|esbuild|@esbuild|react|react-dom|zustand|vite|vitest|electron|electron-builder|typescript|pg|pg-[a-z0-9-]+|pgpass|postgres-[a-z]+|xtend)\//.test(
          p,
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('packages every module the bundles load at run time, with its dependencies', () => {
    // electron-builder lays node_modules out afresh (it hoists and nests differently from npm), so this
    // resolves the way Node will in the package: from the bundle's folder, up through node_modules.
    const missing: string[] = [];
    for (const [output, names] of Object.entries(externals)) {
      const needed = names.filter(
        (n) => n !== 'electron' && !(ABSENT_OPTIONAL_MODULES as readonly string[]).includes(n),
      );
      const seen = new Set<string>();
      const visit = (name: string, from: string, optional: boolean, chain: string) => {
        const dir = resolvePackaged(name, from);
        if (!dir) {
          if (!optional) missing.push(`${output}: ${chain} → ${name}`);
          return;
        }
        if (seen.has(dir)) return;
        seen.add(dir);
        const pkg = packagedJson(`${dir}/package.json`);
        for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false, `${chain} → ${name}`);
        for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
          visit(dep, dir, true, `${chain} → ${name}`);
      };
      for (const name of needed) visit(packageName(name), 'dist/app', false, output);
    }
    expect(missing).toEqual([]);
  });

  it('unpacks the native modules and the journal worker beside the archive', () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    for (const file of [
      'dist/app/journal-worker.mjs',
      'dist/app/catalog-worker.mjs',
      'node_modules/csv-parse/package.json',
      'node_modules/csv-stringify/package.json',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/bindings/bindings.js',
      'node_modules/@serialport/bindings-cpp/prebuilds/linux-x64',
      'node_modules/node-hid/prebuilds',
    ])
      expect(existsSync(join(unpacked, file)), file).toBe(true);
  });

  it('the packaged journal worker opens its database with Node alone, outside the archive', async () => {
    // Exactly the production path: journal.ts maps app.asar → app.asar.unpacked, and a worker thread
    // resolves better-sqlite3 with Node's loader, which cannot read the archive (nor, here, this repo).
    const worker = new Worker(join(resources, 'app.asar.unpacked', 'dist', 'app', 'journal-worker.mjs'), {
      workerData: { path: join(scratch, 'journal.sqlite') },
    });
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(first).toEqual({ id: 0, ok: true, value: 'ready' });
    } finally {
      await worker.terminate();
    }
  });

  it('the packaged catalog worker opens its database and imports a CSV with Node alone', async () => {
    // As the journal worker: catalog.ts maps app.asar → app.asar.unpacked; csv-parse is loaded from there.
    const worker = new Worker(join(resources, 'app.asar.unpacked', 'dist', 'app', 'catalog-worker.mjs'), {
      workerData: { path: join(scratch, 'catalog.sqlite') },
    });
    const answers: unknown[] = [];
    const next = () =>
      new Promise<unknown>((resolve, reject) => {
        worker.once('message', (m) => {
          answers.push(m);
          resolve(m);
        });
        worker.once('error', reject);
      });
    try {
      expect(await next()).toEqual({ id: 0, ok: true, value: 'ready' });
      const tax = { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' };
      worker.postMessage({ id: 1, target: 'store', method: 'saveTaxClass', args: [tax, 1] });
      expect(await next()).toMatchObject({ id: 1, ok: true });
      const csv = 'sku,name,price,tax_class\nA,"Apple, red",0.50,standard';
      worker.postMessage({ id: 2, target: 'service', method: 'importCsv', args: [csv, 1] });
      expect(await next()).toMatchObject({ id: 2, ok: true, value: { created: 1 } });
    } finally {
      await worker.terminate();
    }
  });

  it('writes the update channel into the app', () => {
    const yml = readFileSync(join(resources, 'app-update.yml'), 'utf8');
    expect(yml).toMatch(/^provider: generic$/m);
    expect(yml).toMatch(/^channel: stable$/m);
    expect(yml).toMatch(/^url: https:\/\/updates\.tillpoint\.example\/terminal\/linux\/x64$/m);
  });
});

describe('packaged app booted under Node with a stand-in electron', () => {
  const root = join(scratch, 'extracted');
  const dataDir = join(scratch, 'data');
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it(
    'starts its bundled gateway, serves the packaged screens and completes a sale; SIGTERM stops it all',
    { timeout: 180_000 },
    async () => {
      asar.extractAll(archive, root);
      const esbuild = await import('esbuild');
      mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
      await esbuild.build({
        entryPoints: [join(import.meta.dirname, 'support', 'fake-electron.ts')],
        outfile: join(root, 'node_modules', 'electron', 'index.mjs'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'silent',
      });
      writeFileSync(
        join(root, 'node_modules', 'electron', 'package.json'),
        JSON.stringify({ name: 'electron', type: 'module', main: 'index.mjs' }),
      );

      const env = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('TILLPOINT_')),
      );
      const started = spawn(process.execPath, [join(root, 'dist', 'app', 'main.mjs')], {
        cwd: root,
        env: { ...env, TILLPOINT_DATA: dataDir, FAKE_ELECTRON_REAL_EXIT: '1', FAKE_ELECTRON_APP_PATH: root },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let stdout = '';
      let stderr = '';
      started.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
      started.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((r) => started.once('exit', (code) => r(code)));

      const deadline = Date.now() + 90_000;
      while (!/terminal ready at (\S+)/.test(stdout)) {
        if (started.exitCode !== null || Date.now() > deadline)
          throw new Error(`the packaged app did not start:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /terminal ready at (\S+)/.exec(stdout)?.[1] ?? '';
      expect(stdout.trim().split('\n')).toHaveLength(1);

      // The packaged screens, not the placeholder page, with their assets.
      const page = await (await fetch(`${url}/`)).text();
      const script = /<script[^>]+src="([^"]+)"/.exec(page)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(new URL(script ?? '', `${url}/`))).status).toBe(200);

      const { wsUrl, secret } = readBridgeFile(dataDir);
      const bridge = await connectBridge(wsUrl, secret);
      value(await bridge.send('session.signIn', { pin: '1111' }));
      const ticket = value(await bridge.send('sale.open', { subtotalCents: 1250 }));
      const pay = bridge.send('sale.pay', {
        ticketId: ticket.ticketId,
        tender: { kind: 'credit', entry: 'swipe' },
      });
      await new Promise((r) => setTimeout(r, 200));
      value(await bridge.send('simulator.swipe', {}));
      expect(value(await pay).tender.status).toBe('approved');
      await bridge.close();

      started.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(dataDir, 'bridge.json'))).toBe(false);
      expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(
        join(dataDir, 'gateway'),
      );
    },
  );
});
