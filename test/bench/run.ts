import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

/** `npm run bench`: every benchmark in turn; each prints its figures and its ratio to a reference run. */
const here = dirname(fileURLToPath(import.meta.url));
// Bench names; a `--flag value` pair is a bench's own option (`-- history --dbs postgres`), never a name.
const only = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && !(all[i - 1] ?? '').startsWith('--'));
// Run only when named (`npm run bench -- model`, `-- pool-sweep`): the model checker's long run is no
// figure to compare; the pool sweep is what PostgreSQL's defaults rest on, not a figure of each run; the
// history bench builds databases of up to 1M payments and soaks for 10 minutes (`-- history --sizes 10k`).
const onDemand = ['model.bench.ts', 'pool-sweep.bench.ts', 'history.bench.ts'];
const benches = [
  'gateway.bench.ts',
  'postgres.bench.ts',
  'devices.bench.ts',
  'terminal.bench.ts',
  'journal.bench.ts',
  'sign-in.bench.ts',
  'catalog.bench.ts',
  'email-receipts.bench.ts',
  'screen.bench.ts',
  ...onDemand,
].filter(
  (f) =>
    existsSync(join(here, f)) &&
    (only.length === 0 ? !onDemand.includes(f) : only.some((o) => f.startsWith(o))),
);

for (const file of benches) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run === 'function') await mod.run();
}
