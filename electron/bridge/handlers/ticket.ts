import type { ManagerApproval, TicketView } from '../../../common/bridge/contract';
import type { CallContext } from '../connection';
import { BridgeFailure } from '../../../common/bridge/failure';
import type { ApprovalNeed } from '../../sale/discount-approval-rules';
import type { Approve, Changed } from '../../sale/itemized-sale';
import type { ApprovalCommand } from '../../roles/command-access';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/**
 * A ticket of lines (electron/sale/itemized-sale.ts does the work). What needs a manager — a discount
 * above the limit, a changed catalog price (discount-approval-rules.ts) — is the existing approval: the
 * signed-in manager, or the manager's PIN with the call; a wrong PIN is audited as a refused approval,
 * and every approved change is audited with who approved it.
 */
export function ticketHandlers(s: CoreServices) {
  const { itemized } = s;
  const { who, manager, approvedBy } = createApprovals(s);

  const approver =
    (ctx: CallContext, approval: ManagerApproval | undefined, command: ApprovalCommand): Approve =>
    async (needs: ApprovalNeed[]) => {
      // Without a PIN the cashier reads what needs the manager (the screen then asks for the PIN).
      if (!approval && ctx.session()?.role !== 'manager')
        throw new BridgeFailure('forbidden', needs.map((n) => n.reason).join(' '));
      return manager(ctx, approval, command, `ticket ${needs.map((n) => n.action).join(', ')}`);
    };

  const audited = async (ctx: CallContext, changed: Changed): Promise<TicketView> => {
    const approved = changed.approved;
    if (approved)
      for (const need of approved.needs)
        await s.audit(
          who(ctx),
          need.action,
          `ticket ${changed.ticket.ticketId}: ${need.detail}`,
          approvedBy(ctx, approved.by),
        );
    return changed.ticket;
  };

  return {
    'ticket.open': () => itemized.open(),
    'ticket.addItem': async (p, ctx) =>
      audited(ctx, await itemized.addItem(p, approver(ctx, p.approval, 'ticket.addItem'))),
    'ticket.addScan': async (p, ctx) =>
      audited(ctx, await itemized.addScan(p, approver(ctx, p.approval, 'ticket.addScan'))),
    'ticket.addOpenItem': async (p, ctx) =>
      audited(ctx, await itemized.addOpenItem(p, approver(ctx, p.approval, 'ticket.addOpenItem'))),
    'ticket.setQuantity': async (p, ctx) =>
      audited(
        ctx,
        await itemized.setQuantity(
          p.ticketId,
          p.lineId,
          p.quantity,
          approver(ctx, p.approval, 'ticket.setQuantity'),
        ),
      ),
    'ticket.setPrice': async (p, ctx) =>
      audited(
        ctx,
        await itemized.setPrice(
          p.ticketId,
          p.lineId,
          p.unitPriceCents,
          approver(ctx, p.approval, 'ticket.setPrice'),
        ),
      ),
    'ticket.setLineDiscount': async (p, ctx) =>
      audited(
        ctx,
        await itemized.setLineDiscount(
          p.ticketId,
          p.lineId,
          p.discount,
          approver(ctx, p.approval, 'ticket.setLineDiscount'),
        ),
      ),
    'ticket.setDiscount': async (p, ctx) =>
      audited(
        ctx,
        await itemized.setDiscount(p.ticketId, p.discount, approver(ctx, p.approval, 'ticket.setDiscount')),
      ),
    'ticket.voidLine': async (p, ctx) =>
      audited(
        ctx,
        await itemized.voidLine(p.ticketId, p.lineId, approver(ctx, p.approval, 'ticket.voidLine')),
      ),
  } satisfies HandlerSlice<'ticket'>;
}
