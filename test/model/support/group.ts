import { performance } from 'node:perf_hooks';
import { readBooks } from './books';
import { GatewayError, send, type Answer, type Envelope, type Names } from './driver';
import { judgeBooks, judgeBooksAlone, type Violation } from './invariants';
import { explainNoOrder, linearize, type Executed } from './linearize';
import type { Model, Op } from './money-model';
import { describeGroup, describeOp, resolve, type CardChoice, type Ids, type Step } from './operations';
import { judgeReports } from './reports';
import type { Target } from './targets';

export type Stats = {
  /** Sequences run, a shrink's replays included. */
  sequences: number;
  /** Distinct sequences explored before any failure. */
  explored: number;
  groups: number;
  /** Groups of two operations or more, sent at once. */
  concurrentGroups: number;
  operations: number;
  /** Operations whose spec named nothing in the state (no preauthorization to close yet, say). */
  skipped: number;
  /** Orders of groups' operations tried against the model (the interleavings checked). */
  ordersTried: number;
  /** Groups whose answers more than one order explained: the model could not know the winner alone. */
  racesDecidedByAnswers: number;
  byOperation: Record<string, number>;
  /** Where the time went (ms): starting runs, sending groups, checking invariants. */
  time: { start: number; send: number; check: number };
};

export function newStats(): Stats {
  return {
    sequences: 0,
    explored: 0,
    groups: 0,
    concurrentGroups: 0,
    operations: 0,
    skipped: 0,
    ordersTried: 0,
    racesDecidedByAnswers: 0,
    byOperation: {},
    time: { start: 0, send: 0, check: 0 },
  };
}

/** One run (sequence): its merchant and the names its answers gave. */
export type RunContext = {
  target: Target;
  envelope: Envelope;
  bearer: Record<string, string>;
  names: Names;
  ids: Ids;
  srn: Map<string, string>;
  checkIds: Map<string, string>;
  /** The real batch number of each batch the model settled. */
  batchNumbers: Map<number, string>;
  stats: Stats;
  /** Which process answers the next reports (they take turns). */
  reportVia: number;
};

/** The model, in a box fast-check hands from command to command. */
export type Box = { m: Model };

type Live = { op: Op; card?: CardChoice | undefined; step: Step };

/** Whether the slow test card is behind an operation: then its group's delays reach into its window. */
function slow(op: Op, m: Model, group: readonly Live[]): boolean {
  const isSlowPayment = (utn: string): boolean => {
    const p = m.payments[utn];
    if (p) return p.slow || (p.parent !== null && (m.payments[p.parent]?.slow ?? false));
    const sibling = group.find((g) => 'utn' in g.op && g.op.utn === utn);
    return sibling !== undefined && sibling.op.t !== 'reverse' && slow(sibling.op, m, []);
  };
  switch (op.t) {
    case 'sale':
    case 'debit':
    case 'preauth':
      return op.card === 'slow';
    case 'refund':
    case 'fullRefund':
    case 'void':
    case 'close':
      return isSlowPayment(op.target);
    case 'reverse':
      return isSlowPayment(op.target);
    default:
      return false;
  }
}

function formatViolations(vs: readonly Violation[]): string {
  const byInvariant = new Map<string, string[]>();
  for (const v of vs) byInvariant.set(v.invariant, [...(byInvariant.get(v.invariant) ?? []), v.detail]);
  return [...byInvariant]
    .map(([inv, details]) => `invariant "${inv}" violated:\n${details.map((d) => `  - ${d}`).join('\n')}`)
    .join('\n');
}

const answerText = (a: Answer | undefined) =>
  a
    ? Object.entries(a.observed)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ')
    : 'no answer';

/** The real batch numbers of the batches a group settled, in the model's terms. */
function settlementNames(
  after: Model,
  before: Model,
  live: readonly Live[],
  answers: readonly (Answer | undefined)[],
): Map<number, string> {
  const out = new Map<number, string>();
  const unused = live
    .map((r, i) => ({ op: r.op, a: answers[i] }))
    .filter((x) => x.op.t === 'settle' && x.a?.batchNumber !== undefined);
  for (const s of after.settlements.slice(before.settlements.length)) {
    const i = unused.findIndex((x) => x.a?.observed.settled === s.amount);
    const hit = unused[i];
    if (hit?.a?.batchNumber) {
      out.set(s.batch, hit.a.batchNumber);
      unused.splice(i, 1);
    }
  }
  return out;
}

/**
 * One group: resolved against the model, sent at once (each operation after its delay, to the process it
 * names), its answers linearized against the model, then — unless `check` is off (a run's start) — every
 * invariant checked on the books, the processor's ledger and the reports. Throws the violation, with the
 * group's transcript.
 */
