import { Type, type Static } from 'typebox';
import { ROLES } from './constants';

export const RoleSchema = Type.Enum(ROLES, { problem: 'Unknown role.' });
export type Role = Static<typeof RoleSchema>;

export type Session = {
  role: Role;
  /** Display name of the user ("Cashier", "Manager", "Tech" unless renamed). */
  name: string;
  signedInAt: number;
};

/**
 * A manager's PIN typed for one action (refund, void, batch close, store-and-forward policy, PIN
 * changes) while a cashier is signed in. Not needed when a manager is signed in.
 */
export const ManagerApprovalSchema = Type.Object(
  { managerPin: Type.String() },
  { problem: 'The approval is { managerPin }.' },
);
export type ManagerApproval = Static<typeof ManagerApprovalSchema>;

/** `approval` of a payload: optional everywhere it appears. */
export const OptionalApproval = Type.Optional(ManagerApprovalSchema);
