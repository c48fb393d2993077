import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { defaultThrottle } from '../../gateway/security/login-throttle';
import {
  ManualClock,
  merchant1,
  merchant2,
  postFrom,
  startGateway,
  type Json,
  type TestGateway,
} from '../support/gateway-harness';
import { databaseArgs } from '../support/test-database';

const retryAfterSeconds = (body: Json) =>
  Number(/retry in (\d+) s/.exec(String((body.Msg as string[])[0]))?.[1]);

/**
 * Login guesses are throttled per (user name, address) with a progressive delay. A per-user lockout let
 * anyone who knew a merchant's user name stop its payments for 15 minutes from anywhere; now the guesser
 * slows only himself, the merchant's own client keeps working, and a burst of guesses is counted before it
 * is checked. Each test is a client at its own loopback address (127.0.0.x), as the gateway sees them.
 */
describe('login throttle per user and address', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // 5 free failures per user and address, then a minute's wait (a slow machine must not see a delay end
    // mid-test); no credential cache, so every request really goes through the throttle and the password.
    gw = await startGateway({
      credentialCacheTtlMs: 0,
      throttle: { ...defaultThrottle, baseDelayMs: 60_000 },
    });
  });
  afterAll(async () => {
    await gw.close();
  });
  const settings = (from: string, envelope: Json) =>
    postFrom(gw.baseUrl, from, '/api/BusinessSettings', envelope);

  it("guessing a user's password from one address does not lock that user out at another", async () => {
    const codes: unknown[] = [];
    for (let i = 0; i < 8; i += 1)
      codes.push((await settings('127.0.0.2', { ...merchant2, Password: `guess-${i}` })).body.ResponseCode);
    expect(codes.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ResponseCode.AuthenticationFailed));
    expect(codes.slice(5)).toEqual(Array.from({ length: 3 }, () => ResponseCode.TooManyAttempts));
    // The merchant's terminal at another address, never verified before: not affected.
    expect((await settings('127.0.0.3', merchant2)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('a client verified before the guessing began keeps working at the same address; new attempts wait', async () => {
    const from = '127.0.0.4';
    expect((await settings(from, merchant1)).body.ResponseCode).toBe(ResponseCode.Success);
    for (let i = 0; i < 8; i += 1) await settings(from, { ...merchant1, Password: `guess-${i}` });
    expect((await settings(from, { ...merchant1, Password: 'one-more' })).body.ResponseCode).toBe(
      ResponseCode.TooManyAttempts,
    );
    // The credential that verified from here before: still accepted, again and again.
    for (let i = 0; i < 3; i += 1)
      expect((await settings(from, merchant1)).body.ResponseCode).toBe(ResponseCode.Success);
    // A credential never verified from here (the same user for another cashier id) waits its turn.
    expect((await settings(from, { ...merchant1, cid: 2 })).body.ResponseCode).toBe(
      ResponseCode.TooManyAttempts,
    );
  });

  it('a burst of concurrent guesses is counted before it is checked: at most the free ones are verified', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => settings('127.0.0.5', { ...merchant1, Password: `burst-${i}` })),
    );
    const codes = answers.map((a) => a.body.ResponseCode);
    expect(codes.filter((c) => c === ResponseCode.AuthenticationFailed).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === ResponseCode.TooManyAttempts).length).toBeGreaterThanOrEqual(15);
    expect(
      codes.every((c) => c === ResponseCode.AuthenticationFailed || c === ResponseCode.TooManyAttempts),
    ).toBe(true);
  });
});

describe('the delay grows with each failure and ends', () => {
  let gw: TestGateway;
  const clock = new ManualClock(new Date('2026-03-02T10:00:00Z'));
  beforeAll(async () => {
    gw = await startGateway({ clock, credentialCacheTtlMs: 0, backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });
  const settings = (envelope: Json) => postFrom(gw.baseUrl, '127.0.0.6', '/api/BusinessSettings', envelope);

  it('1 s, 2 s, 4 s after the free failures; then the right password is accepted when its turn comes', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await settings({ ...merchant1, Password: `g${i}` })).body.ResponseCode).toBe(
        ResponseCode.AuthenticationFailed,
      );
    const waits: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const refused = await settings({ ...merchant1, Password: `w${i}` });
      expect(refused.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
      waits.push(retryAfterSeconds(refused.body));
      clock.advance(waits[i]! * 1_000);
      expect((await settings({ ...merchant1, Password: `h${i}` })).body.ResponseCode).toBe(
        ResponseCode.AuthenticationFailed,
      );
    }
    expect(waits).toEqual([1, 2, 4]);
    const locked = await settings(merchant1);
    expect(locked.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    expect(retryAfterSeconds(locked.body)).toBe(8);
    clock.advance(8_000);
    expect((await settings(merchant1)).body.ResponseCode).toBe(ResponseCode.Success);
    // A success starts the pair afresh.
    expect((await settings({ ...merchant1, Password: 'after' })).body.ResponseCode).toBe(
      ResponseCode.AuthenticationFailed,
    );
  });
});