export async function runGroup(
  box: Box,
  ctx: RunContext,
  steps: readonly Step[],
  label: string,
  check = true,
): Promise<void> {
  const before = box.m;
  const resolved: (Live | null)[] = [];
  for (const step of steps) {
    const r = resolve(
      step.spec,
      before,
      ctx.ids,
      resolved.map((x) => x?.op ?? null),
    );
    resolved.push(r ? { ...r, step } : null);
  }
  const live = resolved.filter((r): r is Live => r !== null);
  ctx.stats.skipped += resolved.length - live.length;
  if (live.length === 0) return;
  ctx.stats.groups += 1;
  if (live.length > 1) ctx.stats.concurrentGroups += 1;
  ctx.stats.operations += live.length;
  for (const r of live) ctx.stats.byOperation[r.op.t] = (ctx.stats.byOperation[r.op.t] ?? 0) + 1;
  // Without the slow card, a delay past an operation's few milliseconds would only serialize the group.
  const slowGroup = live.some((r) => slow(r.op, before, live));

  const t0 = performance.now();
  const settled = await Promise.allSettled(
    live.map(async (r) => {
      const delay = slowGroup ? r.step.delayMs : r.step.delayMs % 25;
      if (delay > 0) await new Promise((res) => setTimeout(res, delay));
      const startedAt = performance.now() - t0;
      const answer = await send(r.op, r.card, r.step.via, ctx.names);
      return { answer, startedAt, endedAt: performance.now() - t0 };
    }),
  );
  ctx.stats.time.send += performance.now() - t0;
  const t1 = performance.now();
  const header = `${label}: ${describeGroup(steps)}`;
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    const reason = failed.reason instanceof GatewayError ? failed.reason.message : String(failed.reason);
    throw new Error(`${header}\n  the gateway failed to answer: ${reason}`);
  }
  const done = settled.map((s) => (s.status === 'fulfilled' ? s.value : null));
  const executed: Executed[] = live.map((r, i) => {
    const d = done[i];
    if (!d) throw new Error('unreachable: a rejected operation was not reported');
    return { op: r.op, observed: d.answer.observed, startedAt: d.startedAt, endedAt: d.endedAt };
  });
  const transcript = live
    .map((r, i) => {
      const e = executed[i];
      const when = e ? ` (${Math.round(e.startedAt)}-${Math.round(e.endedAt)} ms)` : '';
      return `  ${describeOp(r.op)} → ${answerText(done[i]?.answer)}${when}`;
    })
    .join('\n');

  // What the answers name: payments' reference numbers and checks' ids.
  live.forEach((r, i) => {
    const a = done[i]?.answer;
    if (!a) return;
    if ('utn' in r.op && a.srn && r.op.t !== 'reuse' && r.op.t !== 'void') ctx.srn.set(r.op.utn, a.srn);
    if (r.op.t === 'check' && a.checkId) ctx.checkIds.set(r.op.ref, a.checkId);
  });

  const lin = linearize(before, executed);
  ctx.stats.ordersTried += lin.explored;
  if (lin.models.length === 0) {
    // The answers break the rules; what the books show besides says what it cost.
    const books = await readBooks(ctx.target.storage.read, ctx.envelope.mid);
    const alone = judgeBooksAlone(books);
    throw new Error(
      `${header}\n${transcript}\n${explainNoOrder(before, executed)}${alone.length ? `\n${formatViolations(alone)}` : ''}`,
    );
  }
  if (lin.models.length > 1) ctx.stats.racesDecidedByAnswers += 1;
  if (!check) {
    box.m = lin.models[0] as Model;
    return;
  }

  const books = await readBooks(ctx.target.storage.read, ctx.envelope.mid);
  let chosen: Model | null = null;
  let violations: Violation[] = [];
  // Where several orders explain the answers, the books say which one the gateway took.
  for (const candidate of lin.models) {
    const names = settlementNames(
      candidate,
      before,
      live,
      done.map((d) => d?.answer),
    );
    const found = judgeBooks(candidate, books, {
      batchNumber: (b) => names.get(b) ?? ctx.batchNumbers.get(b),
    });
    if (chosen === null || found.length < violations.length) {
      chosen = candidate;
      violations = found;
      for (const [b, n] of names) ctx.batchNumbers.set(b, n);
    }
    if (found.length === 0) break;
  }
  if (!chosen) throw new Error('unreachable: no model chosen');
  ctx.reportVia += 1;
  violations.push(
    ...(await judgeReports(chosen, books, {
      urls: ctx.target.urls,
      envelope: ctx.envelope,
      bearer: ctx.bearer,
      giftPan: (k) => ctx.names.giftPan(k),
      checkId: (ref) => ctx.checkIds.get(ref),
      via: ctx.reportVia,
    })),
  );
  ctx.stats.time.check += performance.now() - t1;
  if (violations.length > 0) throw new Error(`${header}\n${transcript}\n${formatViolations(violations)}`);
  box.m = chosen;
}
