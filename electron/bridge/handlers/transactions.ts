import { startOfStoreDayAt } from '../../../common/store-time';
import type { JournalRow } from '../../journal/journal-store';
import { toTransactionView } from '../../sale/transaction-view';
import { laneTimeZone } from '../../store-time-zone';
import { dollars } from '../../util/money';
import { BridgeFailure } from '../../../common/bridge/failure';
import { decodeListCursor, encodeListCursor } from '../list-cursor';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/**
 * The sale a refund or void is of, as a manager reads it in the audit log: its own number and card, not
 * the gateway's all-digit id (which the card-data mask would show as a masked card number).
 */
function saleWords(original: JournalRow | undefined): string {
  if (!original) return 'a sale not on this lane';
  const card = original.last4 ? ` (${original.cardType ?? 'card'} ending ${original.last4})` : '';
  return `sale ${original.utn}${card}`;
}

/** The lane's transactions: today's list, refunds and voids (a manager approves). */
export function transactionHandlers(s: CoreServices) {
  const { engine, journal, batchClose, settings } = s;
  const { who, manager, approvedBy, stamp } = createApprovals(s);
  return {
    async 'transactions.list'(p) {
      // "Today" is the store's day (its time zone), as the list's times read. A page at a time, along
      // the journal's (created_at, seq) index: `before` is the last row's cursor of the page before.
      const before = p.before === undefined ? undefined : decodeListCursor(p.before);
      const rows = await journal.list({
        since: p.since ?? startOfStoreDayAt(s.clock.now(), laneTimeZone(settings.value)),
        ...(p.last4 !== undefined ? { last4: p.last4 } : {}),
        ...(p.amountCents !== undefined ? { amountCents: p.amountCents } : {}),
        ...(before ? { before } : {}),
        limit: Math.min(p.limit ?? 500, 5000),
      });
      const settledBefore = await batchClose.lastCloseSeen();
      return rows.map((r) => ({
        ...toTransactionView(r, settledBefore, s.roles.nameOf),
        cursor: encodeListCursor({ createdAt: r.createdAt, seq: r.seq }),
      }));
    },
    async 'transactions.refund'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'transactions.refund');
      const srn = p.serviceReferenceNumber;
      const r = await engine.refund(srn, p.amountCents, stamp(ctx, approver));
      await s.audit(
        who(ctx),
        'refund',
        `refund ${r.transaction.userTransactionNumber}: ${dollars(r.transaction.amountCents)} of ${saleWords(await journal.bySrn(srn))}`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'transactions.void'(p, ctx) {
      const srn = p.serviceReferenceNumber;
      // Refused before the manager is asked: a PIN typed for a void that cannot happen is wasted.
      const original = await journal.bySrn(srn);
      if (original && original.createdAt < (await batchClose.lastCloseSeen()))
        throw new BridgeFailure(
          'conflict',
          'This payment is settled (its batch is closed): refund it instead of voiding it.',
          { messageId: 'refund.settledVoid' },
        );
      const approver = await manager(ctx, p.approval, 'transactions.void');
      const r = await engine.void(srn, stamp(ctx, approver));
      await s.audit(
        who(ctx),
        'void',
        `void ${r.transaction.userTransactionNumber} of ${saleWords(await journal.bySrn(srn))}`,
        approvedBy(ctx, approver),
      );
      return r;
    },
  } satisfies HandlerSlice<'transactions'>;
}
