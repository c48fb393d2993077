import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCloseTime } from '../../../gateway/domain/batch-close';
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

describe('automatic batch close: the transitions table', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({
      clock: new ManualClock(new Date('2025-01-15T15:00:00Z')),
      backgroundTasks: false,
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('starts enrolled at 17:00 in the merchant time zone', async () => {
    const r = await admin(gw, 'GetAutomaticBatchClose');
    expect(r.body).toMatchObject({
      ResponseCode: 200,
      Enrolled: true,
      CloseTime: '17:00',
      TimeZone: 'America/New_York',
      NextCloseOn: '2025-01-15T22:00:00.000Z',
    });
    const chicago = await admin(gw, 'GetAutomaticBatchClose', {}, merchant2);
    expect(chicago.body).toMatchObject({
      TimeZone: 'America/Chicago',
      NextCloseOn: '2025-01-15T23:00:00.000Z',
    });
  });

  it('Set while enrolled changes nothing; Update moves the time', async () => {
    const set = await admin(gw, 'SetAutomaticBatchClose', { Time: '2025-01-15T19:30:00' });
    expect(set.body).toMatchObject({ ResponseCode: 200, Enrolled: true, CloseTime: '17:00' });
    expect((set.body.Msg as string[])[0]).toMatch(/no action/);
    const update = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '2025-01-15T18:30:00' });
    expect(update.body).toMatchObject({ ResponseCode: 200, Enrolled: true, CloseTime: '18:30' });
    // With an offset, the instant is converted to the merchant's zone (23:00Z is 18:00 in New York in January).
    const utc = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '2025-01-15T23:00:00Z' });
    expect(utc.body.CloseTime).toBe('18:00');
    const offset = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '2025-01-15T16:45:00-05:00' });
    expect(offset.body.CloseTime).toBe('16:45');
    const bare = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '17:15' });
    expect(bare.body.CloseTime).toBe('17:15');
  });

  it('Remove, then Update answers 425 and changes nothing; Set enrolls at Time (17:00 without one)', async () => {
    const removed = await admin(gw, 'RemoveMerchantFromAutomaticCloseBatch');
    expect(removed.body).toMatchObject({
      ResponseCode: 200,
      Enrolled: false,
      CloseTime: null,
      NextCloseOn: null,
    });
    expect((await admin(gw, 'RemoveMerchantFromAutomaticCloseBatch')).body).toMatchObject({
      ResponseCode: 200,
      Enrolled: false,
    });
    const update = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: '2025-01-15T20:00:00' });
    expect(update.body.ResponseCode).toBe(425);
    expect((await admin(gw, 'GetAutomaticBatchClose')).body).toMatchObject({ Enrolled: false });
    const set = await gw.post('/api/GatewayAdmin/SetAutomaticBatchClose', {
      ...merchant1,
      Time: '2025-01-15T21:05:00',
    });
    expect(set.body).toMatchObject({ ResponseCode: 200, Enrolled: true, CloseTime: '21:05' });
    await admin(gw, 'RemoveMerchantFromAutomaticCloseBatch');
    const plain = await admin(gw, 'SetAutomaticBatchClose');
    expect(plain.body).toMatchObject({ Enrolled: true, CloseTime: '17:00' });
  });

  it('keeps each merchant its own schedule', async () => {
    await admin(gw, 'RemoveMerchantFromAutomaticCloseBatch');
    expect((await admin(gw, 'GetAutomaticBatchClose', {}, merchant2)).body).toMatchObject({ Enrolled: true });
    await admin(gw, 'SetAutomaticBatchClose', { Time: '17:00' });
  });

  it('refuses a Time that is not a time (662)', async () => {
    for (const Time of [
      'noon',
      '25:00',
      '2025-13-01T10:00:00',
      '2025-01-01T10:60:00',
      '10',
      '',
      '2025-01-01',
    ]) {
      const r = await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time });
      expect(r.body.ResponseCode, Time).toBe(662);
    }
    expect((await admin(gw, 'UpdateAutomaticHourToCloseBatch')).body.ResponseCode).toBe(662);
    expect((await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: 1700 })).body.ResponseCode).toBe(400);
    expect((await admin(gw, 'GetAutomaticBatchClose')).body.CloseTime).toBe('17:00');
  });

  it('parses times exactly (unit)', () => {
    expect(parseCloseTime('2025-07-01T22:00:00Z', 'America/New_York')).toEqual({ ok: true, time: '18:00' });
    expect(parseCloseTime('2025-07-01T22:00:00+0000', 'America/Chicago')).toEqual({
      ok: true,
      time: '17:00',
    });
    expect(parseCloseTime('2025-07-01 06:05:59.123', 'UTC')).toEqual({ ok: true, time: '06:05' });
    expect(parseCloseTime('24:00', 'UTC').ok).toBe(false);
    // Daylight saving: a close at 02:30 on the spring-forward day happens at 03:30 local.
    expect(zonedInstant('2025-03-09', '02:30', 'America/New_York').toISOString()).toBe(
      '2025-03-09T07:30:00.000Z',
    );
    expect(zonedInstant('2025-11-02', '01:30', 'America/New_York').toISOString()).toBe(
      '2025-11-02T05:30:00.000Z',
    );
  });
});

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
    await gw.close();
    gw = await start();
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
