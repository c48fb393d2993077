import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeConnection } from '../../../electron/bridge/connection';
import { eventually, openTill, startLane, value, type Lane } from '../helpers';

/**
 * Money as the core records, prints and states it (issue 18), through the bridge on a lane with the
 * sandbox gateway and simulated devices: change, partial approvals, cash back, refund and void receipts,
 * the store's time zone, and voids refused once settled — before a manager is asked.
 */

const VISA = '4111111111111111';
const PARTIAL = '4000000000000341'; // holds 20.00: a card-present sale above that is approved for 20.00

async function printed(bridge: BridgeConnection): Promise<string[]> {
  return value(await bridge.send('simulator.state', {})).receiptPrinter.receipts.map((l) => l.join('\n'));
}

/** The first receipt printed after the first `after` that holds `text` (sale receipts print meanwhile). */
async function paperWith(bridge: BridgeConnection, after: number, text: string): Promise<string> {
  let found: string | undefined;
  await eventually(async () => {
    found = (await printed(bridge)).slice(after).find((r) => r.includes(text));
    return found !== undefined;
  });
  return found ?? '';
}

async function drawerKicks(bridge: BridgeConnection): Promise<number> {
  return value(await bridge.send('simulator.state', {})).receiptPrinter.drawerKicks;
}

/** Swipes `pan` once the tender waits for a card. */
async function swipeWhenAsked(bridge: BridgeConnection, ticketId: string, pan: string): Promise<void> {
  let waiting = false;
  const off = bridge.on('sale.progress', (p) => {
    if (p.ticketId === ticketId && p.step === 'waiting-for-card') waiting = true;
  });
  try {
    await eventually(() => waiting);
  } finally {
    off();
  }
  value(await bridge.send('simulator.swipe', { pan }));
}

/** A credit sale swiped with `pan`; answers the ticket and the tender's outcome. */
async function swipeSale(bridge: BridgeConnection, subtotalCents: number, pan: string) {
  const t = value(await bridge.send('sale.open', { subtotalCents }));
  const pay = bridge.send('sale.pay', { ticketId: t.ticketId, tender: { kind: 'credit', entry: 'swipe' } });
  await swipeWhenAsked(bridge, t.ticketId, pan);
  return { ticket: t, outcome: value(await pay) };
}

