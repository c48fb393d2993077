/** Time as the core sees it; tests and the benchmark hand in their own. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** Timers the core schedules background work with (reversal worker, forwarder, probes). */
export type Timers = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export const systemTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // Background retries must never keep a stopping process alive.
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
