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
  /**
   * Invalid attempts for one user name, from any addresses, that lock the user ID (PCI DSS v4 8.3.4: at
   * most 10). A streak is forgotten after `lockoutMs` without an invalid attempt.
   */
  maxPerUserId: number;
  /** How long a locked user ID stays locked unless an administrator unlocks it (8.3.4: at least 30 minutes). */
  lockoutMs: number;
};

// rule: login-throttle
export const defaultThrottle: ThrottleOptions = {
  maxPerUser: 5,
  maxPerAddress: 30,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
  maxPerUserId: 10,
  lockoutMs: 30 * 60_000,
};

/** What the throttle says of one attempt before its credential is verified. */
export type Gate =
  /** `userLocked`: refused because the user ID is locked (not only this address delayed). */
  | { allowed: false; retryAfterMs: number; userLocked: boolean }
  /** `trusted`: the credential verified from this address before, not a guess; it was not counted. */
  | { allowed: true; trusted: boolean };

/** How the verification of an allowed attempt ended. */
export type Verdict = 'verified' | 'wrong-password' | 'other';

type Row = LoginThrottleTable;

const pairKey = (user: string, address: string) => `pair:${user.toLowerCase()}|${address}`;
const addressKey = (address: string) => `addr:${address}`;
const userKey = (user: string) => `user:${user.toLowerCase()}`;

