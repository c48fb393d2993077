import type { FastifyInstance } from 'fastify';
import { fraudEndpoints as ep } from '../../contract/fraud';
import { ResponseCode } from '../../contract/response-codes';
import {
  blacklistedAccounts,
  parseFraudOptions,
  readFraudState,
  setFraudChecks,
} from '../../domain/fraud-options';
import { requiredText } from '../../http/checks';
import { implement } from '../../http/operation';
import type { GatewayServices } from '../../http/services';
import { masked, stateAnswer } from '../fraud-auto-deny-options';

/** Gateway Admin's fraud operations: the auto-deny options as a list of numbers, and the merchant's state. */
export function registerGatewayAdminFraudRoutes(app: FastifyInstance, services: GatewayServices): void {
  for (const [spec, enabled] of [
    [ep.addOptions, true],
    [ep.removeOptions, false],
  ] as const) {
    implement(app, services, spec, {
      check(body, problems) {
        const raw = requiredText(problems, body, 'Options', ResponseCode.InvalidFraudOptions);
        if (raw === undefined) return undefined;
        const parsed = parseFraudOptions(raw);
        if (!parsed.ok) {
          problems.add(ResponseCode.InvalidFraudOptions, parsed.reason, 'Options');
          return undefined;
        }
        return parsed.checks;
      },
      async handle(checks, ctx) {
        const state = await ctx.services.storage.write((tx) =>
          setFraudChecks(tx, ctx.principal.mid, checks, enabled, ctx.now.toISOString()),
        );
        return stateAnswer(state, `${checks.join(', ')} ${enabled ? 'enabled' : 'disabled'}`);
      },
    });
  }

  implement(app, services, ep.getOptions, {
    async handle(_c, ctx) {
      const q = ctx.services.storage.read;
      const state = await readFraudState(q, ctx.principal.mid);
      const listed = await blacklistedAccounts(q, ctx.principal.mid);
      return {
        ...stateAnswer(state, 'Auto-deny options'),
        BlacklistedAccounts: listed.map((l) => ({ CardNumber: masked(l), AddedOn: l.added_on })),
      };
    },
  });
}
