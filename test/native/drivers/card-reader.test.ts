import { afterEach, describe, expect, it } from 'vitest';
import { CardReaderDriver, swipeToEvent } from '../../../native/drivers/card-reader';
import type { CardReaderEvent } from '../../../native/drivers/roles';
import { buildMagtekFeatureReport, buildMagtekSwipeReport } from '../../../native/protocols/magtek-hid';
import { SwipeReaderSimulator } from '../../../native/simulators/swipe-reader-simulator';
import { TEST_CARDS, track1For, track2For } from '../../../native/simulators/test-cards';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { createKeyboardWedgeTransport } from '../../../native/transports/keyboard-wedge-transport';
import { openPtyStreams, sleep, until, type PtyStreams } from '../support/pty-streams';

const visa = TEST_CARDS[0]!;
const amex = TEST_CARDS.find((c) => c.brand === 'Amex')!;

describe('swipeToEvent', () => {
  it('parses a good swipe into masked fields and raw tracks for the gateway', () => {
    const e = swipeToEvent(track1For(visa) + track2For(visa), 'serial');
    expect(e).toMatchObject({ kind: 'swipe', maskedPan: '411111******1111', last4: '1111', brand: 'Visa' });
    if (e.kind !== 'swipe') throw new Error('expected a swipe');
    expect(e.track2).toBe(track2For(visa).slice(1, -1));
    expect(e.cardholderName).toBe('DOE/JOHN');
  });
  it('turns bad tracks into read errors whose message carries no card data', () => {
    const bad = swipeToEvent('%E?;E?', 'wedge');
    expect(bad).toMatchObject({ kind: 'read-error', reason: 'bad-read' });
    const t1only = swipeToEvent(track1For(visa) + ';E?', 'wedge');
    expect(t1only).toMatchObject({ kind: 'read-error', reason: 'no-track2' });
    const garbage = swipeToEvent('%B41111111?', 'serial');
    expect(garbage.kind).toBe('read-error');
    expect(JSON.stringify([bad, t1only, garbage])).not.toMatch(/4111/);
  });
});

describe('CardReaderDriver over a socat pty (MagTek serial ASCII)', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup(): Promise<{
    sim: SwipeReaderSimulator;
    driver: CardReaderDriver;
    events: CardReaderEvent[];
  }> {
    pty = await openPtyStreams({ baudRate: 9600 });
    const sim = new SwipeReaderSimulator(pty.device);
    const driver = new CardReaderDriver({ kind: 'serial', stream: pty.host });
    const events: CardReaderEvent[] = [];
    driver.onCard((e) => events.push(e));
    return { sim, driver, events };
  }

  it('delivers each swipe exactly once, in order, also when the UART splits it into pieces', async () => {
    const { sim, driver, events } = await setup();
    await sim.swipe(visa);
    sim.setFaults({ chunkSize: 7, chunkGapMs: 15 });
    await sim.swipe(amex);
    sim.setFaults({ slowMs: 150 });
    await sim.swipe(visa);
    await until(() => events.length >= 3, 5000, 'three swipes');
    await sleep(300);
    expect(events.map((e) => (e.kind === 'swipe' ? e.maskedPan : e.kind))).toEqual([
      '411111******1111',
      '378282*****0005',
      '411111******1111',
    ]);
    expect(driver.health()).toMatchObject({ state: 'connected', detail: { swipes: 3, readErrors: 0 } });
  });

  it('reports a bad read as a read-error event and keeps reading', async () => {
    const { sim, events } = await setup();
    await sim.badSwipe();
    await sim.swipe(visa, { track1: 'error' });
    await until(() => events.length >= 2, 5000, 'two events');
    expect(events[0]).toMatchObject({ kind: 'read-error', reason: 'bad-read' });
    // Track 1 in error, track 2 good: the swipe is usable (docs/devices.md §2.4: `E` for the failed track).
    expect(events[1]).toMatchObject({ kind: 'swipe', maskedPan: '411111******1111' });
  });

  it('turns a swipe cut off by an unplug into a read error, and signals the disconnect', async () => {
    const { sim, driver, events } = await setup();
    const disconnected = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    sim.setFaults({ unplugMidSwipe: true });
    await sim.swipe(visa);
    // The simulator closed its end; socat notices and hangs up the driver's end.
    await pty!.pair.close();
    await disconnected;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'read-error', message: 'reader disconnected mid-swipe' });
    expect(driver.health().state).toBe('missing');
  });
});

