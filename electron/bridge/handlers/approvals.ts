import type { ManagerApproval, Role } from '../contract';
import type { CallContext } from '../connection';
import { BridgeFailure } from '../failure';
import type { CoreServices } from './services';

/** Who acts, and with whose approval: the manager's rights a handler asks for before money moves. */
export type Approvals = {
  /** The signed-in role (a handler runs only for a signed-in caller when its access says so). */
  who: (ctx: CallContext) => Role;
  /**
   * Manager rights for `action`: the signed-in manager, or the manager whose PIN came as `approval`. A
   * wrong or locked-out manager PIN is audited (PCI DSS 10.2.1.4: invalid access attempts) with the action
   * it was typed for, never the PIN; a missing approval is only the prompt for it.
   */
  manager: (ctx: CallContext, approval: ManagerApproval | undefined, action: string) => Promise<Role>;
  /** The approver to audit: none when the signed-in role granted it itself. */
  approvedBy: (ctx: CallContext, granted: Role) => Role | undefined;
};

export function createApprovals(s: Pick<CoreServices, 'roles' | 'audit'>): Approvals {
  const who = (ctx: CallContext): Role => ctx.session()?.role ?? 'cashier';
  return {
    who,
    async manager(ctx, approval, action) {
      try {
        return await s.roles.requireManager(ctx.session(), approval);
      } catch (error) {
        if (approval && error instanceof BridgeFailure)
          await s.audit(who(ctx), 'approval-failed', `${action}: ${error.message}`);
        throw error;
      }
    },
    approvedBy: (ctx, granted) => (ctx.session()?.role === granted ? undefined : granted),
  };
}