/**
 * PCI DSS v4 8.3.4: a user ID is locked out after at most 10 invalid attempts, for at least 30 minutes or
 * until an administrator unlocks it. Counted across every address: the per-pair and per-address delays
 * above let 8 addresses make 40 guesses for one user, every one of them checked. The address whose
 * credential last verified keeps working through the lockout, so a stranger cannot stop a working
 * integration by guessing its user's password.
 */
describe('a user ID is locked after 10 invalid attempts from any addresses', () => {
  let gw: TestGateway;
  // From the real time: the admin command (another process) reads the lockout against its own clock.
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    gw = await startGateway({ clock, credentialCacheTtlMs: 0, backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });
  const settings = (from: string, envelope: Json) =>
    postFrom(gw.baseUrl, from, '/api/BusinessSettings', envelope);
  const guessFrom8Addresses = async (user: Json, tag: string) => {
    const codes: unknown[] = [];
    for (let a = 1; a <= 8; a += 1)
      for (let i = 0; i < 5; i += 1)
        codes.push(
          (await settings(`127.0.1.${a}`, { ...user, Password: `${tag}-${a}-${i}` })).body.ResponseCode,
        );
    return codes;
  };

  it('40 guesses from 8 addresses: 10 are checked, the rest refused; the working client keeps working', async () => {
    // The merchant's integration, working before the guessing starts.
    expect((await settings('127.0.0.20', merchant2)).body.ResponseCode).toBe(ResponseCode.Success);
    // Then idle for longer than a pair's trust lasts (15 minutes): still the credential last verified.
    clock.advance(20 * 60_000);
    const codes = await guessFrom8Addresses(merchant2, 'spread');
    expect(codes.filter((c) => c === ResponseCode.AuthenticationFailed)).toHaveLength(10);
    expect(codes.slice(10)).toEqual(Array.from({ length: 30 }, () => ResponseCode.TooManyAttempts));
    // The right password from an address it never verified at: locked out too.
    const locked = await settings('127.0.0.21', merchant2);
    expect(locked.body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    expect(retryAfterSeconds(locked.body)).toBeGreaterThanOrEqual(29 * 60);
    // The address whose credential last verified: not affected, again and again.
    for (let i = 0; i < 3; i += 1)
      expect((await settings('127.0.0.20', merchant2)).body.ResponseCode).toBe(ResponseCode.Success);
    // Another user is not affected at all.
    expect((await settings('127.0.0.21', merchant1)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('the lockout lasts 30 minutes, then the right password is accepted anywhere', async () => {
    clock.advance(29 * 60_000);
    expect((await settings('127.0.0.22', merchant2)).body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    clock.advance(60_000 + 1_000);
    expect((await settings('127.0.0.22', merchant2)).body.ResponseCode).toBe(ResponseCode.Success);
  });

  it('an administrator unlocks a user at once (gateway:admin unlock-user)', async () => {
    const codes = await guessFrom8Addresses(merchant2, 'again');
    expect(codes.filter((c) => c === ResponseCode.AuthenticationFailed)).toHaveLength(10);
    expect((await settings('127.0.0.23', merchant2)).body.ResponseCode).toBe(ResponseCode.TooManyAttempts);
    const unlocked = await adminCli(gw.dataDir, 'unlock-user', '--user', 'sandbox2');
    expect(unlocked).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(unlocked.stdout)).toMatchObject({ user: 'sandbox2', wasLocked: true });
    expect((await settings('127.0.0.23', merchant2)).body.ResponseCode).toBe(ResponseCode.Success);
    // Unlocking a user name nobody locked says so, and changes nothing.
    const idle = await adminCli(gw.dataDir, 'unlock-user', '--user', 'nobody-here');
    expect(JSON.parse(idle.stdout)).toMatchObject({ user: 'nobody-here', wasLocked: false });
  });
});

async function adminCli(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const db = await databaseArgs(dataDir);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'gateway/admin/cli.ts', ...args, '--data', dataDir, ...db],
      (error, stdout, stderr) => {
        // A command that failed exits non-zero with its reason on stderr; the test reads both.
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}
