import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import { productionDependencies } from '../../electron/app-bundle';
import { APP_BUNDLE_DIR } from '../../build/bundle-app';
import { ICO_SIZES, ICON_SVG, ICON_SVG_HASH, LINUX_ICON_SIZES, svgHash } from '../../build/make-icons';
import {
  loadBuilderConfig,
  matchesAny,
  runtimeClosure,
  schemePath,
  validateBuilderConfig,
} from './support/builder-internals';

/**
 * The electron-builder configuration, checked the way electron-builder itself reads and validates it
 * (the packaging run that needs the network cannot happen here; package-dir.test.ts runs the part that
 * does not). Every file and resource it names must exist or be produced by the build scripts.
 */

const repo = join(import.meta.dirname, '..', '..');
const CONFIG = 'build/electron-builder.config.ts';
let config: Configuration;

beforeAll(async () => {
  config = await loadBuilderConfig(repo, CONFIG);
});

/** A pattern list as electron-builder normalizes it: strings, or file sets (`{ filter: [...] }`). */
function stringList(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return list.flatMap((v) =>
    typeof v === 'string'
      ? [v]
      : typeof v === 'object' && v !== null && Array.isArray((v as { filter?: unknown }).filter)
        ? stringList((v as { filter: unknown[] }).filter)
        : [],
  );
}

function targets(value: unknown): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((t) => (typeof t === 'string' ? t : ((t as { target?: string }).target ?? '')));
}

