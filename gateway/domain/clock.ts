/** Injected time, so schedulers, windows and expiries are testable without sleeping. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
