import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { MODEL_ENV, type CheckerConfig } from './config';
import { send } from './driver';
import { newStats, runGroup, type Box, type RunContext, type Stats } from './group';
import { MERCHANT_ZONE, MerchantPool } from './merchants';
import { emptyModel } from './money-model';
import { describeGroup, groupArbitrary, type Step } from './operations';
import type { Target } from './targets';

/**
 * The model checker of issue 11 (docs/model-checker.md): random sequences of groups of operations, each
 * group sent at once to the gateway over HTTP, its answers checked against the reference model (some
 * order of the group must give them all) and the invariants checked on the books, the processor's ledger
 * and the reports after every group. fast-check draws and shrinks the sequences; each sequence runs for a
 * merchant of its own, so a replayed or shrunk sequence starts from the same state.
 */

export type CheckerReport = {
  stats: Stats;
  seed: number;
  numShrinks: number;
  interrupted: boolean;
  failure?: { message: string; counterexample: string; replay: string } | undefined;
};

/** A Luhn check digit. */
function luhn(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const localDate = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** The EBT account every run starts from: 150.00 of food benefits, whatever earlier runs left. */
const EBT_START_CENTS = 150_00;

/**
 * A run's start: its own merchant, and the shared EBT account brought back to 150.00 by a return or a
 * sale of this merchant's (a payment of the model like any other, in its open batch).
 */
async function startRun(
  target: Target,
  pool: MerchantPool,
  stats: Stats,
): Promise<{ box: Box; ctx: RunContext }> {
  const { envelope, bearer } = await pool.take();
  let utn = 0;
  let gift = 0;
  let check = 0;
  let checkNumber = 0;
  const giftPans = new Map<string, string>();
  const giftPan = (key: string) => {
    let pan = giftPans.get(key);
    if (!pan) {
      // 6035 + the merchant + a counter: a card number no other run (merchant) has.
      const body = `6035${String(envelope.mid % 10_000_000).padStart(7, '0')}${String(giftPans.size + 1).padStart(4, '0')}`;
      pan = body + luhn(body);
      giftPans.set(key, pan);
    }
    return pan;
  };
  const srn = new Map<string, string>();
  const checkIds = new Map<string, string>();
  const ctx: RunContext = {
    target,
    envelope,
    bearer,
    names: {
      envelope,
      urls: target.urls,
      giftPan,
      srn: (u) => srn.get(u),
      checkId: (r) => checkIds.get(r),
      checkNumber: () => String(1_000 + (checkNumber += 1)),
    },
    ids: {
      utn: () => `${envelope.mid}-${(utn += 1)}`,
      giftCard: () => `g${(gift += 1)}`,
      checkRef: () => `c${(check += 1)}`,
      today: () => localDate(MERCHANT_ZONE),
    },
    srn,
    checkIds,
    batchNumbers: new Map(),
    stats,
    reportVia: 0,
  };
  const balance = await send({ t: 'ebtBalance' }, undefined, 0, ctx.names);
  const opening = balance.observed.balance;
  if (opening === undefined) throw new Error('the EBT balance inquiry answered no balance');
  const box: Box = { m: emptyModel({ key: 'ebt', opening }) };
  if (opening !== EBT_START_CENTS) {
    const spec =
      opening < EBT_START_CENTS
        ? ({ t: 'ebtReturn', amount: EBT_START_CENTS - opening } as const)
        : ({ t: 'ebtSale', amount: opening - EBT_START_CENTS, wrongPin: false } as const);
    await runGroup(box, ctx, [{ spec, delayMs: 0, via: 0 }], 'start of the run', false);
  }
  return { box, ctx };
}

class GroupCommand implements fc.AsyncCommand<Box, RunContext> {
  constructor(readonly steps: Step[]) {}
  check(): boolean {
    return true;
  }
  async run(box: Box, ctx: RunContext): Promise<void> {
    await runGroup(box, ctx, this.steps, 'group');
  }
  toString(): string {
    return describeGroup(this.steps);
  }
}

/**
 * Runs the checker against `target`; reports what it checked and any (shrunk) counterexample. Two phases:
 * explore new sequences until `timeMs` (stopping at the first failure), then shrink that failure for at
 * most `shrinkMs`, replaying it from its seed and path (fast-check's replay), each candidate up to
 * `shrinkTries` times since a race does not always recur.
 */
export async function runChecker(target: Target, config: CheckerConfig): Promise<CheckerReport> {
  const stats = newStats();
  const pool = new MerchantPool(target);
  const group = groupArbitrary(config.commands, target.slowMs, config.maxGroupSize).map(
    (steps) => new GroupCommand(steps),
  );
  const sequences = fc.commands([group], {
    maxCommands: config.maxGroups,
    // Sequences of every length up to the most, not mostly short ones: state builds up over a sequence.
    size: 'max',
    ...(config.replayPath ? { replayPath: config.replayPath } : {}),
  });
  const property = (phase: 'explore' | 'shrink') =>
    fc.asyncProperty(sequences, async (cmds) => {
      if (phase === 'explore') stats.explored += 1;
      const tries = phase === 'shrink' ? config.shrinkTries : 1;
      for (let i = 0; i < tries; i += 1) {
        stats.sequences += 1;
        await fc.asyncModelRun(async () => {
          const t0 = performance.now();
          const { box, ctx } = await startRun(target, pool, stats);
          stats.time.start += performance.now() - t0;
          return { model: box, real: ctx };
        }, cmds);
      }
    });
  try {
    const explored = await fc.check(property('explore'), {
      seed: config.seed,
      numRuns: config.runs,
      endOnFailure: true,
      ...(config.path ? { path: config.path } : {}),
      plugins: [fc.interruptAfterTimeLimit(config.timeMs)],
    });
    const report: CheckerReport = {
      stats,
      seed: explored.seed,
      numShrinks: 0,
      interrupted: explored.interrupted,
    };
    // fast-check calls a time limit reached before any sequence finished a failure; it is not one of the
    // gateway's (what ran was checked, and the statistics say how little that was).
    if (!explored.failed || (explored.interrupted && explored.counterexamplePath === null)) return report;
    if (explored.counterexamplePath === null) {
      report.failure = {
        message: 'fast-check failed without a counterexample',
        counterexample: '',
        replay: '',
      };
      return report;
    }
    const shrunk = await fc.check(property('shrink'), {
      seed: explored.seed,
      path: explored.counterexamplePath,
      plugins: [fc.interruptAfterTimeLimit(config.shrinkMs)],
    });
    // A race that did not recur in the replay leaves the first failure as found.
    const best = shrunk.failed && shrunk.counterexamplePath !== null ? shrunk : explored;
    report.numShrinks = shrunk.numShrinks;
    const error = best.errorInstance;
    const values = best.counterexample as readonly unknown[] | null;
    const counterexample = values ? String(values[0]) : '';
    const replayPath = /replayPath="([^"]*)"/.exec(counterexample)?.[1];
    report.failure = {
      message: error instanceof Error ? error.message : String(error),
      counterexample,
      replay: [
        `${MODEL_ENV.seed}=${explored.seed}`,
        `${MODEL_ENV.path}='${best.counterexamplePath ?? ''}'`,
        ...(replayPath ? [`${MODEL_ENV.replayPath}='${replayPath}'`] : []),
        `${MODEL_ENV.groups}=${config.maxGroups}`,
        `${MODEL_ENV.groupSize}=${config.maxGroupSize}`,
        ...(process.env[MODEL_ENV.operations]
          ? [`${MODEL_ENV.operations}=${process.env[MODEL_ENV.operations]}`]
          : []),
        ...(process.env[MODEL_ENV.slowMs] ? [`${MODEL_ENV.slowMs}=${process.env[MODEL_ENV.slowMs]}`] : []),
        target.replayCommand,
      ].join(' '),
    };
    return report;
  } finally {
    await pool.drain();
  }
}

