import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionReportRecord } from '../../../gateway/contract/report';
import { DeclineCode } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { startFaultProxy, passThrough, type Fault, type FaultProxy } from '../../fault/fault-proxy';
import { eventually, sandboxGatewayDefaults, startLane, value, type Lane } from '../helpers';

/**
 * A sale whose answer is lost while the cashier's ticket is open: the terminal asks GetTransaction before
 * it reverses (the card networks' inquiry-then-reverse order). Real HTTP through a fault proxy that drops
 * or holds what a store's network would.
 */

const keyed = (cardNumber: string) => ({
  kind: 'credit' as const,
  entry: 'keyed' as const,
  keyed: { cardNumber, expiry: '1230' },
});

async function gatewayRecord(gw: TestGateway, utn: string): Promise<TransactionReportRecord | undefined> {
  const r = await gw.post('/api/Report/GetReportByMerchant', merchant1);
  return (r.body.Transactions as TransactionReportRecord[]).find((t) => t.UserTransactionNumber === utn);
}

describe('the inquiry before a reversal', () => {
  let gw: TestGateway;
  let proxy: FaultProxy;
  let lane: Lane | undefined;
  const seen: string[] = [];
  /** Faults by the operation's last path segment (Sale, GetTransaction, DoReversal…). */
  const faults = (by: Record<string, { fault: Fault; delayMs?: number }>) =>
    proxy.setPolicy((path) => {
      const op = path.split('?')[0]?.split('/').pop() ?? '';
      seen.push(op);
      const f = by[op];
      return f ? { fault: f.fault, delayMs: f.delayMs ?? 0 } : { fault: 'pass', delayMs: 0 };
    });

  beforeAll(async () => {
    gw = await startGateway({ sandboxSlowMs: 600 });
    proxy = await startFaultProxy(gw.baseUrl);
  });
  afterEach(async () => {
    await lane?.close();
    lane = undefined;
    seen.length = 0;
    proxy.setPolicy(passThrough);
    await proxy.idle(5_000);
  });
  afterAll(async () => {
    await proxy.close();
    await gw.close();
  });

  const open = async (otherMs = 1_500) => {
    lane = await startLane({
      gateway: gw,
      core: {
        gateway: sandboxGatewayDefaults(proxy.url),
        timeouts: { saleMs: 500, otherMs },
        reversalBackoff: { initialMs: 100, maxMs: 400, multiplier: 2, jitter: 0 },
      },
    });
    return lane;
  };
  const pay = async (l: Lane, card: string) => {
    const t = value(await l.bridge.send('sale.open', { subtotalCents: 2_345, taxCents: 0 }));
    return value(
      await l.bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed(card), allowDuplicate: true }),
    );
  };

  it('an approval whose answer was lost completes the ticket: no second charge, no reversal', async () => {
    const l = await open();
    faults({ Sale: { fault: 'drop-response' } });
    const out = await pay(l, '4111111111111111');
    expect(out.tender.status).toBe('approved');
    expect(out.tender.approvedCents).toBe(2_345);
    expect(out.tender.authCode).toMatch(/\S/);
    expect(out.ticket.status).toBe('paid');
    const utn = out.tender.userTransactionNumber as string;
    const row = await l.core.journal.get(utn);
    expect(row).toMatchObject({ state: 'approved', approvedCents: 2_345, gatewayCode: ResponseCode.Success });
    expect(row?.message).toMatch(/confirmed by GetTransaction/);
    expect(row?.authCode).toBe(out.tender.authCode);
    expect(await l.core.journal.pendingReversals()).toEqual([]);
    expect((await l.core.journal.recentReversals(50)).map((r) => r.utn)).not.toContain(utn);
    expect(seen.filter((op) => op === 'Sale')).toHaveLength(1);
    expect(seen).toContain('GetTransaction');
    expect(seen).not.toContain('DoReversal');
    expect(await gatewayRecord(gw, utn)).toMatchObject({ Status: 'approved', TotalAmount: 23.45 });
  });

  it('a decline whose answer was lost is a decline with its reason, not a reversal', async () => {
    const l = await open();
    faults({ Sale: { fault: 'drop-response' } });
    const out = await pay(l, '4000000000009995');
    expect(out.tender).toMatchObject({
      status: 'declined',
      gatewayCode: ResponseCode.Declined,
      declineCode: DeclineCode.InsufficientFunds,
    });
    expect(out.tender.message).toMatch(/insufficient funds/);
    expect(out.ticket.status).toBe('open');
    const utn = out.tender.userTransactionNumber as string;
    expect((await l.core.journal.get(utn))?.state).toBe('declined');
    expect(await l.core.journal.pendingReversals()).toEqual([]);
    expect(seen).not.toContain('DoReversal');
  });

  it('a sale the gateway has not seen yet is reversed as today, and the late original is refused', async () => {
    const l = await open();
    // The sale reaches the gateway only after the terminal gave up and asked: not found, so reverse.
    faults({ Sale: { fault: 'delay-request', delayMs: 1_500 } });
    const out = await pay(l, '4111111111111111');
    expect(out.tender.status).toBe('unknown');
    const utn = out.tender.userTransactionNumber as string;
    expect(await l.core.reversalsDrained(10_000)).toBe(true);
    expect(await proxy.idle(5_000)).toBe(true);
    await eventually(async () => (await l.core.journal.get(utn))?.state === 'reversed', 5_000);
    expect(seen.indexOf('GetTransaction')).toBeLessThan(seen.indexOf('DoReversal'));
    // Blocked before it arrived: the late original charged nothing.
    expect((await gatewayRecord(gw, utn))?.Status).not.toBe('approved');
  });

  it('an inquiry that gets no answer either falls back to the reversal', async () => {
    const l = await open();
    faults({ Sale: { fault: 'drop-response' }, GetTransaction: { fault: 'drop-response' } });
    const out = await pay(l, '5555555555554444');
    expect(out.tender.status).toBe('unknown');
    const utn = out.tender.userTransactionNumber as string;
    proxy.setPolicy(passThrough);
    expect(await l.core.reversalsDrained(10_000)).toBe(true);
    await eventually(async () => (await l.core.journal.get(utn))?.state === 'reversed', 5_000);
    await eventually(async () => (await gatewayRecord(gw, utn))?.Status === 'reversed', 5_000);
  });

  it('a payment still at the processor when asked is reversed as soon as it is answered', async () => {
    const l = await open();
    // The slow sandbox card: the terminal's 500 ms pass while the processor takes 600 ms.
    faults({});
    const out = await pay(l, '4000000000000119');
    expect(out.tender.status).toBe('unknown');
    const utn = out.tender.userTransactionNumber as string;
    expect(seen).toContain('GetTransaction');
    expect(await l.core.reversalsDrained(10_000)).toBe(true);
    await eventually(async () => (await gatewayRecord(gw, utn))?.Status === 'reversed', 5_000);
  });

  it('keeps the row write-ahead while it asks: a crash during the inquiry recovers it as unknown', async () => {
    const l = await open(4_000);
    faults({ Sale: { fault: 'drop-response' }, GetTransaction: { fault: 'delay-request', delayMs: 1_200 } });
    const t = value(await l.bridge.send('sale.open', { subtotalCents: 1_111, taxCents: 0 }));
    const paying = l.bridge.send('sale.pay', { ticketId: t.ticketId, tender: keyed('4242424242424242') });
    await eventually(() => seen.includes('GetTransaction'), 5_000);
    // While the inquiry is out, the entry is still `sending` and nothing is queued: a crash now would
    // leave exactly what recoverInFlight turns into unknown + reversal (journal.test proves that part).
    const sending = await l.core.journal.list({ states: ['sending'] });
    expect(sending).toHaveLength(1);
    expect(await l.core.journal.pendingReversals()).toEqual([]);
    const out = value(await paying);
    expect(out.tender.status).toBe('approved');
    expect(out.tender.userTransactionNumber).toBe(sending[0]?.utn);
  });
});
