import fc from 'fast-check';

/**
 * How a property test runs in `npm test`: a fixed seed and a bounded number of runs, cut short after
 * `timeMs` on a loaded machine (the runs done are still checked, and at least one must be), the seed
 * printed so a run replays; any seed and run count from the environment for a longer hunt:
 *
 *   TILLPOINT_PROPERTY_SEED=123 TILLPOINT_PROPERTY_RUNS=500 npx vitest run <file>
 *
 * `TILLPOINT_PROPERTY_SEED=random` draws one (and prints it).
 */
export type PropertyRun = { seed: number; numRuns: number; timeMs: number };

export function propertyRun(defaults: PropertyRun): PropertyRun {
  const seedText = process.env.TILLPOINT_PROPERTY_SEED;
  const seed =
    seedText === undefined || seedText === ''
      ? defaults.seed
      : seedText === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : Number(seedText);
  if (!Number.isSafeInteger(seed))
    throw new Error(`TILLPOINT_PROPERTY_SEED is an integer (or "random"), not ${seedText}`);
  const runs = Number(process.env.TILLPOINT_PROPERTY_RUNS ?? defaults.numRuns);
  if (!Number.isSafeInteger(runs) || runs < 1)
    throw new Error('TILLPOINT_PROPERTY_RUNS is a positive integer');
  return { seed, numRuns: runs, timeMs: defaults.timeMs };
}

/** Runs the property; a failure names the seed to replay it and the shrunk counterexample. */
export async function assertProperty<T>(
  name: string,
  property: fc.IAsyncProperty<T> | fc.IProperty<T>,
  run: PropertyRun,
): Promise<{ runs: number }> {
  console.log(`${name}: seed ${run.seed}, up to ${run.numRuns} runs in ${run.timeMs} ms`);
  const details = await fc.check(property, {
    seed: run.seed,
    numRuns: run.numRuns,
    interruptAfterTimeLimit: run.timeMs,
    markInterruptAsFailure: false,
  });
  if (details.failed) {
    throw new Error(
      `${name} failed — replay with TILLPOINT_PROPERTY_SEED=${run.seed} ` +
        `(fast-check path ${details.counterexamplePath ?? '?'})\n${fc.defaultReportMessage(details)}`,
    );
  }
  // A run cut short before its first case proves nothing: that is a failure, not a pass.
  if (details.numRuns < 1) throw new Error(`${name}: no case ran within ${run.timeMs} ms`);
  console.log(`${name}: ${details.numRuns} runs passed${details.interrupted ? ' (cut short by time)' : ''}`);
  return { runs: details.numRuns };
}
