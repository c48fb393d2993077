import { BridgeFailure } from '../../common/bridge/failure';
import type { Journal } from '../journal/journal-protocol';
import type { Clock } from '../util/clock';

/**
 * The terminal's throttle on typed PINs (sign-in, manager approval, PIN change), kept in the journal's
 * settings so a restart does not wipe it (a reboot must not buy an attacker a fresh set of guesses).
 *
 * - Wrong PINs are counted per terminal (a wrong PIN names nobody) over a rolling day. From the fifth,
 *   PIN entry is refused for 30 s after each failure, doubling up to 15 minutes. A correct PIN does not
 *   clear the count: otherwise a cashier signs in with their own PIN between guesses of the manager's.
 * - PIN changes whose proof held (the employee's own current PIN) are counted per employee over a rolling
 *   day, at most five: an employee who knows their own PIN learns whether a new one is someone else's at
 *   most five times a day, instead of trying 0000-9999.
 */

// rule: pin-entry-lockout
export const FAILURES_BEFORE_LOCK = 5;
export const FIRST_LOCK_MS = 30_000;
export const MAX_LOCK_MS = 15 * 60_000;
export const PIN_CHANGES_PER_DAY = 5;
const DAY_MS = 24 * 60 * 60_000;
/** A bound on what is kept: past it the lock is at its maximum anyway. */
const MAX_KEPT = 200;
const SETTING = 'roles.pinThrottle';

/** `changes` by the employee whose PIN it is (their id as a string; a role name in journals before 008). */
type Stored = { failures: number[]; changes: Record<string, number[]> };

export type PinThrottle = {
  load(): Promise<void>;
  /** Throws `unauthorized` while PIN entry is locked. */
  guard(): void;
  /** Throws `unauthorized` once the employee's PIN changes of the day are used up. */
  guardChanges(authority: string): void;
  /** Records a wrong PIN; resolves once it is on disk. */
  failed(): Promise<void>;
  /** Records a PIN change attempt whose proof held; resolves once it is on disk. */
  changeAttempted(authority: string): Promise<void>;
};

/** How long PIN entry stays locked after the `count`-th failure of the day. */
export function lockAfter(count: number): number {
  if (count < FAILURES_BEFORE_LOCK) return 0;
  return Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** Math.min(count - FAILURES_BEFORE_LOCK, 16));
}

function times(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((t): t is number => typeof t === 'number') : [];
}

export function createPinThrottle(journal: Journal, clock: Clock): PinThrottle {
  let state: Stored = { failures: [], changes: {} };

  const recent = (list: number[]): number[] => {
    const since = clock.now() - DAY_MS;
    return list.filter((t) => t > since).slice(-MAX_KEPT);
  };
  const save = (): Promise<void> => journal.setSetting(SETTING, JSON.stringify(state), clock.now());
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
  const inSeconds = (ms: number): string => `${seconds(ms)} s`;

  return {
    async load() {
      const raw = await journal.getSetting(SETTING);
      if (raw === undefined) return;
      try {
        const parsed = JSON.parse(raw) as { failures?: unknown; changes?: Record<string, unknown> };
        const changes: Record<string, number[]> = {};
        // Employee ids only: a role's budget from before employees has no one left to count for.
        for (const [who, list] of Object.entries(parsed.changes ?? {}))
          if (/^\d{1,12}$/.test(who)) changes[who] = times(list);
        state = { failures: times(parsed.failures), changes };
      } catch {
        // An unreadable record counts as the worst case rather than as none.
        state = { failures: Array.from({ length: MAX_KEPT }, () => clock.now()), changes: {} };
      }
    },
    guard() {
      const failures = recent(state.failures);
      const last = failures.at(-1);
      if (last === undefined) return;
      const until = last + lockAfter(failures.length);
      const now = clock.now();
      if (now < until)
        throw new BridgeFailure(
          'unauthorized',
          `Too many wrong PINs. Try again in ${inSeconds(until - now)}.`,
          { messageId: 'session.tooManyWrong', params: { seconds: seconds(until - now) } },
        );
    },
    guardChanges(authority) {
      const attempts = recent(state.changes[authority] ?? []);
      const first = attempts[0];
      if (attempts.length < PIN_CHANGES_PER_DAY || first === undefined) return;
      const wait = first + DAY_MS - clock.now();
      const hours = Math.max(1, Math.ceil(wait / 3_600_000));
      throw new BridgeFailure('unauthorized', `Too many PIN changes today. Try again in ${hours} h.`, {
        messageId: 'session.tooManyChanges',
        params: { hours },
      });
    },
    async failed() {
      state.failures = [...recent(state.failures), clock.now()];
      await save();
    },
    async changeAttempted(authority) {
      state.changes[authority] = [...recent(state.changes[authority] ?? []), clock.now()];
      await save();
    },
  };
}
