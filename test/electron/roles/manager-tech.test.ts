import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_HTTP_REFUSED } from '../../../common/gateway-address';
import { taxOf } from '../../../renderer/src/format/money';
import { startLane, value, type Lane } from '../helpers';

describe('manager passthroughs and tech tools', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane({ signIn: '9999' });
  });
  afterAll(async () => {
    await lane.close();
  });

  it('automatic batch close: enroll, change, remove', async () => {
    const { bridge } = lane;
    expect(value(await bridge.send('batch.autoClose.set', { time: '18:30' }))).toMatchObject({
      enrolled: true,
      time: '18:30',
    });
    expect(value(await bridge.send('batch.autoClose.set', { time: '19:15' }))).toMatchObject({
      enrolled: true,
      time: '19:15',
    });
    expect(value(await bridge.send('batch.autoClose.get', {}))).toMatchObject({
      enrolled: true,
      time: '19:15',
    });
    expect(value(await bridge.send('batch.autoClose.remove', {})).enrolled).toBe(false);
    const bad = await bridge.send('batch.autoClose.set', { time: '25:00' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
  });

  it('fraud options, payment links, business settings and reports', async () => {
    const { bridge } = lane;
    expect(value(await bridge.send('fraud.set', { check: 'cvv', enabled: true })).enabled).toContain('cvv');
    expect(value(await bridge.send('fraud.get', {})).enabled).toContain('cvv');
    expect(value(await bridge.send('fraud.set', { check: 'cvv', enabled: false })).enabled).not.toContain(
      'cvv',
    );

    const link = value(
      await bridge.send('paymentLinks.create', { amountCents: 1250, description: 'Deposit' }),
    );
    expect(link.amountCents).toBe(1250);
    expect(link.link).toMatch(/^http/);
    expect(value(await bridge.send('paymentLinks.list', {})).some((l) => l.id === link.id)).toBe(true);
    expect(value(await bridge.send('paymentLinks.disable', { id: link.id })).active).toBe(false);

    value(await bridge.send('business.update', { taxRatePercent: 8.25 }));
    const business = value(await bridge.send('business.get', {}));
    expect(business.taxRatePercent).toBe(8.25);
    const t = value(await bridge.send('sale.open', { subtotalCents: 1000 }));
    expect(t.taxCents).toBe(83);
    value(
      await bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
        allowDuplicate: true,
      }),
    );
    const report = value(await bridge.send('reports.transactions', {}));
    expect(report.rows.length).toBeGreaterThan(0);
    expect(report.salesByHour).toHaveLength(24);
    expect(report.csv.split('\n')[0]).toContain('serviceReferenceNumber');
  });

  it('tax: the core charges what the screen previews (30.00 at 9.95 % is 2.99, half up on 298.5 cents)', async () => {
    const { bridge } = lane;
    value(await bridge.send('business.update', { taxRatePercent: 9.95 }));
    try {
      expect(value(await bridge.send('sale.open', { subtotalCents: 3000 })).taxCents).toBe(taxOf(3000, 9.95));
      expect(value(await bridge.send('sale.open', { subtotalCents: 3000 })).taxCents).toBe(299);
      expect(value(await bridge.send('sale.open', { subtotalCents: 2999 })).taxCents).toBe(298);
      // A rate the rule cannot apply exactly is refused, not rounded somewhere else.
      const bad = await bridge.send('business.update', { taxRatePercent: 8.87501 });
      expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
    } finally {
      value(await bridge.send('business.update', { taxRatePercent: 0 }));
    }
  });

  it('devices: list, configuration, test actions, frame recorder, diagnostics without card data', async () => {
    const tech = lane.core.connect();
    value(await tech.send('session.signIn', { pin: '7777' }));
    const devices = value(await tech.send('devices.list', {}));
    expect(devices.map((d) => [d.role, d.state])).toEqual([
      ['cardReader', 'connected'],
      ['pinPad', 'connected'],
      ['contactless', 'connected'],
      ['signaturePad', 'connected'],
      ['receiptPrinter', 'connected'],
      ['scanner', 'connected'],
      ['poleDisplay', 'connected'],
    ]);
    expect(
      value(await tech.send('devices.test', { role: 'receiptPrinter', action: 'print-test-receipt' })).ok,
    ).toBe(true);
    expect(value(await tech.send('devices.test', { role: 'contactless', action: 'ping' })).ok).toBe(true);
    const bad = await tech.send('devices.config.set', {
      config: {
        ...value(await tech.send('devices.config.get', {})),
        pinPad: { kind: 'hid', vendorId: 1, productId: 2 },
      },
    });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');

    expect(value(await tech.send('devices.recorder.set', { enabled: true })).enabled).toBe(true);
    const cashier = lane.core.connect();
    value(await cashier.send('session.signIn', { pin: '1111' }));
    const t = value(await cashier.send('sale.open', { subtotalCents: 500 }));
    const pay = cashier.send('sale.pay', {
      ticketId: t.ticketId,
      tender: { kind: 'credit', entry: 'swipe' },
    });
    await new Promise((r) => setTimeout(r, 100));
    value(await cashier.send('simulator.swipe', { pan: '4242424242424242' }));
    expect(value(await pay).tender.status).toBe('approved');
    await new Promise((r) => setTimeout(r, 200));
    const frames = value(await tech.send('devices.recorder.get', { limit: 500 }));
    expect(frames.frames.some((f) => f.role === 'cardReader' && f.direction === 'in')).toBe(true);
    expect(JSON.stringify(frames)).not.toContain('4242424242424242');

    const bundle = value(await tech.send('diagnostics.bundle', {}));
    expect(bundle.fileName).toMatch(/^tillpoint-diagnostics-L1-/);
    expect(bundle.json).not.toContain('4242424242424242');
    expect(bundle.json).not.toContain('sandbox-pass');
    expect(bundle.json).not.toContain('sealedPassword');
    expect(JSON.parse(bundle.json)).toHaveProperty('journal.byState');
    tech.close();
    cashier.close();
  });

  it('gateway connection: test, change timeouts, password is write-only', async () => {
    const tech = lane.core.connect();
    value(await tech.send('session.signIn', { pin: '7777' }));
    expect(value(await tech.send('gateway.test', {})).ok).toBe(true);
    const g = value(await tech.send('gateway.update', { timeouts: { saleMs: 20_000 } }));
    expect(g.timeouts.saleMs).toBe(20_000);
    expect(JSON.stringify(g)).not.toContain('sandbox-pass');
    const bad = await tech.send('gateway.update', { baseUrl: 'ftp://x' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
    // A remote gateway over plain http would carry PANs, PIN blocks and the password in clear.
    const before = value(await tech.send('gateway.get', {}));
    for (const baseUrl of [
      'http://gateway.example.com',
      'http://10.0.0.5:8080',
      'http://127.0.0.1@evil.example',
    ]) {
      const clear = await tech.send('gateway.update', { baseUrl, password: 'new-secret' });
      expect(clear.ok ? 'ok' : clear.error, baseUrl).toEqual({
        code: 'invalid',
        message: PLAIN_HTTP_REFUSED,
      });
    }
    // Refused means unchanged: same address, still the embedded sandbox.
    expect(value(await tech.send('gateway.get', {}))).toEqual(before);
    tech.close();
  });
});