/** The report as lines: what ran, how many interleavings were checked, any counterexample. */
export function describeReport(target: Target, r: CheckerReport): string[] {
  const s = r.stats;
  const ops = Object.entries(s.byOperation)
    .sort(([, a], [, b]) => b - a)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const lines = [
    `model checker on ${target.name}: seed ${r.seed}, ${s.explored} command sequences explored${r.failure ? `, then ${r.numShrinks} shrink steps` : ''}${r.interrupted ? ' (time limit)' : ''}`,
    `  ran ${s.sequences} sequences in all (shrink replays included): ${s.groups} groups, ${s.concurrentGroups} of them concurrent; ${s.operations} operations (${s.skipped} drawn specs named nothing)`,
    `  interleavings: ${s.ordersTried} orders of groups' operations tried against the model; ${s.racesDecidedByAnswers} groups whose winner only the answers could tell`,
    `  commands run: ${ops}`,
    `  time: starting runs ${Math.round(s.time.start)} ms, sending groups ${Math.round(s.time.send)} ms, checking ${Math.round(s.time.check)} ms`,
  ];
  if (r.failure) {
    lines.push(
      `  COUNTEREXAMPLE (shrunk): ${r.failure.counterexample}`,
      `  replay: ${r.failure.replay}`,
      ...r.failure.message.split('\n').map((l) => `  ${l}`),
    );
  }
  return lines;
}
