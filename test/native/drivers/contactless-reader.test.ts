import { afterEach, describe, expect, it } from 'vitest';
import { ContactlessReaderDriver } from '../../../native/drivers/contactless-reader';
import { decodeTlvHex, findTlv } from '../../../native/protocols/ber-tlv';
import { VIVO2_HEADER } from '../../../native/protocols/vivotech2';
import {
  ContactlessSimulator,
  type ContactlessSimulatorOptions,
} from '../../../native/simulators/contactless-simulator';
import { TEST_CARDS } from '../../../native/simulators/test-cards';
import { openPtyStreams, until, type PtyStreams } from '../support/pty-streams';
import { assertKind } from '../../support/narrow';

const visa = TEST_CARDS[0]!;
const mastercard = TEST_CARDS.find((c) => c.brand === 'Mastercard')!;

describe('ContactlessReaderDriver against the ViVOpay simulator over a socat pty', () => {
  let pty: PtyStreams | undefined;
  let sim: ContactlessSimulator | undefined;
  afterEach(async () => {
    sim?.stop();
    await pty?.close();
    pty = undefined;
  });

  async function setup(opts: ContactlessSimulatorOptions = {}): Promise<ContactlessReaderDriver> {
    pty = await openPtyStreams();
    sim = new ContactlessSimulator(pty.device, opts);
    return new ContactlessReaderDriver(pty.host, { commandTimeoutMs: 500, activateGraceMs: 500 });
  }

  it('pings, beeps, and returns the full EMV TLV for the gateway with a log-safe copy', async () => {
    const driver = await setup({ card: mastercard, tapDelayMs: 20 });
    expect(await driver.ping()).toBe(true);
    await driver.beep();
    expect(sim!.beeps).toBe(1);
    const r = await driver.activateTransaction({ amountCents: 1234, timeoutMs: 5000 });
    expect(r.kind).toBe('emv');
    if (r.kind !== 'emv') return;
    expect(r.maskedPan).toBe('555555******4444');
    const full = decodeTlvHex(r.emvTlvHex);
    expect(findTlv(full, '5A')).toBeDefined();
    expect(findTlv(full, '9F02')?.value).toEqual(Uint8Array.of(0, 0, 0, 0, 0x12, 0x34));
    // The log copy keeps the transaction tags and drops the card's and the cryptogram.
    const safe = decodeTlvHex(r.sanitizedEmvHex);
    expect(findTlv(safe, '9F02')).toBeDefined();
    expect(findTlv(safe, '9F27')).toBeDefined();
    for (const tag of ['5A', '57', '5F24', '9F26', '9F10']) expect(findTlv(safe, tag)).toBeUndefined();
    expect(r.sanitizedEmvHex).not.toContain(mastercard.pan);
  });

  it('cancels a waiting transaction, and the late answer is not mistaken for the next one', async () => {
    const driver = await setup({ card: visa, autoTap: false });
    const pending = driver.activateTransaction({ amountCents: 500, timeoutMs: 10_000 });
    await until(() => sim!.waitingForCard, 3000, 'reader waiting for a card');
    await driver.cancel();
    expect(await pending).toEqual({ kind: 'cancelled' });
    await until(() => !sim!.waitingForCard, 3000, 'reader idle');
    const next = driver.activateTransaction({ amountCents: 700, timeoutMs: 10_000 });
    await until(() => sim!.waitingForCard, 3000, 'reader waiting again');
    expect(sim!.tap(visa)).toBe(true);
    const r = await next;
    expect(r).toMatchObject({ kind: 'emv', maskedPan: '411111******1111' });
    expect(findTlv(decodeTlvHex(assertKind(r, 'emv').emvTlvHex), '9F02')?.value).toEqual(
      Uint8Array.of(0, 0, 0, 0, 0x07, 0x00),
    );
  });

  it('a frame cut short by line noise before a command does not swallow that command’s answer', async () => {
    const driver = await setup({ card: visa, tapDelayMs: 20 });
    // A header, a command byte, a status and a length of 64, then the line goes quiet: a host decoder
    // still waiting for those 64 bytes would take the next answer's bytes for them.
    const cut = Uint8Array.of(...VIVO2_HEADER, 0x02, 0x00, 0x00, 0x40, 0x9f, 0x39);
    let heard = 0;
    pty!.host.onData((c) => (heard += c.length));
    await pty!.device.write(cut);
    await until(() => heard === cut.length, 2000, 'the noise at the host');
    expect(await driver.activateTransaction({ amountCents: 500, timeoutMs: 5000 })).toMatchObject({
      kind: 'emv',
      maskedPan: '411111******1111',
    });
  });

  it('reports the reader’s own timeout (status 08) as timeout', async () => {
    const driver = await setup({ autoTap: false });
    expect(await driver.activateTransaction({ amountCents: 500, timeoutMs: 1000 })).toEqual({
      kind: 'timeout',
    });
    expect(await driver.ping()).toBe(true);
  });

  it('bad CRC on the answer: a clean failure asking for a new tap, then recovery', async () => {
    const driver = await setup({ faults: { badCrc: true } });
    expect(await driver.ping()).toBe(false);
    const r = await driver.activateTransaction({ amountCents: 500, timeoutMs: 5000 });
    expect(r).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/tap again/) as string });
    expect(driver.health().detail).toMatchObject({ badCrc: 2 });
    sim!.setFaults({});
    expect(await driver.activateTransaction({ amountCents: 500, timeoutMs: 5000 })).toMatchObject({
      kind: 'emv',
    });
  });

  it('NAK storm (status 04 to everything) fails the heartbeat; slow answers within the wait succeed', async () => {
    const driver = await setup({ faults: { nakStorm: true } });
    await expect(driver.heartbeat()).rejects.toThrow(/ping/);
    expect(driver.health().state).toBe('error');
    sim!.setFaults({ slowMs: 200 });
    await driver.heartbeat();
    expect(driver.health().state).toBe('connected');
  });

  it('unplug mid-transaction: the pending activate fails once, the driver signals the disconnect', async () => {
    const driver = await setup({ faults: { unplugOnActivate: true } });
    sim!.on((e) => {
      if (e.type === 'activated') void pty!.pair.close();
    });
    const disconnected = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    const closeCable = setTimeout(() => void pty!.pair.close(), 100);
    const r = await driver.activateTransaction({ amountCents: 500, timeoutMs: 5000 });
    clearTimeout(closeCable);
    expect(r).toEqual({ kind: 'failed', reason: 'contactless reader disconnected' });
    await disconnected;
    expect(driver.health().state).toBe('missing');
  });
});
