import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Electron binary, found without requiring the `electron` package (which downloads it on first
 * require and throws where GitHub is unreachable): `path.txt` names the executable inside `dist/`.
 */
export function electronBinary(root: string): string | undefined {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const name = readFileSync(pathFile, 'utf8').trim();
  const binary = override ? join(override, name) : join(pkg, 'dist', name);
  return existsSync(binary) ? binary : undefined;
}

/** Bundles the Electron main and preload scripts (Electron runs JavaScript, not TypeScript). */
export async function bundleElectron(repoRoot: string): Promise<{ main: string; preload: string }> {
  const esbuild = await import('esbuild');
  const out = join(repoRoot, '.tsbuild', 'electron-app');
  const external = [
    'electron',
    'better-sqlite3',
    'serialport',
    '@serialport/*',
    'node-hid',
    'ws',
    'bufferutil',
    'utf-8-validate',
    'tsx',
    'esbuild',
  ];
  await esbuild.build({
    entryPoints: {
      main: join(repoRoot, 'electron', 'main.ts'),
      'journal-worker': join(repoRoot, 'electron', 'journal', 'journal-worker.ts'),
    },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    target: 'node20',
    external,
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'silent',
  });
  await esbuild.build({
    entryPoints: { preload: join(repoRoot, 'electron', 'preload.ts') },
    outdir: out,
    bundle: true,
    platform: 'node',
    // A sandboxed preload is a classic script: CommonJS, `electron` its only require.
    format: 'cjs',
    target: 'node20',
    external: ['electron'],
    logLevel: 'silent',
  });
  return { main: join(out, 'main.mjs'), preload: join(out, 'preload.js') };
}
