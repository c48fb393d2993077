import { describe, expect, it } from 'vitest';
import type { CustomerDisplayView, TicketView } from '../../common/bridge/contract';
import { createSaleStore } from '../../renderer/src/state/sale-store';
import { FakeBridge } from './fake-bridge';

/** The cashier's sale store with a customer display attached: the customer chooses the tip first. */

const ticket = (over: Partial<TicketView> = {}): TicketView => ({
  ticketId: 'TK1',
  status: 'open',
  subtotalCents: 2000,
  taxCents: 0,
  tipCents: 0,
  totalCents: 2000,
  paidCents: 0,
  remainingCents: 2000,
  tenders: [],
  openedAt: 1,
  ...over,
});

const customer = (displays: number): CustomerDisplayView => ({
  phase: 'idle',
  storeName: 'S',
  displays,
  version: 1,
});

async function setup(displays: number, askOutcome: 'chosen' | 'cancelled' = 'chosen') {
  const bridge = new FakeBridge()
    .answer('sale.settings', {
      confirmAboveCents: 100_000,
      chipFallbackAfterFailures: 1,
      taxRatePercent: 0,
      tipPrompt: true,
      tipPresetsPercent: [15, 20],
    })
    .answer('customerDisplay.get', customer(displays))
    .handle('sale.open', (p) => ({ ok: true, value: ticket({ subtotalCents: p.subtotalCents }) }))
    .answer('customerDisplay.askTip', {
      outcome: askOutcome,
      ticket: ticket({ tipCents: askOutcome === 'chosen' ? 375 : 0, totalCents: 2375, remainingCents: 2375 }),
    })
    .answer('sale.get', ticket())
    .handle('sale.pay', () => ({
      ok: true,
      value: {
        ticket: ticket({
          status: 'paid',
          tipCents: 375,
          totalCents: 2375,
          paidCents: 2375,
          remainingCents: 0,
        }),
        tender: {
          tenderId: 'TD1',
          kind: 'credit',
          status: 'approved',
          requestedCents: 2375,
          approvedCents: 2375,
          tipCents: 0,
          cashBackCents: 0,
          at: 2,
        },
        needsAnotherTender: false,
        signatureRequired: false,
      },
    }));
  const store = createSaleStore(bridge, () => 0);
  store.getState().init();
  await new Promise((r) => setTimeout(r, 0));
  for (const d of '2000') store.getState().digit(d);
  return { bridge, store };
}

describe('sale store with a customer display', () => {
  it('a card tender asks the customer for the tip first, then pays; no tip goes with the ticket', async () => {
    const { bridge, store } = await setup(1);
    expect(store.getState().tipFromCustomer()).toBe(true);
    store.getState().setTip(500); // a radio chosen before the display attached: not sent
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(bridge.called('sale.open')).toEqual([{ subtotalCents: 2000 }]);
    const order = bridge.calls
      .map((c) => c.command)
      .filter((c) => c !== 'sale.settings')
      .filter((c) => c.startsWith('sale.') || c.startsWith('customerDisplay.askTip'));
    expect(order).toEqual(['sale.open', 'customerDisplay.askTip', 'sale.pay']);
    expect(store.getState().phase).toBe('done');
  });

  it('the cashier cancels the question: back to the tender choice, nothing paid', async () => {
    const { bridge, store } = await setup(1, 'cancelled');
    await store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(bridge.called('sale.pay')).toEqual([]);
    expect(store.getState().phase).toBe('entry');
  });

  it('cash asks no tip; without a display the cashier’s tip goes with the ticket as before', async () => {
    const withDisplay = await setup(1);
    await withDisplay.store.getState().pay({ kind: 'cash', tenderedCents: 2000 });
    expect(withDisplay.bridge.called('customerDisplay.askTip')).toEqual([]);
    const without = await setup(0);
    expect(without.store.getState().tipFromCustomer()).toBe(false);
    without.store.getState().setTip(300);
    await without.store.getState().pay({ kind: 'credit', entry: 'present' });
    expect(without.bridge.called('sale.open')).toEqual([{ subtotalCents: 2000, tipCents: 300 }]);
    expect(without.bridge.called('customerDisplay.askTip')).toEqual([]);
  });
});
