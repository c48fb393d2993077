import { afterEach, describe, expect, it } from 'vitest';
import { PinPadDriver } from '../../../native/drivers/pin-pad';
import type { PinResult } from '../../../native/drivers/roles';
import { decryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import {
  PinPadSimulator,
  SANDBOX_BDK,
  type PinPadSimulatorOptions,
} from '../../../native/simulators/pinpad-simulator';
import { SANDBOX_PIN, TEST_CARDS } from '../../../native/simulators/test-cards';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';

const pan = TEST_CARDS[0]!.pan;
const ACK_MS = 250;

describe('PinPadDriver against the PIN pad simulator over a socat pty', () => {
  let pty: PtyStreams | undefined;
  let sim: PinPadSimulator | undefined;
  afterEach(async () => {
    sim?.stop();
    await pty?.close();
    pty = undefined;
  });

  async function setup(
    simOpts: PinPadSimulatorOptions = {},
    line: { dataBits?: 7 | 8; parity?: 'none' | 'even' } = {},
  ): Promise<PinPadDriver> {
    pty = await openPtyStreams(line);
    const sevenBit = line.dataBits === 7;
    sim = new PinPadSimulator(pty.device, { ackTimeoutMs: ACK_MS, sevenBit, ...simOpts });
    return new PinPadDriver(pty.host, { ackTimeoutMs: ACK_MS, sevenBit });
  }

  function expectPin(r: PinResult, ksn: string): void {
    expect(r.kind).toBe('pin');
    if (r.kind !== 'pin') return;
    expect(r.ksn).toBe(ksn);
    // The block verifies with the sandbox BDK, as the gateway's sandbox will check it.
    expect(decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: r.ksn, pinBlock: r.pinBlock, pan })).toBe(
      SANDBOX_PIN,
    );
  }

  it('gets a DUKPT KSN + PIN block for a scripted PIN, and shows text with Z2', async () => {
    const driver = await setup({ pin: SANDBOX_PIN, pinDelayMs: 20 });
    await driver.display('HELLO');
    expect(sim!.display).toBe('HELLO');
    expectPin(await driver.requestPin({ pan, amountCents: 1234, timeoutMs: 5000 }), 'FFFF9876543210E00001');
    expectPin(await driver.requestPin({ pan, amountCents: 99, timeoutMs: 5000 }), 'FFFF9876543210E00002');
    expect(driver.health()).toMatchObject({ state: 'connected', detail: { linkFailures: 0, busy: false } });
  });

  it('works on a 7E1 line', async () => {
    const driver = await setup({ pin: SANDBOX_PIN }, { dataBits: 7, parity: 'even' });
    expectPin(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 }), 'FFFF9876543210E00001');
  });

  it('cancels with 72 (host), and reports the cardholder Cancel key as cancelled', async () => {
    const driver = await setup();
    const pending = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    await until(() => sim!.state === 'awaiting-pin', 2000, 'pad to ask for the PIN');
    await driver.cancel();
    expect(await pending).toEqual({ kind: 'cancelled' });
    await until(() => sim!.state === 'idle', 2000, 'pad back to idle');

    const second = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    await until(() => sim!.state === 'awaiting-pin', 2000, 'pad to ask again');
    sim!.pressCancel();
    expect(await second).toEqual({ kind: 'cancelled' });
  });

  it('times out, stops the pad with 72, and answers the next request normally', async () => {
    const driver = await setup();
    expect(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 300 })).toEqual({ kind: 'timeout' });
    await until(() => sim!.state === 'idle', 2000, 'pad back to idle after 72');
    const next = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    await until(() => sim!.state === 'awaiting-pin', 2000, 'pad asking');
    expect(sim!.enterPin(SANDBOX_PIN)).toBe(true);
    expectPin(await next, 'FFFF9876543210E00001');
  });

  it('a request sent right after a cancel is not ended by the pad’s closing EOT for the old session', async () => {
    const driver = await setup();
    for (let i = 1; i <= 3; i += 1) {
      const pending = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
      await until(() => sim!.state === 'awaiting-pin', 2000, 'pad asking');
      await driver.cancel();
      expect(await pending).toEqual({ kind: 'cancelled' });
    }
    // No waiting for the pad to go idle: the driver itself holds the next request until that EOT.
    const next = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    await until(() => sim!.state === 'awaiting-pin', 2000, 'pad asking again');
    expect(sim!.enterPin(SANDBOX_PIN)).toBe(true);
    expectPin(await next, 'FFFF9876543210E00001');
  });

  it('bad LRC from the pad: NAK x3, pad gives up with EOT, request fails cleanly; recovers after', async () => {
    const driver = await setup({ pin: SANDBOX_PIN, faults: { badLrc: true } });
    const r = await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    expect(r).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/bad LRC/) as string });
    expect(driver.health().detail).toMatchObject({ badPackets: 3 });
    sim!.setFaults({});
    // The corrupted answer used counter 1; the retry gets a fresh PIN block under counter 2: one reading each.
    expectPin(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 }), 'FFFF9876543210E00002');
  });

  it('NAK storm from the pad: 3 tries then EOT, request fails cleanly; recovers after', async () => {
    const driver = await setup({ pin: SANDBOX_PIN, faults: { nakStorm: true } });
    const r = await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    expect(r).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/3 times/) as string });
    expect(sim!.state).toBe('idle');
    sim!.setFaults({});
    expectPin(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 }), 'FFFF9876543210E00001');
  });

  it('slow responses: the pad retransmits its answer, the driver delivers it exactly once', async () => {
    const driver = await setup({ pin: SANDBOX_PIN, faults: { slowMs: 150 } });
    const results = await Promise.all([driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 })]);
    expectPin(results[0], 'FFFF9876543210E00001');
    // A second concurrent request is refused rather than interleaved.
    const a = driver.requestPin({ pan, amountCents: 1, timeoutMs: 5000 });
    const b = await driver.requestPin({ pan, amountCents: 2, timeoutMs: 5000 });
    expect(b).toMatchObject({ kind: 'failed', reason: 'a PIN request is already in progress' });
    expectPin(await a, 'FFFF9876543210E00002');
    // The pad's writes lag its own ACK timer, so it resent each 73: the copies were ACKed and dropped.
    expect(driver.health().detail?.duplicatesDropped).toBeGreaterThan(0);
  });

  it('unplug mid-transaction: the request fails, the driver signals the disconnect', async () => {
    const driver = await setup({ pin: SANDBOX_PIN, faults: { unplugOnPinRequest: true } });
    // The simulator closes its end; on real ttys the cable pull is socat going away with both ends.
    sim!.on((e) => {
      if (e.type === 'unplugged') void pty!.pair.close();
    });
    const disconnected = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    const r = await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    expect(r).toEqual({ kind: 'failed', reason: 'PIN pad disconnected' });
    await disconnected;
    expect(driver.health().state).toBe('missing');
    expect(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 })).toEqual({
      kind: 'failed',
      reason: 'PIN pad not connected',
    });
  });

  it('never puts the PAN in a result or health message', async () => {
    const driver = await setup({ faults: { nakStorm: true } });
    const r = await driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    expect(JSON.stringify([r, driver.health()])).not.toContain(pan);
  });
});
