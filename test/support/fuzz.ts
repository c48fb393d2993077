import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * The project's property-based fuzz runs (the bridge's frames, the serial drivers over ptys): each draws a
 * fresh seed, prints it, and stops starting new cases after its time limit, so `npm test` stays bounded
 * on a loaded machine (a case that hangs past its own timeout fails) and a failure found once can be replayed exactly:
 *
 *   TILLPOINT_FUZZ_SEED=<seed> [TILLPOINT_FUZZ_PATH=<path>] npx vitest run <file> -t '<name>'
 *
 * (the failure message prints both). TILLPOINT_FUZZ_RUNS and TILLPOINT_FUZZ_TIME_MS raise the bounds for
 * a longer hunt. A run cut short by its time limit must still have checked `minRuns` cases: a verdict on
 * (almost) nothing is no verdict.
 */
export const FUZZ_ENV = {
  seed: 'TILLPOINT_FUZZ_SEED',
  path: 'TILLPOINT_FUZZ_PATH',
  runs: 'TILLPOINT_FUZZ_RUNS',
  timeMs: 'TILLPOINT_FUZZ_TIME_MS',
} as const;

export type FuzzBounds = {
  /** Cases to try (fewer when the time limit comes first). */
  numRuns: number;
  /** Cases that must have run for a pass. */
  minRuns: number;
  /** No new case starts after this long (the one running must still pass). */
  timeLimitMs: number;
  /** One case running longer fails the property. */
  caseTimeoutMs: number;
};

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not "${raw}"`);
  return n;
}

/**
 * Runs `predicate` on cases drawn from `arbitraries` under the bounds, prints the seed, and fails with
 * fast-check's report and a replay line. The time limit stops new cases; a case still running at the
 * limit is waited for (up to its own timeout) and judged like any other.
 */
export async function checkAsyncProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<void>,
  bounds: FuzzBounds,
): Promise<void> {
  const seed = intFromEnv(FUZZ_ENV.seed) ?? Math.floor(Math.random() * 2 ** 31);
  const path = process.env[FUZZ_ENV.path] || undefined;
  const numRuns = intFromEnv(FUZZ_ENV.runs) ?? bounds.numRuns;
  const timeLimitMs = intFromEnv(FUZZ_ENV.timeMs) ?? bounds.timeLimitMs;
  let running: { done: Promise<unknown>; args: Ts } | undefined;
  const property = fc.asyncProperty(...arbitraries, (...args: Ts) => {
    const done = predicate(...args);
    running = { done, args };
    return done;
  });
  const started = performance.now();
  const details = await fc.check(property, {
    seed,
    numRuns,
    ...(path ? { path } : {}),
    interruptAfterTimeLimit: timeLimitMs,
    timeout: bounds.caseTimeoutMs,
  });
  const replay = (p: string | null): string => `${FUZZ_ENV.seed}=${seed} ${FUZZ_ENV.path}='${p ?? ''}'`;
  // fast-check abandons the case running when the time limit comes: it must still pass, in time.
  const last = running;
  if (details.interrupted && !details.failed && last) {
    const verdict = await Promise.race([
      last.done.then(
        () => undefined,
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      ),
      new Promise<string>((resolve) =>
        setTimeout(() => resolve(`did not finish within ${bounds.caseTimeoutMs} ms`), bounds.caseTimeoutMs),
      ),
    ]);
    if (verdict !== undefined)
      throw new Error(
        `${name}: the case running at the time limit failed: ${verdict}\ncase: ${fc.stringify(last.args)}\nseed ${seed} (this case is the last one that seed draws within the time limit)`,
      );
  }
  const ms = Math.round(performance.now() - started);
  console.info(
    `[fuzz] ${name}: seed ${seed}, ${details.numRuns} cases in ${ms} ms${details.interrupted ? ' (time limit)' : ''}`,
  );
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : '';
    throw new Error(
      `${fc.defaultReportMessage(details) ?? 'property failed'}\n${cause}\nreplay: ${replay(details.counterexamplePath)}`,
    );
  }
  expect(details.numRuns, `${name}: too few cases ran before the time limit`).toBeGreaterThanOrEqual(
    path ? 1 : bounds.minRuns,
  );
}
