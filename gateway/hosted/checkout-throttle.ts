/**
 * Public card forms attract card testing (trying stolen numbers until one approves). A link and address
 * that collect too many refused attempts in a window are turned away for the rest of it. In memory: a
 * restart forgets, which only ever loosens the limit briefly.
 */
export class CheckoutThrottle {
  private readonly attempts = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  allowed(key: string, now: number): boolean {
    const a = this.attempts.get(key);
    if (!a || now - a.since > this.windowMs) return true;
    return a.count < this.maxFailures;
  }

  failed(key: string, now: number): void {
    const a = this.attempts.get(key);
    if (!a || now - a.since > this.windowMs) {
      if (this.attempts.size >= this.maxKeys) this.attempts.clear();
      this.attempts.set(key, { count: 1, since: now });
      return;
    }
    a.count += 1;
  }
}
