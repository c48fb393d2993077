import type { ManagerApproval } from '../../../common/bridge/contract';
import type { CallContext } from '../connection';
import { BridgeFailure } from '../../../common/bridge/failure';
import { approvalFor, type ApprovalCommand } from '../../roles/command-access';
import { actorOf, type Actor } from '../../roles/roles';
import type { CoreServices } from './services';

/** Who acts, and with whose approval: the manager's rights a handler asks for before money moves. */
export type Approvals = {
  /** The signed-in employee (a handler runs only for a signed-in caller when its access says so). */
  who: (ctx: CallContext) => Actor;
  /**
   * Manager rights for `command`, as its row of the access table asks (roles/command-access.ts): the
   * signed-in manager, or the manager whose PIN came as `approval` (a PIN even from a signed-in manager
   * when the row says `manager-pin`). A wrong or locked-out manager PIN is audited (PCI DSS 10.2.1.4:
   * invalid access attempts) with the action it was typed for (`detail`, the command by default), never
   * the PIN; a missing approval is only the prompt for it.
   */
  manager: (
    ctx: CallContext,
    approval: ManagerApproval | undefined,
    command: ApprovalCommand,
    detail?: string,
  ) => Promise<Actor>;
  /** The approver to record: none when the signed-in employee granted it themselves. */
  approvedBy: (ctx: CallContext, granted: Actor) => Actor | undefined;
  /** The journal's stamp of who did it and who approved it. */
  stamp: (ctx: CallContext, granted?: Actor) => { employeeId: number; approvedById: number | null };
};

export function createApprovals(s: Pick<CoreServices, 'roles' | 'audit'>): Approvals {
  const who = (ctx: CallContext): Actor => {
    const session = ctx.session();
    if (!session)
      throw new BridgeFailure('unauthorized', 'Sign in first.', { messageId: 'session.signInFirst' });
    return actorOf(session);
  };
  const approvedBy = (ctx: CallContext, granted: Actor): Actor | undefined =>
    ctx.session()?.employeeId === granted.employeeId ? undefined : granted;
  return {
    who,
    async manager(ctx, approval, command, detail = command) {
      const row = approvalFor(command);
      const always = row === 'manager-pin' || row === 'manager-pin-if';
      try {
        return await s.roles.requireManager(ctx.session(), approval, { always });
      } catch (error) {
        if (approval && error instanceof BridgeFailure)
          await s.audit(who(ctx), 'approval-failed', `${detail}: ${error.message}`);
        throw error;
      }
    },
    approvedBy,
    stamp: (ctx, granted) => ({
      employeeId: who(ctx).employeeId,
      approvedById: granted ? (approvedBy(ctx, granted)?.employeeId ?? null) : null,
    }),
  };
}
