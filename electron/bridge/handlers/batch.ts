import { getAutoClose, removeAutoClose, setAutoClose } from '../../merchant';
import { dollars, fromWire } from '../../util/money';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/**
 * The manager's batch: totals, reconciliation, orphans, close, automatic close. The rule of when a batch
 * may close is batch-close.ts; here a manager approves and the audit records it.
 */
export function batchHandlers(s: CoreServices) {
  const { client, engine, settings, batchClose } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  return {
    'batch.totals': () => batchClose.totals(),
    'batch.reconcile': () => batchClose.reconciliation(),
    async 'batch.resolveOrphan'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.resolveOrphan');
      const utn = p.userTransactionNumber;
      await batchClose.resolveOrphan(utn, p.action);
      await s.audit(who(ctx), 'orphan-resolved', `${utn}: ${p.action}`, approvedBy(ctx, approver));
      return batchClose.reconciliation();
    },
    async 'batch.settle'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.settle');
      const result = await batchClose.settle();
      await s.audit(
        who(ctx),
        'batch-close',
        `settled ${dollars(result.amountSettledCents)} in ${result.batches.length} batch(es)`,
        approvedBy(ctx, approver),
      );
      return result;
    },
    async 'batch.lastSettlements'() {
      const r = await client.getLastSettlementByMerchant();
      if (!r.ok) throw engine.failureOf(r.failure);
      return (r.response.SettlementReports ?? []).map((x) => ({
        amountSettledCents: fromWire(x.AmountSettled),
        batches: x.Batches,
        completedOn: x.CompletedOn,
      }));
    },
    async 'batch.autoClose.get'() {
      const view = await getAutoClose(client).catch(() => settings.value.autoClose);
      return view;
    },
    async 'batch.autoClose.set'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.autoClose.set');
      const view = await setAutoClose(client, p.time);
      await settings.set('autoClose', view);
      await s.audit(
        who(ctx),
        'auto-close-set',
        `automatic batch close at ${view.time ?? ''}`,
        approvedBy(ctx, approver),
      );
      return view;
    },
    async 'batch.autoClose.remove'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'batch.autoClose.remove');
      const view = await removeAutoClose(client);
      await settings.set('autoClose', view);
      await s.audit(
        who(ctx),
        'auto-close-removed',
        'automatic batch close removed',
        approvedBy(ctx, approver),
      );
      return view;
    },
  } satisfies HandlerSlice<'batch'>;
}
