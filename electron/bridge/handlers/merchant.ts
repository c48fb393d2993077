import type { BusinessSettingsView } from '../../../common/bridge/contract';
import { startOfStoreDayAt } from '../../../common/store-time';
import { fraudGet, fraudSet, linkCreate, linkDisable, linksList, reportView } from '../../merchant';
import { updateSaleSettings } from '../../sale/sale-settings-update';
import { laneTimeZone } from '../../store-time-zone';
import { BridgeFailure } from '../../../common/bridge/failure';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** A report bound as the screen sends it (an instant), or `fallback` when absent. */
function instant(text: string | undefined, fallback: number | undefined): number | undefined {
  if (text === undefined) return fallback;
  const t = Date.parse(text);
  if (!Number.isFinite(t)) throw new BridgeFailure('invalid', 'The report range is two dates.');
  return t;
}

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
      confirmAboveCents: sale.confirmAboveCents,
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
      // The gateway narrows to the range (the store's days, as the screen picks them): without a start it
      // is the store's today, never the merchant's whole history.
      const zone = laneTimeZone(settings.value);
      const from = instant(p.from, startOfStoreDayAt(s.clock.now(), zone)) ?? 0;
      const to = instant(p.to, undefined);
      const StartDate = new Date(from).toISOString();
      const EndDate = to === undefined ? undefined : new Date(to).toISOString();
      const r = await client.getReportByMerchant({ StartDate, ...(EndDate ? { EndDate } : {}) });
      if (!r.ok) throw engine.failureOf(r.failure);
      return reportView(
        r.response.Transactions ?? [],
        { from: StartDate, ...(EndDate ? { to: EndDate } : {}) },
        zone,
      );
    },

    async 'reports.figures'(p) {
      // The range reads the journal along its time index: without a start it is the store's today, never
      // all time.
      const from = instant(p.from, startOfStoreDayAt(s.clock.now(), laneTimeZone(settings.value))) ?? 0;
      const to = instant(p.to, undefined);
      // `to` is the range's last millisecond (the screen sends 23:59:59.999): the journal's bound excludes.
      const until = to === undefined ? undefined : to + 1;
      const figures = await s.batchClose.figures(from, until);
      // Returns by the tender their money went back to, beside the figures (a void is in no card figure).
      return { ...figures, returns: await s.journal.returnFigures(from, until ?? Number.MAX_SAFE_INTEGER) };
    },

    'business.get': businessGet,

    async 'business.update'(p, ctx) {
      await updateSaleSettings(s, who(ctx), p);
      return businessGet();
    },
    'fraud.get': () => fraudGet(client),
    async 'fraud.set'(p, ctx) {
      const v = await fraudSet(client, p.check, p.enabled);
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
