import { toTransactionView } from '../../sale/transaction-view';
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
  const { who, manager, approvedBy, stamp } = createApprovals(s);
  return {
    async 'transactions.list'(p) {
      const rows = await journal.list({
        since: p.since ?? startOfToday(s.clock.now()),
        ...(p.last4 !== undefined ? { last4: p.last4 } : {}),
        ...(p.amountCents !== undefined ? { amountCents: p.amountCents } : {}),
        limit: Math.min(p.limit ?? 500, 5000),
      });
      return rows.map((r) => toTransactionView(r, s.roles.nameOf));
    },
    async 'transactions.refund'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.refund');
      const srn = p.serviceReferenceNumber;
      const r = await engine.refund(srn, p.amountCents, stamp(ctx, approver));
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
      const srn = p.serviceReferenceNumber;
      const r = await engine.void(srn, stamp(ctx, approver));
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
