import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchant1, merchant2, startGateway, type TestGateway } from '../support/gateway-harness';
import { ResponseCode } from '../../gateway/contract/response-codes';

describe('envelope authentication', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const settings = (envelope: Record<string, unknown>) => gw.post('/api/BusinessSettings', envelope);

  it('accepts the sandbox credentials of each merchant', async () => {
    for (const m of [merchant1, merchant2]) {
      const r = await settings(m);
      expect(r.status).toBe(200);
      expect(r.body.ResponseCode).toBe(200);
    }
  });

  it('refuses a wrong password, an unknown application key or AppType, and an unknown user with 1 (invalid credentials)', async () => {
    const cases = [
      { ...merchant1, Password: 'nope' },
      { ...merchant1, AppKey: 'other-key' },
      { ...merchant1, AppType: 2 },
      { ...merchant1, UserName: 'nobody-here' },
    ];
    for (const c of cases) {
      const r = await settings(c);
      expect(r.status).toBe(200);
      expect(r.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
      expect(JSON.stringify(r.body)).not.toContain('sandbox-pass');
    }
  });

  it('refuses a user acting for another merchant, and a cid that is not a cashier of mid, with 2 (invalid host credentials)', async () => {
    const wrongMid = await settings({ ...merchant1, mid: 1002 });
    expect(wrongMid.body.ResponseCode).toBe(ResponseCode.InvalidHostCredentials);
    const wrongCid = await settings({ ...merchant1, cid: 2 });
    expect(wrongCid.body.ResponseCode).toBe(ResponseCode.InvalidHostCredentials);
  });

  it('lists every missing or mistyped credential field at once', async () => {
    const r = await settings({ AppKey: 'sandbox-app-key', mid: 'one thousand', UserName: 'sandbox' });
    expect(r.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    const msg = r.body.Msg as string[];
    expect(msg).toEqual(
      expect.arrayContaining([
        'AppType is required (int32)',
        'mid is required (int32)',
        'cid is required (int32)',
        'Password is required (string)',
      ]),
    );
  });

  it('issues signed, expiring bearer tokens from /api/Auth and /api/Auth/TokenThreeDS', async () => {
    for (const path of ['/api/Auth', '/api/Auth/TokenThreeDS']) {
      const r = await gw.post(path, merchant1);
      expect(r.body.ResponseCode).toBe(200);
      expect(typeof r.body.Token).toBe('string');
      expect(typeof r.body.ApiKey).toBe('string');
      const expires = Date.parse(r.body.ExpiresOn as string);
      expect(expires).toBeGreaterThan(Date.now());
      expect(expires).toBeLessThanOrEqual(Date.now() + 16 * 60_000);
    }
    const bad = await gw.post('/api/Auth', { ...merchant1, Password: 'x' });
    expect(bad.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    expect(bad.body.Token).toBeUndefined();
  });
});

describe('login throttling', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({
      throttle: {
        maxPerUser: 3,
        maxPerAddress: 50,
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        windowMs: 60_000,
        maxPerUserId: 10,
        lockoutMs: 30 * 60_000,
      },
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('throttles a user after repeated failures, even with the right password afterwards', async () => {
    const user = { ...merchant2 };
    const settings = (envelope: Record<string, unknown>) => gw.post('/api/BusinessSettings', envelope);
    for (let i = 0; i < 3; i += 1) {
      const r = await settings({ ...user, Password: `wrong-${i}` });
      expect(r.body.ResponseCode).toBe(ResponseCode.AuthenticationFailed);
    }
    const locked = await settings(user);
    expect(locked.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    expect((locked.body.Msg as string[])[0]).toMatch(/retry in \d+ s/);
    // Another user is not affected.
    expect((await settings(merchant1)).body.ResponseCode).toBe(200);
  });
});
