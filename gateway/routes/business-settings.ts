import type { FastifyInstance } from 'fastify';
import { businessSettingsEndpoints as ep } from '../contract/core-endpoints';
import { merchantSettings } from '../domain/business-settings';
import { success } from '../domain/outcome';
import { implement, type OperationContext } from '../http/operation';
import type { GatewayServices } from '../http/services';

async function settings(ctx: OperationContext) {
  const s = await merchantSettings(ctx.services.storage.read, ctx.principal.mid);
  return {
    ...success(),
    CardDifferenceEnabled: s.cardDifferenceEnabled,
    CardDifferencePercent: s.cardDifferencePercentBp / 100,
    SurchargeEnabled: s.surchargeEnabled,
    SurchargePercent: s.surchargePercentBp / 100,
    ThreeDSecureEnabled: s.threeDSecureEnabled,
  };
}

export function registerBusinessSettingsRoutes(app: FastifyInstance, services: GatewayServices): void {
  implement(app, services, ep.businessSettings, { handle: (_c, ctx) => settings(ctx) });
  implement(app, services, ep.businessSettingsGet, { handle: (_c, ctx) => settings(ctx) });
}
