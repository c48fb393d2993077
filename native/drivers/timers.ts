/**
 * Time as drivers and the device manager see it. Injected so tests drive link timeouts, heartbeats and
 * reconnect backoff deterministically instead of sleeping.
 */
/** Opaque: whatever the timer implementation returns (a Node Timeout, a fake clock entry). */
export type TimerHandle = object;

export type Timers = {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
};

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const t = setTimeout(callback, ms);
    // A pending heartbeat or backoff must never keep a finished process alive.
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on the given timers. */
export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
  });
}
