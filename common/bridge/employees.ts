import { Type, type Static } from 'typebox';
import { OptionalApproval, RoleSchema, type Role } from './session';

/**
 * The store's employees (issue 20 "People"): a name, a role and a PIN of their own. Nobody is ever deleted
 * (history names them), only deactivated. A manager never sees or sets another employee's PIN: adding an
 * employee, resetting a PIN and reactivating answer a one-time PIN the terminal drew, which the employee
 * replaces with their own at their first sign-in (docs/bridge.md "Employees").
 */

/**
 * Where the employee's PIN stands: `own` (chosen by them), `one-time` (issued by a manager, to be replaced
 * at the first sign-in, until `pinExpiresAt`), `demo` (the sandbox's 1111/9999/7777: reset them before the
 * store goes live), `legacy` (from before employees; re-keyed at their next sign-in), `none` (inactive).
 */
export type EmployeePinState = 'own' | 'one-time' | 'demo' | 'legacy' | 'none';

export type EmployeeView = {
  id: number;
  name: string;
  role: Role;
  active: boolean;
  pin: EmployeePinState;
  pinExpiresAt?: number;
  /** When the open shift began (time clock); absent when clocked out. */
  clockedInAt?: number;
};

export type EmployeesView = {
  employees: EmployeeView[];
  /** On: cashiers and managers clock in before they sign in. */
  timeClock: boolean;
};

/** A one-time PIN, shown once to the manager to hand over; it is stored only as its keyed digest. */
export type OneTimePinView = { employee: EmployeeView; oneTimePin: string; expiresAt: number };

export type ActiveChangeView = { employee: EmployeeView; oneTimePin?: string; expiresAt?: number };

export type PunchView = { name: string; action: 'in' | 'out'; at: number };

export const EmployeeIdSchema = Type.Integer({ minimum: 1, problem: 'Choose an employee.' });
export const EmployeeNameSchema = Type.String({
  minLength: 1,
  maxLength: 60,
  problem: 'A name is 1 to 60 characters.',
});

export const EmployeeAddSchema = Type.Object({
  name: EmployeeNameSchema,
  role: RoleSchema,
  approval: OptionalApproval,
});
export type EmployeeAdd = Static<typeof EmployeeAddSchema>;

export const EmployeeUpdateSchema = Type.Object({
  employeeId: EmployeeIdSchema,
  name: Type.Optional(EmployeeNameSchema),
  role: Type.Optional(RoleSchema),
  approval: OptionalApproval,
});
export type EmployeeUpdate = Static<typeof EmployeeUpdateSchema>;

export const PunchSchema = Type.Object({
  pin: Type.String({ problem: 'Type a PIN.' }),
  action: Type.Enum(['in', 'out'], { problem: 'Clock in or out.' }),
});
