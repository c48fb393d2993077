import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCloseTime } from '../../../gateway/domain/batch-close';
import { zonedInstant } from '../../../gateway/domain/local-time';
import {
  ManualClock,
  merchant1,
  merchant2,
  startGateway,
  type Json,
  type TestGateway,
} from '../../support/gateway-harness';
import { ResponseCode } from '../../../gateway/contract/response-codes';

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

  it('Remove, then Update answers 57 (not enrolled) and changes nothing; Set enrolls at Time (17:00 without one)', async () => {
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
    expect(update.body.ResponseCode).toBe(ResponseCode.NotEnrolled);
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
    expect((await admin(gw, 'UpdateAutomaticHourToCloseBatch', { Time: 1700 })).body.ResponseCode).toBe(
      ResponseCode.InvalidCloseTime,
    );
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
