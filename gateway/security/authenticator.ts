import { createHmac } from 'node:crypto';
import type { Storage } from '../storage/queryable';
import type { Clock } from '../domain/clock';
import { ResponseCode } from '../contract/response-codes';
import { decoyHash, verifyPassword } from './password';
import type { LoginThrottle } from './login-throttle';

export type Credentials = {
  AppKey: string;
  AppType: number;
  mid: number;
  cid: number;
  UserName: string;
  Password: string;
};

/** Who is calling, once the envelope checked out. */
export type Principal = {
  userId: number;
  userName: string;
  mid: number;
  cid: number;
  appKey: string;
  appType: number;
};

export type AuthOutcome =
  { ok: true; principal: Principal } | { ok: false; code: number; messages: string[]; retryAfterMs?: number };

type CachedPrincipal = { principal: Principal; expiresAt: number };

export type AuthenticatorOptions = {
  /** How long a verified credential is trusted without running scrypt again. */
  cacheTtlMs: number;
  cacheMaxEntries: number;
};

/**
 * Checks every envelope: known AppKey/AppType, user exists and is enabled, password matches its scrypt
 * hash, the user belongs to mid, cid is an enabled cashier of mid. A verified credential is cached under a
 * keyed hash for a short time, so a sale pays no key stretching; failures are throttled per (user, address)
 * and per address, and lock the user ID after 10 from any addresses, in the database (login-throttle.ts).
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedPrincipal>();
  /** Verifications in progress: a burst of requests with one credential runs scrypt once, not once each. */
  private readonly inflight = new Map<string, Promise<AuthOutcome>>();

  constructor(
    private readonly storage: Storage,
    private readonly cacheKey: Buffer,
    private readonly clock: Clock,
    private readonly throttle: LoginThrottle,
    private readonly options: AuthenticatorOptions = { cacheTtlMs: 60_000, cacheMaxEntries: 10_000 },
  ) {}

  async authenticate(c: Credentials, address: string): Promise<AuthOutcome> {
    const now = this.clock.now();
    // Keyed by credential and address: a hit is this client, verified from here within the TTL, and no
    // guess (a correct guess from elsewhere still goes through that address's throttle, so the cache
    // cannot serve as a throttle-free oracle of the right password).
    const key = this.keyOf(c, address);
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now.getTime()) return { ok: true, principal: hit.principal };

    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.attempt(c, address, key, now).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const outcome = await pending;
    if (!outcome.ok) return outcome;
    if (this.cache.size >= this.options.cacheMaxEntries) this.cache.clear();
    this.cache.set(key, { principal: outcome.principal, expiresAt: now.getTime() + this.options.cacheTtlMs });
    return outcome;
  }

  /** One verification, counted by the throttle before it runs (a burst cannot outrun the count). */
  private async attempt(c: Credentials, address: string, key: string, now: Date): Promise<AuthOutcome> {
    const gate = await this.throttle.begin(c.UserName, address, key, now);
    if (!gate.allowed) {
      const seconds = Math.ceil(gate.retryAfterMs / 1000);
      return {
        ok: false,
        code: ResponseCode.TooManyAttempts,
        messages: [
          gate.userLocked
            ? // The same answer for a user name that does not exist: a lockout tells nobody which names do.
              `Too many failed logins for this user; it is locked: retry in ${seconds} s or ask an administrator to unlock it`
            : `Too many failed logins; retry in ${seconds} s`,
        ],
        retryAfterMs: gate.retryAfterMs,
      };
    }
    const outcome = await this.verify(c);
    const verdict = outcome.ok
      ? 'verified'
      : outcome.code === ResponseCode.AuthenticationFailed
        ? 'wrong-password'
        : 'other';
    await this.throttle.finish(c.UserName, address, key, gate, verdict, this.clock.now());
    return outcome;
  }

  /** Drops cached credentials, e.g. after a password change. */
  forget(): void {
    this.cache.clear();
  }

  private keyOf(c: Credentials, address: string): string {
    return createHmac('sha256', this.cacheKey)
      .update(JSON.stringify([c.AppKey, c.AppType, c.mid, c.cid, c.UserName, c.Password, address]))
      .digest('base64url');
  }

  private async verify(c: Credentials): Promise<AuthOutcome> {
    const q = this.storage.read;
    const failed: AuthOutcome = {
      ok: false,
      code: ResponseCode.AuthenticationFailed,
      messages: ['Authentication failed: AppKey, AppType, UserName or Password is wrong'],
    };
    const [app, user] = await Promise.all([
      q.first(
        q.qb
          .selectFrom('applications')
          .select('name')
          .where('app_key', '=', c.AppKey)
          .where('app_type', '=', c.AppType),
      ),
      q.first(
        q.qb
          .selectFrom('users')
          .select(['id', 'user_name', 'password_hash', 'mid', 'disabled'])
          .where('user_name', '=', c.UserName),
      ),
    ]);
    // Run scrypt even for an unknown user, so response time does not reveal which user names exist.
    const passwordOk = await verifyPassword(c.Password, user?.password_hash ?? (await decoyHash()));
    if (!app || !user || user.disabled || !passwordOk) return failed;
    if (user.mid !== c.mid) {
      return {
        ok: false,
        code: ResponseCode.InvalidHostCredentials,
        messages: ['The user does not belong to mid'],
      };
    }
    const cashier = await q.first(
      q.qb.selectFrom('cashiers').select(['is_enable']).where('mid', '=', c.mid).where('cid', '=', c.cid),
    );
    if (!cashier || !cashier.is_enable) {
      return {
        ok: false,
        code: ResponseCode.InvalidHostCredentials,
        messages: ['cid is not a cashier of mid'],
      };
    }
    return {
      ok: true,
      principal: {
        userId: user.id,
        userName: user.user_name,
        mid: c.mid,
        cid: c.cid,
        appKey: c.AppKey,
        appType: c.AppType,
      },
    };
  }
}
