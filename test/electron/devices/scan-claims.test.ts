import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanView } from '../../../common/bridge/contract';
import { createScanClaims } from '../../../electron/devices/scan-claims';
import { eventually, startLane, value, type Lane } from '../helpers';

describe('scan claims: one scan, one claim', () => {
  it('an issued scan is claimed once; an unknown or stale one never', () => {
    const claims = createScanClaims(3);
    for (const id of ['a', 'b', 'c', 'd']) claims.issued(id);
    expect(claims.claim('a')).toBe(false); // dropped out: the fourth id pushed it
    expect(claims.claim('b')).toBe(true);
    expect(claims.claim('b')).toBe(false);
    expect(claims.claim('never-issued')).toBe(false);
    expect([claims.claim('c'), claims.claim('d')]).toEqual([true, true]);
  });
});

/**
 * Two windows of one lane (two signed-in connections) hear the same scan. Before, each rang it: one item,
 * two lines, or two tickets. The core now lets one claim of a scan through, and while the lane rings a
 * ticket of lines it is the window showing that ticket that may claim.
 */
describe('two windows hear one scan (sandbox lane)', () => {
  let lane: Lane;
  beforeAll(async () => {
    lane = await startLane();
  });
  afterAll(async () => {
    await lane.close();
  });

  async function scanHeardByBoth(
    a: Pick<Lane['bridge'], 'on'>,
    b: Pick<Lane['bridge'], 'on'>,
  ): Promise<[ScanView, ScanView]> {
    const heardA: ScanView[] = [];
    const heardB: ScanView[] = [];
    const offA = a.on('scanner.scanned', (s) => heardA.push(s));
    const offB = b.on('scanner.scanned', (s) => heardB.push(s));
    try {
      value(
        await lane.bridge.send('simulator.scan', { symbology: 'upc-a', data: '036000241457', via: 'serial' }),
      );
      await eventually(() => heardA.length === 1 && heardB.length === 1, 3000);
    } finally {
      offA();
      offB();
    }
    return [heardA[0] as ScanView, heardB[0] as ScanView];
  }

  it('both windows hear the same scan id; of their two claims at once, exactly one is true', async () => {
    const second = lane.core.connect();
    value(await second.send('session.signIn', { pin: '1111' }));
    try {
      const [a, b] = await scanHeardByBoth(lane.bridge, second);
      expect(a.scanId).toMatch(/^SC-/);
      expect(b.scanId).toBe(a.scanId);
      const answers = await Promise.all([
        lane.bridge.send('scanner.claim', { scanId: a.scanId }),
        second.send('scanner.claim', { scanId: b.scanId }),
      ]);
      expect(answers.map((r) => value(r).claimed).sort()).toEqual([false, true]);
      // A third ask, from either, is refused too.
      expect(value(await lane.bridge.send('scanner.claim', { scanId: a.scanId })).claimed).toBe(false);
    } finally {
      second.close();
    }
  });

  it('while the lane rings a ticket of lines, a window without it is told to follow it; the one showing it claims', async () => {
    const second = lane.core.connect();
    value(await second.send('session.signIn', { pin: '1111' }));
    const ticket = value(await lane.bridge.send('ticket.open', {}));
    try {
      const [scan] = await scanHeardByBoth(lane.bridge, second);
      // The other window (showing nothing) asks first: not its scan, and which ticket is being rung.
      expect(value(await second.send('scanner.claim', { scanId: scan.scanId }))).toEqual({
        claimed: false,
        ringing: ticket.ticketId,
      });
      // Following that ticket, it may claim — once, for the lane.
      const claims = await Promise.all([
        second.send('scanner.claim', { scanId: scan.scanId, ticketId: ticket.ticketId }),
        lane.bridge.send('scanner.claim', { scanId: scan.scanId, ticketId: ticket.ticketId }),
      ]);
      expect(claims.map((r) => value(r).claimed).sort()).toEqual([false, true]);
    } finally {
      value(await lane.bridge.send('sale.cancel', { ticketId: ticket.ticketId }));
      second.close();
    }
  });

  it('a connection nobody signed in to claims nothing', async () => {
    const stranger = lane.core.connect();
    const r = await stranger.send('scanner.claim', { scanId: 'SC-x' });
    expect(r.ok ? 'claimed' : r.error.code).toBe('unauthorized');
    stranger.close();
  });
});
