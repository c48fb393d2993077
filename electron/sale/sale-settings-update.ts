import type { BusinessSettingsUpdate, SaleSettingsView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { isExactRate } from '../../common/percent';
import type { Actor } from '../roles/roles';
import { saleSettingsView, type SaleSettings, type Settings } from '../settings';

/**
 * A manager's change to the lane's sale settings: checked, stored, told to every window, audited. It is
 * the lane's own business, so it never waits on the gateway — a lane that lost its link still takes a new
 * tax rate, and says so (`business.update` asks the gateway afterwards only for its own answer).
 */
export async function updateSaleSettings(
  deps: {
    settings: Settings;
    emit: (event: 'sale.settings', view: SaleSettingsView) => void;
    audit: (who: Actor, action: 'settings-changed', detail: string) => Promise<void>;
  },
  who: Actor,
  p: BusinessSettingsUpdate,
): Promise<SaleSettingsView> {
  // The schema bounds each field (common/bridge/merchant.ts); a rate also has at most four decimals, so
  // the tax the screen previews and the tax the core charges agree (common/percent.ts).
  if (p.taxRatePercent !== undefined && !isExactRate(p.taxRatePercent))
    throw new BridgeFailure('invalid', 'The tax rate is 0 to 30 %, with at most four decimals.');
  if (p.preauthTipMaxPercent !== undefined && !isExactRate(p.preauthTipMaxPercent))
    throw new BridgeFailure('invalid', 'The pre-authorization tip share is 0 to 100 %.');
  const sale: SaleSettings = { ...deps.settings.value.sale };
  if (p.taxRatePercent !== undefined) sale.taxRatePercent = p.taxRatePercent;
  if (p.tipPrompt !== undefined) sale.tipPrompt = p.tipPrompt;
  if (p.tipPresetsPercent !== undefined) sale.tipPresetsPercent = [...p.tipPresetsPercent];
  if (p.preauthTipMaxPercent !== undefined) sale.preauthTipMaxPercent = p.preauthTipMaxPercent;
  if (p.chipFallbackAfterFailures !== undefined) sale.chipFallbackAfterFailures = p.chipFallbackAfterFailures;
  if (p.confirmAboveCents !== undefined) sale.confirmAboveCents = p.confirmAboveCents;
  await deps.settings.set('sale', sale);
  const view = saleSettingsView(sale);
  // Every window's sale screen previews tax and asks about large amounts by these, starting now.
  deps.emit('sale.settings', view);
  await deps.audit(
    who,
    'settings-changed',
    `sale settings: tax ${sale.taxRatePercent}%, tip prompt ${String(sale.tipPrompt)}, pre-auth tip up to ${sale.preauthTipMaxPercent}% without a manager, chip fallback after ${sale.chipFallbackAfterFailures} failed read(s), confirm amounts above ${sale.confirmAboveCents} cents`,
  );
  return view;
}
