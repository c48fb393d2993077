import type { Storage } from '../storage/queryable';

/**
 * Public card forms attract card testing (trying stolen numbers until one approves). A link and address
 * that collect too many declined attempts in a window are turned away for the rest of it.
 *
 * In the database (table checkout_throttle, migration 008), not in a process's memory: with several gateway
 * processes on one PostgreSQL database a tester who spread his attempts over them would get N times the
 * tries. Each decline is counted by one statement (an upsert that starts a new window when the last one
 * has passed), so two processes counting at once cannot lose a count. As before, the check reads the count
 * before the attempt and the count follows its decline: attempts sent at the same moment are judged on the
 * count before them, in one process or several.
 *
 * The caller counts only attempts on links that exist, so posts to made-up links neither grow the table
 * nor get throttled for nothing; rows whose window has passed mean nothing and are pruned now and then. No
 * row is ever dropped to make room (a bounded table that forgot its oldest key let a tester clear his own
 * entry by filling it).
 */
export class CheckoutThrottle {
  private counted = 0;

  constructor(
    private readonly storage: Storage,
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60_000,
  ) {}

  async allowed(key: string, now: number): Promise<boolean> {
    const q = this.storage.read;
    const row = await q.first(
      q.qb
        .selectFrom('checkout_throttle')
        .select(['failures', 'window_started_at'])
        .where('scope_key', '=', key),
    );
    if (!row || now - Date.parse(row.window_started_at) > this.windowMs) return true;
    return row.failures < this.maxFailures;
  }

  async failed(key: string, now: number): Promise<void> {
    const at = new Date(now).toISOString();
    const windowGone = new Date(now - this.windowMs).toISOString();
    this.counted += 1;
    await this.storage.write(async (tx) => {
      if (this.counted % 1_000 === 0)
        await tx.run(tx.qb.deleteFrom('checkout_throttle').where('window_started_at', '<', windowGone));
      await tx.run(
        tx.qb
          .insertInto('checkout_throttle')
          .values({ scope_key: key, failures: 1, window_started_at: at })
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
    });
  }
}
