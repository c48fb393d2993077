import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedSale, startGateway, type TestGateway } from '../support/gateway-harness';

describe('gateway harness', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('approves a keyed sale over loopback', async () => {
    const r = await gw.post('/api/Transactions/Sale', keyedSale());
    expect(r.status).toBe(200);
    expect(r.body.ResponseCode).toBe(200);
    expect(r.body.LastFour).toBe('1111');
  });
});
