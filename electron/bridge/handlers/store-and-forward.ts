import type { SafPolicy } from '../../../common/bridge/contract';
import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';
import { dollars } from '../../util/money';

/** Store-and-forward: its queue and policy (a manager sets it). */
export function storeAndForwardHandlers(s: CoreServices) {
  const { settings } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  // The schema bounds each field (contract/store-and-forward.ts); this is the rule between two of them.
  const safPolicyOf = (p: SafPolicy): SafPolicy => {
    if (p.perTransactionLimitCents > p.totalLimitCents)
      throw new BridgeFailure('invalid', 'The per-sale limit cannot exceed the total limit.');
    return {
      enabled: p.enabled,
      perTransactionLimitCents: p.perTransactionLimitCents,
      totalLimitCents: p.totalLimitCents,
      maxAgeHours: p.maxAgeHours,
    };
  };

  return {
    'saf.get': () => s.saf.view(settings.value.saf),
    async 'saf.setPolicy'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'saf.setPolicy');
      const policy = safPolicyOf(p);
      await settings.set('saf', policy);
      await s.audit(
        who(ctx),
        'saf-policy',
        `store-and-forward ${policy.enabled ? 'on' : 'off'}; per sale ${dollars(policy.perTransactionLimitCents)}, total ${dollars(policy.totalLimitCents)}, ${policy.maxAgeHours} h`,
        approvedBy(ctx, approver),
      );
      const view = await s.saf.view(policy);
      s.emit('saf.updated', view);
      return view;
    },
    async 'saf.forwardNow'() {
      await s.saf.forward();
      return s.saf.view(settings.value.saf);
    },
  } satisfies HandlerSlice<'saf'>;
}
