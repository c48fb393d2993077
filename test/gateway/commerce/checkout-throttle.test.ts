import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { CheckoutThrottle } from '../../../gateway/hosted/checkout-throttle';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { createLink, payCheckout, sandboxCard } from './support';

describe('the checkout card-testing throttle (in the database)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });
  const failures = async (key: string) =>
    (
      await gw.gateway.storage.read.first(
        gw.gateway.storage.read.qb
          .selectFrom('checkout_throttle')
          .select('failures')
          .where('scope_key', '=', key),
      )
    )?.failures;

  it('a decline after the window starts a new one', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, 1, 1_000);
    const key = `window-${randomUUID()}`;
    await t.failed(key, 0);
    expect(await t.allowed(key, 500)).toBe(false);
    expect(await t.allowed(key, 1_001)).toBe(true);
    await t.failed(key, 1_100);
    expect(await failures(key)).toBe(1);
    expect(await t.allowed(key, 1_200)).toBe(false);
  });

  it('never drops a key to make room: declines on other keys leave the tester refused', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, 2, 60_000);
    const tester = `tester-${randomUUID()}`;
    await t.failed(tester, 0);
    await t.failed(tester, 1);
    for (let i = 0; i < 30; i += 1) await t.failed(`other-${randomUUID()}`, 2 + i);
    expect(await t.allowed(tester, 40)).toBe(false);
  });

  it('declines counted at the same moment are all counted', async () => {
    const t = new CheckoutThrottle(gw.gateway.storage, 100, 60_000);
    const key = `burst-${randomUUID()}`;
    await Promise.all(Array.from({ length: 20 }, () => t.failed(key, 5)));
    expect(await failures(key)).toBe(20);
  });
});

describe('the checkout throttle over HTTP', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('does not count posts to links that do not exist (they charge nothing and must not fill the table)', async () => {
    const unknown = { Link: `${gw.baseUrl}/pay/${randomUUID()}` };
    const codes: unknown[] = [];
    for (let i = 0; i < 12; i += 1)
      codes.push((await payCheckout(gw, unknown, sandboxCard)).body.ResponseCode);
    expect(codes).toEqual(Array.from({ length: 12 }, () => ResponseCode.NotFound));
  });

  it('still turns a card tester away on a real link', async () => {
    const link = await createLink(gw, { Amount: '1.00' });
    for (let i = 0; i < 10; i += 1)
      await payCheckout(gw, link, { ...sandboxCard, CardNumber: '4000000000000002' });
    expect((await payCheckout(gw, link, sandboxCard)).body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
  });
});
