import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

describe('sale flows against the sandbox gateway with simulated devices', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane();
    // Cash and cash back go through the till in the drawer.
    await openTill(lane.bridge);
  });
  afterAll(async () => {
    await lane.close();
  });

  it('keyed credit sale is approved and journaled without the PAN', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 1234 }));
    const out = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: {
          kind: 'credit',
          entry: 'keyed',
          keyed: { cardNumber: '4111111111111111', expiry: '1230', cvn: '123' },
        },
      }),
    );
    expect(out.tender.status).toBe('approved');
    expect(out.tender.approvedCents).toBe(1234);
    expect(out.ticket.status).toBe('paid');
    expect(out.tender.card?.maskedPan).toBe('411111******1111');
    const rows = await lane.core.journal.list({});
    expect(JSON.stringify(rows)).not.toContain('4111111111111111');
    expect(rows[0]?.state).toBe('approved');
  });

  it('swiped sale follows the device prompts', async () => {
    const { bridge } = lane;
    const prompts: string[] = [];
    const off = bridge.on('sale.progress', (p) => prompts.push(p.prompt));
    const t = value(await bridge.send('sale.open', { subtotalCents: 2500 }));
    const pay = bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'present' },
    });
    await eventually(() => prompts.includes('Insert, tap or swipe'));
    value(await bridge.send('simulator.swipe', { pan: '5555555555554444' }));
    const out = value(await pay);
    off();
    expect(out.tender.status).toBe('approved');
    expect(out.tender.card?.last4).toBe('4444');
    expect(out.tender.card?.entry).toBe('swipe');
  });

  it('chip sale with a signature card asks for a signature', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 7500 }));
    const pay = bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'credit', entry: 'chip' } });
    await eventually(async () => value(await bridge.send('simulator.state', {})).chip.waitingForCard);
    value(await bridge.send('simulator.insert', {}));
    const out = value(await pay);
    expect(out.tender.status).toBe('approved');
    expect(out.signatureRequired).toBe(true);
    expect(out.ticket.status).toBe('open');
    value(await bridge.send('simulator.sign', {}));
    const tender = value(
      await bridge.send('sale.signature', {
        ticketId: t.ticketId,
        tenderId: out.tender.tenderId,
        signature: { source: 'pad' },
      }),
    );
    expect(tender.signature?.captured).toBe(true);
    expect(value(await bridge.send('sale.get', { ticketId: t.ticketId })).status).toBe('paid');
  });

  it('debit sale with PIN and cash back', async () => {
    const { bridge } = lane;
    const prompts: string[] = [];
    const off = bridge.on('sale.progress', (p) => prompts.push(p.prompt));
    const t = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const pay = bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'debit', entry: 'swipe', cashBackCents: 2000 },
    });
    await eventually(() => prompts.includes('Swipe card'));
    value(await bridge.send('simulator.swipe', {}));
    await eventually(async () => value(await bridge.send('simulator.state', {})).pinPad.awaitingPin);
    expect(prompts).toContain('Customer entering PIN');
    value(await bridge.send('simulator.typePin', { pin: '1234' }));
    const out = value(await pay);
    off();
    expect(out.tender.status).toBe('approved');
    expect(out.tender.cashBackCents).toBe(2000);
  });

  it('declined card', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 999 }));
    const out = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4000000000000002', expiry: '1230' } },
      }),
    );
    expect(out.tender.status).toBe('declined');
    expect(out.needsAnotherTender).toBe(true);
    const cash = value(
      await bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'cash', tenderedCents: 1000 } }),
    );
    expect(cash.tender.changeCents).toBe(1);
    expect(cash.ticket.status).toBe('paid');
  });

  it('refund needs a manager PIN and lands in the audit log', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 4321 }));
    const out = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4242424242424242', expiry: '1230' } },
      }),
    );
    const srn = out.tender.serviceReferenceNumber as string;
    const refused = await bridge.send('transactions.refund', {
      serviceReferenceNumber: srn,
      amountCents: 1000,
    });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('forbidden');
    const wrong = await bridge.send('transactions.refund', {
      serviceReferenceNumber: srn,
      amountCents: 1000,
      approval: { managerPin: '0000' },
    });
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe('forbidden');
    const r = value(
      await bridge.send('transactions.refund', {
        serviceReferenceNumber: srn,
        amountCents: 1000,
        approval: { managerPin: '9999' },
      }),
    );
    expect(r.remainingRefundableCents).toBe(3321);
    const mgr = lane.core.connect();
    value(await mgr.send('session.signIn', { pin: '9999' }));
    const audit = value(await mgr.send('audit.list', {}));
    expect(audit.some((a) => a.action === 'refund' && a.approvedBy === 'manager')).toBe(true);
    mgr.close();
  });
});
