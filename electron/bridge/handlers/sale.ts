import type { Actor } from '../../roles/roles';
import { updateSaleSettings } from '../../sale/sale-settings-update';
import { saleSettingsView } from '../../settings';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Tickets and their tenders (the sale engine does the work). */
export function saleHandlers(s: CoreServices) {
  const { engine, customer } = s;
  const { who, manager, approvedBy, stamp } = createApprovals(s);
  return {
    // While the customer chooses the tip on the customer display, a tip typed here is refused.
    'sale.open': async (p, ctx) => {
      customer.checkCashierTip(p.tipCents);
      return engine.open(p, who(ctx));
    },
    'sale.current': () => Promise.resolve(engine.current()),
    'sale.get': (p) => engine.get(p.ticketId),
    'sale.setTip': async (p) => {
      customer.checkCashierTip(p.tipCents);
      return engine.setTip(p.ticketId, p.tipCents);
    },
    'sale.pay': async (p, ctx) => {
      customer.checkCashierTip(p.tipCents);
      return engine.pay(p, stamp(ctx));
    },
    'sale.cancel': (p) => engine.cancel(p.ticketId),
    async 'sale.abandon'(p, ctx) {
      let approver: Actor | undefined;
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
    // The lane's own figures, without the gateway's part of business.get: the sale screen needs them offline.
    'sale.settings': () => Promise.resolve(saleSettingsView(s.settings.value.sale)),
    // The lane's part of business.update, answered without the gateway (the Settings form saves by it).
    'sale.settings.set': (p, ctx) => updateSaleSettings(s, who(ctx), p),
    'sale.signature': (p) => engine.signature(p.ticketId, p.tenderId, p.signature),
  } satisfies HandlerSlice<'sale'>;
}
