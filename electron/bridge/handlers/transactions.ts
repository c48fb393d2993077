import { toTransactionView } from '../../sale/sale-engine';
import { isCents } from '../../util/money';
import { BridgeFailure } from '../failure';
import { limit, str } from './checks';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

function startOfToday(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The lane's transactions: today's list, refunds and voids (a manager approves). */
export function transactionHandlers(s: CoreServices) {
  const { engine, journal } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  return {
    async 'transactions.list'(p) {
      if (p.last4 !== undefined && (typeof p.last4 !== 'string' || !/^\d{4}$/.test(p.last4)))
        throw new BridgeFailure('invalid', 'Search by the last four digits.');
      if (p.amountCents !== undefined && !isCents(p.amountCents))
        throw new BridgeFailure('invalid', 'The amount is in cents.');
      const rows = await journal.list({
        since: typeof p.since === 'number' ? p.since : startOfToday(s.clock.now()),
        ...(p.last4 !== undefined ? { last4: p.last4 } : {}),
        ...(p.amountCents !== undefined ? { amountCents: p.amountCents } : {}),
        limit: limit(p.limit, 500, 5000),
      });
      return rows.map(toTransactionView);
    },
    async 'transactions.refund'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.refund');
      const srn = str(p.serviceReferenceNumber, 'serviceReferenceNumber', 64);
      const r = await engine.refund(srn, p.amountCents);
      await s.audit(
        who(ctx),
        'refund',
        `refund ${r.transaction.userTransactionNumber} of ${srn}: ${r.transaction.amountCents} cents`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'transactions.void'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.void');
      const srn = str(p.serviceReferenceNumber, 'serviceReferenceNumber', 64);
      const r = await engine.void(srn);
      await s.audit(
        who(ctx),
        'void',
        `void ${r.transaction.userTransactionNumber} of ${srn}`,
        approvedBy(ctx, approver),
      );
      return r;
    },
  } satisfies HandlerSlice<'transactions'>;
}
