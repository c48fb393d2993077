import { ResponseCode } from '../../../gateway/contract/response-codes';
import {
  BOOKED,
  matches,
  outcomes,
  type GroupContext,
  type Model,
  type Observed,
  type Op,
} from './money-model';
import { describeOp } from './operations';

/** One operation of a group as it ran: what was sent, what came back, and when (client clock). */
export type Executed = { op: Op; observed: Observed; startedAt: number; endedAt: number };

export type Linearized = {
  /** Every distinct state some order of the group leaves, having answered exactly as the gateway did. */
  models: Model[];
  /** Orders tried (nodes of the search), for the run's statistics. */
  explored: number;
};

/** More than this many distinct states left by one group means the model is too loose to be useful. */
const MAX_STATES = 32;

/**
 * The group's answers against the model: is there an order of its operations, one at a time, that gives
 * every answer the gateway gave? That is what "the operations were atomic" means (linearizability). An
 * operation that ended before another started comes first in every order considered. Where the model
 * cannot know who won a race, each order is tried and the answers decide.
 */
/** An event of an order: an operation, or the booking half of a refund or completion (after its claim). */
type Event = Executed & { after?: number };

/**
 * The events of a group: its operations, but a cancel refused because another cancel of the same payment
 * was at the processor at that moment (it changed nothing: the gateway says ask again); and for each
 * approved refund or completion, its booking, which comes after it and before its answer — a settlement
 * in between settles without it.
 */
function eventsOf(all: readonly Executed[]): Event[] {
  const events: Event[] = all.filter((e) => !cancelInProgress(e, all));
  const claims = events.length;
  for (let i = 0; i < claims; i += 1) {
    const e = events[i] as Event;
    const twoHalves = e.op.t === 'refund' || e.op.t === 'fullRefund' || e.op.t === 'close';
    if (twoHalves && 'utn' in e.op && e.observed.code === ResponseCode.Success)
      events.push({ ...e, op: { t: 'book', utn: e.op.utn }, observed: { code: BOOKED }, after: i });
  }
  return events;
}

export function linearize(start: Model, all: readonly Executed[]): Linearized {
  const found = new Map<string, Model>();
  const seen = new Set<string>();
  let explored = 0;
  const context = contextOf(all);
  const group = eventsOf(all);
  const walk = (model: Model, remaining: readonly number[]): void => {
    if (found.size >= MAX_STATES) return;
    if (remaining.length === 0) {
      found.set(JSON.stringify(model), model);
      return;
    }
    // The same state with the same events left has been walked from another order.
    const key = `${remaining.join(',')}|${JSON.stringify(model)}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of remaining) {
      const e = group[i] as Event;
      if (e.after !== undefined && remaining.includes(e.after)) continue;
      // Real time: an operation answered before this one was sent cannot come after it.
      if (remaining.some((j) => j !== i && (group[j] as Event).endedAt < e.startedAt)) continue;
      explored += 1;
      for (const o of outcomes(model, e.op, context)) {
        if (!matches(o, e.observed)) continue;
        walk(
          o.next,
          remaining.filter((j) => j !== i),
        );
      }
    }
  };
  walk(
    start,
    group.map((_, i) => i),
  );
  return { models: [...found.values()], explored };
}

const fmt = (o: Omit<Observed, 'code'> & { code?: number | readonly number[] }) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : String(v)}`)
    .join(' ');

/** Where two cancels of one payment overlap, the one refused with CancelInProgress while the other ran. */
function cancelInProgress(e: Executed, group: readonly Executed[]): boolean {
  if (e.observed.code !== ResponseCode.CancelInProgress) return false;
  if (e.op.t !== 'void' && e.op.t !== 'reverse') return false;
  const target = e.op.target;
  return group.some(
    (f) =>
      f !== e &&
      (f.op.t === 'void' || f.op.t === 'reverse') &&
      f.op.target === target &&
      f.startedAt < e.endedAt &&
      e.startedAt < f.endedAt,
  );
}

function contextOf(group: readonly Executed[]): GroupContext {
  return {
    reversed: new Set(group.flatMap((e) => (e.op.t === 'reverse' ? [e.op.target] : []))),
  };
}

/** Orders of the group the real-time rule allows (at most `limit`), for an explanation. */
function orders(group: readonly Event[], limit: number): number[][] {
  const out: number[][] = [];
  const walk = (prefix: number[], remaining: number[]) => {
    if (out.length >= limit) return;
    if (remaining.length === 0) {
      out.push(prefix);
      return;
    }
    for (const i of remaining) {
      const e = group[i] as Event;
      if (e.after !== undefined && remaining.includes(e.after)) continue;
      if (remaining.some((j) => j !== i && (group[j] as Event).endedAt < e.startedAt)) continue;
      walk(
        [...prefix, i],
        remaining.filter((j) => j !== i),
      );
    }
  };
  walk(
    [],
    group.map((_, i) => i),
  );
  return out;
}

/**
 * Why no order explains the answers: each operation and its answer, then, for each order the timing
 * allows, the first operation whose answer the rules would not give there, and what they would give.
 */
export function explainNoOrder(start: Model, all: readonly Executed[]): string {
  const lines = all.map((e) => `  ${describeOp(e.op)} answered {${fmt(e.observed)}}`);
  const context = contextOf(all);
  const group = eventsOf(all);
  // Orders that differ in their operations (bookings aside), those starting with each operation first.
  const distinct = new Map<string, number[]>();
  for (const order of orders(group, 720)) {
    const key = order.filter((i) => (group[i] as Event).op.t !== 'book').join(',');
    if (!distinct.has(key)) distinct.set(key, order);
  }
  const byFirst = new Map<number, number[][]>();
  for (const order of distinct.values()) {
    const first = order[0] ?? -1;
    byFirst.set(first, [...(byFirst.get(first) ?? []), order]);
  }
  const shown: number[][] = [];
  for (let round = 0; shown.length < 6 && round < 6; round += 1)
    for (const list of byFirst.values()) {
      const order = list[round];
      if (order && shown.length < 6) shown.push(order);
    }
  for (const order of shown) {
    let model = start;
    const names = order.map((i) => (group[i] as Event).op.t);
    for (const i of order) {
      const e = group[i] as Event;
      const all = outcomes(model, e.op, context);
      const hit = all.find((o) => matches(o, e.observed));
      if (hit) {
        model = hit.next;
        continue;
      }
      const allowed = all.map((o) => `{${fmt({ code: o.codes, ...o.expect })}} (${o.why})`).join(' or ');
      lines.push(
        `  in the order ${names.join(', ')}: ${describeOp(e.op)} could only answer ${allowed || 'nothing'}`,
      );
      break;
    }
  }
  return [
    all.length > 1
      ? 'no order of the group explains every answer the gateway gave:'
      : 'the answer breaks the rules:',
    ...lines,
  ].join('\n');
}
