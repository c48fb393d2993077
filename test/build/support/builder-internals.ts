import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Configuration } from 'electron-builder';

/**
 * electron-builder's own configuration loader, validator and glob matcher, resolved from the installed
 * electron-builder (so the test checks with exactly the code and schema `electron-builder` runs, not a
 * second copy that could drift).
 */
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const fromLib = createRequire(fromBuilder.resolve('app-builder-lib/package.json'));

type ConfigModule = {
  getConfig(
    projectDir: string,
    configPath: string | null,
    configFromOptions: Configuration | null,
  ): Promise<Configuration>;
  validateConfiguration(
    config: Configuration,
    debugLogger: { isEnabled: boolean; add(k: string, v: unknown): void },
  ): Promise<void>;
};

const configModule = fromLib('./out/util/config/config') as ConfigModule;
const { minimatch } = fromLib('minimatch') as {
  minimatch: (path: string, pattern: string, options?: { dot?: boolean }) => boolean;
};

/** The schema electron-builder validates against (app-builder-lib/scheme.json). */
export const schemePath = fromLib.resolve('./scheme.json');

/** Loads a configuration file as `electron-builder --config FILE` does (a .ts file through jiti). */
export function loadBuilderConfig(projectDir: string, file: string): Promise<Configuration> {
  return configModule.getConfig(projectDir, file, null);
}

/** electron-builder's validation: its deprecation checks, then its JSON schema; throws with its message. */
export function validateBuilderConfig(config: Configuration): Promise<void> {
  return configModule.validateConfiguration(config, { isEnabled: false, add: () => undefined });
}

export function matchesAny(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => minimatch(path, p, { dot: true }));
}

type PackageJson = {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** Node's lookup of `name` from `fromDir`: the nearest node_modules/name up the tree. */
function findPackage(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The package name of a bare import (`crc/calculators/x` → `crc`, `@a/b/c` → `@a/b`). */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * Every installed package the given ones need at run time (themselves, their dependencies and installed
 * optional dependencies, transitively), as paths relative to `root` (`node_modules/x`,
 * `node_modules/a/node_modules/b`).
 */
export function runtimeClosure(root: string, names: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean) => {
    const dir = findPackage(name, fromDir);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed from ${fromDir}) is not installed`);
    }
    const rel = dir.slice(root.length + 1);
    if (found.has(rel)) return;
    found.add(rel);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of names) visit(packageName(name), root, false);
  return found;
}

/** electron-builder's own @electron/asar: lists and extracts the archive it wrote. */
export const asar = fromLib('@electron/asar') as {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  extractFile(archive: string, filename: string): Buffer;
  extractAll(archive: string, dest: string): void;
};

/** electron-builder's own @electron/fuses: reads the fuse wire it flipped in the executable. */
export const fuses = fromLib('@electron/fuses') as {
  getCurrentFuseWire(executable: string): Promise<Record<string, number | string>>;
  FuseV1Options: Record<string, number>;
};
