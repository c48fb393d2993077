import type { FastifyInstance } from 'fastify';
import { detectBrand } from '../../../native/protocols/card-brand';
import { isLuhnValid } from '../../../native/protocols/luhn';
import { tokenEndpoints as ep } from '../../contract/core-endpoints';
import { LUHN_FAILED_VERBIAGE, ResponseCode } from '../../contract/response-codes';
import type { TokenRecord } from '../../contract/tokens';
import { parseExpDate } from '../../domain/card-input';
import { outcome, success } from '../../domain/outcome';
import {
  cardTokenRecords,
  storeCardUnlessStored,
  tokenByIdentifier,
  tokenLookupSettings,
  type VaultTokenRow,
} from '../../domain/vault';
import { requiredText, text } from '../../http/checks';
import { implement, type OperationContext } from '../../http/operation';
import type { GatewayServices } from '../../http/services';

function tokenRecord(r: VaultTokenRow): TokenRecord {
  return {
    ABARoute: '',
    Account: `${r.first6}******${r.last4}`,
    Active: r.active ? 'true' : 'false',
    Amount: '',
    BeginDate: r.created_at,
    CardHolderName: r.holder_name,
    CardType: r.card_type,
    ClientRef: r.client_ref,
    Description: r.description,
    EndDate: '',
    ExpirationDate: r.exp_mmyy,
    Frequency: '',
    InstallementNum: '',
    InstallmentTotal: '',
    LastRunDate: '',
    LastRunId: '',
    Token: r.token,
    Identifier: r.identifier,
  };
}

const notSupported = () => ({
  ...outcome(ResponseCode.OperationNotSupported, [
    "The merchant's credit processor does not support token lookups (this does not mean the token is missing or invalid)",
  ]),
  OperationCode: 'OPERATION_NOT_SUPPORTED',
  Supported: false,
  Tokens: [],
});

const notFound = (why: string) => ({
  ...outcome(ResponseCode.NotFound, [why]),
  OperationCode: 'NOT_FOUND',
  Supported: true,
  Tokens: [],
});

async function merchantProcessor(ctx: OperationContext) {
  const m = await tokenLookupSettings(ctx.services.storage.read, ctx.principal.mid);
  return {
    processor: m?.credit_processor ?? ctx.services.processor.name,
    supported: m?.token_lookup_supported === 1,
  };
}

const findByIdentifier = (ctx: OperationContext, identifier: string) =>
  tokenByIdentifier(ctx.services.storage.read, ctx.principal, identifier);

export function registerTokenRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.getTokenForCard, {
    // Card data that cannot be stored is the real catalog's "token not generated" (25), Msg says why.
    check(body, problems) {
      const account = requiredText(problems, body, 'Account', ResponseCode.TokenNotGenerated);
      if (account && !/^\d{12,19}$/.test(account)) {
        problems.add(ResponseCode.TokenNotGenerated, 'Account is not a valid card number', 'Account');
      } else if (account && !isLuhnValid(account)) {
        // The real service's wording of a check-digit failure, which its PHP integration maps to its own
        // "invalid card number" error; the code stays 25.
        problems.add(
          ResponseCode.TokenNotGenerated,
          'Account fails the card number check digit (Luhn)',
          'Account',
          LUHN_FAILED_VERBIAGE,
        );
      }
      const exp = text(body, 'expDate');
      const expiry = exp ? parseExpDate(exp, false) : null;
      if (exp && !expiry) problems.add(ResponseCode.TokenNotGenerated, 'expDate must be MMYY', 'expDate');
      problems.recode('Account', ResponseCode.TokenNotGenerated);
      if (!account || !problems.empty) return undefined;
      return { account, expiry, body };
    },
    async handle(c, ctx) {
      const { processor } = await merchantProcessor(ctx);
      const now = ctx.now.toISOString();
      const stored = await storeCardUnlessStored(
        ctx.services.storage,
        ctx.services.keys,
        { mid: ctx.principal.mid, userId: ctx.principal.userId, processor },
        {
          pan: c.account,
          // An unknown expiry is stored as 0000: a token sale then asks for ExpDate.
          expiryYYMM: c.expiry ?? '0000',
          cardType: detectBrand(c.account),
          holderName: text(c.body, 'NameOnCard'),
          street: text(c.body, 'Street'),
          zip: text(c.body, 'zipCode'),
          clientRef: text(c.body, 'clientRef'),
          description: text(c.body, 'description'),
        },
        now,
        text(c.body, 'ExistingToken'),
      );
      if (!stored) return outcome(ResponseCode.AlreadyExists, ['ExistingToken is already stored']);
      return {
        ...success(['Token stored']),
        Token: stored.token,
        Identifier: stored.identifier,
        CardType: detectBrand(c.account),
        LastFour: c.account.slice(-4),
        ExpirationDate: c.expiry ? c.expiry.slice(2) + c.expiry.slice(0, 2) : '',
      };
    },
  });

  implement(app, services, ep.getTokenByIdentifier, {
    check: (body) => text(body, 'Identifier'),
    async handle(identifier, ctx) {
      if (!(await merchantProcessor(ctx)).supported) return notSupported();
      if (!identifier) return notFound('Identifier is required');
      const row = await findByIdentifier(ctx, identifier);
      if (!row) return notFound('No token record has this identifier');
      return { ...success(), OperationCode: 'OK', Supported: true, Tokens: [tokenRecord(row)] };
    },
  });

  implement(app, services, ep.getTokensByIdentifier, {
    check: (body) => text(body, 'Identifier'),
    async handle(identifier, ctx) {
      const m = await merchantProcessor(ctx);
      if (!m.supported) return notSupported();
      if (!identifier) return notFound('Identifier is required');
      const anchor = await findByIdentifier(ctx, identifier);
      if (!anchor) return notFound('No token record has this identifier');
      const rows = await cardTokenRecords(
        ctx.services.storage.read,
        ctx.principal,
        m.processor,
        anchor.fingerprint,
      );
      return { ...success(), OperationCode: 'OK', Supported: true, Tokens: rows.map(tokenRecord) };
    },
  });
}