/**
 * Failed logins, throttled per (user name, address) and per address with a progressive delay: the first
 * `max…` failures cost nothing, then each one doubles the wait before the next attempt (1 s, 2 s, 4 s … up
 * to `maxDelayMs`). A guesser at one address therefore slows only himself.
 *
 * Across addresses, the user ID itself is locked after `maxPerUserId` invalid attempts (PCI DSS v4 8.3.4:
 * at most 10, for at least 30 minutes or until an administrator unlocks it — `unlock`): guesses spread over
 * many addresses are capped too. A lockout must not let anyone who knows a user name stop a merchant's
 * payments, so a credential that is not a guess still passes: the one that last verified for this user, at
 * the address it verified from (any age), and one that verified from its pair within the window. Only an
 * attempt that proves the password by itself (not a trusted one) ends a streak early, so a working
 * client's steady traffic does not reopen the guessing.
 *
 * Every attempt is counted before its password is checked, in one unit of work with the check, so a burst
 * of concurrent guesses cannot all pass the check before the first failure counts; a verified login then
 * resets its pair. The credential last verified from a pair is remembered (as a keyed hash): presenting it
 * again is not a guess, and it passes while that pair is delayed, so a client that was working before the
 * guessing began keeps working (the in-memory credential cache covers it for a minute; this, across
 * processes and after the cache expires). Any other attempt, the right password included, waits its turn.
 *
 * The state is in the database: on PostgreSQL every gateway process throttles the same guesses. Units of
 * work take the user's lock, then the pair's, then the address's, always in that order.
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
      const id = await this.load(tx, userKey(user), now, this.options.lockoutMs);
      const pair = await this.load(tx, pairKey(user, address), now, this.options.windowMs);
      const addr = await this.load(tx, addressKey(address), now, this.options.windowMs);
      if (this.trusts(id, pair, credentialKey, now)) return { allowed: true, trusted: true };
      const locked = this.waitOf(id, now);
      const wait = Math.max(locked, this.waitOf(pair, now), this.waitOf(addr, now));
      if (wait > 0) return { allowed: false, retryAfterMs: wait, userLocked: locked > 0 };
      await this.save(tx, this.countedAgainstUser(id, now));
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
      const id = await this.load(tx, userKey(user), now, this.options.lockoutMs);
      const pair = await this.load(tx, pairKey(user, address), now, this.options.windowMs);
      if (gate.trusted && verdict === 'verified') {
        // Still in use: the trust is renewed (at most every half window, to spare the writes), so a client
        // that keeps working keeps being recognised however long the guessing goes on.
        const age = now.getTime() - Date.parse(pair.trusted_at || now.toISOString());
        if (pair.trusted_key !== credentialKey || age >= this.options.windowMs / 2)
          await this.save(tx, { ...pair, trusted_key: credentialKey, trusted_at: now.toISOString() });
        // The credential that last verified for this user: it keeps working through a lockout.
        if (id.trusted_key !== credentialKey)
          await this.save(tx, { ...id, trusted_key: credentialKey, trusted_at: now.toISOString() });
        return;
      }
      const addr = await this.load(tx, addressKey(address), now, this.options.windowMs);
      if (verdict === 'wrong-password') {
        if (!gate.trusted) return;
        // The remembered credential no longer verifies (the password changed): it is trusted no more, and
        // this attempt counts as the guess it now is, for the pair, the address and the user.
        await this.save(tx, {
          ...this.countedAgainstUser(id, now),
          ...(id.trusted_key === credentialKey ? { trusted_key: '', trusted_at: '' } : {}),
        });
        await this.save(tx, {
          ...this.counted(pair, this.options.maxPerUser, now),
          trusted_key: '',
          trusted_at: '',
        });
        await this.save(tx, this.counted(addr, this.options.maxPerAddress, now));
        return;
      }
      // The password was right (even if the user may not act for that mid or cid): not a guess. The pair
      // starts afresh; the address gives back the attempt it counted; an attempt that proved the password
      // by itself ends the user's streak (a trusted one did not count in it, and must not reopen it).
      await this.save(tx, {
        ...pair,
        failures: 0,
        next_allowed_at: '',
        ...(verdict === 'verified' ? { trusted_key: credentialKey, trusted_at: now.toISOString() } : {}),
      });
      if (!gate.trusted) {
        await this.save(tx, this.uncounted(addr, this.options.maxPerAddress));
        await this.save(tx, {
          ...id,
          failures: 0,
          next_allowed_at: '',
          ...(verdict === 'verified' ? { trusted_key: credentialKey, trusted_at: now.toISOString() } : {}),
        });
      }
    });
  }

  /**
   * An administrator's unlock (PCI DSS 8.3.4 "until the user's identity is confirmed"): the user's streak
   * and lockout end, and so do the delays of every address's pair for that user name; the addresses' own
   * delays (other user names tried from them) stay. Says whether the user ID was locked.
   */
  async unlock(user: string, now: Date): Promise<{ wasLocked: boolean; failures: number }> {
    return this.storage.write(async (tx) => {
      const key = userKey(user);
      const id = await this.load(tx, key, now, this.options.lockoutMs);
      const wasLocked = this.waitOf(id, now) > 0;
      await tx.run(
        tx.qb
          .updateTable('login_throttle')
          .set({ failures: 0, next_allowed_at: '' })
          .where('scope_key', '=', key),
      );
      // The pairs `pair:<user>|<address>`: a key range on the primary key. '}' follows '|' in code points.
      const prefix = pairKey(user, '');
      const pairs = await tx.all(
        tx.qb
          .selectFrom('login_throttle')
          .select('scope_key')
          .where('scope_key', '>=', prefix)
          .where('scope_key', '<', `${prefix.slice(0, -1)}}`),
      );
      // Another user name that begins with this one and a '|' is not this user's.
      const own = pairs.map((p) => p.scope_key).filter((k) => !k.slice(prefix.length).includes('|'));
      if (own.length > 0)
        await tx.run(
          tx.qb
            .updateTable('login_throttle')
            .set({ failures: 0, next_allowed_at: '' })
            .where('scope_key', 'in', own),
        );
      return { wasLocked, failures: id.failures };
    });
  }

  /** Not a guess: the user's last verified credential (at its address), or the pair's within the window. */
  private trusts(id: Row, pair: Row, credentialKey: string, now: Date): boolean {
    if (id.trusted_key !== '' && id.trusted_key === credentialKey) return true;
    const trustedUntil = pair.trusted_at ? Date.parse(pair.trusted_at) + this.options.windowMs : 0;
    return pair.trusted_key !== '' && pair.trusted_key === credentialKey && trustedUntil > now.getTime();
  }

  private async load(tx: Queryable, key: string, now: Date, memoryMs: number): Promise<Row> {
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
    // A streak whose delay or lockout has run out, with no attempt for a whole `memoryMs`, is forgotten
    // (the trust is kept: it has its own age).
    const quiet = now.getTime() - Date.parse(row.last_attempt_at) > memoryMs;
    if (quiet && this.waitOf(row, now) === 0) return { ...row, failures: 0, next_allowed_at: '' };
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

  /**
   * One more invalid attempt (or one not yet verified) against the user ID. A lockout that has run out
   * starts a new streak; the `maxPerUserId`-th locks the user for `lockoutMs` from now.
   */
  private countedAgainstUser(row: Row, now: Date): Row {
    const expired = row.next_allowed_at !== '' && this.waitOf(row, now) === 0;
    const failures = (expired ? 0 : row.failures) + 1;
    const locks = failures >= this.options.maxPerUserId;
    return {
      ...row,
      failures,
      last_attempt_at: now.toISOString(),
      next_allowed_at: locks
        ? new Date(now.getTime() + this.options.lockoutMs).toISOString()
        : expired
          ? ''
          : row.next_allowed_at,
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

  /**
   * Drops rows that neither delay, lock nor trust anything any more. A user's last verified credential is
   * kept whatever its age (one row per user that ever logged in): it is what keeps the user's working
   * client out of a lockout.
   */
  private async prune(now: Date): Promise<void> {
    const memory = Math.max(this.options.windowMs + this.options.maxDelayMs, this.options.lockoutMs);
    const before = new Date(now.getTime() - memory).toISOString();
    const nowText = now.toISOString();
    await this.storage.write((tx) =>
      tx.run(
        tx.qb
          .deleteFrom('login_throttle')
          .where('last_attempt_at', '<', before)
          .where('next_allowed_at', '<', nowText)
          .where((eb) =>
            eb.or([
              eb('trusted_at', '=', ''),
              eb.and([
                eb('trusted_at', '<', before),
                eb.or([eb('scope_key', '<', 'user:'), eb('scope_key', '>=', 'user;')]),
              ]),
            ]),
          ),
      ),
    );
  }
}
