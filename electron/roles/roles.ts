import type { EmployeeView, ManagerApproval, Role, Session } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import type { Journal } from '../journal/journal-protocol';
import type { EmployeePin, EmployeeRow } from '../journal/journal-store';
import type { Clock } from '../util/clock';
import { isPinShape, isWeakPin, randomOneTimePin } from './pin-rules';
import { pinDigest, verifyWrapped, wrapLegacy, type PinKeys } from './pins';
import { createPinThrottle, type PinThrottle } from './pin-throttle';

/** The sandbox's demo people (docs/decisions.md#sandbox-data), added on a first start. */
export const demoEmployees: readonly { name: string; role: Role; pin: string }[] = [
  { name: 'Cashier', role: 'cashier', pin: '1111' },
  { name: 'Manager', role: 'manager', pin: '9999' },
  { name: 'Tech', role: 'tech', pin: '7777' },
];

/** What each role may do beyond a cashier's sale. A manager can do what a cashier can. */
export type Permission = 'sell' | 'manage' | 'tech';

const grants: Readonly<Record<Role, readonly Permission[]>> = {
  cashier: ['sell'],
  manager: ['sell', 'manage'],
  // A tech configures devices and the gateway; money actions stay with cashiers and managers.
  tech: ['tech'],
};

export function can(role: Role, permission: Permission): boolean {
  return grants[role].includes(permission);
}

/** Who acts: the employee every journal row and audit line names. */
export type Actor = { employeeId: number; name: string; role: Role };

export function actorOf(session: Session): Actor {
  return { employeeId: session.employeeId, name: session.name, role: session.role };
}

/**
 * The one answer to a PIN change refused for a reason tied to a PIN: a wrong current PIN, or a new PIN
 * someone else holds. They must read alike, or the second becomes an oracle for the others' PINs (sign-in
 * finds the employee by the PIN alone, so two cannot share one).
 */
export const PIN_NOT_CHANGED =
  'The PIN was not changed. Check your current PIN, or choose a different new PIN.';

/** How long a one-time PIN stays good: a weekend between the manager's hand-over and the first shift. */
export const ONE_TIME_PIN_MS = 72 * 3_600_000;

/** Roles that work shifts: with the time clock on, they sign in only while clocked in (a tech visits). */
const clocked = (role: Role): boolean => role === 'cashier' || role === 'manager';

export type Roles = {
  /**
   * Loads the employees; on a first start adds the demo people; wraps PINs from before employees under the
   * key. Refuses to go on when the key file is not the one the PINs were keyed with.
   */
  init(): Promise<void>;
  /** The employee whose PIN this is; throws `unauthorized` (and counts a failure) otherwise. */
  signIn(pin: string): Promise<Session>;
  /**
   * The session as it stands now: null once its employee was deactivated or changed role, or (time clock
   * on) clocked out after signing in.
   */
  current: (session: Session) => Session | null;
  /**
   * The employee acting with manager rights: the signed-in manager, or the manager whose PIN came with the
   * request (`always`: a PIN even when a manager is signed in). Throws `forbidden` (a wrong PIN counts as a
   * failure) or `unauthorized` (locked) otherwise.
   */
  requireManager(
    session: Session | null,
    approval: ManagerApproval | undefined,
    options?: { always?: boolean },
  ): Promise<Actor>;
  /**
   * Changes the signed-in employee's own PIN; answers the session as it is after the change, or null when
   * it ends there (time clock on, not clocked in: a one-time PIN's session was only for choosing a PIN).
   */
  changeOwnPin(change: {
    session: Session;
    currentPin: string | undefined;
    newPin: string;
  }): Promise<Session | null>;
  /** Clocks the PIN's employee in or out (time clock on). */
  punch(pin: string, action: 'in' | 'out'): Promise<{ actor: Actor; at: number }>;

  // The manager's Employees screen.
  list(): EmployeeView[];
  nameOf: (id: number | null | undefined) => string | undefined;
  add(input: {
    name: string;
    role: Role;
  }): Promise<{ employee: EmployeeView; oneTimePin: string; expiresAt: number }>;
  update(
    id: number,
    patch: { name?: string; role?: Role },
  ): Promise<{ before: EmployeeView; after: EmployeeView }>;
  resetPin(id: number): Promise<{ employee: EmployeeView; oneTimePin: string; expiresAt: number }>;
  setActive(
    id: number,
    active: boolean,
  ): Promise<{ employee: EmployeeView; oneTimePin?: string; expiresAt?: number }>;
  clockOut(id: number): Promise<EmployeeView>;
};

