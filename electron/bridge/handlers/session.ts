import type { Session } from '../../../common/bridge/contract';
import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Sign-in and out, one's own PIN, the time clock, the terminal's status and its lane id. */
export function sessionHandlers(s: CoreServices) {
  const { settings, roles } = s;
  const { who } = createApprovals(s);
  const signedIn = (ctx: Parameters<typeof who>[0]) => (ctx.session() ? who(ctx) : 'system');
  return {
    async 'session.signIn'(p, ctx) {
      let session: Session;
      try {
        session = await roles.signIn(p.pin);
      } catch (error) {
        // PCI DSS 10.2.1.4: every invalid attempt is audited (the reason, never the PIN typed).
        if (error instanceof BridgeFailure) await s.audit(signedIn(ctx), 'sign-in-failed', error.message);
        throw error;
      }
      ctx.setSession(session);
      await s.audit(
        who(ctx),
        'sign-in',
        `${session.name} signed in${session.mustChangePin ? ' with a one-time PIN' : ''}`,
      );
      return session;
    },
    async 'session.signOut'(_p, ctx) {
      const was = ctx.session();
      if (was) await s.audit(who(ctx), 'sign-out', `${was.name} signed out`);
      ctx.setSession(null);
      return null;
    },
    'session.current': (_p, ctx) => Promise.resolve(ctx.session()),
    async 'session.changePin'(p, ctx) {
      const session = ctx.session();
      if (!session)
        throw new BridgeFailure('unauthorized', 'Sign in first.', { messageId: 'session.signInFirst' });
      if (p.role !== undefined && p.role !== session.role)
        throw new BridgeFailure(
          'forbidden',
          "Only your own PIN is changed here: a manager resets another employee's PIN in Employees.",
          { messageId: 'session.ownPinOnly' },
        );
      try {
        const next = await roles.changeOwnPin({ session, currentPin: p.currentPin, newPin: p.newPin });
        await s.audit(who(ctx), 'pin-changed', `${session.name} chose a new PIN`);
        ctx.setSession(next);
        return next;
      } catch (error) {
        if (error instanceof BridgeFailure && error.code !== 'invalid')
          await s.audit(who(ctx), 'pin-change-failed', `${session.name}: ${error.message}`);
        throw error;
      }
    },
    async 'timeClock.punch'(p, ctx) {
      try {
        const { actor, at } = await roles.punch(p.pin, p.action);
        await s.audit(actor, `clock-${p.action}`, `${actor.name} clocked ${p.action}`);
        // Clocking out ends this window's session of theirs (the others end at their next call).
        if (p.action === 'out' && ctx.session()?.employeeId === actor.employeeId) ctx.setSession(null);
        return { name: actor.name, action: p.action, at };
      } catch (error) {
        if (error instanceof BridgeFailure && error.code === 'unauthorized')
          await s.audit(signedIn(ctx), 'clock-refused', error.message);
        throw error;
      }
    },
    async 'terminal.status'(_p, ctx) {
      return s.status(ctx.session());
    },
    'lane.get': () => Promise.resolve({ laneId: settings.value.laneId }),
    async 'lane.set'(p, ctx) {
      const laneId = p.laneId;
      const before = settings.value.laneId;
      await settings.set('laneId', laneId);
      await s.audit(who(ctx), 'lane-changed', `lane ${before} -> ${laneId}`);
      return { laneId };
    },
  } satisfies HandlerSlice<'session' | 'terminal' | 'lane' | 'timeClock'>;
}
