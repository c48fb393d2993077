import type { Role } from '../contract';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Tickets and their tenders (the sale engine does the work). */
export function saleHandlers(s: CoreServices) {
  const { engine } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  return {
    'sale.open': (p) => engine.open(p),
    'sale.current': () => Promise.resolve(engine.current()),
    'sale.get': (p) => engine.get(p.ticketId),
    'sale.setTip': (p) => engine.setTip(p.ticketId, p.tipCents),
    'sale.pay': (p) => engine.pay(p),
    'sale.cancel': (p) => engine.cancel(p.ticketId),
    async 'sale.abandon'(p, ctx) {
      let approver: Role | undefined;
      const t = await engine.abandon(p.ticketId, async () => {
        approver = await manager(ctx, p.approval, 'sale.abandon');
        return approver;
      });
      if (approver)
        await s.audit(
          who(ctx),
          'ticket-abandoned',
          `ticket ${t.ticketId}: approved tenders reversed`,
          approvedBy(ctx, approver),
        );
      return t;
    },
    'sale.live': () => Promise.resolve(engine.live()),
    'sale.signature': (p) => engine.signature(p.ticketId, p.tenderId, p.signature),
  } satisfies HandlerSlice<'sale'>;
}
