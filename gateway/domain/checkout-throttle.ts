import type { Storage } from '../storage/queryable';

/** How many declined attempts a scope takes in a window before it is turned away for the rest of it. */
export type CheckoutLimit = { maxFailures: number; windowMs: number };

/**
 * The scopes of the hosted checkout's card-testing limits:
 * - `pair`: one link from one payer address (the first defence, as before);
 * - `link`: one link from all addresses together — a tester who rotates addresses (a botnet, a proxy
 *   pool) still meets a ceiling; a link is one merchant's request for one payment, so a payer who is
 *   honestly declined 20 times in an hour is not the case to serve;
 * - `card`: one card (its keyed fingerprint, never the number) on every link from every address — what
 *   guessing a stolen card's CVN or expiry looks like; a day, because that guessing is slow and patient.
 */
export type CheckoutScope = 'pair' | 'link' | 'card';

export const CHECKOUT_LIMITS: Readonly<Record<CheckoutScope, CheckoutLimit>> = {
  pair: { maxFailures: 10, windowMs: 15 * 60_000 },
  link: { maxFailures: 20, windowMs: 60 * 60_000 },
  card: { maxFailures: 5, windowMs: 24 * 60 * 60_000 },
};

/**
 * Public card forms attract card testing (trying stolen numbers until one approves). A scope that collects
 * its limit of declined attempts in a window is turned away for the rest of it.
 *
 * In the database (table checkout_throttle, migration 008; one row per scope and key,
 * `<scope>:<key>`), not in a process's memory: with several gateway processes on one PostgreSQL database a
 * tester who spread his attempts over them would get N times the tries. Each decline is counted by one
 * statement per scope (an upsert that starts a new window when the last one has passed), so two processes
 * counting at once cannot lose a count. As before, the check reads the count before the attempt and the
 * count follows its decline: attempts sent at the same moment are judged on the count before them, in one
 * process or several.
 *
 * The caller counts only attempts on links that exist, so posts to made-up links neither grow the table
 * nor get throttled for nothing; rows whose window has passed mean nothing and are pruned now and then. No
 * row is ever dropped to make room (a bounded table that forgot its oldest key let a tester clear his own
 * entry by filling it).
 */
export class CheckoutThrottle {
  private counted = 0;
  /** Rows older than the longest window mean nothing in any scope. */
  private readonly longestWindowMs: number;

  constructor(
    private readonly storage: Storage,
    private readonly limits: Readonly<Record<CheckoutScope, CheckoutLimit>> = CHECKOUT_LIMITS,
  ) {
    this.longestWindowMs = Math.max(...Object.values(limits).map((l) => l.windowMs));
  }

  async allowed(scope: CheckoutScope, key: string, now: number): Promise<boolean> {
    const { maxFailures, windowMs } = this.limits[scope];
    const q = this.storage.read;
    const row = await q.first(
      q.qb
        .selectFrom('checkout_throttle')
        .select(['failures', 'window_started_at'])
        .where('scope_key', '=', `${scope}:${key}`),
    );
    if (!row || now - Date.parse(row.window_started_at) > windowMs) return true;
    return row.failures < maxFailures;
  }

  /** Counts one declined attempt in each of `scopes` (one unit of work). */
  async failed(scopes: readonly { scope: CheckoutScope; key: string }[], now: number): Promise<void> {
    const at = new Date(now).toISOString();
    this.counted += 1;
    await this.storage.write(async (tx) => {
      if (this.counted % 1_000 === 0) {
        const gone = new Date(now - this.longestWindowMs).toISOString();
        await tx.run(tx.qb.deleteFrom('checkout_throttle').where('window_started_at', '<', gone));
      }
      for (const { scope, key } of scopes) {
        const windowGone = new Date(now - this.limits[scope].windowMs).toISOString();
        await tx.run(
          tx.qb
            .insertInto('checkout_throttle')
            .values({ scope_key: `${scope}:${key}`, failures: 1, window_started_at: at })
            .onConflict((oc) =>
              oc.column('scope_key').doUpdateSet((eb) => {
                const passed = eb('checkout_throttle.window_started_at', '<', windowGone);
                return {
                  failures: eb
                    .case()
                    .when(passed)
                    .then(1)
                    .else(eb('checkout_throttle.failures', '+', 1))
                    .end(),
                  window_started_at: eb
                    .case()
                    .when(passed)
                    .then(at)
                    .else(eb.ref('checkout_throttle.window_started_at'))
                    .end(),
                };
              }),
            ),
        );
      }
    });
  }
}
