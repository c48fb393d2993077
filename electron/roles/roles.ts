import type { ManagerApproval, Role, Session } from '../bridge/contract';
import { BridgeFailure } from '../bridge/failure';
import type { Journal } from '../journal/journal-protocol';
import type { Clock } from '../util/clock';
import { hashPin, isValidPin, verifyPin } from './pins';

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

export type Roles = {
  init(): Promise<void>;
  /** The role whose PIN this is; throws `unauthorized` (and counts a failure) otherwise. */
  signIn(pin: string): Promise<Session>;
  /**
   * The role acting with manager rights: the signed-in manager, or the manager whose PIN came with the
   * request. Throws `forbidden` otherwise.
   */
  requireManager(session: Session | null, approval: ManagerApproval | undefined): Promise<Role>;
  changePin(role: Role, newPin: string): Promise<void>;
};

/**
 * Sign-in throttle: after 5 wrong PINs in a row the terminal refuses sign-in for 30 s, doubling up to
 * 15 minutes. Counted per terminal, not per role: a PIN does not name its role.
 */
export function createRoles(journal: Journal, clock: Clock): Roles {
  let hashes = new Map<Role, string>();
  let failures = 0;
  let lockedUntil = 0;

  const load = async () => {
    const users = await journal.users();
    hashes = new Map(users.map((u) => [u.role as Role, u.pinHash]));
  };

  const matchRole = async (pin: string): Promise<Role | undefined> => {
    for (const [role, hash] of hashes) if (await verifyPin(pin, hash)) return role;
    return undefined;
  };

  const guard = (): void => {
    const now = clock.now();
    if (now < lockedUntil) {
      throw new BridgeFailure(
        'unauthorized',
        `Too many wrong PINs. Try again in ${Math.ceil((lockedUntil - now) / 1000)} s.`,
      );
    }
  };

  const fail = (): never => {
    failures += 1;
    if (failures >= 5) {
      const lock = Math.min(15 * 60_000, 30_000 * 2 ** (failures - 5));
      lockedUntil = clock.now() + lock;
    }
    throw new BridgeFailure('unauthorized', 'Wrong PIN.');
  };

  return {
    async init() {
      await load();
      for (const role of Object.keys(defaultPins) as Role[]) {
        if (!hashes.has(role)) {
          await journal.setUser(role, defaultNames[role], await hashPin(defaultPins[role]), clock.now());
        }
      }
      await load();
    },
    async signIn(pin) {
      guard();
      if (!isValidPin(pin)) return fail();
      const role = await matchRole(pin);
      if (!role) return fail();
      failures = 0;
      return { role, name: defaultNames[role], signedInAt: clock.now() };
    },
    async requireManager(session, approval) {
      if (session && can(session.role, 'manage')) return session.role;
      if (!approval)
        throw new BridgeFailure('forbidden', 'A manager must approve this: enter the manager PIN.');
      guard();
      if (!isValidPin(approval.managerPin)) return fail();
      const hash = hashes.get('manager');
      if (!hash || !(await verifyPin(approval.managerPin, hash))) {
        failures += 1;
        if (failures >= 5) lockedUntil = clock.now() + Math.min(15 * 60_000, 30_000 * 2 ** (failures - 5));
        throw new BridgeFailure('forbidden', 'The manager PIN is not correct.');
      }
      failures = 0;
      return 'manager';
    },
    async changePin(role, newPin) {
      if (!isValidPin(newPin)) throw new BridgeFailure('invalid', 'A PIN is 4 to 8 digits.');
      for (const [other, hash] of hashes) {
        // Sign-in finds the role by its PIN, so two roles cannot share one.
        if (other !== role && (await verifyPin(newPin, hash))) {
          throw new BridgeFailure('invalid', 'That PIN is already used by another role.');
        }
      }
      await journal.setUser(role, defaultNames[role], await hashPin(newPin), clock.now());
      await load();
    },
  };
}
