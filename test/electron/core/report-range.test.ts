import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOfStoreDay, startOfStoreDay, storeDay } from '../../../common/store-time';
import { startLoopbackProxy, type LoopbackProxy } from '../../support/loopback-proxy';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { sandboxGatewayDefaults, startLane, value, type Lane } from '../helpers';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The Reports screen's gateway rows: the terminal asks GetReportByMerchant for the report's range (the
 * store's day boundaries), not for the merchant's whole history. A real gateway on loopback whose clock
 * made part of the merchant's history days ago, and a recording proxy between it and the lane.
 */
describe('reports.transactions asks the gateway for the range only', () => {
  let offsetMs = 0;
  let gw: TestGateway;
  let proxy: LoopbackProxy;
  let lane: Lane;
  const asked: Record<string, unknown>[] = [];

  const keyedSale = async (cents: number): Promise<string> => {
    const t = value(await lane.bridge.send('sale.open', { subtotalCents: cents, taxCents: 0 }));
    const paid = value(
      await lane.bridge.send('sale.pay', {
        ticketId: t.ticketId,
        tender: { kind: 'credit', entry: 'keyed', keyed: { cardNumber: '4111111111111111', expiry: '1230' } },
        allowDuplicate: true,
      }),
    );
    expect(paid.tender.status).toBe('approved');
    return paid.tender.userTransactionNumber ?? '';
  };

  beforeAll(async () => {
    gw = await startGateway({
      sandboxSlowMs: 0,
      clock: { now: () => new Date(Date.now() + offsetMs) },
    });
    proxy = await startLoopbackProxy(gw.baseUrl, (req, body) => {
      if (req.url?.endsWith('/GetReportByMerchant'))
        asked.push(JSON.parse(body.toString('utf8')) as Record<string, unknown>);
      return {};
    });
    lane = await startLane({
      gateway: gw,
      signIn: '9999',
      core: { gateway: sandboxGatewayDefaults(proxy.url) },
    });
  }, 60_000);
  afterAll(async () => {
    await lane?.close();
    await proxy?.close();
    await gw?.close();
  });

  it('sends the store day as StartDate/EndDate and shows only that day’s rows', async () => {
    // History outside the range: two sales the gateway made three days ago.
    offsetMs = -3 * DAY_MS;
    const old = [await keyedSale(1111), await keyedSale(2222)];
    offsetMs = 0;
    const today = await keyedSale(3333);

    const zone = value(await lane.bridge.send('terminal.status', {})).timeZone ?? 'UTC';
    const day = storeDay(Date.now(), zone);
    // What the Reports screen sends for a day (ReportsScreen's dayRange).
    const from = new Date(startOfStoreDay(day, zone)).toISOString();
    const to = new Date(endOfStoreDay(day, zone)).toISOString();
    asked.length = 0;
    const report = value(await lane.bridge.send('reports.transactions', { from, to }));

    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ StartDate: from, EndDate: to });
    const numbers = report.rows.map((r) => r.userTransactionNumber);
    expect(numbers).toContain(today);
    for (const n of old) expect(numbers).not.toContain(n);
    for (const r of report.rows) expect(storeDay(Date.parse(r.madeOn), zone)).toBe(day);
  }, 60_000);

  it('with no range, asks for the store’s today, never the whole history', async () => {
    asked.length = 0;
    const zone = value(await lane.bridge.send('terminal.status', {})).timeZone ?? 'UTC';
    const report = value(await lane.bridge.send('reports.transactions', {}));
    expect(asked).toHaveLength(1);
    const start = asked[0]?.StartDate;
    expect(typeof start).toBe('string');
    expect(Date.parse(String(start))).toBe(startOfStoreDay(storeDay(Date.now(), zone), zone));
    expect(report.rows.length).toBeGreaterThan(0);
    for (const r of report.rows)
      expect(Date.parse(r.madeOn)).toBeGreaterThanOrEqual(Date.parse(String(start)));
  }, 60_000);

  it('a range that is not two instants is refused before anything is asked', async () => {
    asked.length = 0;
    const bad = await lane.bridge.send('reports.transactions', { from: 'yesterday' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid');
    expect(asked).toHaveLength(0);
  });
});
