import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleApp } from '../electron/app-bundle';

/**
 * `npm run build:app`: everything electron-builder packages, built from source — the renderer
 * (`vite build` → renderer/dist) and the Electron bundles (→ dist/app: main, preload, journal worker,
 * gateway). `--bundles-only` leaves the renderer alone (test/build packages its own build of it).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const APP_BUNDLE_DIR = join(root, 'dist', 'app');

function buildRenderer(): void {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--config', join(root, 'renderer', 'vite.config.ts')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error(`the renderer did not build (vite exited ${r.status ?? r.signal})`);
}

async function main(): Promise<void> {
  if (!process.argv.includes('--bundles-only')) {
    buildRenderer();
    if (!existsSync(join(root, 'renderer', 'dist', 'index.html')))
      throw new Error('the renderer build left no renderer/dist/index.html');
  }
  // A stale bundle from an older layout must not ride along into the package.
  rmSync(APP_BUNDLE_DIR, { recursive: true, force: true });
  const bundle = await bundleApp({ repoRoot: root, outDir: APP_BUNDLE_DIR, gateway: true });
  for (const w of bundle.warnings) process.stderr.write(`esbuild: ${w}\n`);
  for (const [file, names] of Object.entries(bundle.externals))
    process.stdout.write(
      `${relative(root, join(APP_BUNDLE_DIR, file))}: loads ${names.join(', ') || 'nothing'} from node_modules\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`build:app: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
