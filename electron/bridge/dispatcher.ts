import type { BridgeResult, CommandName, Session } from '../../common/bridge/contract';
import type { CallContext, Dispatch } from './connection';
import { BridgeFailure } from '../../common/bridge/failure';
import { payloadProblems } from './payload-check';
import { untrustedEcho } from './untrusted-echo';
import { commandAccess } from '../roles/command-access';
import type { Handlers } from './handlers';
import { can } from '../roles/roles';
import type { Logger } from '../util/log';

/**
 * The bridge's dispatcher: every call from every carrier passes here, in this order — the core runs, the
 * command exists, the caller's role may call it, the payload is an object that fits its schema, then its
 * handler. The connection's kind comes first (a customer display calls the `customer` commands only), and
 * the role before anything about the payload (docs/bridge.md), so a caller without the role
 * learns `forbidden` and nothing about the command's shape. A handler's BridgeFailure is its answer;
 * anything else — a handler's bug, or a check that threw — is logged and answered `internal` (never a
 * stack trace), so the promise it returns never rejects.
 */
export function createDispatch(deps: {
  handlers: Handlers;
  running: () => boolean;
  log: Logger;
  /** The session as it stands now (roles.current): null once its employee may no longer act. */
  current: (session: Session) => Session | null;
}): Dispatch {
  const { handlers, log } = deps;
  return async (command: string, payload: unknown, ctx: CallContext): Promise<BridgeResult<unknown>> => {
    if (!deps.running())
      return { ok: false, error: { code: 'unavailable', message: 'The terminal is not running.' } };
    if (!Object.hasOwn(handlers, command))
      return { ok: false, error: { code: 'invalid', message: `Unknown command ${untrustedEcho(command)}.` } };
    const name = command as CommandName;
    const access = commandAccess[name];
    // A session ends when its employee is deactivated, changes role or clocks out (time clock on).
    let session = ctx.session();
    const was = session;
    if (session) {
      const now = deps.current(session);
      if (now !== session) ctx.setSession(now);
      session = now;
    }
    // The customer display's connection calls the customer's commands and nothing else, whatever its
    // payload; the customer's commands are not a terminal connection's, whoever is signed in there.
    if (ctx.kind === 'customer-display') {
      if (access !== 'customer')
        return { ok: false, error: { code: 'forbidden', message: 'A customer display cannot do this.' } };
    } else if (access === 'customer') {
      if (!session) return { ok: false, error: { code: 'unauthorized', message: 'Sign in first.' } };
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Only the customer display answers for the customer.' },
      };
    } else if (access !== 'public') {
      if (!session)
        return {
          ok: false,
          error: {
            code: 'unauthorized',
            message: was ? 'Your session has ended: sign in again.' : 'Sign in first.',
          },
        };
      // Signed in with a one-time PIN: choosing one's own PIN comes first.
      if (session.mustChangePin && name !== 'session.changePin')
        return { ok: false, error: { code: 'forbidden', message: 'Choose your own PIN first.' } };
      if (access !== 'signed-in' && !can(session.role, access))
        return {
          ok: false,
          error: { code: 'forbidden', message: `The ${session.role} role cannot do this.` },
        };
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      return { ok: false, error: { code: 'invalid', message: 'The payload must be an object.' } };
    try {
      // The payload against its schema (contract/commands.ts): a handler only ever sees a well-formed one.
      const problems = payloadProblems(name, payload);
      if (problems.length > 0)
        return { ok: false, error: { code: 'invalid', message: problems.join(' '), problems } };
      const handler = handlers[name] as (p: unknown, c: CallContext) => Promise<unknown>;
      return { ok: true, value: await handler(payload, ctx) };
    } catch (error) {
      if (error instanceof BridgeFailure) return { ok: false, error: error.toError() };
      if (!deps.running())
        return { ok: false, error: { code: 'unavailable', message: 'The terminal is stopping.' } };
      const message = error instanceof Error ? error.message : String(error);
      log.log('error', 'bridge', `${name} failed: ${message}`);
      return {
        ok: false,
        error: {
          code: 'internal',
          message: 'Something went wrong; the diagnostics bundle has the details.',
        },
      };
    }
  };
}
