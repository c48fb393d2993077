import fc from 'fast-check';

/**
 * How the gateway's fuzz suites run (issue 21): a fixed seed and a bounded number of cases in `npm test`
 * (the model tests' convention, test/model/terminal-model-run.ts), any seed and more cases from the
 * environment for a hunt, and the seed printed at the start and with any failure, so a counterexample
 * replays:
 *
 *   TILLPOINT_FUZZ_SEED=123 TILLPOINT_FUZZ_RUNS=20 npx vitest run --project main test/gateway/fuzz/
 *
 * `TILLPOINT_FUZZ_SEED=random` draws a seed (and prints it). TILLPOINT_FUZZ_RUNS multiplies each
 * property's case count (1 by default).
 */
export type FuzzRun = { seed: number; scale: number };

export function fuzzRun(defaultSeed: number): FuzzRun {
  const seedText = process.env.TILLPOINT_FUZZ_SEED;
  const seed =
    seedText === undefined || seedText === ''
      ? defaultSeed
      : seedText === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : Number(seedText);
  if (!Number.isSafeInteger(seed))
    throw new Error(`TILLPOINT_FUZZ_SEED is an integer or "random", not ${seedText}`);
  const scale = Number(process.env.TILLPOINT_FUZZ_RUNS ?? 1);
  if (!Number.isSafeInteger(scale) || scale < 1) throw new Error('TILLPOINT_FUZZ_RUNS is a positive integer');
  return { seed, scale };
}

/** Runs a property with the run's seed; a failure names the seed and path to replay it and the case. */
export async function assertFuzz<T>(
  name: string,
  property: fc.IAsyncProperty<T> | fc.IProperty<T>,
  run: FuzzRun,
  numRuns: number,
  /** Several properties of one run (one per operation) each draw from the run's seed plus their offset. */
  options: { seedOffset?: number; replay?: string } = {},
): Promise<void> {
  const runs = numRuns * run.scale;
  const seed = run.seed + (options.seedOffset ?? 0);
  console.info(
    `${name}: seed ${run.seed}${options.seedOffset ? ` + ${options.seedOffset}` : ''}, ${runs} cases`,
  );
  const details = await fc.check(property, { seed, numRuns: runs, endOnFailure: false });
  if (details.failed) {
    const replay = `TILLPOINT_FUZZ_SEED=${run.seed} TILLPOINT_FUZZ_RUNS=${run.scale}${options.replay ? ` ${options.replay}` : ''}`;
    throw new Error(
      `${name} failed — replay with ${replay} (fast-check path ${details.counterexamplePath ?? '?'})\n` +
        `${fc.defaultReportMessage(details)}\n` +
        `error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
    );
  }
}
