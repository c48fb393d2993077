export type ThrottleOptions = {
  /** Failures allowed per user name inside the window before it locks. */
  maxPerUser: number;
  /** Failures allowed per client address inside the window (an address may serve many users). */
  maxPerAddress: number;
  windowMs: number;
  lockMs: number;
};

export const defaultThrottle: ThrottleOptions = {
  maxPerUser: 5,
  maxPerAddress: 30,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
};

type Counter = { failures: number[]; lockedUntil: number };

/**
 * Counts failed logins per user and per address; once either passes its limit, logins from it are refused
 * until the lock ends, even with the right password, so guessing gains nothing.
 */
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly options: ThrottleOptions = defaultThrottle) {}

  /** Milliseconds until the earliest allowed retry, or 0 when allowed. */
  retryAfter(user: string, address: string, now: number): number {
    return Math.max(
      this.lockRemaining(`u:${user.toLowerCase()}`, now),
      this.lockRemaining(`a:${address}`, now),
    );
  }

  recordFailure(user: string, address: string, now: number): void {
    this.bump(`u:${user.toLowerCase()}`, this.options.maxPerUser, now);
    this.bump(`a:${address}`, this.options.maxPerAddress, now);
  }

  recordSuccess(user: string): void {
    this.counters.delete(`u:${user.toLowerCase()}`);
  }

  private lockRemaining(key: string, now: number): number {
    const c = this.counters.get(key);
    return c && c.lockedUntil > now ? c.lockedUntil - now : 0;
  }

  private bump(key: string, max: number, now: number): void {
    const c = this.counters.get(key) ?? { failures: [], lockedUntil: 0 };
    c.failures = c.failures.filter((t) => now - t < this.options.windowMs);
    c.failures.push(now);
    if (c.failures.length >= max) {
      c.lockedUntil = now + this.options.lockMs;
      c.failures = [];
    }
    this.counters.set(key, c);
    if (this.counters.size > 100_000) this.prune(now);
  }

  private prune(now: number): void {
    for (const [key, c] of this.counters) {
      if (c.lockedUntil <= now && c.failures.every((t) => now - t >= this.options.windowMs))
        this.counters.delete(key);
    }
  }
}
