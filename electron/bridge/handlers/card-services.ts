import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';
import { dollars } from '../../util/money';
import { completionTipNeedsManager } from '../../sale/tip-bound';

/** Card operations outside a ticket: gift balance and reload, EBT balance, pre-authorization completion. */
export function cardServiceHandlers(s: CoreServices) {
  const { engine, settings, journal } = s;
  const { who, manager, approvedBy, stamp } = createApprovals(s);
  return {
    'gift.balance': (p) => engine.giftBalance(p.entry, p.keyed),
    async 'gift.reload'(p, ctx) {
      // Value on a gift card is money: paid by a reload ticket, or a manager's decision (approved first,
      // before the card is read or anything is sent).
      const ticketId = p.ticketId === undefined ? undefined : p.ticketId;
      const approver = ticketId === undefined ? await manager(ctx, p.approval, 'gift.reload') : undefined;
      const basis = ticketId === undefined ? 'no payment taken' : `paid by ticket ${ticketId}`;
      try {
        const t = await engine.giftReload(p.amountCents, p.entry, p.keyed, ticketId, stamp(ctx, approver));
        await s.audit(
          who(ctx),
          'gift-reload',
          `gift reload ${t.userTransactionNumber} of ${dollars(t.amountCents)} on card ending ${t.last4 ?? '?'}, ${basis}`,
          approver && approvedBy(ctx, approver),
        );
        return t;
      } catch (error) {
        if (error instanceof BridgeFailure && error.code !== 'busy')
          await s.audit(
            who(ctx),
            'gift-reload-failed',
            `gift reload of ${dollars(p.amountCents)}, ${basis}: ${error.message}`,
            approver && approvedBy(ctx, approver),
          );
        throw error;
      }
    },
    'ebt.balance': (p) => engine.ebtBalance(p.program),
    'cardWait.cancel': () => Promise.resolve({ cancelled: engine.cancelOutsideTicket() }),
    async 'preauth.complete'(p, ctx) {
      const srn = p.serviceReferenceNumber;
      const tip = p.tipCents ?? 0;
      // The tip bound (sale/tip-bound.ts): a manager approves before anything is sent.
      const held = await journal.bySrn(srn);
      const hold = held?.operation === 'preauth' ? held.approvedCents : undefined;
      const share = settings.value.sale.preauthTipMaxPercent;
      const needsManager = completionTipNeedsManager({ tipCents: tip, holdCents: hold, sharePercent: share });
      const approver = needsManager ? await manager(ctx, p.approval, 'preauth.complete') : undefined;
      // Named by the hold's UserTransactionNumber: a gateway id is all digits, which the audit's card-data
      // mask would hide.
      const detail = `completion of hold ${held?.utn ?? 'not on this lane'}: ${dollars(p.amountCents)}, tip ${dollars(tip)} (hold ${hold === undefined ? 'unknown' : dollars(hold)})`;
      try {
        const t = await engine.preauthComplete(
          { ...p, serviceReferenceNumber: srn, tipCents: tip },
          stamp(ctx, approver),
        );
        await s.audit(
          who(ctx),
          'preauth-complete',
          `${t.userTransactionNumber} ${detail}`,
          approver && approvedBy(ctx, approver),
        );
        return t;
      } catch (error) {
        // Refusals are audited too (PCI DSS 10.2.1.4), the gateway's tip bound among them: a manager may
        // approve a tip above the lane's share, and the gateway still applies its own ceiling to it.
        if (error instanceof BridgeFailure && error.code !== 'busy')
          await s.audit(
            who(ctx),
            'preauth-complete-failed',
            `${detail}: ${error.message}`,
            approver && approvedBy(ctx, approver),
          );
        throw error;
      }
    },
  } satisfies HandlerSlice<'gift' | 'ebt' | 'cardWait' | 'preauth'>;
}
