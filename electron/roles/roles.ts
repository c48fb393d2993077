import { ROLES, type ManagerApproval, type Role, type Session } from '../bridge/contract';
import { BridgeFailure } from '../bridge/failure';
import type { Journal } from '../journal/journal-protocol';
import type { Clock } from '../util/clock';
import { hashPin, isValidPin, verifyPin } from './pins';
import { createPinThrottle, type PinThrottle } from './pin-throttle';

/** The sandbox PINs (DESIGN.md "Terminal sandbox users"), set on first start and changeable after. */
export const defaultPins: Readonly<Record<Role, string>> = { cashier: '1111', manager: '9999', tech: '7777' };

const defaultNames: Readonly<Record<Role, string>> = { cashier: 'Cashier', manager: 'Manager', tech: 'Tech' };

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

/**
 * The one answer to a PIN change that did not happen for a reason tied to a PIN: a wrong current PIN, a
 * wrong manager PIN, or a new PIN another role holds. They must read alike, or the third becomes an
 * oracle for the other roles' PINs (sign-in finds the role by its PIN, so two roles cannot share one).
 */
export const PIN_NOT_CHANGED =
  'The PIN was not changed. Check the PIN you typed, and choose a new PIN that no other role uses.';

export type PinChange = {
  /** Who asks (the signed-in session). */
  session: Session;
  role: Role;
  newPin: string;
  /** The role's PIN as it is now: proves a user changing their own PIN is that user. */
  currentPin?: string | undefined;
  /** A manager's PIN: changing another role's PIN needs it, also when a manager is signed in. */
  approval?: ManagerApproval | undefined;
};

export type Roles = {
  init(): Promise<void>;
  /** The role whose PIN this is; throws `unauthorized` (and counts a failure) otherwise. */
  signIn(pin: string): Promise<Session>;
  /**
   * The role acting with manager rights: the signed-in manager, or the manager whose PIN came with the
   * request. Throws `forbidden` (a wrong PIN counts as a failure) or `unauthorized` (locked) otherwise.
   */
  requireManager(session: Session | null, approval: ManagerApproval | undefined): Promise<Role>;
  /** Changes a PIN; resolves with the approving role when a manager's PIN authorized it. */
  changePin(change: PinChange): Promise<{ approvedBy?: Role }>;
};

/**
 * Role PINs, sign-in and manager approval. Every check of a typed PIN runs one at a time, with the
 * throttle consulted before the hash is computed and the failure recorded (and persisted) before the next
 * check starts: a burst of concurrent guesses cannot all pass the throttle before any of them counts.
 */
export function createRoles(journal: Journal, clock: Clock): Roles {
  let hashes = new Map<Role, string>();
  const throttle: PinThrottle = createPinThrottle(journal, clock);

  const load = async () => {
    const users = await journal.users();
    hashes = new Map(users.map((u) => [u.role as Role, u.pinHash]));
  };

  // One PIN check at a time (scrypt is ~50 ms on the libuv pool; two windows signing in wait that long).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const matchRole = async (pin: string): Promise<Role | undefined> => {
    for (const [role, hash] of hashes) if (await verifyPin(pin, hash)) return role;
    return undefined;
  };

  const isManagerPin = async (pin: unknown): Promise<boolean> => {
    const hash = hashes.get('manager');
    return isValidPin(pin) && hash !== undefined && (await verifyPin(pin, hash));
  };

  return {
    async init() {
      await load();
      for (const role of ROLES) {
        if (!hashes.has(role)) {
          await journal.setUser(role, defaultNames[role], await hashPin(defaultPins[role]), clock.now());
        }
      }
      await load();
      await throttle.load();
    },

    signIn(pin) {
      return serial(async () => {
        throttle.guard();
        const role = isValidPin(pin) ? await matchRole(pin) : undefined;
        if (!role) {
          await throttle.failed();
          throw new BridgeFailure('unauthorized', 'Wrong PIN.');
        }
        // A success does not clear the count: a cashier's own sign-in between guesses of the manager's
        // PIN would otherwise reset the throttle (failures age out after a day instead).
        return { role, name: defaultNames[role], signedInAt: clock.now() };
      });
    },

    async requireManager(session, approval) {
      if (session && can(session.role, 'manage')) return session.role;
      if (!approval)
        throw new BridgeFailure('forbidden', 'A manager must approve this: enter the manager PIN.');
      return serial(async () => {
        throttle.guard();
        if (!(await isManagerPin(approval.managerPin))) {
          await throttle.failed();
          throw new BridgeFailure('forbidden', 'The manager PIN is not correct.');
        }
        return 'manager' as const;
      });
    },

    async changePin(change) {
      const { session, role, newPin } = change;
      if (!isValidPin(newPin)) throw new BridgeFailure('invalid', 'A PIN is 4 to 8 digits.');
      const own = session.role === role;
      if (!own && !change.approval)
        throw new BridgeFailure(
          'forbidden',
          "A manager must approve a change of another role's PIN: enter the manager PIN.",
        );
      if (own && change.currentPin === undefined)
        throw new BridgeFailure('invalid', 'Type the current PIN to change it.');
      // Whose authority the change rests on: the user's own PIN, or a manager's.
      const authority: Role = own ? role : 'manager';
      return serial(async () => {
        throttle.guard();
        throttle.guardChanges(authority);
        // Every hash is computed whatever the outcome, so the time taken says nothing about which failed.
        const proofHash = hashes.get(authority);
        const proof = own ? change.currentPin : change.approval?.managerPin;
        const proofOk = isValidPin(proof) && proofHash !== undefined && (await verifyPin(proof, proofHash));
        let collides = false;
        for (const other of ROLES) {
          const hash = hashes.get(other);
          if (other !== role && hash !== undefined && (await verifyPin(newPin, hash))) collides = true;
        }
        if (!proofOk) {
          await throttle.failed();
          throw new BridgeFailure('forbidden', PIN_NOT_CHANGED);
        }
        // Counted once the proof holds, collision or not: the daily budget bounds what a user who knows
        // their own PIN can learn about the others' by trying new ones.
        await throttle.changeAttempted(authority);
        if (collides) {
          await throttle.failed();
          throw new BridgeFailure('forbidden', PIN_NOT_CHANGED);
        }
        await journal.setUser(role, defaultNames[role], await hashPin(newPin), clock.now());
        await load();
        return own ? {} : { approvedBy: 'manager' as const };
      });
    },
  };
}
