import fc from 'fast-check';

/**
 * How a terminal-side model test runs: a fixed seed and a few runs in `npm test` (a few seconds each),
 * any seed and run count from the environment for a long hunt, and the seed printed on failure so the
 * counterexample replays:
 *
 *   TILLPOINT_MODEL_SEED=123 TILLPOINT_MODEL_RUNS=200 npx vitest run test/model/terminal-roles.model.test.ts
 *
 * `TILLPOINT_MODEL_SEED=random` draws one (and prints it).
 */
export type ModelRun = { seed: number; numRuns: number; maxCommands: number };

export function modelRun(defaults: { seed: number; numRuns: number; maxCommands: number }): ModelRun {
  const seedText = process.env.TILLPOINT_MODEL_SEED;
  const seed =
    seedText === undefined || seedText === ''
      ? defaults.seed
      : seedText === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : Number(seedText);
  if (!Number.isSafeInteger(seed))
    throw new Error(`TILLPOINT_MODEL_SEED is an integer (or "random"), not ${seedText}`);
  const runs = Number(process.env.TILLPOINT_MODEL_RUNS ?? defaults.numRuns);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('TILLPOINT_MODEL_RUNS is a positive integer');
  const commands = Number(process.env.TILLPOINT_MODEL_COMMANDS ?? defaults.maxCommands);
  if (!Number.isSafeInteger(commands) || commands < 1)
    throw new Error('TILLPOINT_MODEL_COMMANDS is a positive integer');
  return { seed, numRuns: runs, maxCommands: commands };
}

/** Runs the property; a failure names the seed (and fast-check's path) to replay it, and the shrunk case. */
export async function assertModel<T>(
  name: string,
  property: fc.IAsyncProperty<T>,
  run: ModelRun,
): Promise<void> {
  console.log(`${name}: seed ${run.seed}, ${run.numRuns} runs of up to ${run.maxCommands} commands`);
  const details = await fc.check(property, { seed: run.seed, numRuns: run.numRuns, endOnFailure: false });
  if (details.failed) {
    const replay = `TILLPOINT_MODEL_SEED=${run.seed} TILLPOINT_MODEL_RUNS=${run.numRuns}`;
    throw new Error(
      `${name} failed — replay with ${replay} (fast-check path ${details.counterexamplePath ?? '?'})\n` +
        `${fc.defaultReportMessage(details)}\n` +
        `error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
    );
  }
}
