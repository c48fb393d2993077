import { describe, expect, it } from 'vitest';
import type { SaleSettingsView, TicketView } from '../../common/bridge/contract';
import { createSaleStore } from '../../renderer/src/state/sale-store';
import { FakeBridge } from './fake-bridge';

const saleSettings = (over: Partial<SaleSettingsView> = {}): SaleSettingsView => ({
  taxRatePercent: 8.25,
  tipPrompt: false,
  tipPresetsPercent: [],
  confirmAboveCents: 100_000,
  chipFallbackAfterFailures: 1,
  ...over,
});

const ticket = (subtotalCents: number): TicketView => ({
  ticketId: 'TK1',
  status: 'open',
  subtotalCents,
  taxCents: 0,
  tipCents: 0,
  totalCents: subtotalCents,
  paidCents: 0,
  remainingCents: subtotalCents,
  tenders: [],
  openedAt: 1,
});

async function setup(over: Partial<SaleSettingsView> = {}) {
  const bridge = new FakeBridge()
    .answer('sale.settings', saleSettings(over))
    .handle('sale.open', (p) => ({ ok: true, value: ticket(p.subtotalCents) }));
  const store = createSaleStore(bridge, () => 0);
  store.getState().init();
  await store.getState().loadSettings();
  return { bridge, store };
}

describe('sale store: a scan or a slip of the finger is not a sale', () => {
  it('a ninth digit (a barcode scanner’s) clears the amount and swallows the rest of the burst', async () => {
    const { store } = await setup();
    for (const d of '01234567890') store.getState().digit(d);
    const s = store.getState();
    expect(s.subtotalCents).toBe(0);
    expect(s.scanGuard).toBe(true);
    expect(s.error).toMatch(/barcode/);
    // The scan's last digits change nothing until its Enter ends the burst.
    store.getState().digit('5');
    expect(store.getState().subtotalCents).toBe(0);
    store.getState().endScan();
    for (const d of '1234') store.getState().digit(d);
    expect(store.getState().subtotalCents).toBe(1234);
    expect(store.getState().error).toBeNull();
  });

  it('eight digits are still an amount (the keypad’s widest)', async () => {
    const { store } = await setup();
    for (const d of '99999999') store.getState().digit(d);
    expect(store.getState().subtotalCents).toBe(99_999_999);
    expect(store.getState().scanGuard).toBe(false);
  });

  it('an amount above the ceiling (tax in) waits for the cashier; a confirmed amount goes on', async () => {
    const { store } = await setup();
    // 924.00 + 8.25 % is 1,000.23: above the default 1,000.00 by what the customer pays, not the subtotal.
    for (const d of '92400') store.getState().digit(d);
    expect(store.getState().toPayCents()).toBe(100_023);
    expect(store.getState().holdForConfirmation('credit')).toBe(true);
    expect(store.getState().confirming).toBe('credit');
    store.getState().cancelConfirmation();
    expect(store.getState().confirming).toBeNull();
    expect(store.getState().holdForConfirmation('cash')).toBe(true);
    expect(store.getState().confirmAmount()).toBe('cash');
    expect(store.getState().holdForConfirmation('cash')).toBe(false);
    // A changed amount asks again.
    store.getState().digit('0');
    expect(store.getState().holdForConfirmation('credit')).toBe(true);
  });

  it('the manager’s ceiling replaces the default', async () => {
    const { store } = await setup({ confirmAboveCents: 300_000 });
    for (const d of '250000') store.getState().digit(d);
    expect(store.getState().holdForConfirmation('credit')).toBe(false);
  });

  it('a save told by the core replaces the settings at once; an older read that answers later does not undo it', async () => {
    const { bridge, store } = await setup();
    let answerOld: () => void = () => undefined;
    bridge.handle(
      'sale.settings',
      () =>
        new Promise((resolve) => {
          answerOld = () => resolve({ ok: true, value: saleSettings() });
        }),
    );
    // A read asked (a sign-in) before the manager's save, answered after it with the old figures.
    const reading = store.getState().loadSettings();
    bridge.emit('sale.settings', saleSettings({ taxRatePercent: 6.5, confirmAboveCents: 300_000 }));
    answerOld();
    await reading;
    expect(store.getState().settings).toMatchObject({ taxRatePercent: 6.5, confirmAboveCents: 300_000 });
    for (const d of '250000') store.getState().digit(d);
    expect(store.getState().holdForConfirmation('credit')).toBe(false);
  });

  it('keys typed while the ticket opens do not change the amount it opens with', async () => {
    const { bridge, store } = await setup();
    let release: () => void = () => undefined;
    bridge.handle(
      'sale.open',
      (p) =>
        new Promise((resolve) => {
          release = () => resolve({ ok: true, value: ticket(p.subtotalCents) });
        }),
    );
    for (const d of '3000') store.getState().digit(d);
    const choosing = store.getState().chooseForm('cash');
    for (const d of '5000') store.getState().digit(d);
    expect(store.getState().subtotalCents).toBe(3000);
    expect(store.getState().scanGuard).toBe(false);
    release();
    await choosing;
    expect(store.getState().phase).toBe('form');
    expect(bridge.called('sale.open')).toEqual([{ subtotalCents: 3000 }]);
  });
});
