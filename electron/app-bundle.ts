import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';

/**
 * Bundles what Electron runs (Electron runs JavaScript, not TypeScript, and tsx is a development tool):
 *
 * - `main.mjs` — the main process (electron/main.ts) with the terminal core;
 * - `journal-worker.mjs` — the journal's worker thread, beside main.mjs where journal.ts looks for it;
 * - `catalog-worker.mjs` — the catalog's worker thread (catalog.sqlite, its CSV import), the same way;
 * - `preload.js` — CommonJS, because a sandboxed preload is a classic script with `electron` its only
 *   require;
 * - `gateway.mjs` (packaging only) — the sandbox gateway the installed app runs as a utility process.
 *
 * Production dependencies stay external: they are loaded from the package's node_modules, where
 * electron-builder puts them and rebuilds the native ones (better-sqlite3, serialport, node-hid) for
 * Electron's ABI; packages that read their own files at run time (swagger-ui's static assets) keep
 * working too. Everything else — our code, dev-only packages and the pure-JavaScript production
 * packages in INLINED_DEPENDENCIES — is inlined, and build/electron-builder.config.ts leaves those out of
 * the package.
 */
export type AppBundle = {
  dir: string;
  main: string;
  preload: string;
  journalWorker: string;
  catalogWorker: string;
  gateway: string | undefined;
  /** Bare module names each output leaves to run-time resolution (test/build checks they are packaged). */
  externals: Record<string, string[]>;
  warnings: string[];
};

/**
 * Imported only behind a code path the terminal never takes, and not installed: pg's optional native
 * binding (`new pg.native.Client`). Left external so esbuild does not fail on a package that is absent.
 */
export const ABSENT_OPTIONAL_MODULES = ['pg-native'] as const;

/**
 * Production dependencies of the standalone gateway (`npm run gateway` with PostgreSQL) that the app's
 * sandbox gateway only reaches behind a path the terminal never takes; pure JavaScript, so inlined rather
 * than shipped as a second copy in node_modules.
 */
export const INLINED_DEPENDENCIES = ['pg'] as const;

export function productionDependencies(repoRoot: string): string[] {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(pkg.dependencies ?? {});
}

export async function bundleApp(options: {
  repoRoot: string;
  outDir: string;
  /** Also bundle the sandbox gateway (the installed app runs it; `npm start` runs the source with tsx). */
  gateway?: boolean;
  /**
   * Module aliases for the main-process bundles, e.g. `electron` → a test double (test/build). The
   * preload keeps the real `electron`: it runs in the renderer, which the double does not stand in for.
   */
  alias?: Record<string, string>;
}): Promise<AppBundle> {
  const esbuild = await import('esbuild');
  const { repoRoot, outDir } = options;
  const aliased = new Set(Object.keys(options.alias ?? {}));
  const external = [
    ...productionDependencies(repoRoot)
      .filter((name) => !(INLINED_DEPENDENCIES as readonly string[]).includes(name))
      .flatMap((name) => [name, `${name}/*`]),
    ...ABSENT_OPTIONAL_MODULES,
    'electron',
  ].filter((name) => !aliased.has(name));

  const node = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    outdir: outDir,
    absWorkingDir: repoRoot,
    metafile: true,
    logLevel: 'silent',
  } as const;

  const esm = await esbuild.build({
    ...node,
    external,
    ...(options.alias ? { alias: options.alias } : {}),
    entryPoints: {
      main: join(repoRoot, 'electron', 'main.ts'),
      'journal-worker': join(repoRoot, 'electron', 'journal', 'journal-worker.ts'),
      'catalog-worker': join(repoRoot, 'electron', 'catalog', 'catalog-worker.ts'),
      ...(options.gateway ? { gateway: join(repoRoot, 'build', 'gateway-entry.ts') } : {}),
    },
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    // CommonJS packages inlined into an ES module still call require(); give them one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  const preload = await esbuild.build({
    ...node,
    entryPoints: { preload: join(repoRoot, 'electron', 'preload.ts') },
    external: [...external, 'electron'],
    format: 'cjs',
  });

  const externals: Record<string, string[]> = {};
  for (const result of [esm, preload]) {
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      const names = output.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path);
      externals[relative(outDir, join(repoRoot, file)) || file] = [...new Set(names)].sort();
    }
  }
  return {
    dir: outDir,
    main: join(outDir, 'main.mjs'),
    preload: join(outDir, 'preload.js'),
    journalWorker: join(outDir, 'journal-worker.mjs'),
    catalogWorker: join(outDir, 'catalog-worker.mjs'),
    gateway: options.gateway ? join(outDir, 'gateway.mjs') : undefined,
    externals,
    warnings: [...esm.warnings, ...preload.warnings].map((w) => w.text),
  };
}