describe('electron-builder configuration', () => {
  it('passes electron-builder validation against its own JSON schema', async () => {
    expect(existsSync(schemePath)).toBe(true);
    await expect(validateBuilderConfig(config)).resolves.toBeUndefined();
  });

  it('the validator is not a no-op: misspelt or mistyped options are refused', async () => {
    await expect(validateBuilderConfig({ ...config, asarUnpak: ['x'] } as Configuration)).rejects.toThrow(
      /asarUnpak/,
    );
    await expect(
      validateBuilderConfig({
        ...config,
        nsis: { ...config.nsis, oneClick: 'sometimes' },
      } as unknown as Configuration),
    ).rejects.toThrow(/oneClick/);
    await expect(
      validateBuilderConfig({
        ...config,
        publish: [{ provider: 'carrier-pigeon' }],
      } as unknown as Configuration),
    ).rejects.toThrow(/publish/);
  });

  it('builds AppImage and deb for Linux and an NSIS installer for Windows', () => {
    expect(config.appId).toBe('com.tillpoint.terminal');
    expect(config.productName).toBe('Tillpoint');
    expect(targets(config.linux?.target).sort()).toEqual(['AppImage', 'deb']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libusb-1.0-0', 'libgtk-3-0', 'libnss3']));
  });

  it('names icons that exist: Linux PNGs by size, a Windows ICO with a 256 px image', () => {
    const linuxIcons = join(repo, config.linux?.icon ?? '');
    expect(statSync(linuxIcons).isDirectory()).toBe(true);
    for (const size of LINUX_ICON_SIZES) {
      const png = PNG.sync.read(readFileSync(join(linuxIcons, `${size}x${size}.png`)));
      expect([png.width, png.height]).toEqual([size, size]);
    }
    for (const file of [
      config.win?.icon,
      config.nsis?.installerIcon,
      config.nsis?.uninstallerIcon,
      config.nsis?.installerHeaderIcon,
    ]) {
      expect(file).toBe('build/icon.ico');
    }
    const sizes = readIco(readFileSync(join(repo, 'build', 'icon.ico')));
    expect(sizes.map((s) => s.size)).toEqual([...ICO_SIZES]);
  });

  it('the committed icons were rendered from the committed icon.svg (npm run icons)', () => {
    const recorded = readFileSync(ICON_SVG_HASH, 'utf8').split(/\s+/)[0];
    expect(recorded, 'icon.svg changed: run `npm run icons` and commit the outputs').toBe(
      svgHash(readFileSync(ICON_SVG)),
    );
  });

  it('packages exactly what the build scripts produce, and runs the bundled main', () => {
    const files = stringList(config.files);
    const bundleDir = relative(repo, APP_BUNDLE_DIR);
    expect(bundleDir).toBe('dist/app');
    expect(files).toEqual(
      expect.arrayContaining(['package.json', `${bundleDir}/**/*`, 'renderer/dist/**/*']),
    );
    expect((config.extraMetadata as { main?: unknown } | undefined)?.main).toBe(`${bundleDir}/main.mjs`);
    // Sources, tests and tooling never ship.
    for (const path of [
      'electron/main.ts',
      'gateway/server.ts',
      'test/build/builder-config.test.ts',
      'build/icon.svg',
    ])
      expect(
        matchesAny(
          path,
          files.filter((f) => !f.startsWith('!')),
        ),
      ).toBe(false);
    // The npm scripts build these outputs and hand this file to electron-builder.
    const scripts = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['build:app']).toBe('tsx build/bundle-app.ts');
    for (const script of ['dist:linux', 'dist:win']) {
      expect(scripts[script]).toContain('npm run build:app');
      expect(scripts[script]).toContain(`--config ${CONFIG}`);
    }
  });

  it('unpacks every native module the app needs, and the journal worker with what it loads', () => {
    const unpack = stringList(config.asarUnpack);
    const prod = productionDependencies(repo);
    const excluded = stringList(config.files)
      .filter((f) => f.startsWith('!'))
      .map((f) => f.slice(1));
    const shipped = [...runtimeClosure(repo, prod)].filter((dir) => !matchesAny(dir, excluded));
    const native = shipped.filter((dir) => hasNativeCode(join(repo, dir)));
    expect(native.sort()).toEqual([
      'node_modules/@serialport/bindings-cpp',
      'node_modules/better-sqlite3',
      'node_modules/node-hid',
    ]);
    for (const dir of native) expect(matchesAny(`${dir}/package.json`, unpack), dir).toBe(true);
    // The worker runs outside the archive with Node's own loader, so it is unpacked too (and what it
    // requires: package-dir.test.ts runs the packaged worker with nothing but the unpacked folder).
    expect(unpack).toContain(`${relative(repo, APP_BUNDLE_DIR)}/journal-worker.mjs`);
    expect(unpack).toContain(`${relative(repo, APP_BUNDLE_DIR)}/catalog-worker.mjs`);
    for (const csv of ['csv-parse', 'csv-stringify'])
      expect(matchesAny(`node_modules/${csv}/package.json`, unpack), csv).toBe(true);
  });

  it('rebuilds native modules for Electron (prebuilt where published) against a pinned Electron ≥ 45', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(false);
    expect(config.nativeRebuilder).toBe('sequential');
    const electron = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies.electron;
    expect(Number(/\d+/.exec(electron ?? '')?.[0])).toBeGreaterThanOrEqual(45);
  });

  it('turns off the fuses that would let the app run as a plain Node', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('publishes updates on a generic channel at a placeholder address', () => {
    const publish = Array.isArray(config.publish) ? config.publish : [config.publish];
    expect(publish).toHaveLength(1);
    expect(publish[0]).toMatchObject({ provider: 'generic', channel: 'stable' });
    const url = (publish[0] as { url: string }).url;
    expect(new URL(url.replace(/\$\{\w+\}/g, 'x')).protocol).toBe('https:');
    // A reserved domain: nothing is published anywhere by accident before a real server exists.
    expect(new URL(url.replace(/\$\{\w+\}/g, 'x')).hostname.endsWith('.example')).toBe(true);
  });

  it('keeps the data folder (the journal) on uninstall', () => {
    expect(config.nsis?.deleteAppDataOnUninstall).toBe(false);
    expect(config.nsis?.perMachine).toBe(true);
  });
});

function hasNativeCode(dir: string): boolean {
  if (existsSync(join(dir, 'binding.gyp'))) return true;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop() ?? '';
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules') stack.push(join(d, entry.name));
      else if (entry.name.endsWith('.node')) return true;
    }
  }
  return false;
}

/** The images of an ICO file: size (0 in the directory means 256) and PNG or BMP payload, checked. */
function readIco(ico: Buffer): { size: number; format: 'png' | 'bmp' }[] {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1);
  const count = ico.readUInt16LE(4);
  const out: { size: number; format: 'png' | 'bmp' }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 6 + 16 * i;
    const size = ico.readUInt8(at) || 256;
    const length = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    expect(offset + length).toBeLessThanOrEqual(ico.length);
    const image = ico.subarray(offset, offset + length);
    if (image.subarray(1, 4).toString('latin1') === 'PNG') {
      const png = PNG.sync.read(image);
      expect([png.width, png.height]).toEqual([size, size]);
      out.push({ size, format: 'png' });
    } else {
      expect(image.readUInt32LE(0)).toBe(40);
      expect(image.readInt32LE(4)).toBe(size);
      expect(image.readInt32LE(8)).toBe(size * 2);
      expect(image.readUInt16LE(14)).toBe(32);
      out.push({ size, format: 'bmp' });
    }
  }
  return out;
}