// No HID device can be created here: the HID path is driven by RECORDED reports (§2.2 layout, built
// byte for byte) through the transport's replay double.
describe('CardReaderDriver over HID (recorded MagTek reports)', () => {
  it('parses 337- and 338-byte reports and reports undecodable swipes', async () => {
    const { port, device } = createRecordedHidPort();
    const driver = new CardReaderDriver({ kind: 'hid', port });
    const events: CardReaderEvent[] = [];
    driver.onCard((e) => events.push(e));
    device.emitReport(buildMagtekSwipeReport(track1For(visa), track2For(visa)));
    device.emitReport(buildMagtekSwipeReport('', track2For(amex), '', { cardStatus: 0 }));
    device.emitReport(buildMagtekSwipeReport({ decodeError: true }, { decodeError: true }));
    device.emitReport(new Uint8Array(64));
    await until(() => events.length >= 4, 2000, 'four HID events');
    expect(events[0]).toMatchObject({ kind: 'swipe', source: 'hid', maskedPan: '411111******1111' });
    expect(events[1]).toMatchObject({ kind: 'swipe', maskedPan: '378282*****0005' });
    expect(events[2]).toMatchObject({ kind: 'read-error', reason: 'bad-read' });
    expect(events[3]).toMatchObject({ kind: 'read-error', reason: 'unparseable' });
    await driver.close();
  });

  it('heartbeats with a GET_PROPERTY feature report and marks a silent reader as error', async () => {
    let answering = true;
    const { port, device } = createRecordedHidPort({
      answerFeature: () =>
        answering ? buildMagtekFeatureReport(0x00, [0x95]) : buildMagtekFeatureReport(0x01),
    });
    const driver = new CardReaderDriver({ kind: 'hid', port });
    await driver.heartbeat!();
    expect(device.sentFeatureReports[0]).toHaveLength(25);
    expect([...device.sentFeatureReports[0]!.subarray(0, 4)]).toEqual([0x00, 0x00, 0x01, 0x04]);
    expect(driver.health().state).toBe('connected');
    answering = false;
    await expect(driver.heartbeat!()).rejects.toThrow(/failure/);
    expect(driver.health().state).toBe('error');
    device.unplug();
    await until(() => driver.health().state === 'missing', 1000, 'unplug');
  });
});

describe('CardReaderDriver over a keyboard wedge', () => {
  it('separates a fast swipe from typing', async () => {
    const wedge = createKeyboardWedgeTransport({ maxGapMs: 50 });
    const driver = new CardReaderDriver({ kind: 'wedge', wedge });
    const events: CardReaderEvent[] = [];
    const typed: string[] = [];
    driver.onCard((e) => events.push(e));
    wedge.onTyped((t) => typed.push(t));
    let t = 1000;
    for (const ch of 'hi') wedge.pushKey(ch, (t += 200));
    for (const ch of track1For(visa) + track2For(visa)) wedge.pushKey(ch, (t += 3));
    wedge.pushKey('Enter', (t += 3));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'swipe', source: 'wedge', maskedPan: '411111******1111' });
    expect(typed.join('')).toBe('hi');
    await driver.close();
  });

  it('decodes boot-keyboard reports from a hidraw keyboard', () => {
    const wedge = createKeyboardWedgeTransport();
    const driver = new CardReaderDriver({ kind: 'wedge', wedge });
    const events: CardReaderEvent[] = [];
    driver.onCard((e) => events.push(e));
    // ';' 0x33, digits 0x1E.., '=' 0x2E, '?' = shift+0x38, Enter 0x28; each key pressed then released.
    const usages: [number, boolean][] = [[0x33, false]];
    const digit = (d: string): [number, boolean] => [d === '0' ? 0x27 : 0x1e + Number(d) - 1, false];
    for (const d of visa.pan) usages.push(digit(d));
    usages.push([0x2e, false]);
    for (const d of `${visa.expiryYYMM}1010000000000000`) usages.push(digit(d));
    usages.push([0x38, true], [0x28, false]);
    let t = 0;
    for (const [usage, shift] of usages) {
      wedge.pushBootReport(Uint8Array.of(shift ? 0x02 : 0, 0, usage, 0, 0, 0, 0, 0), (t += 2));
      wedge.pushBootReport(new Uint8Array(8), (t += 2));
    }
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'swipe', maskedPan: '411111******1111' });
  });
});
