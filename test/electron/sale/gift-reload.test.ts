import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { openTill, startLane, value, type Lane } from '../helpers';

const CARD = '6035710000000018'; // active with 100.00 (docs/gateway-tenders.md)
const keyed = { entry: 'keyed' as const, keyed: { cardNumber: CARD } };

/**
 * Gift card value is money: a reload is a ticket line paid by a tender (the ticket opened for it, paid in
 * full), or a manager's decision; either way it is audited.
 */
describe('gift card reloads need a payment or a manager', () => {
  let gw: TestGateway;
  let lane: Lane;
  const balance = async (): Promise<number> =>
    value(await lane.bridge.send('gift.balance', keyed)).balanceCents;
  const reloadRows = async (): Promise<number> =>
    value(await lane.bridge.send('transactions.list', {})).filter((t) => t.operation === 'gift-reload')
      .length;
  const manager = async () => {
    const m = lane.core.connect();
    value(await m.send('session.signIn', { pin: '9999' }));
    return m;
  };

  beforeAll(async () => {
    gw = await startGateway();
    lane = await startLane({ gateway: gw });
    // Loads paid in cash go through the till in the drawer.
    await openTill(lane.bridge);
  });
  afterAll(async () => {
    await lane.close();
    await gw.close();
  });

  it('a cashier cannot load value with no payment and no manager: nothing is sent', async () => {
    const before = await balance();
    const r = await lane.bridge.send('gift.reload', { amountCents: 5000, ...keyed });
    expect(r.ok ? 'ok' : r.error.code).toBe('forbidden');
    const wrong = await lane.bridge.send('gift.reload', {
      amountCents: 5000,
      ...keyed,
      approval: { managerPin: '1111' },
    });
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe('forbidden');
    expect(await balance()).toBe(before);
    expect(await reloadRows()).toBe(0);
  });

  it('a manager may load without a payment; the audit says who approved it', async () => {
    const before = await balance();
    const t = value(
      await lane.bridge.send('gift.reload', {
        amountCents: 1500,
        ...keyed,
        approval: { managerPin: '9999' },
      }),
    );
    expect(t).toMatchObject({
      operation: 'gift-reload',
      state: 'approved',
      amountCents: 1500,
      last4: '0018',
    });
    expect(await balance()).toBe(before + 1500);
    const audit = value(await (await manager()).send('audit.list', { limit: 20 }));
    const entry = audit.find((a) => a.action === 'gift-reload');
    expect(entry).toMatchObject({ role: 'cashier', approvedBy: 'manager' });
    expect(entry?.detail).toContain('$15.00');
    expect(entry?.detail).toMatch(/no payment/);
    expect(JSON.stringify(audit)).not.toContain(CARD);
  });

  it('a reload ticket paid in full loads its amount once; the ticket cannot load twice', async () => {
    const before = await balance();
    const open = value(await lane.bridge.send('sale.open', { subtotalCents: 2500, purpose: 'gift-reload' }));
    expect(open).toMatchObject({ purpose: 'gift-reload', taxCents: 0, totalCents: 2500 });
    // Not paid yet: nothing to load.
    const early = await lane.bridge.send('gift.reload', {
      amountCents: 2500,
      ticketId: open.ticketId,
      ...keyed,
    });
    expect(early.ok ? 'ok' : early.error.code).toBe('conflict');
    const paid = value(
      await lane.bridge.send('sale.pay', {
        ticketId: open.ticketId,
        tender: { kind: 'cash', tenderedCents: 3000 },
      }),
    );
    expect(paid.ticket.status).toBe('paid');
    // The amount is the ticket's.
    const more = await lane.bridge.send('gift.reload', {
      amountCents: 2600,
      ticketId: open.ticketId,
      ...keyed,
    });
    expect(more.ok ? 'ok' : more.error.code).toBe('invalid');

    // Two windows pressing Reload at once: one load.
    const [a, b] = await Promise.all([
      lane.bridge.send('gift.reload', { amountCents: 2500, ticketId: open.ticketId, ...keyed }),
      lane.core.connect().send('gift.reload', { amountCents: 2500, ticketId: open.ticketId, ...keyed }),
    ]);
    expect([a, b].filter((r) => r.ok)).toHaveLength(1);
    const again = await lane.bridge.send('gift.reload', {
      amountCents: 2500,
      ticketId: open.ticketId,
      ...keyed,
    });
    expect(again.ok ? 'ok' : again.error.code).toBe('conflict');
    expect(await balance()).toBe(before + 2500);
    const ticket = value(await lane.bridge.send('sale.get', { ticketId: open.ticketId }));
    expect(ticket.giftReload).toMatchObject({ state: 'loaded', amountCents: 2500, last4: '0018' });

    const audit = value(await (await manager()).send('audit.list', { limit: 20 }));
    const entry = audit.find((x) => x.action === 'gift-reload' && x.detail.includes(open.ticketId));
    expect(entry).toMatchObject({ role: 'cashier' });
    expect(entry?.approvedBy).toBeUndefined();
  });

  it('only a ticket opened for the reload and paid by a real payment counts', async () => {
    // An ordinary sale's payment is not a reload's.
    const sale = value(await lane.bridge.send('sale.open', { subtotalCents: 700, taxCents: 0 }));
    value(
      await lane.bridge.send('sale.pay', {
        ticketId: sale.ticketId,
        tender: { kind: 'cash', tenderedCents: 700 },
      }),
    );
    const r = await lane.bridge.send('gift.reload', { amountCents: 700, ticketId: sale.ticketId, ...keyed });
    expect(r.ok ? 'ok' : r.error.code).toBe('conflict');

    // A reload carries no tax and no tip, and a hold, or gift value, does not pay for it.
    const taxed = await lane.bridge.send('sale.open', {
      subtotalCents: 1000,
      taxCents: 80,
      purpose: 'gift-reload',
    });
    expect(taxed.ok ? 'ok' : taxed.error.code).toBe('invalid');
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: 1000, purpose: 'gift-reload' }));
    for (const tender of [
      { kind: 'preauth', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
      { kind: 'gift', entry: 'keyed', keyed: { cardNumber: '6035710000000026' } },
    ] as const) {
      const p = await lane.bridge.send('sale.pay', { ticketId: t.ticketId, tender });
      expect(p.ok ? 'ok' : p.error.code, tender.kind).toBe('invalid');
    }
    const tipped = await lane.bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'cash', tenderedCents: 2000 },
      tipCents: 100,
    });
    expect(tipped.ok ? 'ok' : tipped.error.code).toBe('invalid');
    const tip = await lane.bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: 100 });
    expect(tip.ok ? 'ok' : tip.error.code).toBe('invalid');
    expect(await reloadRows()).toBe(2);
  });
});
