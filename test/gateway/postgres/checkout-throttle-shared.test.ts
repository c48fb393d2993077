import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { createLink, payCheckout, sandboxCard } from '../commerce/support';

/**
 * The hosted checkout's card-testing throttle on two gateways on one PostgreSQL database (as `--workers N`
 * or a load balancer runs them): declined attempts on one link from one address count together, so a
 * tester who spreads his cards over the processes gains nothing.
 */
describe('the checkout card-testing throttle is shared by every gateway process on one database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-checkout-throttle-'));
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    a = await startGateway({ dataDir, backgroundTasks: false });
    // The same data folder: the same key file and the same database schema.
    b = await startGateway({ dataDir, backgroundTasks: false });
  });
  afterAll(async () => {
    await b.gateway.close();
    await a.close();
  });

  it('declines spread over two gateways count together, and both turn the tester away', async () => {
    const link = await createLink(a, { Amount: '1.00' });
    // Over three cards: each card has a limit of its own (5 declines a day).
    const declining = ['4000000000000002', '4000000000009995', '4000000000000069'];
    const codes: unknown[] = [];
    // Ten declines (the limit), alternated between the two processes: five each.
    for (let i = 0; i < 10; i += 1)
      codes.push(
        (await payCheckout(i % 2 === 0 ? a : b, link, { ...sandboxCard, CardNumber: declining[i % 3] })).body
          .ResponseCode,
      );
    expect(codes).toEqual(Array.from({ length: 10 }, () => ResponseCode.Declined));
    for (const at of [a, b]) {
      expect((await payCheckout(at, link, sandboxCard)).body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    }
  });
});
