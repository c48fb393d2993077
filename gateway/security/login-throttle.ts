import type { Queryable, Storage } from '../storage/queryable';
import type { LoginThrottleTable } from '../storage/schema-security';

export type ThrottleOptions = {
  /** Failed logins of one user name from one address that go undelayed; each further one doubles the delay. */
  maxPerUser: number;
  /** The same for one address across every user name (an address trying many users). */
  maxPerAddress: number;
  /** The first delay once the free failures are used. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
  /** A streak of failures is forgotten after this long without one; a trusted credential lasts as long. */
  windowMs: number;
};

export const defaultThrottle: ThrottleOptions = {
  maxPerUser: 5,
  maxPerAddress: 30,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

/** What the throttle says of one attempt before its credential is verified. */
export type Gate =
  | { allowed: false; retryAfterMs: number }
  /** `trusted`: the credential verified from this address before, not a guess; it was not counted. */
  | { allowed: true; trusted: boolean };

/** How the verification of an allowed attempt ended. */
export type Verdict = 'verified' | 'wrong-password' | 'other';

type Row = LoginThrottleTable;

const pairKey = (user: string, address: string) => `pair:${user.toLowerCase()}|${address}`;
const addressKey = (address: string) => `addr:${address}`;

/**
 * Failed logins, throttled per (user name, address) and per address with a progressive delay: the first
 * `max…` failures cost nothing, then each one doubles the wait before the next attempt (1 s, 2 s, 4 s … up
 * to `maxDelayMs`). A guesser at one address therefore slows only himself: the same user at another
 * address is not affected (a per-user lockout let anyone who knew a user name stop a merchant's payments).
 *
 * Every attempt is counted before its password is checked, in one unit of work with the check, so a burst
 * of concurrent guesses cannot all pass the check before the first failure counts; a verified login then
 * resets its pair. The credential last verified from a pair is remembered (as a keyed hash): presenting it
 * again is not a guess, and it passes while that pair is delayed, so a client that was working before the
 * guessing began keeps working (the in-memory credential cache covers it for a minute; this, across
 * processes and after the cache expires). Any other attempt, the right password included, waits its turn.
 *
 * The state is in the database: on PostgreSQL every gateway process throttles the same guesses.
 */
export class LoginThrottle {
  private attempts = 0;

  constructor(
    private readonly storage: Storage,
    private readonly options: ThrottleOptions = defaultThrottle,
  ) {}

  /** Decides whether an attempt may be verified, and counts it if so (as a failure until told otherwise). */
  async begin(user: string, address: string, credentialKey: string, now: Date): Promise<Gate> {
    this.attempts += 1;
    if (this.attempts % 1_000 === 0) await this.prune(now);
    return this.storage.write(async (tx) => {
      const pair = await this.load(tx, pairKey(user, address), now);
      const addr = await this.load(tx, addressKey(address), now);
      const trustedUntil = pair.trusted_at ? Date.parse(pair.trusted_at) + this.options.windowMs : 0;
      if (pair.trusted_key !== '' && pair.trusted_key === credentialKey && trustedUntil > now.getTime()) {
        return { allowed: true, trusted: true };
      }
      const wait = Math.max(this.waitOf(pair, now), this.waitOf(addr, now));
      if (wait > 0) return { allowed: false, retryAfterMs: wait };
      await this.save(tx, this.counted(pair, this.options.maxPerUser, now));
      await this.save(tx, this.counted(addr, this.options.maxPerAddress, now));
      return { allowed: true, trusted: false };
    });
  }

  /** Records how an allowed attempt's verification ended. */
  async finish(
    user: string,
    address: string,
    credentialKey: string,
    gate: Extract<Gate, { allowed: true }>,
    verdict: Verdict,
    now: Date,
  ): Promise<void> {
    await this.storage.write(async (tx) => {
      const pair = await this.load(tx, pairKey(user, address), now);
      if (gate.trusted && verdict === 'verified') {
        // Still in use: the trust is renewed (at most every half window, to spare the writes), so a client
        // that keeps working keeps being recognised however long the guessing goes on.
        const age = now.getTime() - Date.parse(pair.trusted_at || now.toISOString());
        if (age >= this.options.windowMs / 2) await this.save(tx, { ...pair, trusted_at: now.toISOString() });
        return;
      }
      const addr = await this.load(tx, addressKey(address), now);
      if (verdict === 'wrong-password') {
        if (!gate.trusted) return;
        // The remembered credential no longer verifies (the password changed): it is trusted no more, and
        // this attempt counts as the guess it now is.
        await this.save(tx, {
          ...this.counted(pair, this.options.maxPerUser, now),
          trusted_key: '',
          trusted_at: '',
        });
        await this.save(tx, this.counted(addr, this.options.maxPerAddress, now));
        return;
      }
      // The password was right (even if the user may not act for that mid or cid): not a guess. The pair
      // starts afresh; the address gives back the attempt it counted.
      await this.save(tx, {
        ...pair,
        failures: 0,
        next_allowed_at: '',
        ...(verdict === 'verified' ? { trusted_key: credentialKey, trusted_at: now.toISOString() } : {}),
      });
      if (!gate.trusted) await this.save(tx, this.uncounted(addr, this.options.maxPerAddress));
    });
  }

  private async load(tx: Queryable, key: string, now: Date): Promise<Row> {
    await tx.lock(`login:${key}`);
    const row = await tx.first(tx.qb.selectFrom('login_throttle').selectAll().where('scope_key', '=', key));
    const fresh: Row = {
      scope_key: key,
      failures: 0,
      last_attempt_at: now.toISOString(),
      next_allowed_at: '',
      trusted_key: '',
      trusted_at: '',
    };
    if (!row) return fresh;
    // A streak with no attempt for a whole window is forgotten (the trust is kept: it has its own age).
    if (now.getTime() - Date.parse(row.last_attempt_at) > this.options.windowMs)
      return { ...row, failures: 0, next_allowed_at: '' };
    return row;
  }

  private waitOf(row: Row, now: Date): number {
    return row.next_allowed_at ? Math.max(0, Date.parse(row.next_allowed_at) - now.getTime()) : 0;
  }

  /** The delay after `failures` counted attempts: none for the free ones, then doubling to the cap. */
  private delayAfter(failures: number, free: number): number {
    if (failures < free) return 0;
    const doublings = Math.min(failures - free, 30);
    return Math.min(this.options.baseDelayMs * 2 ** doublings, this.options.maxDelayMs);
  }

  private counted(row: Row, free: number, now: Date): Row {
    const failures = row.failures + 1;
    const delay = this.delayAfter(failures, free);
    return {
      ...row,
      failures,
      last_attempt_at: now.toISOString(),
      next_allowed_at: delay > 0 ? new Date(now.getTime() + delay).toISOString() : '',
    };
  }

  private uncounted(row: Row, free: number): Row {
    const failures = Math.max(0, row.failures - 1);
    const delay = this.delayAfter(failures, free);
    return {
      ...row,
      failures,
      next_allowed_at: delay > 0 ? new Date(Date.parse(row.last_attempt_at) + delay).toISOString() : '',
    };
  }

  private async save(tx: Queryable, row: Row): Promise<void> {
    const { scope_key: _key, ...rest } = row;
    await tx.run(
      tx.qb
        .insertInto('login_throttle')
        .values(row)
        .onConflict((oc) => oc.column('scope_key').doUpdateSet(rest)),
    );
  }

  /** Drops rows that neither delay nor trust anything any more. */
  private async prune(now: Date): Promise<void> {
    const before = new Date(now.getTime() - this.options.windowMs - this.options.maxDelayMs).toISOString();
    await this.storage.write((tx) =>
      tx.run(
        tx.qb
          .deleteFrom('login_throttle')
          .where('last_attempt_at', '<', before)
          .where((eb) => eb.or([eb('trusted_at', '=', ''), eb('trusted_at', '<', before)])),
      ),
    );
  }
}
