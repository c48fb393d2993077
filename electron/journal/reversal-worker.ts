import { ResponseCode } from '../../gateway/contract/response-codes';
import type { GatewayClient } from '../gateway-client/client';
import { backoffDelay, type BackoffPolicy } from '../../native/drivers/backoff';
import { reversalBackoff } from '../util/backoff';
import type { Clock, Timers } from '../util/clock';
import type { Logger } from '../util/log';
import type { Journal } from './journal-protocol';
import type { ReversalRow } from './journal-store';

/**
 * The reversal worker (docs/decisions.md#write-ahead-journal): every journal entry whose answer was lost gets
 * DoReversal, retried with exponential backoff and jitter until the gateway acknowledges. Its queue is the
 * journal's `reversals` table, so it resumes where it stopped after a crash. It runs beside the sale
 * engine and never holds it up: a pending reversal does not block a new sale on the lane.
 */

export type ReversalWorkerOptions = {
  journal: Journal;
  gateway: () => GatewayClient;
  clock: Clock;
  timers: Timers;
  log: Logger;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** When nothing is due, how long before looking again. Default 30 s (a kick wakes it sooner). */
  idleMs?: number;
  /** Called after every change of the queue (the bridge's `reversals.updated`). */
  onChange?: () => void;
  /** Called with every gateway outcome, so the core's online/offline view stays current. */
  onGatewayReached?: (reached: boolean) => void;
};

export type ReversalWorker = {
  start(): void;
  /** Waits for the attempt in progress, then stops. */
  stop(): Promise<void>;
  /** Look at the queue now (a new unknown outcome, the gateway came back). */
  kick(): void;
  /** Resolves once nothing is pending (tests, fault suite). */
  drained(timeoutMs: number): Promise<boolean>;
};

/**
 * Codes where retrying cannot help: the entry needs a person (settled before it could be reversed, or
 * the number names a void: the real catalog's "void impossible").
 */
const PERMANENT = new Set<number>([ResponseCode.VoidImpossible, ResponseCode.NotFound]);

// rule: lost-answer-reversal
export function createReversalWorker(options: ReversalWorkerOptions): ReversalWorker {
  const { journal, clock, timers, log } = options;
  const policy = options.backoff ?? reversalBackoff;
  const random = options.random ?? Math.random;
  const idleMs = options.idleMs ?? 30_000;
  let running = false;
  let timer: unknown;
  let pass: Promise<void> | undefined;
  let again = false;

  const schedule = (ms: number): void => {
    if (!running) return;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        runPass();
      },
      Math.max(0, ms),
    );
  };

  async function attempt(r: ReversalRow): Promise<void> {
    const result = await options.gateway().doReversal(r.utn);
    const now = clock.now();
    if (result.ok) {
      options.onGatewayReached?.(true);
      const note = result.response.Msg.join('; ') || 'Reversed';
      await journal.reversalDone(r.utn, 'reversed', `Reversed at the gateway: ${note}`, now);
      log.log('info', 'reversal', `${r.utn} acknowledged after ${r.attempts + 1} attempt(s): ${note}`);
      return;
    }
    const f = result.failure;
    if (f.kind === 'invalid' && f.code !== undefined && PERMANENT.has(f.code)) {
      await journal.reversalFailed(r.utn, `Reversal refused (${f.code}): ${f.message}`, now);
      log.log('error', 'reversal', `${r.utn} cannot be reversed (${f.code}): ${f.message}`);
      return;
    }
    if (f.where === 'network') options.onGatewayReached?.(false);
    const delay = backoffDelay(policy, r.attempts, random);
    await journal.reversalAttempt(r.utn, now + delay, f.message);
    log.log(
      'warn',
      'reversal',
      `${r.utn} attempt ${r.attempts + 1} failed (${f.kind}): ${f.message}; next in ${delay} ms`,
    );
  }

  async function runOnce(): Promise<void> {
    const due = await journal.dueReversals(clock.now(), 16);
    // One at a time: reversals are rare, and one lane never needs them in parallel.
    for (const r of due) {
      if (!running) return;
      try {
        await attempt(r);
      } catch (error) {
        log.log('error', 'reversal', `${r.utn}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (due.length > 0) options.onChange?.();
  }

  function runPass(): void {
    if (!running) return;
    if (pass) {
      again = true;
      return;
    }
    pass = runOnce()
      .catch((error: unknown) => {
        log.log(
          'error',
          'reversal',
          `pass failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .then(async () => {
        pass = undefined;
        if (!running) return;
        if (again) {
          again = false;
          schedule(0);
          return;
        }
        const pending = await journal.pendingReversals().catch(() => []);
        const next = pending.reduce((m, r) => Math.min(m, r.nextAttemptAt), Number.POSITIVE_INFINITY);
        schedule(Number.isFinite(next) ? Math.min(idleMs, next - clock.now()) : idleMs);
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      await pass;
    },
    kick() {
      if (!running) return;
      if (pass) again = true;
      else schedule(0);
    },
    async drained(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = await journal.pendingReversals();
        if (pending.length === 0 && !pass) return true;
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
