import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { startLane, value, type Lane } from '../helpers';

/**
 * A tip added when a pre-authorization is completed is money the cardholder never saw at the hold: above a
 * share of the hold (20 % by default, the gateway's bound mirrored on the terminal) a manager approves it.
 */
describe('pre-authorization completion tips', () => {
  let gw: TestGateway;
  let lane: Lane;
  let n = 0;
  const hold = async (cents: number): Promise<{ srn: string; utn: string }> => {
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: cents, taxCents: 0 }));
    n += 1;
    const held = value(
      await lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: {
          kind: 'preauth',
          entry: 'keyed',
          keyed: { cardNumber: n % 2 ? '5555555555554444' : '4242424242424242', expiry: '1230' },
        },
        allowDuplicate: true,
      }),
    );
    expect(held.tender.status).toBe('approved');
    return {
      srn: held.tender.serviceReferenceNumber as string,
      utn: held.tender.userTransactionNumber as string,
    };
  };
  const completions = async (srn: string) =>
    value(await lane.bridge.send('transactions.list', {})).filter(
      (t) => t.operation === 'preauth-complete' && t.originalServiceReferenceNumber === srn,
    );

  beforeAll(async () => {
    gw = await startGateway();
    lane = await startLane({ gateway: gw });
  });
  afterAll(async () => {
    await lane.close();
    await gw.close();
  });

  it('a cashier adds up to 20 % of the hold; the completion is audited', async () => {
    const { srn, utn } = await hold(2000);
    const done = value(
      await lane.bridge.send('preauth.complete', {
        serviceReferenceNumber: srn,
        amountCents: 2000,
        tipCents: 400,
      }),
    );
    expect(done).toMatchObject({ state: 'approved', operation: 'preauth-complete', tipCents: 400 });
    const m = lane.core.connect();
    value(await m.send('session.signIn', { pin: '9999' }));
    const audit = value(await m.send('audit.list', { limit: 20 }));
    const entry = audit.find((a) => a.action === 'preauth-complete');
    expect(entry).toMatchObject({ role: 'cashier' });
    expect(entry?.detail).toContain(`${done.userTransactionNumber} completion of hold ${utn}`);
    expect(entry?.detail).toContain('tip $4.00');
    expect(entry?.approvedBy).toBeUndefined();
  });

  it('one cent above the bound needs a manager; without one nothing is sent', async () => {
    const { srn, utn } = await hold(2000);
    const r = await lane.bridge.send('preauth.complete', {
      serviceReferenceNumber: srn,
      amountCents: 2000,
      tipCents: 401,
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('forbidden');
    const wrong = await lane.bridge.send('preauth.complete', {
      serviceReferenceNumber: srn,
      amountCents: 2000,
      tipCents: 5000,
      approval: { managerPin: '1111' },
    });
    expect(wrong.ok ? 'ok' : wrong.error.code).toBe('forbidden');
    expect(await completions(srn)).toEqual([]);

    // With the manager's PIN the terminal lets it go; the gateway applies its own bound to what arrives.
    const approved = await lane.bridge.send('preauth.complete', {
      serviceReferenceNumber: srn,
      amountCents: 2000,
      tipCents: 401,
      approval: { managerPin: '9999' },
    });
    expect(approved.ok ? 'sent' : approved.error.code).not.toBe('forbidden');
    expect(await completions(srn)).toHaveLength(1);
    const m = lane.core.connect();
    value(await m.send('session.signIn', { pin: '9999' }));
    const audit = value(await m.send('audit.list', { limit: 20 }));
    expect(
      audit.find((a) => a.action.startsWith('preauth-complete') && a.detail.includes(utn)),
    ).toMatchObject({
      role: 'cashier',
      approvedBy: 'manager',
    });
  });

  it('a hold this lane does not know: any tip needs a manager', async () => {
    const r = await lane.bridge.send('preauth.complete', {
      serviceReferenceNumber: 'S-not-on-this-lane',
      amountCents: 1000,
      tipCents: 1,
    });
    expect(r.ok ? 'ok' : r.error.code).toBe('forbidden');
  });
});
