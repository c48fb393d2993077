import { describe, expect, it } from 'vitest';
import type {
  CatalogItemView,
  ItemizedTicketView,
  TicketLineView,
  TicketView,
} from '../../common/bridge/contract';
import { createSaleStore } from '../../renderer/src/state/sale-store';
import { FakeBridge } from './fake-bridge';

/**
 * The sale store's ticket of lines over a fake bridge: what it asks the core, in what order, and what it
 * leaves on screen. The pricing is the core's (these fakes answer fixed figures); the store never prices.
 */

const item = (over: Partial<CatalogItemView> = {}): CatalogItemView => ({
  id: 7,
  sku: 'GR-CHOC-BAR',
  name: 'Chocolate bar',
  priceCents: 179,
  taxClassId: 1,
  categoryId: null,
  barcodes: ['96385074'],
  openPrice: false,
  active: true,
  quickKey: null,
  embeddedCode: null,
  sold: false,
  updatedAt: 0,
  ...over,
});

const line = (lineId: string, name: string, cents: number): TicketLineView => ({
  lineId,
  kind: 'item',
  name,
  quantity: 1,
  unitPriceCents: cents,
  taxClass: { code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
  priced: {
    grossCents: cents,
    lineDiscountCents: 0,
    ticketDiscountCents: 0,
    amountCents: cents,
    taxCents: 0,
    netCents: cents,
    totalCents: cents,
  },
});

function itemized(lines: TicketLineView[]): ItemizedTicketView {
  const sum = lines.reduce((s, l) => s + l.priced.amountCents, 0);
  return {
    lines,
    pricing: {
      itemsCents: sum,
      lineDiscountCents: 0,
      ticketDiscountCents: 0,
      subtotalCents: sum,
      taxes: [],
      addedTaxCents: 0,
      includedTaxCents: 0,
      taxCents: 0,
      netCents: sum,
      totalCents: sum,
    },
  };
}

/** A core that keeps one ticket of lines: each add appends a line named after what was sent. */
function laneWithCatalog(catalog: Record<string, CatalogItemView | undefined>) {
  let seq = 0;
  let current: TicketView | undefined;
  const view = (lines: TicketLineView[]): TicketView => {
    const it = itemized(lines);
    const total = it.pricing.totalCents;
    current = {
      ticketId: current?.ticketId ?? `T-${++seq}`,
      status: 'open',
      subtotalCents: total,
      taxCents: 0,
      tipCents: 0,
      totalCents: total,
      paidCents: 0,
      remainingCents: total,
      tenders: [],
      openedAt: 1,
      itemized: it,
    };
    return current;
  };
  const lines = (): TicketLineView[] => current?.itemized?.lines ?? [];
  const bridge = new FakeBridge()
    .handle('ticket.open', () => {
      current = undefined;
      return { ok: true, value: view([]) };
    })
    .handle('catalog.lookup', (p) => {
      const found = catalog[p.barcode ?? ''];
      if (!found)
        return { ok: false, error: { code: 'not-found', message: `No item has the barcode ${p.barcode}.` } };
      return {
        ok: true,
        value: {
          item: found,
          taxClass: { id: 1, code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' },
          ...(p.barcode?.startsWith('2') ? { priceEmbedded: { itemCode: '04711', priceCents: 499 } } : {}),
        },
      };
    })
    .handle('ticket.addScan', (p) => {
      const found = catalog[p.data];
      if (!found) return { ok: false, error: { code: 'not-found', message: 'No item.' } };
      return {
        ok: true,
        value: view([...lines(), line(`L${lines().length + 1}`, found.name, found.priceCents)]),
      };
    })
    .handle('ticket.addItem', (p) => ({
      ok: true,
      value: view([...lines(), line(`L${lines().length + 1}`, `item ${p.itemId}`, p.unitPriceCents ?? 100)]),
    }))
    .handle('ticket.addOpenItem', (p) => ({
      ok: true,
      value: view([...lines(), line(`L${lines().length + 1}`, p.name ?? 'Open item', p.priceCents)]),
    }))
    .handle('ticket.setDiscount', (p) =>
      p.approval
        ? { ok: true, value: view(lines()) }
        : {
            ok: false,
            error: {
              code: 'forbidden',
              message: 'A manager must approve a ticket discount of 15%: a cashier may give up to 10%.',
            },
          },
    )
    .handle('sale.abandon', () => ({ ok: true, value: { ...(current as TicketView), status: 'abandoned' } }));
  const store = createSaleStore(bridge, () => 0);
  return { bridge, store, lines };
}

const valid = (data: string) => ({ data, validated: true });

describe('sale store: the ticket of lines', () => {
  it('a scan is looked up, then opens a ticket of lines and is added; the amount typed becomes its first line', async () => {
    const { bridge, store, lines } = laneWithCatalog({ '96385074': item() });
    for (const d of '250') store.getState().digit(d);
    const step = await store.getState().readScan(valid('96385074'));
    expect(step).toEqual({ kind: 'ring', change: { kind: 'scan', data: '96385074' } });
    if (step.kind !== 'ring') throw new Error('not rung');
    const r = await store.getState().changeTicket(step.change);
    expect(r.ok).toBe(true);
    expect(bridge.calls.map((c) => c.command)).toEqual([
      'catalog.lookup',
      'ticket.open',
      'ticket.addOpenItem',
      'ticket.addScan',
    ]);
    expect(bridge.called('ticket.addOpenItem')).toEqual([{ ticketId: 'T-1', priceCents: 250 }]);
    expect(lines().map((l) => [l.name, l.unitPriceCents])).toEqual([
      ['Open item', 250],
      ['Chocolate bar', 179],
    ]);
    // The screen shows the core's ticket; the keypad's amount is now a line, not an amount.
    expect(store.getState().ticket?.itemized?.lines).toHaveLength(2);
    expect(store.getState().subtotalCents).toBe(0);
    expect(store.getState().scanNote).toEqual({ tone: 'ok', text: 'Added Chocolate bar, $1.79.' });
  });

  it('Add as item: the keypad’s amount becomes the ticket’s open item, once; with nothing typed, nothing opens', async () => {
    const { bridge, store, lines } = laneWithCatalog({});
    const none = await store.getState().changeTicket({ kind: 'keypadAmount' });
    expect(none.ok ? 'opened' : none.error.message).toBe('Type the amount first.');
    expect(bridge.calls).toEqual([]);
    for (const d of '1250') store.getState().digit(d);
    const r = await store.getState().changeTicket({ kind: 'keypadAmount' });
    expect(r.ok).toBe(true);
    expect(bridge.calls.map((c) => c.command)).toEqual(['ticket.open', 'ticket.addOpenItem']);
    expect(lines().map((l) => [l.name, l.unitPriceCents])).toEqual([['Open item', 1250]]);
    expect(store.getState().subtotalCents).toBe(0);
    expect(store.getState().scanNote).toEqual({ tone: 'ok', text: 'Added Open item, $12.50.' });
  });

  it('a misread is never looked up: the scanner’s words are shown', async () => {
    const { bridge, store } = laneWithCatalog({});
    const step = await store.getState().readScan({
      data: '036000241458',
      validated: false,
      problem: 'the check digit does not match: a misread, scan it again',
    });
    expect(step).toEqual({ kind: 'refused' });
    expect(bridge.calls).toEqual([]);
    expect(store.getState().scanNote).toEqual({
      tone: 'bad',
      text: 'Barcode 036000241458: the check digit does not match: a misread, scan it again.',
    });
    expect(store.getState().ticket).toBeNull();
  });

  it('an unknown code opens no ticket and says so in the core’s words', async () => {
    const { bridge, store } = laneWithCatalog({});
    expect(await store.getState().readScan(valid('TP-LOYALTY-00042'))).toEqual({
      kind: 'unknown',
      barcode: 'TP-LOYALTY-00042',
    });
    expect(bridge.called('ticket.open')).toEqual([]);
    expect(store.getState().scanNote).toEqual({
      tone: 'unknown',
      text: 'No item has the barcode TP-LOYALTY-00042.',
      barcode: 'TP-LOYALTY-00042',
    });
  });

  it('an open-price item asks for its price first; a price label rings at the label’s price', async () => {
    const wrap = item({ id: 11, name: 'Gift wrap', openPrice: true, priceCents: 0 });
    const ham = item({ id: 12, name: 'Deli ham', openPrice: true, priceCents: 0 });
    const { store } = laneWithCatalog({ '0000000000017': wrap, '204711004998': ham });
    expect(await store.getState().readScan(valid('0000000000017'))).toEqual({ kind: 'price', item: wrap });
    expect(await store.getState().readScan(valid('204711004998'))).toEqual({
      kind: 'ring',
      change: { kind: 'scan', data: '204711004998' },
    });
    expect(store.getState().pickItem(wrap)).toEqual({ kind: 'price', item: wrap });
    expect(store.getState().pickItem(item())).toEqual({ kind: 'ring', change: { kind: 'item', itemId: 7 } });
    expect(store.getState().ticket).toBeNull();
  });

  it('a burst of scans opens one ticket and adds them in the order scanned', async () => {
    const { bridge, store, lines } = laneWithCatalog({ a: item({ name: 'A' }), b: item({ name: 'B' }) });
    await Promise.all([
      store.getState().changeTicket({ kind: 'scan', data: 'a' }),
      store.getState().changeTicket({ kind: 'scan', data: 'b' }),
      store.getState().changeTicket({ kind: 'scan', data: 'a' }),
    ]);
    expect(bridge.called('ticket.open')).toHaveLength(1);
    expect(lines().map((l) => l.name)).toEqual(['A', 'B', 'A']);
  });

  it('a discount above the limit comes back for the manager’s PIN, untouched, and goes again with it', async () => {
    const { bridge, store } = laneWithCatalog({ a: item() });
    await store.getState().changeTicket({ kind: 'scan', data: 'a' });
    const discount = { kind: 'percent', percent: 15 } as const;
    const first = await store.getState().changeTicket({ kind: 'ticketDiscount', discount });
    expect(first.ok ? 'changed' : first.error).toEqual({
      code: 'forbidden',
      message: 'A manager must approve a ticket discount of 15%: a cashier may give up to 10%.',
    });
    // The reason is the PIN dialog's; the sale screen's alert stays empty.
    expect(store.getState().error).toBeNull();
    const again = await store
      .getState()
      .changeTicket({ kind: 'ticketDiscount', discount }, { managerPin: '9999' });
    expect(again.ok).toBe(true);
    expect(bridge.called('ticket.setDiscount')).toEqual([
      { ticketId: 'T-1', discount },
      { ticketId: 'T-1', discount, approval: { managerPin: '9999' } },
    ]);
  });

  it('a change refused for another reason is shown and changes nothing', async () => {
    const { bridge, store } = laneWithCatalog({ a: item() });
    bridge.handle('ticket.setQuantity', () => ({
      ok: false,
      error: { code: 'invalid', message: 'A quantity is a whole number from 1 to 9999.' },
    }));
    await store.getState().changeTicket({ kind: 'scan', data: 'a' });
    const before = store.getState().ticket;
    const r = await store.getState().changeTicket({ kind: 'quantity', lineId: 'L1', quantity: 1 });
    expect(r.ok).toBe(false);
    expect(store.getState().error).toBe('A quantity is a whole number from 1 to 9999.');
    expect(store.getState().ticket).toBe(before);
  });

  it('an amount ticket nothing was paid on gives way to a ticket of lines, its amount the first line', async () => {
    const { bridge, store, lines } = laneWithCatalog({ a: item() });
    bridge.handle('sale.open', (p) => ({
      ok: true,
      value: {
        ticketId: 'T-amount',
        status: 'open',
        subtotalCents: p.subtotalCents,
        taxCents: 0,
        tipCents: 0,
        totalCents: p.subtotalCents,
        paidCents: 0,
        remainingCents: p.subtotalCents,
        tenders: [],
        openedAt: 1,
      },
    }));
    for (const d of '1200') store.getState().digit(d);
    await store.getState().chooseForm('cash');
    store.getState().closeForm();
    expect(store.getState().ticket?.ticketId).toBe('T-amount');
    await store.getState().changeTicket({ kind: 'scan', data: 'a' });
    expect(bridge.called('sale.abandon')).toEqual([{ ticketId: 'T-amount' }]);
    expect(lines().map((l) => [l.name, l.unitPriceCents])).toEqual([
      ['Open item', 1200],
      ['Chocolate bar', 179],
    ]);
  });

  it('after a paid sale a scan starts the next one; during a payment nothing is added', async () => {
    const { bridge, store } = laneWithCatalog({ a: item() });
    store.setState({ phase: 'paying' });
    expect(await store.getState().readScan(valid('a'))).toEqual({ kind: 'refused' });
    expect(store.getState().scanNote?.text).toBe(
      'Finish or cancel the payment first: the item was not added.',
    );
    expect(bridge.calls).toEqual([]);
    const r = await store.getState().changeTicket({ kind: 'scan', data: 'a' });
    expect(r.ok).toBe(false);
    expect(bridge.calls).toEqual([]);
    store.setState({ phase: 'done' });
    expect(await store.getState().readScan(valid('a'))).toEqual({
      kind: 'ring',
      change: { kind: 'scan', data: 'a' },
    });
    expect(store.getState().phase).toBe('entry');
  });

  it('a ticket of lines above the lane’s ceiling is confirmed before a tender, once', async () => {
    const { store } = laneWithCatalog({});
    store.setState({
      settings: {
        taxRatePercent: 0,
        tipPrompt: false,
        tipPresetsPercent: [],
        confirmAboveCents: 1000,
        chipFallbackAfterFailures: 1,
      },
    });
    await store.getState().changeTicket({ kind: 'openItem', priceCents: 2500 });
    expect(store.getState().holdForConfirmation('credit')).toBe(true);
    expect(store.getState().confirmAmount()).toBe('credit');
    expect(store.getState().holdForConfirmation('credit')).toBe(false);
    // A line added after the confirmation changes the total: asked again.
    await store.getState().changeTicket({ kind: 'openItem', priceCents: 100 });
    expect(store.getState().holdForConfirmation('cash')).toBe(true);
  });
});
