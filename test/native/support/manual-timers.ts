import type { TimerHandle, Timers } from '../../../native/drivers/timers';

type Entry = { at: number; seq: number; callback: () => void; cancelled: boolean; ms: number };

export type ManualTimers = {
  timers: Timers;
  /** Moves the clock forward, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Delays of every setTimeout call so far, in call order. */
  readonly scheduled: number[];
  /** Timers still waiting. */
  pending(): number;
  now(): number;
};

/** A clock that only moves when the test says so: backoff, heartbeats and timeouts become deterministic. */
export function createManualTimers(start = Date.UTC(2030, 0, 1)): ManualTimers {
  let now = start;
  let seq = 0;
  const queue: Entry[] = [];
  const scheduled: number[] = [];
  const timers: Timers = {
    now: () => now,
    setTimeout(callback, ms) {
      const e: Entry = { at: now + Math.max(0, ms), seq: (seq += 1), callback, cancelled: false, ms };
      queue.push(e);
      scheduled.push(ms);
      return e;
    },
    clearTimeout(handle: TimerHandle) {
      (handle as Entry).cancelled = true;
    },
  };
  return {
    timers,
    scheduled,
    now: () => now,
    pending: () => queue.filter((e) => !e.cancelled).length,
    advance(ms) {
      const target = now + ms;
      for (;;) {
        queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const i = queue.findIndex((e) => !e.cancelled && e.at <= target);
        if (i < 0) break;
        const [e] = queue.splice(i, 1);
        if (!e) break;
        now = Math.max(now, e.at);
        e.callback();
      }
      now = target;
      for (let i = queue.length - 1; i >= 0; i -= 1) if (queue[i]?.cancelled) queue.splice(i, 1);
    },
  };
}
