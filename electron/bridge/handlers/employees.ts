import type { EmployeesView } from '../../../common/bridge/contract';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

const roleWords = { cashier: 'cashier', manager: 'manager', tech: 'tech' } as const;

/**
 * The manager's Employees screen. Every change that decides who can sign in or what they may do (adding,
 * a role, a PIN reset, deactivating or reactivating) is confirmed with a manager's PIN even when a manager
 * is signed in: a screen left signed in does not hand out manager rights or one-time PINs. A rename is not.
 * One-time PINs go back to the manager once and never into the audit or the log.
 */
export function employeeHandlers(s: CoreServices) {
  const { roles, settings } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  const list = (): EmployeesView => ({
    employees: roles.list(),
    timeClock: settings.value.people.timeClock,
  });
  return {
    'employees.list': () => Promise.resolve(list()),
    async 'employees.add'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'employees.add');
      const r = await roles.add({ name: p.name, role: p.role });
      await s.audit(
        who(ctx),
        'employee-added',
        `${r.employee.name} added as ${roleWords[r.employee.role]}; one-time PIN issued`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'employees.update'(p, ctx) {
      const current = roles.list().find((e) => e.id === p.employeeId);
      const roleChange = p.role !== undefined && p.role !== current?.role;
      const approver = roleChange ? await manager(ctx, p.approval, 'employees.update') : undefined;
      const { before, after } = await roles.update(p.employeeId, {
        ...(p.name !== undefined ? { name: p.name } : {}),
        ...(roleChange && p.role ? { role: p.role } : {}),
      });
      if (before.name !== after.name)
        await s.audit(who(ctx), 'employee-renamed', `${before.name} renamed ${after.name}`);
      if (before.role !== after.role)
        await s.audit(
          who(ctx),
          'role-changed',
          `${after.name}: ${roleWords[before.role]} -> ${roleWords[after.role]}`,
          approver && approvedBy(ctx, approver),
        );
      return after;
    },
    async 'employees.resetPin'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'employees.resetPin');
      const r = await roles.resetPin(p.employeeId);
      await s.audit(
        who(ctx),
        'pin-reset',
        `${r.employee.name}: PIN reset, one-time PIN issued`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'employees.setActive'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'employees.setActive');
      const r = await roles.setActive(p.employeeId, p.active);
      await s.audit(
        who(ctx),
        p.active ? 'employee-reactivated' : 'employee-deactivated',
        p.active ? `${r.employee.name} reactivated; one-time PIN issued` : `${r.employee.name} deactivated`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'employees.clockOut'(p, ctx) {
      const e = await roles.clockOut(p.employeeId);
      await s.audit(who(ctx), 'clock-out', `${e.name} clocked out by a manager`);
      return e;
    },
    async 'employees.setTimeClock'(p, ctx) {
      await settings.set('people', { ...settings.value.people, timeClock: p.enabled });
      await s.audit(who(ctx), 'settings-changed', `time clock ${p.enabled ? 'on' : 'off'}`);
      return list();
    },
  } satisfies HandlerSlice<'employees'>;
}
