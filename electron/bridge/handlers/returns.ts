import { returnAuditDetail } from '../../returns/returns';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/**
 * Returns (docs/terminal.md "Returns"). A cashier returns from a receipt alone — the sale, its lines and its
 * tenders decide what goes back and where; a return without a receipt needs a manager in the call (the
 * signed-in manager, or a manager's PIN with it). Each return is audited with who made it and who approved
 * it; a retry of the same request is not audited twice.
 */
export function returnHandlers(s: CoreServices) {
  const { returns } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  return {
    'returns.find': (p) => returns.find(p),
    'returns.sale': (p) => returns.sale(p.ticketId),
    'returns.quote': (p) => returns.quote(p),
    async 'returns.create'(p, ctx) {
      const made = await returns.create(p, { employee: who(ctx) });
      if (!made.replay) await s.audit(who(ctx), 'return', returnAuditDetail(made.view));
      return made.view;
    },
    async 'returns.createWithoutReceipt'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'returns.createWithoutReceipt');
      const made = await returns.createWithoutReceipt(p, { employee: who(ctx), approver });
      if (!made.replay)
        await s.audit(
          who(ctx),
          'return-without-receipt',
          returnAuditDetail(made.view),
          approvedBy(ctx, approver),
        );
      return made.view;
    },
    async 'returns.retry'(p, ctx) {
      const made = await returns.retry(p.returnId, p.giftCard, { employee: who(ctx) });
      await s.audit(who(ctx), 'return-retried', returnAuditDetail(made.view));
      return made.view;
    },
    'returns.get': (p) => returns.get(p.returnId),
    'returns.receipt.get': (p) => returns.receipt(p.returnId, p.copy ?? 'customer'),
    'returns.receipt.print': (p) => returns.print(p.returnId, p.copy ?? 'customer'),
    'returns.settings.get': () => Promise.resolve(returns.settings()),
    async 'returns.settings.set'(p, ctx) {
      const next = await returns.setSettings({ noReceiptRefund: p.noReceiptRefund });
      await s.audit(
        who(ctx),
        'settings-changed',
        `returns without a receipt refund to ${next.noReceiptRefund}`,
      );
      return next;
    },
  } satisfies HandlerSlice<'returns'>;
}
