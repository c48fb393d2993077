import type { Role } from '../contract';
import { str } from './checks';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Tickets and their tenders (the sale engine does the work). */
export function saleHandlers(s: CoreServices) {
  const { engine } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  return {
    'sale.open': (p) => engine.open(p),
    'sale.current': () => Promise.resolve(engine.current()),
    'sale.get': (p) => engine.get(str(p.ticketId, 'ticketId', 64)),
    'sale.setTip': (p) => engine.setTip(str(p.ticketId, 'ticketId', 64), p.tipCents),
    'sale.pay': (p) => engine.pay(p),
    'sale.cancel': (p) => engine.cancel(str(p.ticketId, 'ticketId', 64)),
    async 'sale.abandon'(p, ctx) {
      let approver: Role | undefined;
      const t = await engine.abandon(str(p.ticketId, 'ticketId', 64), async () => {
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
    'sale.signature': (p) =>
      engine.signature(str(p.ticketId, 'ticketId', 64), str(p.tenderId, 'tenderId', 64), p.signature),
  } satisfies HandlerSlice<'sale'>;
}
