import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { defaultThrottle } from '../../../gateway/security/login-throttle';
import {
  merchant1,
  merchant2,
  postFrom,
  startGateway,
  type TestGateway,
} from '../../support/gateway-harness';

/**
 * Two gateways on one PostgreSQL database (as `--workers N` or several hosts run it), sharing no memory:
 * guesses made at one are throttled at the other, so spreading them over the processes gains nothing.
 */
describe('the login throttle is shared by every gateway process on one database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-throttle-'));
  let a: TestGateway;
  let b: TestGateway;
  // A minute's delay after the free failures, so a slow machine never sees it end mid-test.
  const throttle = { ...defaultThrottle, baseDelayMs: 60_000 };
  beforeAll(async () => {
    a = await startGateway({ dataDir, credentialCacheTtlMs: 0, throttle });
    // The same data folder: the same key file and the same database schema.
    b = await startGateway({ dataDir, credentialCacheTtlMs: 0, throttle });
  });
  afterAll(async () => {
    await b.gateway.close();
    await a.close();
  });

  it('guesses spread over two gateways count together', async () => {
    const codes: unknown[] = [];
    for (let i = 0; i < 8; i += 1) {
      const at = i % 2 === 0 ? a : b;
      const r = await postFrom(at.baseUrl, '127.0.0.7', '/api/BusinessSettings', {
        ...merchant2,
        Password: `spread-${i}`,
      });
      codes.push(r.body.ResponseCode);
    }
    expect(codes.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ResponseCode.AuthenticationFailed));
    expect(codes.slice(5)).toEqual(Array.from({ length: 3 }, () => ResponseCode.TooManyAttempts));
    // Both processes refuse the next one, whichever the guesser picks.
    for (const at of [a, b]) {
      const r = await postFrom(at.baseUrl, '127.0.0.7', '/api/BusinessSettings', {
        ...merchant2,
        Password: 'x',
      });
      expect(r.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    }
  });

  it('a user ID locked by guesses from many addresses over two gateways is locked at both', async () => {
    const codes: unknown[] = [];
    // Three guesses from each of six addresses, alternating gateways: never the per-pair limit (5).
    for (let i = 0; i < 18; i += 1) {
      const at = i % 2 === 0 ? a : b;
      const r = await postFrom(at.baseUrl, `127.0.2.${1 + (i % 6)}`, '/api/BusinessSettings', {
        ...merchant1,
        Password: `lock-${i}`,
      });
      codes.push(r.body.ResponseCode);
    }
    expect(codes.filter((c) => c === ResponseCode.AuthenticationFailed)).toHaveLength(10);
    expect(codes.slice(10)).toEqual(Array.from({ length: 8 }, () => ResponseCode.TooManyAttempts));
    for (const at of [a, b]) {
      const r = await postFrom(at.baseUrl, '127.0.2.9', '/api/BusinessSettings', merchant1);
      expect(r.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
      expect(String((r.body.Msg as string[])[0])).toMatch(/locked/);
    }
  });
});
