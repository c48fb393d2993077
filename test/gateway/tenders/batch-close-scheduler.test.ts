import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonedInstant } from '../../../gateway/domain/local-time';
import { createBatchCloseScheduler, type BatchCloseScheduler } from '../../../gateway/schedulers/batch-close';
import {
  keyedSale,
  ManualClock,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';

const admin = (gw: TestGateway, op: string, body: Json = {}, envelope: Json = merchant1) =>
  gw.post(`/api/Administration/${op}`, { ...envelope, ...body });

describe('automatic batch close: the scheduler', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-close-'));
  // Monday 10 March 2025, 16:00 in New York (EDT since 9 March), 15:00 in Chicago.
  const clock = new ManualClock(new Date('2025-03-10T20:00:00Z'));
  let gw: TestGateway;

  const start = (backgroundTasks = false) => startGateway({ dataDir, clock, backgroundTasks });
  const task = (g: TestGateway) => g.gateway.tasks.get('batch-close') as BatchCloseScheduler;
  const settlements = async (g: TestGateway, envelope: Json = merchant1) =>
    (await g.post('/api/Report/GetSettlementsByDate', envelope)).body.SettlementReports as Json[];
  const unsettled = async (g: TestGateway, envelope: Json = merchant1) =>
    (await g.post('/api/Report/GetUnsettledTransactions', envelope)).body.UnsettledTransactions as Json[];

  beforeAll(async () => {
    gw = await start();
  });
  afterAll(async () => {
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes each merchant at 17:00 in its own zone, once', async () => {
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 12.34 }));
    await gw.post('/api/Transactions/Sale', keyedSale({ ...merchant2, Amount: 5 }));
    expect(await task(gw).runDue()).toEqual([]);

    clock.set(new Date('2025-03-10T21:00:30Z'));
    const runs = await task(gw).runDue();
    expect(runs).toEqual([
      expect.objectContaining({ mid: 1001, localDate: '2025-03-10', amountCents: 1234 }),
    ]);
    expect(await settlements(gw)).toEqual([expect.objectContaining({ AmountSettled: 12.34 })]);
    expect(await unsettled(gw)).toHaveLength(0);
    expect(await unsettled(gw, merchant2)).toHaveLength(1);

    // Later the same day: a new sale stays in the open batch; no second close.
    clock.set(new Date('2025-03-10T21:30:00Z'));
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 7 }));
    expect(await task(gw).runDue()).toEqual([]);
    expect(await unsettled(gw)).toHaveLength(1);

    clock.set(new Date('2025-03-10T22:00:30Z'));
    expect(await task(gw).runDue()).toEqual([expect.objectContaining({ mid: 1002, amountCents: 500 })]);
  });

  it('does not run twice across a restart on the same data folder, and runs again the next day', async () => {
    await gw.close();
    clock.set(new Date('2025-03-10T23:00:00Z'));
    // Started with its timers: the first pass runs at once and must find nothing due.
    gw = await start(true);
    await task(gw).runOnce();
    expect(await settlements(gw)).toHaveLength(1);
    expect(await task(gw).runDue()).toEqual([]);
    await gw.close();

    clock.set(new Date('2025-03-11T21:00:05Z'));
    gw = await start(true);
    await task(gw).runOnce();
    const after = await settlements(gw);
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({ AmountSettled: 7 });
    await gw.close();
    gw = await start(true);
    await task(gw).runOnce();
    expect(await settlements(gw)).toHaveLength(2);
    // The tests below drive the passes themselves.
    await task(gw).stop();
  });

  it('never double-closes when two schedulers (two processes) race for the same day', async () => {
    clock.set(new Date('2025-03-12T20:30:00Z'));
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 3 }));
    clock.set(new Date('2025-03-12T21:00:10Z'));
    const other = createBatchCloseScheduler(gw.gateway.services);
    const [a, b] = await Promise.all([task(gw).runDue(), other.runDue()]);
    expect([...a, ...b].filter((r) => r.mid === 1001)).toHaveLength(1);
    expect(await settlements(gw)).toHaveLength(3);
  });

  it('follows the schedule: a moved time, a removed merchant, an enrollment after the time has passed', async () => {
    clock.set(new Date('2025-03-13T14:00:00Z'));
    await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '18:30' });
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 1 }));
    clock.set(new Date('2025-03-13T21:00:10Z'));
    expect((await task(gw).runDue()).some((r) => r.mid === 1001)).toBe(false);
    clock.set(new Date('2025-03-13T22:30:10Z'));
    expect((await task(gw).runDue()).some((r) => r.mid === 1001)).toBe(true);

    await admin(gw, 'RemoveMerchantFromAutomaticCloseBatch');
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 2 }));
    clock.set(new Date('2025-03-14T22:30:10Z'));
    expect((await task(gw).runDue()).some((r) => r.mid === 1001)).toBe(false);
    expect(await unsettled(gw)).toHaveLength(1);

    // Enrolled at 18:40 for 18:35: today's time passed before the enrollment, so the first close is tomorrow.
    clock.set(new Date('2025-03-14T22:40:00Z'));
    await admin(gw, 'SetAutomaticBatchClose', { Time: '18:35' });
    expect((await task(gw).runDue()).some((r) => r.mid === 1001)).toBe(false);
    clock.set(new Date('2025-03-15T22:35:01Z'));
    expect((await task(gw).runDue()).some((r) => r.mid === 1001)).toBe(true);
    expect(await unsettled(gw)).toHaveLength(0);
  });

  it('runs on its own timer once started', async () => {
    await gw.post('/api/Transactions/Sale', keyedSale({ Amount: 4 }));
    const timed = createBatchCloseScheduler(gw.gateway.services, { intervalMs: 10 });
    timed.start();
    try {
      clock.set(zonedInstant('2025-03-16', '18:35', 'America/New_York'));
      const deadline = Date.now() + 5_000;
      while ((await unsettled(gw)).length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await unsettled(gw)).toHaveLength(0);
    } finally {
      await timed.stop();
    }
  });
});
