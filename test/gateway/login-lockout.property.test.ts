import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginThrottle, defaultThrottle, type Gate } from '../../gateway/security/login-throttle';
import { openStorage } from '../../gateway/storage/open-storage';
import type { Storage } from '../../gateway/storage/queryable';
import { assertProperty, propertyRun } from '../support/property-run';
import { dropSchema, schemaOf, testDatabaseFor } from '../support/test-database';

/**
 * The user lockout (PCI DSS v4 8.3.4) under any interleaving of guesses, right passwords, new clients,
 * waits and administrator unlocks from several addresses, through the throttle's own interface on the
 * test database (SQLite, or PostgreSQL in the postgres project). Three rules, each read off what was
 * answered, never off the throttle's state:
 *
 * 1. Cap: any 11 wrong passwords that reached verification, with no reset between them (a right password
 *    that was not a remembered credential, or an unlock), span at least the lockout (30 minutes).
 * 2. Lockout: once 10 such wrong passwords came within 30 minutes, a new client (an address never used,
 *    the right password) is refused for 30 minutes from the 10th, unless unlocked.
 * 3. The working client: the right password from the address where the last successful verification
 *    happened (with that same credential) is never refused.
 */

type Event =
  | { kind: 'guess'; addr: number; wait: number }
  | { kind: 'right'; addr: number; wait: number }
  | { kind: 'new-client'; wait: number }
  | { kind: 'unlock'; wait: number };

type Answer = {
  t: number;
  kind: Event['kind'];
  addr: string;
  allowed: boolean;
  trusted: boolean;
};

const LOCKOUT = defaultThrottle.lockoutMs;
const MINUTE = 60_000;

// Mostly quick successions (a guesser's pace), sometimes a pause across a delay, the window or the lockout.
const wait = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      16 * MINUTE,
      20 * MINUTE,
      29 * MINUTE,
      31 * MINUTE,
    ),
  },
);
// Guesses from 16 addresses (the spread the per-address delays cannot see); the right password from 4 of
// them, so it is sometimes a remembered credential and sometimes not.
const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('guess' as const), addr: fc.nat(15), wait }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('right' as const), addr: fc.nat(3), wait }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('new-client' as const), wait }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unlock' as const), wait }) },
);

describe('the user lockout under any interleaving (property)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-lockout-'));
  let storage: Storage;
  let throttle: LoginThrottle;
  beforeAll(async () => {
    storage = await openStorage(await testDatabaseFor(dir), dir);
    throttle = new LoginThrottle(storage, defaultThrottle);
  });
  afterAll(async () => {
    await storage.close();
    const schema = schemaOf(dir);
    if (schema) await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('caps guesses at 10 per lockout, locks new clients out, never the last verified one', async () => {
    // Each case is a user and addresses of its own, later in time than the case before: cases never meet.
    let caseNo = 0;
    let clock = Date.parse('2030-01-01T00:00:00Z');
    let lockedCases = 0;
    const run = propertyRun({ seed: 20_261_127, numRuns: 50, timeMs: 15_000 });
    const { runs } = await assertProperty(
      'login lockout',
      fc.asyncProperty(fc.array(event, { minLength: 12, maxLength: 80, size: 'max' }), async (events) => {
        caseNo += 1;
        clock += 24 * 60 * MINUTE;
        const user = `victim-${caseNo}`;
        const address = (n: number) => `10.${caseNo % 250}.${Math.floor(caseNo / 250)}.${n}`;
        let fresh = 100;
        let wrong = 0;
        const answers: Answer[] = [];
        for (const e of events) {
          clock += e.wait;
          const now = new Date(clock);
          if (e.kind === 'unlock') {
            await throttle.unlock(user, now);
            answers.push({ t: clock, kind: 'unlock', addr: '', allowed: true, trusted: false });
            continue;
          }
          const addr = e.kind === 'new-client' ? address((fresh += 1)) : address(e.addr);
          const right = e.kind !== 'guess';
          // What the authenticator keys a credential by: the whole credential and the address.
          const key = `${right ? 'right-password' : `wrong-${(wrong += 1)}`}@${addr}`;
          const gate: Gate = await throttle.begin(user, addr, key, now);
          if (gate.allowed)
            await throttle.finish(user, addr, key, gate, right ? 'verified' : 'wrong-password', now);
          answers.push({
            t: clock,
            kind: e.kind,
            addr,
            allowed: gate.allowed,
            trusted: gate.allowed && gate.trusted,
          });
        }
        const found = check(answers);
        if (found.locked) lockedCases += 1;
        return found.violations.length === 0 || (console.log(found.violations.join('\n')), false);
      }),
      run,
    );
    // The generator must reach lockouts, or rule 2 proved nothing.
    expect(lockedCases).toBeGreaterThan(0);
    console.log(`login lockout: ${lockedCases} of ${runs} cases locked the user at least once`);
  });
});

/** The three rules over one case's answers. */
function check(answers: readonly Answer[]): { violations: string[]; locked: boolean } {
  const violations: string[] = [];
  const isReset = (a: Answer) =>
    a.kind === 'unlock' || ((a.kind === 'right' || a.kind === 'new-client') && a.allowed && !a.trusted);
  // Wrong passwords that were verified, with the index of the reset (if any) before each.
  const wrongs: { i: number; t: number; epoch: number }[] = [];
  let epoch = 0;
  answers.forEach((a, i) => {
    if (isReset(a)) epoch += 1;
    if (a.kind === 'guess' && a.allowed) wrongs.push({ i, t: a.t, epoch });
  });
  let locked = false;
  for (let k = 0; k + 10 < wrongs.length; k += 1) {
    const first = wrongs[k];
    const eleventh = wrongs[k + 10];
    if (first && eleventh && first.epoch === eleventh.epoch && eleventh.t - first.t < LOCKOUT)
      violations.push(`rule 1: 11 wrong passwords verified within ${eleventh.t - first.t} ms`);
  }
  for (let k = 0; k + 9 < wrongs.length; k += 1) {
    const first = wrongs[k];
    const tenth = wrongs[k + 9];
    if (!first || !tenth || first.epoch !== tenth.epoch || tenth.t - first.t >= LOCKOUT) continue;
    locked = true;
    for (let j = tenth.i + 1; j < answers.length; j += 1) {
      const a = answers[j];
      if (!a || a.kind === 'unlock' || a.t >= tenth.t + LOCKOUT) break;
      if (a.kind === 'new-client' && a.allowed)
        violations.push(`rule 2: a new client was let in ${a.t - tenth.t} ms after the 10th wrong password`);
    }
  }
  let lastVerified: string | null = null;
  for (const a of answers) {
    if ((a.kind === 'right' || a.kind === 'new-client') && a.addr === lastVerified && !a.allowed)
      violations.push(`rule 3: the client last verified at ${a.addr} was refused`);
    if ((a.kind === 'right' || a.kind === 'new-client') && a.allowed) lastVerified = a.addr;
  }
  return { violations, locked };
}
