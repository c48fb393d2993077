import { describe, expect, it } from 'vitest';
import type { CustomerDisplayView } from '../../common/bridge/contract';
import { chooseLanguage } from '../../renderer/src/i18n/locale';
import { createCustomerStore } from '../../renderer/src/screens/customer/customer-store';
import { FakeBridge } from './fake-bridge';

const view = (over: Partial<CustomerDisplayView> = {}): CustomerDisplayView => ({
  phase: 'ticket',
  storeName: 'CORNER SHOP',
  displays: 1,
  version: 1,
  ticket: {
    ticketId: 'TK1',
    status: 'open',
    lines: [{ lineId: 'L1', description: 'Sale', amountCents: 2000 }],
    subtotalCents: 2000,
    taxCents: 0,
    tipCents: 0,
    totalCents: 2000,
    paidCents: 0,
    remainingCents: 2000,
  },
  ...over,
});

const tipAsk = {
  kind: 'tip' as const,
  ticketId: 'TK1',
  baseCents: 2000,
  options: [{ percent: 15, tipCents: 300 }],
  maxCustomCents: 2000,
};

describe('the customer display’s store', () => {
  it('keeps the newest view: an older one arriving late does not replace it', async () => {
    const bridge = new FakeBridge().answer('customer.view', view({ version: 5 }));
    const store = createCustomerStore(bridge);
    const off = store.getState().init();
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().view?.version).toBe(5);
    bridge.emit('customer.updated', view({ version: 3, phase: 'idle' }));
    expect(store.getState().view?.phase).toBe('ticket');
    bridge.emit('customer.updated', view({ version: 6, phase: 'thanks' }));
    expect(store.getState().view?.phase).toBe('thanks');
    off();
  });

  it('answers only what the view asks, for the ticket it asks about', async () => {
    const bridge = new FakeBridge().handle('customer.tip', (p) => ({
      ok: true,
      value: view({
        version: 2,
        tipChoice: {
          by: 'customer',
          kind: 'custom',
          tipCents: p.choice.kind === 'custom' ? p.choice.tipCents : 0,
        },
      }),
    }));
    const store = createCustomerStore(bridge);
    // Nothing asked: nothing sent.
    store.setState({ view: view() });
    expect(await store.getState().tip({ kind: 'none' })).toBe(false);
    expect(await store.getState().receipt('print')).toBe(false);
    expect(bridge.calls).toEqual([]);
    store.setState({ view: view({ ask: tipAsk }) });
    expect(await store.getState().tip({ kind: 'custom', tipCents: 375 })).toBe(true);
    expect(bridge.called('customer.tip')).toEqual([
      { ticketId: 'TK1', choice: { kind: 'custom', tipCents: 375 } },
    ]);
    expect(store.getState().view?.tipChoice?.tipCents).toBe(375);
  });

  it('a refused answer because the question ended (the cashier skipped) reads what is asked now', async () => {
    const bridge = new FakeBridge()
      .handle('customer.tip', () => ({
        ok: false,
        error: { code: 'conflict', message: 'No tip is being asked.' },
      }))
      .answer(
        'customer.view',
        view({ version: 4, tipChoice: { by: 'cashier', kind: 'skipped', tipCents: 0 } }),
      );
    const store = createCustomerStore(bridge);
    store.setState({ view: view({ ask: tipAsk }) });
    expect(await store.getState().tip({ kind: 'preset', percent: 15 })).toBe(false);
    expect(store.getState().refused?.code).toBe('conflict');
    expect(store.getState().view?.ask).toBeUndefined();
    expect(store.getState().view?.tipChoice?.kind).toBe('skipped');
  });

  it('sends the typed email address with the receipt choice', async () => {
    const bridge = new FakeBridge().handle('customer.receipt', () => ({
      ok: true,
      value: view({
        version: 9,
        phase: 'thanks',
        receiptChoice: { choice: 'email', result: 'email-queued' },
      }),
    }));
    const store = createCustomerStore(bridge);
    store.setState({
      view: view({ phase: 'thanks', ask: { kind: 'receipt', ticketId: 'TK1', email: true } }),
    });
    expect(await store.getState().receipt('email', 'ana@example.com')).toBe(true);
    expect(bridge.called('customer.receipt')).toEqual([
      { ticketId: 'TK1', choice: 'email', email: 'ana@example.com' },
    ]);
  });

  it('sends the language the customer chose at the display, so the emailed receipt is in it', async () => {
    const bridge = new FakeBridge().handle('customer.receipt', () => ({
      ok: true,
      value: view({
        version: 9,
        phase: 'thanks',
        receiptChoice: { choice: 'email', result: 'email-queued' },
      }),
    }));
    const store = createCustomerStore(bridge);
    store.setState({
      view: view({ phase: 'thanks', ask: { kind: 'receipt', ticketId: 'TK1', email: true } }),
    });
    chooseLanguage('es');
    try {
      expect(await store.getState().receipt('email', 'ana@example.com')).toBe(true);
    } finally {
      chooseLanguage(null);
    }
    expect(bridge.called('customer.receipt')).toEqual([
      { ticketId: 'TK1', choice: 'email', email: 'ana@example.com', language: 'es' },
    ]);
  });
});
