import type { FastifyInstance } from 'fastify';
import { isLuhnValid } from '../../native/protocols/luhn';
import { fraudEndpoints as ep, type FraudOptionsResponse } from '../contract/fraud';
import type { EndpointSpec } from '../contract/endpoint';
import { ResponseCode } from '../contract/response-codes';
import {
  blacklistAccount,
  optionsText,
  setFraudChecks,
  unblacklistAccount,
  type BlacklistedAccount,
  type FraudCheck,
  type FraudState,
} from '../domain/fraud-options';
import { paymentByReference } from '../domain/references';
import { outcome, success } from '../domain/outcome';
import { cardFingerprint } from '../security/vault-cipher';
import { text } from '../http/checks';
import { implement, type Loose, type OperationContext } from '../http/operation';
import type { Problems } from '../domain/problems';
import type { GatewayServices } from '../http/services';

/** The answer of every fraud option operation: the merchant's checks after the change. */
export function stateAnswer(state: FraudState, message: string): FraudOptionsResponse {
  return { ...success([message]), Options: optionsText(state), ...state };
}

function toggle(
  app: FastifyInstance,
  services: GatewayServices,
  spec: EndpointSpec & { response: typeof ep.enableCvv.response },
  check: FraudCheck,
  enabled: boolean,
) {
  implement(app, services, spec, {
    async handle(_c, ctx) {
      const state = await ctx.services.storage.write((tx) =>
        setFraudChecks(tx, ctx.principal.mid, [check], enabled, ctx.now.toISOString()),
      );
      return stateAnswer(state, `${check} check ${enabled ? 'enabled' : 'disabled'}`);
    },
  });
}

type Listed = BlacklistedAccount;

/** The card a blacklist request names: a card number, or the card of one of this merchant's payments. */
async function accountOf(ctx: OperationContext, c: { pan?: string; srn?: string }): Promise<Listed> {
  if (c.pan !== undefined) {
    return {
      fingerprint: cardFingerprint(ctx.services.keys.fingerprintKey, c.pan),
      first6: c.pan.slice(0, 6),
      last4: c.pan.slice(-4),
    };
  }
  const payment = await paymentByReference(ctx.services.storage.read, ctx.principal.mid, c.srn ?? '');
  return { fingerprint: payment.fingerprint, first6: payment.first6, last4: payment.last4 };
}

export const masked = (a: Pick<Listed, 'first6' | 'last4'>) => `${a.first6}******${a.last4}`;

/** Fraud Auto Deny Options: the eight check switches and the account blacklist. */
export function registerFraudAutoDenyRoutes(app: FastifyInstance, services: GatewayServices): void {
  toggle(app, services, ep.enableAccount, 'Account', true);
  toggle(app, services, ep.disableAccount, 'Account', false);
  toggle(app, services, ep.enableAddress, 'Address', true);
  toggle(app, services, ep.disableAddress, 'Address', false);
  toggle(app, services, ep.enableCvv, 'Cvv', true);
  toggle(app, services, ep.disableCvv, 'Cvv', false);
  toggle(app, services, ep.enableZipCode, 'ZipCode', true);
  toggle(app, services, ep.disableZipCode, 'ZipCode', false);

  const blacklistCheck = {
    check(body: Loose, problems: Problems) {
      const rawPan = text(body, 'CardNumber');
      const srn = text(body, 'ServiceTransactionNumber');
      if (rawPan === undefined && srn === undefined) {
        problems.add(
          ResponseCode.InvalidRequest,
          'CardNumber or ServiceTransactionNumber is required',
          'CardNumber',
        );
        return undefined;
      }
      if (rawPan !== undefined && srn !== undefined) {
        problems.add(
          ResponseCode.InvalidRequest,
          'Send CardNumber or ServiceTransactionNumber, not both',
          'CardNumber',
        );
        return undefined;
      }
      if (rawPan !== undefined) {
        const pan = rawPan.replace(/[\s-]/g, '');
        if (!/^\d{12,19}$/.test(pan) || !isLuhnValid(pan)) {
          problems.add(ResponseCode.InvalidCardNumber, 'CardNumber is not a valid card number', 'CardNumber');
          return undefined;
        }
        return { pan };
      }
      return { srn };
    },
  };

  implement(app, services, ep.blacklistAccount, {
    ...blacklistCheck,
    async handle(c, ctx) {
      const account = await accountOf(ctx, c);
      const now = ctx.now.toISOString();
      // A card already listed is answered, not an error.
      const added = await blacklistAccount(ctx.services.storage, ctx.principal.mid, account, now);
      return {
        ...success([
          added ? 'The account is blacklisted' : 'The account was already blacklisted; nothing changed',
        ]),
        CardNumber: masked(account),
        Blacklisted: true,
      };
    },
  });

  implement(app, services, ep.unblacklistAccount, {
    ...blacklistCheck,
    async handle(c, ctx) {
      const account = await accountOf(ctx, c);
      const removed = await unblacklistAccount(ctx.services.storage, ctx.principal.mid, account.fingerprint);
      if (!removed) {
        return outcome(ResponseCode.NotFound, ['The account is not on the blacklist']);
      }
      return {
        ...success(['The account is off the blacklist']),
        CardNumber: masked(account),
        Blacklisted: false,
      };
    },
  });
}
