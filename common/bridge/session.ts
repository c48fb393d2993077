import { Type, type Static } from 'typebox';
import { ROLES } from './constants';

export const RoleSchema = Type.Enum(ROLES, { problem: 'Unknown role.' });
export type Role = Static<typeof RoleSchema>;

export type Session = {
  role: Role;
  /** The employee's name. */
  name: string;
  signedInAt: number;
  /** The employee signed in: every journal row and audit line this session writes names them. */
  employeeId: number;
  /**
   * Signed in with a one-time PIN a manager issued: until `session.changePin` replaces it with a PIN of
   * their own, that (and signing out) is all this session may do.
   */
  mustChangePin?: boolean;
};

/**
 * A manager's PIN typed for one action (refund, void, batch close, store-and-forward policy) while a
 * cashier is signed in; PINs are unique, so it names the manager who approved. Not needed when a manager
 * is signed in, except for the Employees screen's changes (a manager confirms those with a PIN each time).
 */
export const ManagerApprovalSchema = Type.Object(
  { managerPin: Type.String() },
  { problem: 'The approval is { managerPin }.' },
);
export type ManagerApproval = Static<typeof ManagerApprovalSchema>;

/** `approval` of a payload: optional everywhere it appears. */
export const OptionalApproval = Type.Optional(ManagerApprovalSchema);
