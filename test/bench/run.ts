import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

/** `npm run bench`: every benchmark in turn; each prints its figures and its ratio to a reference run. */
const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = ['gateway.bench.ts', 'postgres.bench.ts', 'devices.bench.ts', 'terminal.bench.ts'].filter(
  (f) => existsSync(join(here, f)) && (only.length === 0 || only.some((o) => f.startsWith(o))),
);

for (const file of benches) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run === 'function') await mod.run();
}
