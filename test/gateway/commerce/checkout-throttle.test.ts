import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { CheckoutThrottle } from '../../../gateway/hosted/checkout-throttle';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { createLink, payCheckout, sandboxCard } from './support';

describe('the checkout card-testing throttle', () => {
  it('when full, forgets the least recently active key, not every key', () => {
    const t = new CheckoutThrottle(2, 60_000, 3);
    t.failed('tester', 0);
    t.failed('tester', 1);
    expect(t.allowed('tester', 2)).toBe(false);
    t.failed('b', 3);
    t.failed('c', 4);
    // The tester keeps trying (refused): that keeps its entry the most recent.
    expect(t.allowed('tester', 5)).toBe(false);
    t.failed('d', 6);
    expect(t.allowed('tester', 7)).toBe(false);
    expect(t.size).toBe(3);
    // 'b' was the least recently active: it went, with its one failure.
    t.failed('b', 8);
    expect(t.allowed('b', 9)).toBe(true);
  });

  it('a refused attempt after the window starts afresh', () => {
    const t = new CheckoutThrottle(1, 1_000, 10);
    t.failed('k', 0);
    expect(t.allowed('k', 500)).toBe(false);
    expect(t.allowed('k', 1_001)).toBe(true);
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
