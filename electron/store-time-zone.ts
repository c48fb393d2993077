import { isTimeZone, storeTimeZone } from '../common/store-time';
import type { GatewayClient } from './gateway-client/client';
import type { Settings, SettingsShape } from './settings';
import type { Logger } from './util/log';

/**
 * The lane's time zone for every time a person reads (common/store-time.ts): the merchant's, which the
 * gateway keeps with the merchant account and schedules its batch close and reports by, or the machine's
 * until the gateway has said.
 */

export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function laneTimeZone(s: Pick<SettingsShape, 'merchantTimeZone'>): string {
  return storeTimeZone(s.merchantTimeZone, machineTimeZone());
}

/**
 * Asks the gateway for the merchant's zone (its automatic batch close answers with the zone it closes in)
 * and keeps it, so receipts printed while the gateway is unreachable still read the store's time. A
 * gateway that does not answer leaves the last known zone.
 */
export async function learnMerchantTimeZone(
  client: GatewayClient,
  settings: Settings,
  log: Logger,
): Promise<void> {
  const r = await client.autoCloseGet();
  if (!r.ok) return;
  const zone = r.response.TimeZone;
  if (!isTimeZone(zone) || zone === settings.value.merchantTimeZone) return;
  await settings.set('merchantTimeZone', zone);
  log.log('info', 'core', `store time zone: ${zone} (the merchant's, from the gateway)`);
}