describe('money recorded, printed and stated by the core', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane();
    // Cash and cash back go through the till in the drawer.
    await openTill(lane.bridge);
  });
  afterAll(async () => {
    await lane.close();
  });

  it('cash: change beyond the largest bill over the amount due is refused unless confirmed; nothing is taken meanwhile', async () => {
    const { bridge } = lane;
    const t = value(await bridge.send('sale.open', { subtotalCents: 3000 }));
    const before = (await lane.core.journal.list({})).length;
    const refused = await bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'cash', tenderedCents: 30_001_000 },
    });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('invalid');
    expect(refused.ok ? '' : refused.error.message).toContain('299980.00');
    expect((await lane.core.journal.list({})).length).toBe(before);
    expect(value(await bridge.send('sale.get', { ticketId: t.ticketId })).tenders).toEqual([]);
    // $100 over is ordinary; a confirmed slip is the cashier's to answer for.
    const ok = value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'cash', tenderedCents: 13_000 },
      }),
    );
    expect(ok.tender.changeCents).toBe(10_000);
    const t2 = value(await bridge.send('sale.open', { subtotalCents: 3000 }));
    const confirmed = value(
      await bridge.send('sale.pay', {
        ticketId: t2.ticketId,
        tender: { kind: 'cash', tenderedCents: 20_000, confirmLargeChange: true },
      }),
    );
    expect(confirmed.tender.changeCents).toBe(17_000);
  });

  it('a partial approval is listed, searched and refunded at the amount approved', async () => {
    const { bridge } = lane;
    const { outcome } = await swipeSale(bridge, 3500, PARTIAL);
    expect(outcome.tender.status).toBe('partial');
    const srn = outcome.tender.serviceReferenceNumber as string;
    const found = value(await bridge.send('transactions.list', { amountCents: 2000, last4: '0341' }));
    const row = found.find((r) => r.serviceReferenceNumber === srn);
    expect(row?.approvedCents).toBe(2000);
    expect(row?.amountCents).toBe(3500);
    const over = await bridge.send('transactions.refund', {
      serviceReferenceNumber: srn,
      amountCents: 2001,
      approval: { managerPin: '9999' },
    });
    expect(over.ok ? 'ok' : over.error.message).toContain('At most 20.00');
    value(
      await bridge.send('sale.abandon', {
        ticketId: outcome.ticket.ticketId,
        approval: { managerPin: '9999' },
      }),
    );
  });

  it('debit cash back: the card is charged both, the receipt says so, and the drawer opens', async () => {
    const { bridge } = lane;
    const kicks = await drawerKicks(bridge);
    const receipts = (await printed(bridge)).length;
    const t = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    const pay = bridge.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'debit', entry: 'swipe', cashBackCents: 2000 },
    });
    await swipeWhenAsked(bridge, t.ticketId, VISA);
    await eventually(async () => value(await bridge.send('simulator.state', {})).pinPad.awaitingPin);
    value(await bridge.send('simulator.typePin', { pin: '1234' }));
    const out = value(await pay);
    expect(out.tender.status).toBe('approved');
    expect(out.ticket.status).toBe('paid');
    await eventually(async () => (await printed(bridge)).length > receipts);
    const receipt = (await printed(bridge)).at(-1) ?? '';
    expect(receipt).toMatch(/DEBIT APPROVED\s+10\.00/);
    expect(receipt).toMatch(/CASH BACK\s+20\.00/);
    expect(receipt).toMatch(/CARD CHARGED\s+30\.00/);
    await eventually(async () => (await drawerKicks(bridge)) === kicks + 1);
    const row = (await lane.core.journal.list({})).find((r) => r.operation === 'debit');
    expect(row).toMatchObject({ amountCents: 1000, cashBackCents: 2000, approvedCents: 1000 });
  });

  it('a card-only sale leaves the drawer shut; a signed one prints a merchant copy with a signature line', async () => {
    const { bridge } = lane;
    const kicks = await drawerKicks(bridge);
    const receipts = (await printed(bridge)).length;
    const { outcome, ticket } = await swipeSale(bridge, 6000, VISA);
    expect(outcome.signatureRequired).toBe(true);
    value(await bridge.send('simulator.sign', {}));
    value(
      await bridge.send('sale.signature', {
        ticketId: ticket.ticketId,
        tenderId: outcome.tender.tenderId,
        signature: { source: 'pad' },
      }),
    );
    await eventually(async () => (await printed(bridge)).length >= receipts + 2);
    const [merchant, customer] = (await printed(bridge)).slice(receipts);
    expect(merchant).toContain('MERCHANT COPY');
    expect(merchant).toMatch(/X_{10,}/);
    expect(merchant).toContain('CARDHOLDER SIGNATURE');
    expect(customer).toContain('CUSTOMER COPY');
    expect(customer).not.toMatch(/X_{10,}/);
    expect(await drawerKicks(bridge)).toBe(kicks);
  });

  it('refunds and voids print a customer receipt; a voided ticket’s receipt reads VOIDED', async () => {
    const { bridge } = lane;
    const { outcome: sale } = await swipeSale(bridge, 2200, VISA);
    let receipts = (await printed(bridge)).length;
    const refund = value(
      await bridge.send('transactions.refund', {
        serviceReferenceNumber: sale.tender.serviceReferenceNumber as string,
        amountCents: 500,
        approval: { managerPin: '9999' },
      }),
    );
    const refundPaper = await paperWith(bridge, receipts, 'REFUNDED');
    expect(refundPaper).toMatch(/REFUNDED\s+5\.00/);
    expect(refundPaper).toContain('****1111');
    expect(refundPaper).not.toContain('411111');
    expect(refundPaper).toContain('CUSTOMER COPY');
    const shown = value(
      await bridge.send('receipt.transaction.get', {
        userTransactionNumber: refund.transaction.userTransactionNumber,
      }),
    );
    expect(shown.text).toMatch(/ORIGINAL AMOUNT\s+22\.00/);

    const { outcome: other, ticket } = await swipeSale(bridge, 2300, VISA);
    receipts = (await printed(bridge)).length;
    const voided = value(
      await bridge.send('transactions.void', {
        serviceReferenceNumber: other.tender.serviceReferenceNumber as string,
        approval: { managerPin: '9999' },
      }),
    );
    expect(await paperWith(bridge, receipts, 'VOIDED')).toMatch(/VOIDED\s+23\.00/);
    const again = value(await bridge.send('receipt.get', { ticketId: ticket.ticketId }));
    expect(again.text).toMatch(/CREDIT VOIDED\s+23\.00/);
    expect(again.text).not.toContain('APPROVED');
    // A sale's number is not a refund's or a void's.
    const wrong = await bridge.send('receipt.transaction.get', {
      userTransactionNumber: other.tender.userTransactionNumber as string,
    });
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe('not-found');
    expect(voided.transaction.operation).toBe('void');
  });

  it('times are the store’s: the merchant’s zone from the gateway, on the status and the receipt', async () => {
    const { bridge } = lane;
    await eventually(
      async () => value(await bridge.send('terminal.status', {})).timeZone === 'America/New_York',
    );
    const { ticket } = await swipeSale(bridge, 1111, VISA);
    const paid = value(await bridge.send('sale.get', { ticketId: ticket.ticketId }));
    const receipt = value(await bridge.send('receipt.get', { ticketId: ticket.ticketId })).text;
    const ny = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: 'numeric',
      minute: '2-digit',
    }).formatToParts(paid.closedAt ?? 0);
    const hm = `${ny.find((p) => p.type === 'hour')?.value}:${ny.find((p) => p.type === 'minute')?.value}`;
    expect(receipt).toContain(hm);
    expect(receipt).toMatch(/\bE[SD]T\b/);
    expect(receipt).not.toContain('UTC');
  });

  it('a settled payment is marked settled, and its void is refused before a manager is asked', async () => {
    const { bridge } = lane;
    const { outcome } = await swipeSale(bridge, 1212, VISA);
    const srn = outcome.tender.serviceReferenceNumber as string;
    const mgr = lane.core.connect();
    value(await mgr.send('session.signIn', { pin: '9999' }));
    value(await mgr.send('batch.settle', {}));
    mgr.close();
    const row = value(await bridge.send('transactions.list', {})).find(
      (r) => r.serviceReferenceNumber === srn,
    );
    expect(row?.settled).toBe(true);
    // No approval sent: a void that cannot happen says so, instead of asking for the manager's PIN.
    const refused = await bridge.send('transactions.void', { serviceReferenceNumber: srn });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('conflict');
    expect(refused.ok ? '' : refused.error.message).toMatch(/refund it/);
  });
});
