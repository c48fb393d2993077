import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaleSettingsView } from '../../../common/bridge/contract';
import { taxOf } from '../../../renderer/src/format/money';
import { startGateway } from '../../support/gateway-harness';
import { startLane, value, type Lane } from '../helpers';

/**
 * The figures a sale screen previews with — tax rate, tip presets, the large-amount ceiling — are the
 * lane's own: read without the gateway, and told to every open window the moment a manager saves them,
 * so no window rings a sale by settings older than the core's.
 */
describe('sale settings: read locally, told to every window when saved', () => {
  let lane: Lane;
  beforeEach(async () => {
    lane = await startLane();
  });
  afterEach(async () => {
    await lane.close();
  });

  it('a manager saves in one window; the cashier’s window hears the new figures at once, the customer display does not', async () => {
    const manager = lane.core.connect();
    value(await manager.send('session.signIn', { pin: '9999' }));
    const display = lane.core.connect('customer-display');
    const heard: SaleSettingsView[] = [];
    const displayHeard: unknown[] = [];
    lane.bridge.on('sale.settings', (v) => heard.push(v));
    display.on('sale.settings', (v) => displayHeard.push(v));

    value(await manager.send('business.update', { taxRatePercent: 8.25, confirmAboveCents: 300_000 }));

    expect(heard).toEqual([
      {
        taxRatePercent: 8.25,
        tipPrompt: false,
        tipPresetsPercent: [15, 18, 20],
        confirmAboveCents: 300_000,
        chipFallbackAfterFailures: 1,
      },
    ]);
    expect(displayHeard).toEqual([]);
    // What the cashier reads is what was told, and what the core charges by.
    expect(value(await lane.bridge.send('sale.settings', {}))).toEqual(heard[0]);
    const ticket = value(await lane.bridge.send('sale.open', { subtotalCents: 1500 }));
    expect(ticket.taxCents).toBe(taxOf(1500, 8.25));
    expect(ticket.taxCents).toBe(124);
  });

  it('with the gateway gone the cashier still reads the tax the lane charges (business.get cannot)', async () => {
    const gw = await startGateway();
    const offline = await startLane({ gateway: gw });
    try {
      const manager = offline.core.connect();
      value(await manager.send('session.signIn', { pin: '9999' }));
      value(await manager.send('business.update', { taxRatePercent: 6.5 }));
      await gw.close();

      const business = await manager.send('business.get', {});
      expect(business.ok).toBe(false);
      expect(value(await offline.bridge.send('sale.settings', {})).taxRatePercent).toBe(6.5);
      // The manager's Settings form saves by sale.settings.set: the lane takes it without the gateway.
      const heard: number[] = [];
      offline.bridge.on('sale.settings', (v) => heard.push(v.taxRatePercent));
      expect(value(await manager.send('sale.settings.set', { taxRatePercent: 7 })).taxRatePercent).toBe(7);
      expect(heard).toEqual([7]);
      expect(value(await offline.bridge.send('sale.settings', {})).taxRatePercent).toBe(7);
      // A cashier may read them, not change them; a bad rate changes nothing.
      const cashier = await offline.bridge.send('sale.settings.set', { taxRatePercent: 0 });
      expect(cashier.ok ? 'saved' : cashier.error.code).toBe('forbidden');
      const bad = await manager.send('sale.settings.set', { taxRatePercent: 8.87501 });
      expect(bad.ok ? 'saved' : bad.error.code).toBe('invalid');
      expect(value(await offline.bridge.send('sale.settings', {})).taxRatePercent).toBe(7);
    } finally {
      await offline.close();
    }
  });

  it('nobody signed in reads nothing', async () => {
    const stranger = lane.core.connect();
    const r = await stranger.send('sale.settings', {});
    expect(r.ok ? 'read' : r.error.code).toBe('unauthorized');
  });
});
