import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, BridgeResult } from '../../../common/bridge/contract';
import { startGateway, type TestGateway } from '../../support/gateway-harness';
import { startLane, value, type Lane } from '../helpers';

const errorOf = <T>(r: BridgeResult<T>): BridgeError | 'ok' => (r.ok ? 'ok' : r.error);

describe('PINs against an adversary at the counter', () => {
  let gw: TestGateway;
  const lanes: Lane[] = [];
  const lane = async (options: Parameters<typeof startLane>[0] = {}): Promise<Lane> => {
    const l = await startLane({ gateway: gw, signIn: null, ...options });
    lanes.push(l);
    return l;
  };
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    for (const l of lanes) await l.close();
    await gw.close();
  });

  it('a burst of concurrent sign-ins gets five guesses, not twenty (counted before the hash is awaited)', async () => {
    const { core } = await lane();
    const guesses = Array.from({ length: 19 }, (_, i) => String(1000 + i * 7).padStart(4, '0'));
    // The manager's real PIN last in the burst: once five guesses failed, it must be refused too.
    const pins = [...guesses, '9999'];
    const answers = await Promise.all(pins.map((pin) => core.connect().send('session.signIn', { pin })));
    const wrong = answers.filter((r) => !r.ok && r.error.message === 'Wrong PIN.').length;
    const locked = answers.filter((r) => !r.ok && /Too many wrong PINs/.test(r.error.message)).length;
    expect(wrong).toBe(5);
    expect(locked).toBe(15);
    expect(answers.filter((r) => r.ok)).toEqual([]);
  });

  it('a correct sign-in between guesses does not reset the count; a restart does not either', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-roles-'));
    try {
      const first = await startLane({ gateway: gw, signIn: '1111', dataDir });
      const c = first.bridge;
      // A cashier guessing the manager's PIN through approvals, signing in again between rounds.
      for (const guess of ['0001', '0002', '0003', '0004']) {
        const v = await c.send('transactions.void', {
          serviceReferenceNumber: 'S-none',
          approval: { managerPin: guess },
        });
        expect(errorOf(v)).toEqual({
          code: 'forbidden',
          message: 'The manager PIN is not correct.',
          messageId: 'approval.wrongManagerPin',
        });
      }
      expect(value(await c.send('session.signIn', { pin: '1111' })).role).toBe('cashier');
      const fifth = await c.send('transactions.void', {
        serviceReferenceNumber: 'S-none',
        approval: { managerPin: '0005' },
      });
      expect(errorOf(fifth)).toEqual({
        code: 'forbidden',
        message: 'The manager PIN is not correct.',
        messageId: 'approval.wrongManagerPin',
      });
      // Five wrong PINs today: the right one is refused as well while the lock lasts.
      const right = await c.send('transactions.void', {
        serviceReferenceNumber: 'S-none',
        approval: { managerPin: '9999' },
      });
      expect(right.ok ? 'ok' : right.error.message).toMatch(/Too many wrong PINs/);
      await first.close();

      const again = await startLane({ gateway: gw, signIn: null, dataDir });
      try {
        const after = await again.bridge.send('session.signIn', { pin: '9999' });
        expect(after.ok ? 'ok' : after.error.message).toMatch(/Too many wrong PINs/);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('changing one’s own PIN needs the current one; a wrong one and someone else’s PIN get one answer', async () => {
    const { bridge, core } = await lane({ signIn: '1111' });
    // The manager chooses a PIN a cashier could try (the demo PINs are all weak ones).
    const m = core.connect();
    value(await m.send('session.signIn', { pin: '9999' }));
    value(await m.send('session.changePin', { newPin: '2580', currentPin: '9999' }));

    const missing = await bridge.send('session.changePin', { newPin: '2468' });
    expect(missing.ok ? 'ok' : missing.error.code).toBe('invalid');
    const wrongCurrent = await bridge.send('session.changePin', { newPin: '2468', currentPin: '1112' });
    const collision = await bridge.send('session.changePin', { newPin: '2580', currentPin: '1111' });
    expect(errorOf(wrongCurrent)).toMatchObject({ code: 'forbidden' });
    expect(JSON.stringify(errorOf(collision))).not.toMatch(/another|already|taken|manager/i);
    // Indistinguishable: the same code and the same words.
    expect(errorOf(collision)).toEqual(errorOf(wrongCurrent));
    // Another employee's PIN is never set with session.changePin, whatever comes with it.
    const other = await bridge.send('session.changePin', {
      role: 'tech',
      newPin: '5555',
      approval: { managerPin: '2580' },
    });
    expect(other.ok ? 'ok' : other.error.code).toBe('forbidden');

    value(await bridge.send('session.changePin', { newPin: '2468', currentPin: '1111' }));
    expect((await core.connect().send('session.signIn', { pin: '1111' })).ok).toBe(false);
    expect(value(await core.connect().send('session.signIn', { pin: '2468' })).role).toBe('cashier');
    expect(JSON.stringify(await core.journal.employees())).not.toContain('2468');

    // The audit keeps who did it and what failed, never a PIN.
    const audit = value(await m.send('audit.list', { limit: 100 }));
    const actions = audit.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['pin-changed', 'pin-change-failed', 'sign-in-failed']));
    expect(audit.filter((a) => a.action === 'pin-changed').map((a) => a.employeeName)).toEqual([
      'Cashier',
      'Manager',
    ]);
    for (const pin of ['1112', '2468', '2580', '5555', '9999', '1111'])
      expect(JSON.stringify(audit)).not.toContain(pin);
  });

  it('a cashier trying new PINs 0000-0029 learns about five at most, and a restart does not add more', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-roles-'));
    try {
      const setup = await startLane({ gateway: gw, signIn: '9999', dataDir });
      // The other employees' PINs sit in the range the cashier scans.
      value(await setup.bridge.send('session.changePin', { newPin: '0021', currentPin: '9999' }));
      const tech = setup.core.connect();
      value(await tech.send('session.signIn', { pin: '7777' }));
      value(await tech.send('session.changePin', { newPin: '0013', currentPin: '7777' }));
      await setup.close();

      const scan = async (from: number, to: number, lanePin: { pin: string }) => {
        const l = await startLane({ gateway: gw, signIn: lanePin.pin, dataDir });
        const answers: string[] = [];
        try {
          for (let n = from; n < to; n++) {
            const candidate = String(n).padStart(4, '0');
            const r = await l.bridge.send('session.changePin', {
              newPin: candidate,
              currentPin: lanePin.pin,
            });
            if (r.ok) lanePin.pin = candidate;
            answers.push(r.ok ? 'changed' : `${r.error.code}: ${r.error.message}`);
          }
        } finally {
          await l.close();
        }
        return answers;
      };
      const pin = { pin: '1111' };
      const answers = [...(await scan(0, 20, pin)), ...(await scan(20, 30, pin))];
      // What tells the cashier something is a change or the PIN-related refusal; 0000 is refused by the
      // public rule on weak PINs (it says nothing of anyone's); the rest is the budget.
      const informative = answers.filter((a) => a === 'changed' || a.startsWith('forbidden'));
      expect(informative.length).toBeLessThanOrEqual(5);
      expect(answers[0]).toMatch(/^invalid: That PIN is too easy to guess/);
      const rest = answers.filter((a, i) => i > 0 && !informative.includes(a));
      expect(rest.length).toBeGreaterThanOrEqual(24);
      for (const a of rest) expect(a).toMatch(/^unauthorized: Too many (PIN changes today|wrong PINs)/);
      // In particular, nothing distinguishes the candidates 0013 and 0021 from their neighbours.
      expect(answers[13]).toBe(answers[12]);
      expect(answers[21]).toBe(answers[20]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('failed sign-ins and failed manager approvals are audited (PCI DSS 10.2.1.4), without the PIN', async () => {
    const { core } = await lane();
    const c = core.connect();
    expect((await c.send('session.signIn', { pin: '4321' })).ok).toBe(false);
    value(await c.send('session.signIn', { pin: '1111' }));
    const r = await c.send('batch.settle', { approval: { managerPin: '8642' } });
    expect(r.ok ? 'ok' : r.error.code).toBe('forbidden');
    const m = core.connect();
    value(await m.send('session.signIn', { pin: '9999' }));
    const audit = value(await m.send('audit.list', { limit: 50 }));
    expect(audit.find((a) => a.action === 'sign-in-failed')).toMatchObject({ role: 'system' });
    expect(audit.find((a) => a.action === 'approval-failed')).toMatchObject({
      role: 'cashier',
      detail: expect.stringContaining('batch.settle') as unknown,
    });
    expect(JSON.stringify(audit)).not.toContain('4321');
    expect(JSON.stringify(audit)).not.toContain('8642');
  });
});
