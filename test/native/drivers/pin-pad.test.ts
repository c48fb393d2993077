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
import {
  ACK,
  EOT,
  NAK,
  PacketDecoder,
  bodyText,
  encodeMessage,
} from '../../../native/protocols/verifone-packet';
import type { ByteStream } from '../../../native/transports/byte-stream';
import { openPtyStreams, sleep, until, type PtyStreams } from '../support/pty-streams';

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

/**
 * A pad whose every byte the test writes, over a real socat pty: what it says goes out in order, as from
 * a pad that does one thing at a time. It hears packets through the same decoder the driver uses.
 */
class ScriptedPad {
  private readonly decoder = new PacketDecoder();
  private chain: Promise<void> = Promise.resolve();
  private readonly handlers: ((id: string) => void)[] = [];
  readonly heard: string[] = [];

  constructor(private readonly stream: ByteStream) {
    stream.onData((chunk) =>
      this.decoder.push(chunk, (e) => {
        if (e.type !== 'packet') return;
        const text = bodyText(e.body);
        this.heard.push(text);
        // The idle text after a PIN is ACKed like any display: not what these scripts are about.
        if (text.startsWith('Z2')) this.say([ACK]);
        for (const h of this.handlers) h(text);
      }),
    );
  }

  /** Writes `bytes` `afterMs` after everything said before it. */
  say(bytes: readonly number[] | Uint8Array, afterMs = 0): void {
    const copy = Uint8Array.from(bytes);
    this.chain = this.chain.then(async () => {
      if (afterMs > 0) await sleep(afterMs);
      await this.stream.write(copy);
    });
  }

  /** Runs `script` for each packet heard whose text starts with `prefix` (`Z62.`, `72`). */
  on(prefix: string, script: (nth: number) => void): void {
    let n = 0;
    this.handlers.push((text) => {
      if (text.startsWith(prefix)) script((n += 1));
    });
  }
}

const answer73 = (ksn: string): Uint8Array =>
  encodeMessage({ type: '73', ksn, pinBlock: '0123456789ABCDEF' });

describe('PinPadDriver: an answer counts only for the request it belongs to (scripted pad, socat pty)', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup(): Promise<{ pad: ScriptedPad; driver: PinPadDriver }> {
    pty = await openPtyStreams();
    return { pad: new ScriptedPad(pty.device), driver: new PinPadDriver(pty.host, { ackTimeoutMs: ACK_MS }) };
  }

  it('one stray ACK byte: the cancel’s late EOT does not turn the next customer’s PIN entry into “cancelled”', async () => {
    const { pad, driver } = await setup();
    pad.on('Z62.', (nth) => {
      // First customer: an ACK byte from nowhere reaches the host before the pad's NAK of a request that
      // arrived damaged, so the pad never asks for a PIN. Second customer: a normal PIN entry.
      if (nth === 1) pad.say([ACK, NAK]);
      else pad.say([ACK, ...answer73('FFFF9876543210E00002')]);
    });
    // The pad takes its time to close the session the host cancels: longer than one ACK wait.
    pad.on('72', () => {
      pad.say([ACK]);
      pad.say([EOT], 3 * ACK_MS);
    });
    expect(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 400 })).toEqual({ kind: 'timeout' });
    const next = await driver.requestPin({ pan, amountCents: 700, timeoutMs: 5000 });
    expect(next).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00002' });
    expect(pad.heard.filter((t) => t.startsWith('Z62.'))).toHaveLength(2);
  });

  it('a PIN block answering an earlier request never answers a later one', async () => {
    const { pad, driver } = await setup();
    pad.on('Z62.', (nth) => {
      if (nth === 1) pad.say([ACK]);
      // The first customer's answer, late (the pad resends what it thinks the host missed), crosses the
      // second request on the line, ahead of the pad's ACK of it; then that copy again, then the answer.
      else
        pad.say([
          ...answer73('FFFF9876543210E00001'),
          ACK,
          ...answer73('FFFF9876543210E00001'),
          ...answer73('FFFF9876543210E00002'),
        ]);
    });
    pad.on('72', () => pad.say([ACK, EOT]));
    expect(await driver.requestPin({ pan, amountCents: 500, timeoutMs: 300 })).toEqual({ kind: 'timeout' });
    const next = await driver.requestPin({ pan, amountCents: 700, timeoutMs: 5000 });
    expect(next).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00002' });
    expect(driver.health().detail).toMatchObject({ lateAnswersDropped: 1, duplicatesDropped: 1 });
  });

  it('the cardholder’s Cancel crossing the host’s cancel: both EOTs end the old session, the next PIN is read', async () => {
    const { pad, driver } = await setup();
    pad.on('Z62.', (nth) => {
      if (nth === 1) pad.say([ACK]);
      else pad.say([ACK, ...answer73('FFFF9876543210E00001')], 50);
    });
    // The cardholder pressed Cancel (EOT) just as the host's 72 arrived; the pad then takes the 72 and
    // ends that session too, a moment later.
    pad.on('72', () => {
      pad.say([EOT, ACK]);
      pad.say([EOT], 100);
    });
    const first = driver.requestPin({ pan, amountCents: 500, timeoutMs: 5000 });
    await until(() => pad.heard.length === 1, 2000, 'the request on the line');
    await sleep(50);
    await driver.cancel();
    expect(await first).toEqual({ kind: 'cancelled' });
    const next = await driver.requestPin({ pan, amountCents: 700, timeoutMs: 5000 });
    expect(next).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00001' });
  });
});
