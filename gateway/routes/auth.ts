import type { FastifyInstance } from 'fastify';
import { authEndpoints as ep } from '../contract/core-endpoints';
import { success } from '../domain/outcome';
import { issueToken, type TokenScope } from '../security/bearer-token';
import { implement, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';

function issue(ctx: OperationContext, scope: TokenScope) {
  const { mid, cid, userId } = ctx.principal;
  const { token, claims } = issueToken(
    ctx.services.keys.tokenKey,
    { mid, cid, uid: userId, scope },
    ctx.services.config.tokenTtlSeconds,
    ctx.now,
  );
  return Promise.resolve({
    ...success(['Token issued']),
    ApiKey: claims.kid,
    Token: token,
    ExpiresOn: new Date(claims.exp * 1000).toISOString(),
  });
}

export function registerAuthRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.auth, { handle: (_c, ctx) => issue(ctx, 'reporting') });
  implement(app, services, ep.authThreeDS, { handle: (_c, ctx) => issue(ctx, 'threeds') });
}
