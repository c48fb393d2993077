import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleApp } from './app-bundle';

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

/**
 * Bundles the Electron main and preload scripts for `npm start` (Electron runs JavaScript, not
 * TypeScript); packaging bundles the same entries plus the gateway (build/bundle-app.ts).
 */
export async function bundleElectron(repoRoot: string): Promise<{ main: string; preload: string }> {
  const bundle = await bundleApp({ repoRoot, outDir: join(repoRoot, '.tsbuild', 'electron-app') });
  return { main: bundle.main, preload: bundle.preload };
}
