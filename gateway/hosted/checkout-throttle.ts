/**
 * Public card forms attract card testing (trying stolen numbers until one approves). A link and address
 * that collect too many refused attempts in a window are turned away for the rest of it. In memory: a
 * restart forgets, which only ever loosens the limit briefly.
 *
 * The table is bounded: when full, the least recently active key goes (a Map keeps insertion order, and a
 * key is moved to the end on every failure and every refused attempt), never the whole table — a wipe at
 * the bound let a tester clear his own entry by filling the table. The caller counts only attempts on links
 * that exist, so posts to made-up links neither fill the table nor get throttled for nothing.
 */
export class CheckoutThrottle {
  private readonly attempts = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  get size(): number {
    return this.attempts.size;
  }

  allowed(key: string, now: number): boolean {
    const a = this.attempts.get(key);
    if (!a || now - a.since > this.windowMs) return true;
    if (a.count < this.maxFailures) return true;
    // Refused: the tester is still at it, so his entry is the last to go.
    this.touch(key, a);
    return false;
  }

  failed(key: string, now: number): void {
    const a = this.attempts.get(key);
    if (!a || now - a.since > this.windowMs) {
      this.touch(key, { count: 1, since: now });
      return;
    }
    a.count += 1;
    this.touch(key, a);
  }

  private touch(key: string, entry: { count: number; since: number }): void {
    this.attempts.delete(key);
    this.attempts.set(key, entry);
    while (this.attempts.size > this.maxKeys) {
      const oldest = this.attempts.keys().next();
      if (oldest.done) break;
      this.attempts.delete(oldest.value);
    }
  }
}
