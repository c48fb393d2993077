import { dollars, formatCents } from '../../util/money';
import type { CallContext } from '../connection';
import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/**
 * The lane's tills: the drawer's cash from the float to the blind count, and the X and Z reports.
 *
 * Every till event names who did it — the signed-in employee (`who`), kept by name in the till tables'
 * `employee` columns and as the employee in the audit — and who approved it (`approvedBy`).
 */
export function tillHandlers(s: CoreServices) {
  const { tills } = s;
  const { who, manager, approvedBy } = createApprovals(s);
  // The till tables keep the employee's name as it was at the event: a till report is a record of who
  // counted, like a printed receipt, and reads the same after a rename.
  const by = (ctx: CallContext): string => who(ctx).name;
  return {
    'till.status': () => tills.status(),
    async 'till.open'(p, ctx) {
      const till = await tills.open(p.float, by(ctx));
      await s.audit(who(ctx), 'till-opened', `till ${till.tillId}: float ${dollars(till.floatCents)}`);
      return till;
    },
    async 'till.move'(p, ctx) {
      const m = await tills.move(p, by(ctx));
      await s.audit(
        who(ctx),
        `till-${m.kind}`,
        `till ${m.tillId}: ${m.kind === 'no-sale' ? 'drawer opened' : dollars(m.amountCents)} (${m.reason ?? ''})`,
      );
      return m;
    },
    async 'till.refund'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'till.refund');
      const r = await tills.refund(
        p.userTransactionNumber,
        p.amountCents,
        by(ctx),
        approvedBy(ctx, approver)?.name,
      );
      await s.audit(
        who(ctx),
        'till-cash-refund',
        `till ${r.movement.tillId}: ${dollars(r.movement.amountCents)} in cash on ${p.userTransactionNumber}`,
        approvedBy(ctx, approver),
      );
      return r;
    },
    async 'till.handOver'(_p, ctx) {
      const till = await tills.handOver(by(ctx));
      await s.audit(who(ctx), 'till-handed-over', `till ${till.tillId} left the drawer for its count`);
      return till;
    },
    async 'till.count'(p, ctx) {
      const till = await tills.count(p.tillId, p.count, by(ctx));
      const c = till.count;
      await s.audit(
        who(ctx),
        'till-counted',
        c
          ? `till ${till.tillId}: counted ${dollars(c.countedCents)}, expected ${dollars(c.expectedCents)}, ${c.overShortCents >= 0 ? 'over' : 'short'} ${dollars(Math.abs(c.overShortCents))}${c.needsSignOff ? ', waits for a sign-off' : ''}`
          : `till ${till.tillId}`,
      );
      return till;
    },
    async 'till.signOff'(p, ctx) {
      const approver = await manager(ctx, p.approval, 'till.signOff');
      // The sign-off is the manager's act: the till records the manager, the audit who asked for it.
      const till = await tills.signOff(p.tillId, approver.name, p.note);
      await s.audit(
        who(ctx),
        'till-signed-off',
        `till ${till.tillId}: ${till.count ? formatCents(till.count.overShortCents) : ''} accepted`,
        approvedBy(ctx, approver),
      );
      return till;
    },
    'till.movements': (p) => tills.movements(p.tillId, p.limit ?? 200),
    'till.list': () => tills.list(),
    'till.report': (p) => tills.report(p),
    async 'till.print'(p) {
      return tills.print(p);
    },
    async 'till.closeDay'(_p, ctx) {
      const done = await tills.closeDay(by(ctx));
      const z = done.report;
      await s.audit(
        who(ctx),
        'z-report',
        `Z ${z.zNumber ?? ''}: ${z.tills.length} till(s), sales ${dollars(z.sales.cents)}, over/short ${dollars(z.counted.overShortCents)}`,
      );
      return done;
    },
    'till.zList': (p) => tills.zList(p.before, p.limit ?? 50),
    'till.settings.get': () => Promise.resolve(tills.settings()),
    async 'till.settings.set'(p, ctx) {
      if (p.toleranceCents === undefined && p.defaultFloatCents === undefined)
        throw new BridgeFailure('invalid', 'Nothing to change.');
      const next = await tills.setSettings({
        ...(p.toleranceCents !== undefined ? { toleranceCents: p.toleranceCents } : {}),
        ...(p.defaultFloatCents !== undefined ? { defaultFloatCents: p.defaultFloatCents } : {}),
      });
      await s.audit(
        who(ctx),
        'settings-changed',
        `till settings: tolerance ${dollars(next.toleranceCents)}, float ${dollars(next.defaultFloatCents)}`,
      );
      return next;
    },
  } satisfies HandlerSlice<'till'>;
}