export class PinKeyMismatchError extends Error {
  constructor() {
    super(
      "terminal.key is not the key this journal's employee PINs were kept with, so no PIN can be checked. Put back the terminal.key that belongs with this journal (back the two up together), then start again.",
    );
    this.name = 'PinKeyMismatchError';
  }
}

const KEY_CHECK = 'roles.pinKeyCheck';

/**
 * Employees, their PINs, sign-in, manager approval and the time clock. Every check of a typed PIN runs
 * one at a time, with the throttle consulted before the digest is computed and the failure recorded (and
 * persisted) before the next check starts: a burst of concurrent guesses cannot all pass the throttle
 * before any of them counts. Changes to employees run in the same line, so each sees the last one's result.
 */
export function createRoles(deps: {
  journal: Journal;
  clock: Clock;
  keys: PinKeys;
  timeClock: () => boolean;
}): Roles {
  const { journal, clock, keys } = deps;
  const throttle: PinThrottle = createPinThrottle(journal, clock);
  let byId = new Map<number, EmployeeRow>();
  let byLookup = new Map<string, EmployeeRow>();
  /**
   * When each employee last clocked out (this run): a session signed in before it has ended. Sessions do
   * not outlive the process, so memory is enough; one signed in before the clock was switched on goes on.
   */
  const clockedOutAt = new Map<number, number>();

  const load = async (): Promise<void> => {
    const rows = await journal.employees();
    byId = new Map(rows.map((e) => [e.id, e]));
    byLookup = new Map(rows.filter((e) => e.pinLookup !== null).map((e) => [e.pinLookup as string, e]));
  };

  // One PIN check at a time (scrypt is ~50 ms on the libuv pool; two windows signing in wait that long).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const view = (e: EmployeeRow): EmployeeView => ({
    id: e.id,
    name: e.name,
    role: e.role as Role,
    active: e.active,
    pin: e.pinState,
    ...(e.pinState === 'one-time' && e.pinExpiresAt !== null ? { pinExpiresAt: e.pinExpiresAt } : {}),
    ...(e.clockedInAt !== null ? { clockedInAt: e.clockedInAt } : {}),
  });
  const actor = (e: EmployeeRow): Actor => ({ employeeId: e.id, name: e.name, role: e.role as Role });
  const mustGet = (id: number): EmployeeRow => {
    const e = byId.get(id);
    if (!e) throw new BridgeFailure('not-found', 'No such employee.');
    return e;
  };
  const activeManagers = (): EmployeeRow[] =>
    [...byId.values()].filter((e) => e.active && e.role === 'manager');
  const expired = (e: EmployeeRow): boolean =>
    e.pinState === 'one-time' && e.pinExpiresAt !== null && clock.now() > e.pinExpiresAt;

  /**
   * The active employee whose PIN this is, or undefined. One digest and one index look-up; while PINs from
   * before employees remain (three at most, until each has signed in once) they are tried after it, and
   * the one that matches is re-keyed on the spot.
   */
  const find = async (pin: string, digest?: string): Promise<EmployeeRow | undefined> => {
    const d = digest ?? (await pinDigest(pin, keys));
    const hit = byLookup.get(d);
    if (hit) return hit.active ? hit : undefined;
    for (const e of byId.values()) {
      if (!e.active || e.pinState !== 'legacy' || e.pinLegacy === null) continue;
      if (!(await verifyWrapped(pin, e.pinLegacy, keys))) continue;
      const demo = demoEmployees.some((x) => x.role === e.role && x.pin === pin);
      await journal.setEmployeePin(
        e.id,
        { lookup: d, state: demo ? 'demo' : 'own', legacy: null, expiresAt: null },
        clock.now(),
      );
      await load();
      return byId.get(e.id);
    }
    return undefined;
  };

  /** A PIN nobody holds (nor any PIN from before employees), drawn by the terminal. */
  const issue = async (): Promise<{ pin: string; digest: string }> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const pin = randomOneTimePin();
      const digest = await pinDigest(pin, keys);
      if (byLookup.has(digest)) continue;
      if (await legacyHolds(pin)) continue;
      return { pin, digest };
    }
    throw new BridgeFailure('internal', 'No free one-time PIN was found.');
  };
  const legacyHolds = async (pin: string): Promise<boolean> => {
    for (const e of byId.values())
      if (e.pinState === 'legacy' && e.pinLegacy !== null && (await verifyWrapped(pin, e.pinLegacy, keys)))
        return true;
    return false;
  };
  const oneTime = (digest: string): EmployeePin => ({
    lookup: digest,
    state: 'one-time',
    legacy: null,
    expiresAt: clock.now() + ONE_TIME_PIN_MS,
  });

  const cleanName = (name: string, except?: number): string => {
    // Control characters would break a receipt line or the CSV of a report.
    const clean = name
      .replace(/\p{Cc}/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean.length < 1 || clean.length > 60)
      throw new BridgeFailure('invalid', 'A name is 1 to 60 characters.');
    const same = [...byId.values()].find(
      (e) => e.id !== except && e.name.toLocaleLowerCase() === clean.toLocaleLowerCase(),
    );
    // Two people of one name would make every report ambiguous, also when one of them has left.
    if (same)
      throw new BridgeFailure(
        'conflict',
        `There is already an employee named ${same.name}${same.active ? '' : ' (inactive)'}: add an initial or a last name.`,
      );
    return clean;
  };

  const sessionOf = (e: EmployeeRow): Session => ({
    role: e.role as Role,
    name: e.name,
    signedInAt: clock.now(),
    employeeId: e.id,
    ...(e.pinState === 'one-time' ? { mustChangePin: true } : {}),
  });

  return {
    async init() {
      const stored = await journal.getSetting(KEY_CHECK);
      if (stored !== undefined && stored !== keys.check) throw new PinKeyMismatchError();
      if (stored === undefined) await journal.setSetting(KEY_CHECK, keys.check, clock.now());
      await load();
      if (byId.size === 0) {
        for (const d of demoEmployees) {
          const digest = await pinDigest(d.pin, keys);
          await journal.addEmployee({
            name: d.name,
            role: d.role,
            pin: { lookup: digest, state: 'demo', legacy: null, expiresAt: null },
            now: clock.now(),
          });
        }
      }
      // PINs from before employees: unkeyed hashes until now. Wrapped under the key (no PIN needed), then
      // the WAL is checkpointed so the old pages do not linger there (secure_delete zeroes the file's).
      let wrapped = false;
      for (const e of byId.values()) {
        if (e.pinState !== 'legacy' || e.pinLegacy === null || !e.pinLegacy.startsWith('scrypt$')) continue;
        const w = wrapLegacy(e.pinLegacy, keys);
        await journal.setEmployeePin(
          e.id,
          w
            ? { lookup: null, state: 'legacy', legacy: w, expiresAt: null }
            : { lookup: null, state: 'none', legacy: null, expiresAt: null },
          clock.now(),
        );
        wrapped = true;
      }
      if (wrapped) await journal.checkpoint();
      await load();
      await throttle.load();
    },

    signIn(pin) {
      return serial(async () => {
        throttle.guard();
        const e = isPinShape(pin) ? await find(pin) : undefined;
        if (!e) {
          await throttle.failed();
          throw new BridgeFailure('unauthorized', 'Wrong PIN.', { messageId: 'session.wrongPin' });
        }
        if (expired(e)) {
          await throttle.failed();
          throw new BridgeFailure(
            'unauthorized',
            'This one-time PIN has expired: ask a manager for a new one.',
            { messageId: 'session.oneTimeExpired' },
          );
        }
        // A success does not clear the count: a cashier's own sign-in between guesses of the manager's
        // PIN would otherwise reset the throttle (failures age out after a day instead).
        if (
          deps.timeClock() &&
          clocked(e.role as Role) &&
          e.clockedInAt === null &&
          e.pinState !== 'one-time'
        )
          throw new BridgeFailure('forbidden', 'Clock in first: type your PIN and choose Clock in.', {
            messageId: 'session.clockInFirst',
          });
        return sessionOf(e);
      });
    },

    current(session) {
      const e = byId.get(session.employeeId);
      if (!e || !e.active || e.role !== session.role) return null;
      const out = clockedOutAt.get(e.id);
      if (deps.timeClock() && e.clockedInAt === null && out !== undefined && out >= session.signedInAt)
        return null;
      return e.name === session.name ? session : { ...session, name: e.name };
    },

    async requireManager(session, approval, options = {}) {
      if (!options.always && session && can(session.role, 'manage')) return actorOf(session);
      if (!approval)
        throw new BridgeFailure('forbidden', 'A manager must approve this: enter a manager PIN.', {
          messageId: 'approval.managerMust',
        });
      return serial(async () => {
        throttle.guard();
        const pin = approval.managerPin;
        const e = isPinShape(pin) ? await find(pin) : undefined;
        // A one-time PIN is for choosing one's own, nothing else.
        if (!e || e.role !== 'manager' || e.pinState === 'one-time') {
          await throttle.failed();
          throw new BridgeFailure('forbidden', 'The manager PIN is not correct.', {
            messageId: 'approval.wrongManagerPin',
          });
        }
        return actor(e);
      });
    },

    async changeOwnPin({ session, currentPin, newPin }) {
      if (!isPinShape(newPin))
        throw new BridgeFailure('invalid', 'A PIN is 4 to 8 digits.', { messageId: 'session.pinShape' });
      if (isWeakPin(newPin))
        throw new BridgeFailure(
          'invalid',
          'That PIN is too easy to guess (one digit repeated, a run like 1234, a pair like 1212): choose another.',
          { messageId: 'session.pinWeak' },
        );
      if (currentPin === undefined)
        throw new BridgeFailure('invalid', 'Type the current PIN to change it.', {
          messageId: 'session.pinCurrentMissing',
        });
      if (currentPin === newPin)
        throw new BridgeFailure('invalid', 'Choose a new PIN, not the one you have.', {
          messageId: 'session.pinSame',
        });
      const id = session.employeeId;
      return serial(async () => {
        throttle.guard();
        throttle.guardChanges(String(id));
        // Both digests are computed whatever the outcome, so the time taken says nothing about which failed.
        const proof = isPinShape(currentPin) ? await find(currentPin) : undefined;
        const digest = await pinDigest(newPin, keys);
        const holder = byLookup.get(digest);
        const collides = (holder !== undefined && holder.id !== id) || (await legacyHolds(newPin));
        if (proof?.id !== id || expired(proof)) {
          await throttle.failed();
          throw new BridgeFailure('forbidden', PIN_NOT_CHANGED, { messageId: 'session.pinNotChanged' });
        }
        // Counted once the proof holds, collision or not: the daily budget bounds what an employee who
        // knows their own PIN can learn about the others' by trying new ones.
        await throttle.changeAttempted(String(id));
        if (collides) {
          await throttle.failed();
          throw new BridgeFailure('forbidden', PIN_NOT_CHANGED, { messageId: 'session.pinNotChanged' });
        }
        await journal.setEmployeePin(
          id,
          { lookup: digest, state: 'own', legacy: null, expiresAt: null },
          clock.now(),
        );
        await load();
        // A one-time PIN signs in without the clock so its holder can choose a PIN; the work that follows
        // needs a shift like anyone's: the session ends here until they clock in.
        const me = byId.get(id);
        if (deps.timeClock() && me && clocked(me.role as Role) && me.clockedInAt === null) return null;
        const { mustChangePin: _done, ...rest } = session;
        return rest;
      });
    },

    punch(pin, action) {
      return serial(async () => {
        if (!deps.timeClock())
          throw new BridgeFailure('conflict', 'The time clock is off: a manager turns it on in Employees.', {
            messageId: 'session.timeClockOff',
          });
        throttle.guard();
        const e = isPinShape(pin) ? await find(pin) : undefined;
        if (!e || expired(e)) {
          await throttle.failed();
          throw new BridgeFailure('unauthorized', 'Wrong PIN.', { messageId: 'session.wrongPin' });
        }
        if (e.pinState === 'one-time')
          throw new BridgeFailure(
            'conflict',
            'Sign in first to choose your own PIN, then clock in with it.',
            {
              messageId: 'session.clockOneTime',
            },
          );
        const at = clock.now();
        if (action === 'in') {
          if (e.clockedInAt !== null)
            throw new BridgeFailure('conflict', `${e.name}, you are already clocked in.`, {
              messageId: 'session.alreadyClockedIn',
              params: { name: e.name },
            });
          await journal.clockIn(e.id, at);
        } else if (await journal.clockOut(e.id, at)) clockedOutAt.set(e.id, at);
        else
          throw new BridgeFailure('conflict', `${e.name}, you are not clocked in.`, {
            messageId: 'session.notClockedIn',
            params: { name: e.name },
          });
        await load();
        return { actor: actor(e), at };
      });
    },

    list() {
      return [...byId.values()].map(view);
    },

    nameOf(id) {
      return id === null || id === undefined ? undefined : byId.get(id)?.name;
    },

    add(input) {
      return serial(async () => {
        const name = cleanName(input.name);
        const { pin, digest } = await issue();
        const p = oneTime(digest);
        const id = await journal.addEmployee({ name, role: input.role, pin: p, now: clock.now() });
        await load();
        return { employee: view(mustGet(id)), oneTimePin: pin, expiresAt: p.expiresAt ?? 0 };
      });
    },

    update(id, patch) {
      return serial(async () => {
        const e = mustGet(id);
        const before = view(e);
        const name = patch.name === undefined ? undefined : cleanName(patch.name, id);
        if (
          patch.role !== undefined &&
          patch.role !== 'manager' &&
          e.role === 'manager' &&
          e.active &&
          activeManagers().length <= 1
        )
          throw new BridgeFailure(
            'conflict',
            `${e.name} is the only active manager: make someone else a manager first.`,
          );
        await journal.updateEmployee(
          id,
          { ...(name ? { name } : {}), ...(patch.role ? { role: patch.role } : {}) },
          clock.now(),
        );
        await load();
        return { before, after: view(mustGet(id)) };
      });
    },

    resetPin(id) {
      return serial(async () => {
        const e = mustGet(id);
        if (!e.active) throw new BridgeFailure('conflict', `${e.name} is inactive: reactivate them instead.`);
        const { pin, digest } = await issue();
        const p = oneTime(digest);
        await journal.setEmployeePin(id, p, clock.now());
        await load();
        return { employee: view(mustGet(id)), oneTimePin: pin, expiresAt: p.expiresAt ?? 0 };
      });
    },

    setActive(id, active) {
      return serial(async () => {
        const e = mustGet(id);
        if (e.active === active) return { employee: view(e) };
        if (!active) {
          if (e.role === 'manager' && activeManagers().length <= 1)
            throw new BridgeFailure(
              'conflict',
              `${e.name} is the only active manager: make someone else a manager first.`,
            );
          // No PIN of an inactive employee works, and theirs is free for someone else. An open shift ends.
          await journal.setEmployeePin(
            id,
            { lookup: null, state: 'none', legacy: null, expiresAt: null },
            clock.now(),
          );
          await journal.clockOut(id, clock.now());
          await journal.updateEmployee(id, { active: false }, clock.now());
          await load();
          return { employee: view(mustGet(id)) };
        }
        const { pin, digest } = await issue();
        const p = oneTime(digest);
        await journal.setEmployeePin(id, p, clock.now());
        await journal.updateEmployee(id, { active: true }, clock.now());
        await load();
        return { employee: view(mustGet(id)), oneTimePin: pin, expiresAt: p.expiresAt ?? 0 };
      });
    },

    clockOut(id) {
      return serial(async () => {
        const e = mustGet(id);
        if (!(await journal.clockOut(id, clock.now())))
          throw new BridgeFailure('conflict', `${e.name} is not clocked in.`);
        clockedOutAt.set(id, clock.now());
        await load();
        return view(mustGet(id));
      });
    },
  };
}
