import type { BusinessSettingsView } from '../contract';
import { isExactRate } from '../../../common/percent';
import { fraudGet, fraudSet, linkCreate, linkDisable, linksList, reportView } from '../../merchant';
import { BridgeFailure } from '../failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** The manager's passthroughs to the gateway: reports, business settings, fraud options, payment links. */
export function merchantHandlers(s: CoreServices) {
  const { engine, settings, client } = s;
  const { who } = createApprovals(s);
  const businessGet = async (): Promise<BusinessSettingsView> => {
    const r = await client.businessSettings();
    const sale = settings.value.sale;
    const local = {
      taxRatePercent: sale.taxRatePercent,
      tipPrompt: sale.tipPrompt,
      tipPresetsPercent: sale.tipPresetsPercent,
      preauthTipMaxPercent: sale.preauthTipMaxPercent,
      chipFallbackAfterFailures: sale.chipFallbackAfterFailures,
    };
    if (!r.ok) throw engine.failureOf(r.failure);
    return {
      surchargeEnabled: r.response.SurchargeEnabled ?? false,
      surchargePercent: r.response.SurchargePercent ?? 0,
      cardDifferenceEnabled: r.response.CardDifferenceEnabled ?? false,
      cardDifferencePercent: r.response.CardDifferencePercent ?? 0,
      threeDSecureEnabled: r.response.ThreeDSecureEnabled ?? false,
      ...local,
    };
  };

  return {
    async 'reports.transactions'(p) {
      const r = await client.getReportByMerchant();
      if (!r.ok) throw engine.failureOf(r.failure);
      return reportView(r.response.Transactions ?? [], {
        ...(typeof p.from === 'string' ? { from: p.from } : {}),
        ...(typeof p.to === 'string' ? { to: p.to } : {}),
      });
    },

    'business.get': businessGet,
    async 'business.update'(p, ctx) {
      const sale = { ...settings.value.sale };
      if (p.taxRatePercent !== undefined) {
        if (
          typeof p.taxRatePercent !== 'number' ||
          p.taxRatePercent < 0 ||
          p.taxRatePercent > 30 ||
          !isExactRate(p.taxRatePercent)
        )
          throw new BridgeFailure('invalid', 'The tax rate is 0 to 30 %, with at most four decimals.');
        sale.taxRatePercent = p.taxRatePercent;
      }
      if (p.tipPrompt !== undefined) sale.tipPrompt = p.tipPrompt === true;
      if (p.tipPresetsPercent !== undefined) {
        if (
          !Array.isArray(p.tipPresetsPercent) ||
          p.tipPresetsPercent.length > 6 ||
          p.tipPresetsPercent.some((x) => typeof x !== 'number' || x < 0 || x > 100)
        )
          throw new BridgeFailure('invalid', 'Tip presets are up to six percentages.');
        sale.tipPresetsPercent = [...p.tipPresetsPercent];
      }
      if (p.preauthTipMaxPercent !== undefined) {
        if (
          typeof p.preauthTipMaxPercent !== 'number' ||
          p.preauthTipMaxPercent < 0 ||
          p.preauthTipMaxPercent > 100 ||
          !isExactRate(p.preauthTipMaxPercent)
        )
          throw new BridgeFailure('invalid', 'The pre-authorization tip share is 0 to 100 %.');
        sale.preauthTipMaxPercent = p.preauthTipMaxPercent;
      }
      if (p.chipFallbackAfterFailures !== undefined) {
        // More than three failed inserts only holds the line: the networks count fallback attempts.
        if (
          typeof p.chipFallbackAfterFailures !== 'number' ||
          !Number.isInteger(p.chipFallbackAfterFailures) ||
          p.chipFallbackAfterFailures < 1 ||
          p.chipFallbackAfterFailures > 3
        )
          throw new BridgeFailure('invalid', 'Chip fallback is allowed after 1 to 3 failed chip reads.');
        sale.chipFallbackAfterFailures = p.chipFallbackAfterFailures;
      }
      await settings.set('sale', sale);
      await s.audit(
        who(ctx),
        'settings-changed',
        `sale settings: tax ${sale.taxRatePercent}%, tip prompt ${String(sale.tipPrompt)}, pre-auth tip up to ${sale.preauthTipMaxPercent}% without a manager, chip fallback after ${sale.chipFallbackAfterFailures} failed read(s)`,
      );
      return businessGet();
    },
    'fraud.get': () => fraudGet(client),
    async 'fraud.set'(p, ctx) {
      const v = await fraudSet(client, p.check, p.enabled === true);
      await s.audit(who(ctx), 'fraud-option', `${p.check} ${p.enabled ? 'enabled' : 'disabled'}`);
      return v;
    },
    'paymentLinks.list': () => linksList(client),
    async 'paymentLinks.create'(p, ctx) {
      const v = await linkCreate(client, p);
      await s.audit(who(ctx), 'payment-link-created', `link ${v.id}`);
      return v;
    },
    async 'paymentLinks.disable'(p, ctx) {
      const v = await linkDisable(client, p.id);
      await s.audit(who(ctx), 'payment-link-disabled', `link ${v.id}`);
      return v;
    },
  } satisfies HandlerSlice<'reports' | 'business' | 'fraud' | 'paymentLinks'>;
}
