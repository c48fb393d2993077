import { ALL_SPECS, type SpecName } from './operations';

/** How a checker run is set: `npm test` fixes the seed and bounds the time; the bench draws a seed. */
export type CheckerConfig = {
  seed: number;
  /** Replay: fast-check's counterexample path (with the seed). */
  path?: string | undefined;
  /** Replay: fast-check's replayPath of the commands (printed with a counterexample). */
  replayPath?: string | undefined;
  /** At most this many sequences (the time limit usually stops first). */
  runs: number;
  /** Stop starting new sequences after this long. */
  timeMs: number;
  /** Time to shrink a counterexample found, after the exploration. */
  shrinkMs: number;
  /** Most groups in a sequence, most operations in a group. */
  maxGroups: number;
  maxGroupSize: number;
  /** The operations drawn (all by default; a subset hunts one defect): TILLPOINT_MODEL_OPS. */
  commands: readonly SpecName[];
  /** A sequence that failed once is run up to this many times while shrinking (races do not always recur). */
  shrinkTries: number;
};

/**
 * The environment variables of docs/model-checker.md. SEED, RUNS and COMMANDS mean what they mean for the
 * terminal's model tests beside these (test/model/terminal-model-run.ts): the seed (or `random`), the most
 * sequences, the most commands — here groups — in one.
 */
export const MODEL_ENV = {
  seed: 'TILLPOINT_MODEL_SEED',
  path: 'TILLPOINT_MODEL_PATH',
  replayPath: 'TILLPOINT_MODEL_REPLAY_PATH',
  runs: 'TILLPOINT_MODEL_RUNS',
  timeMs: 'TILLPOINT_MODEL_TIME_MS',
  shrinkMs: 'TILLPOINT_MODEL_SHRINK_MS',
  groups: 'TILLPOINT_MODEL_COMMANDS',
  groupSize: 'TILLPOINT_MODEL_GROUP_SIZE',
  operations: 'TILLPOINT_MODEL_OPS',
  slowMs: 'TILLPOINT_MODEL_SLOW_MS',
} as const;

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not "${raw}"`);
  return n;
}

/** The configuration: `defaults`, with what the environment sets. */
export function configFromEnv(defaults: CheckerConfig): CheckerConfig {
  const raw = process.env[MODEL_ENV.operations];
  const commands = raw ? raw.split(',').map((c) => c.trim()) : defaults.commands;
  const unknown = commands.filter((c) => !(ALL_SPECS as readonly string[]).includes(c));
  if (unknown.length > 0) {
    throw new Error(
      `${MODEL_ENV.operations}: unknown operations ${unknown.join(', ')} (known: ${ALL_SPECS.join(', ')})`,
    );
  }
  return {
    ...defaults,
    seed:
      process.env[MODEL_ENV.seed] === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : intEnv(MODEL_ENV.seed, defaults.seed),
    path: process.env[MODEL_ENV.path] || defaults.path,
    replayPath: process.env[MODEL_ENV.replayPath] || defaults.replayPath,
    runs: intEnv(MODEL_ENV.runs, defaults.runs),
    timeMs: intEnv(MODEL_ENV.timeMs, defaults.timeMs),
    shrinkMs: intEnv(MODEL_ENV.shrinkMs, defaults.shrinkMs),
    maxGroups: intEnv(MODEL_ENV.groups, defaults.maxGroups),
    maxGroupSize: intEnv(MODEL_ENV.groupSize, defaults.maxGroupSize),
    commands: commands as SpecName[],
  };
}

/** The slow test card's delay the gateways are started with. */
export const slowMsFromEnv = (fallback: number): number => intEnv(MODEL_ENV.slowMs, fallback);
