import type { Session } from '../contract';
import { BridgeFailure } from '../failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Sign-in and out, PIN changes, the terminal's status and its lane id. */
export function sessionHandlers(s: CoreServices) {
  const { settings, roles } = s;
  const { who } = createApprovals(s);
  return {
    async 'session.signIn'(p, ctx) {
      let session: Session;
      try {
        session = await roles.signIn(p.pin);
      } catch (error) {
        // PCI DSS 10.2.1.4: every invalid attempt is audited (the reason, never the PIN typed).
        if (error instanceof BridgeFailure)
          await s.audit(ctx.session()?.role ?? 'system', 'sign-in-failed', error.message);
        throw error;
      }
      ctx.setSession(session);
      await s.audit(session.role, 'sign-in', `${session.role} signed in`);
      return session;
    },
    async 'session.signOut'(_p, ctx) {
      const was = ctx.session();
      ctx.setSession(null);
      if (was) await s.audit(was.role, 'sign-out', `${was.role} signed out`);
      return null;
    },
    'session.current': (_p, ctx) => Promise.resolve(ctx.session()),
    async 'session.changePin'(p, ctx) {
      const target = p.role;
      const session = ctx.session();
      if (!session) throw new BridgeFailure('unauthorized', 'Sign in first.');
      try {
        const done = await roles.changePin({
          session,
          role: target,
          newPin: p.newPin,
          currentPin: p.currentPin,
          approval: p.approval,
        });
        await s.audit(session.role, 'pin-changed', `PIN of ${target} changed`, done.approvedBy);
      } catch (error) {
        if (error instanceof BridgeFailure && error.code !== 'invalid')
          await s.audit(session.role, 'pin-change-failed', `PIN of ${target}: ${error.message}`);
        throw error;
      }
      return null;
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
  } satisfies HandlerSlice<'session' | 'terminal' | 'lane'>;
}
