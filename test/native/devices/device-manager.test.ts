import { afterEach, describe, expect, it } from 'vitest';
import {
  emptyLaneConfig,
  serialConnection,
  type LaneDeviceConfig,
} from '../../../native/devices/device-config';
import { createDeviceManager, type DeviceManager } from '../../../native/devices/device-manager';
import { backoffDelay } from '../../../native/drivers/backoff';
import { PinPadSimulator } from '../../../native/simulators/pinpad-simulator';
import { PrinterSimulator } from '../../../native/simulators/printer-simulator';
import { SwipeReaderSimulator } from '../../../native/simulators/swipe-reader-simulator';
import { SANDBOX_PIN, TEST_CARDS } from '../../../native/simulators/test-cards';
import type { ByteStream } from '../../../native/transports/byte-stream';
import { listSerialPorts, openSerialStream } from '../../../native/transports/serial-transport';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { buildMagtekFeatureReport, buildMagtekSwipeReport } from '../../../native/protocols/magtek-hid';
import { track1For, track2For } from '../../../native/simulators/test-cards';
import type { CardReaderEvent } from '../../../native/drivers/roles';
import { createManualTimers } from '../support/manual-timers';
import { ReplugablePty, sleep, until } from '../support/pty-streams';
import { assertRefused } from '../../support/narrow';

const line = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 } as const;

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, with symmetric jitter', () => {
    const p = { initialMs: 500, maxMs: 30_000, multiplier: 2, jitter: 0.2 };
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(p, a, () => 0.5))).toEqual([
      500, 1000, 2000, 4000, 30_000,
    ]);
    expect(backoffDelay(p, 1, () => 0)).toBe(800);
    expect(backoffDelay(p, 1, () => 0.999999)).toBe(1200);
  });
});

describe('DeviceManager on a machine with no udev, no libusb and no device', () => {
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });

  const config: LaneDeviceConfig = {
    ...emptyLaneConfig(),
    cardReader: { kind: 'hid', vendorId: 0x0801, productId: 0x0002 },
    pinPad: serialConnection('pinPad', '/dev/ttyUSB97'),
    receiptPrinter: serialConnection('receiptPrinter', '/nonexistent/printer'),
  };
  const libusbMissing = 'HID unavailable: libusb-1.0.so.0: cannot open shared object file';

  it('starts cleanly and reports every device as missing (udevadm off PATH, libusb absent)', async () => {
    manager = createDeviceManager({
      config,
      rediscoveryMs: 50,
      transports: {
        // What this machine looks like without udev and libusb, whatever it has installed today.
        listSerial: (o) => listSerialPorts({ ...o, searchPath: '/nonexistent-bin' }),
        listHid: () => Promise.resolve({ available: false, reason: libusbMissing, devices: [] }),
        openHid: () => Promise.reject(new Error(libusbMissing)),
      },
    });
    await manager.start();
    const status = manager.status();
    expect(status.map((s) => [s.role, s.health.state])).toEqual([
      ['cardReader', 'missing'],
      ['pinPad', 'missing'],
      ['contactless', 'missing'],
      ['signaturePad', 'missing'],
      ['receiptPrinter', 'missing'],
      ['scanner', 'missing'],
      ['poleDisplay', 'missing'],
    ]);
    expect(status[0]?.health.lastError).toMatch(/HID unavailable|no HID device/);
    expect(status[1]?.health.lastError).toMatch(/cannot open \/dev\/ttyUSB97/);
    expect(status[2]?.health.detail).toEqual({ configured: false });
    // The role objects answer instead of throwing into the sale flow.
    expect(
      await manager.devices.pinPad.requestPin({ pan: '4111111111111111', amountCents: 1, timeoutMs: 10 }),
    ).toEqual({ kind: 'failed', reason: 'PIN pad not connected' });
    expect(await manager.runTest({ role: 'receiptPrinter', action: 'print-test-receipt' })).toMatchObject({
      ok: false,
    });
    const discovery = await manager.discover();
    expect(discovery.hid).toEqual({ available: false, reason: libusbMissing });
    expect(discovery.serial).toMatchObject({
      method: 'scan',
      note: expect.stringMatching(/udevadm not found/) as string,
    });
    await sleep(120); // a couple of rediscovery rounds: still nothing, still no crash
    expect(manager.status().every((s) => s.health.state === 'missing')).toBe(true);
  });

  it('starts cleanly with the real system transports of this machine', async () => {
    manager = createDeviceManager({ config, rediscoveryMs: 0 });
    await manager.start();
    expect(manager.status().every((s) => s.health.state === 'missing')).toBe(true);
    const discovery = await manager.discover();
    expect(['udev', 'scan']).toContain(discovery.serial.method);
  });
});

describe('DeviceManager with HID and keyboard-wedge card readers', () => {
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });

  it('drives a HID reader through the transport factory (recorded reports) and heartbeats it', async () => {
    const hid = createRecordedHidPort({ answerFeature: () => buildMagtekFeatureReport(0x00, [0x95]) });
    const clock = createManualTimers();
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), cardReader: { kind: 'hid', vendorId: 0x0801, productId: 0x0002 } },
      transports: { openHid: () => Promise.resolve(hid.port) },
      timers: clock.timers,
      heartbeatMs: 1000,
      rediscoveryMs: 0,
    });
    const events: CardReaderEvent[] = [];
    manager.devices.cardReader.onCard((e) => events.push(e));
    await manager.start();
    expect(manager.statusOf('cardReader')).toMatchObject({
      attachment: 'hid:0x0801:0x0002',
      health: { state: 'connected' },
    });
    hid.device.emitReport(buildMagtekSwipeReport(track1For(TEST_CARDS[0]!), track2For(TEST_CARDS[0]!)));
    await until(() => events.length === 1, 2000, 'HID swipe');
    expect(events[0]).toMatchObject({ kind: 'swipe', source: 'hid', maskedPan: '411111******1111' });
    clock.advance(1000);
    await until(() => hid.device.sentFeatureReports.length === 1, 2000, 'feature-report heartbeat');
    hid.device.unplug();
    await until(() => manager!.statusOf('cardReader').health.state === 'reconnecting', 2000, 'HID unplug');
  });

  it('hands the renderer a keyboard wedge when the reader is configured as one', async () => {
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), cardReader: { kind: 'wedge' } },
      rediscoveryMs: 0,
    });
    const events: CardReaderEvent[] = [];
    manager.devices.cardReader.onCard((e) => events.push(e));
    await manager.start();
    const wedge = manager.keyboardWedge();
    expect(wedge).toBeDefined();
    let t = 0;
    for (const ch of track2For(TEST_CARDS[0]!)) wedge!.pushKey(ch, (t += 2));
    wedge!.pushKey('Enter', (t += 2));
    expect(events).toMatchObject([{ kind: 'swipe', source: 'wedge', maskedPan: '411111******1111' }]);
    expect(manager.statusOf('cardReader')).toMatchObject({
      attachment: 'keyboard',
      health: { state: 'connected' },
    });
  });

  it('reconfigure reopens only the roles whose connection changed, and refuses a bad config', async () => {
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), cardReader: { kind: 'wedge' } },
      rediscoveryMs: 0,
    });
    await manager.start();
    const wedge = manager.keyboardWedge();
    const bad = await manager.reconfigure({
      cardReader: { kind: 'wedge' },
      pinPad: { kind: 'serial', path: '' },
    });
    expect(assertRefused(bad).errors.every((e) => e.startsWith('pinPad'))).toBe(true);
    expect(manager.config.pinPad).toEqual({ kind: 'none' });
    const r = await manager.reconfigure({
      cardReader: { kind: 'wedge' },
      pinPad: serialConnection('pinPad', '/dev/ttyUSB98'),
    });
    expect(r).toEqual({ ok: true });
    expect(manager.keyboardWedge()).toBe(wedge);
    expect(manager.statusOf('pinPad')).toMatchObject({
      attachment: '/dev/ttyUSB98',
      health: { state: 'missing' },
    });
    expect(manager.config.pinPad).toMatchObject({ kind: 'serial', path: '/dev/ttyUSB98' });
  });
});

describe('DeviceManager with a pty device that disappears and comes back', () => {
  let manager: DeviceManager | undefined;
  let pty: ReplugablePty | undefined;
  let deviceEnd: ByteStream | undefined;
  afterEach(async () => {
    await manager?.stop();
    await deviceEnd?.close().catch(() => undefined);
    await pty?.dispose();
    manager = undefined;
  });

  async function plugPrinter(p: ReplugablePty): Promise<PrinterSimulator> {
    await p.plug();
    deviceEnd = await openSerialStream({ path: p.devicePath, ...line });
    return new PrinterSimulator(deviceEnd);
  }

  it('reconnects with exponential backoff, heartbeats, and prints again after the replug', async () => {
    pty = new ReplugablePty();
    await plugPrinter(pty);
    const clock = createManualTimers();
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), receiptPrinter: serialConnection('receiptPrinter', pty.hostPath) },
      timers: clock.timers,
      random: () => 0.5,
      heartbeatMs: 1000,
      rediscoveryMs: 0,
      backoff: { initialMs: 500, maxMs: 4000 },
    });
    const states: string[] = [];
    manager.onStatus((s) => states.push(`${s.health.state}:${s.attempts}`));
    await manager.start();
    expect(manager.statusOf('receiptPrinter').health.state).toBe('connected');

    // Heartbeat: a DLE EOT round trip over the pty fills in the paper state.
    clock.advance(1000);
    await until(
      () => manager!.statusOf('receiptPrinter').health.detail?.paper === 'ok',
      3000,
      'heartbeat answer',
    );

    // Unplug: socat goes away with both ends.
    await pty.unplug();
    await until(
      () => manager!.statusOf('receiptPrinter').health.state === 'reconnecting',
      3000,
      'disconnect',
    );

    // Each failed attempt doubles the wait: 500, 1000, 2000, then the 4000 cap.
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const s = manager.statusOf('receiptPrinter');
      waits.push(s.nextAttemptAt! - clock.now());
      clock.advance(s.nextAttemptAt! - clock.now());
      await until(() => manager!.statusOf('receiptPrinter').attempts === i + 2, 3000, `attempt ${i + 2}`);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(manager.statusOf('receiptPrinter').health.state).toBe('reconnecting');
    expect(manager.statusOf('receiptPrinter').health.lastError).toMatch(/cannot open/);

    // Plug back in at the same path; the next attempt opens it.
    await deviceEnd?.close().catch(() => undefined);
    const printer2 = await plugPrinter(pty);
    clock.advance(manager.statusOf('receiptPrinter').nextAttemptAt! - clock.now());
    await until(() => manager!.statusOf('receiptPrinter').health.state === 'connected', 3000, 'reconnect');
    expect(manager.statusOf('receiptPrinter').attempts).toBe(0);
    expect(states[0]).toBe('connected:0');
    expect(states).toContain('reconnecting:1');
    expect(states.at(-1)).toBe('connected:0');

    const printed = await manager.devices.receiptPrinter.print({
      lines: [{ kind: 'text', text: 'AFTER REPLUG' }],
    });
    expect(printed).toEqual({ ok: true });
    await until(() => printer2.receipts.length === 1, 3000, 'receipt');
    expect(printer2.receipts[0]?.lines.map((l) => l.text.trim())).toContain('AFTER REPLUG');
  });

  it('marks a device that stops answering heartbeats as error, then reopens it', async () => {
    pty = new ReplugablePty();
    const printer = await plugPrinter(pty);
    const clock = createManualTimers();
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), receiptPrinter: serialConnection('receiptPrinter', pty.hostPath) },
      timers: clock.timers,
      random: () => 0.5,
      heartbeatMs: 1000,
      heartbeatFailuresBeforeReconnect: 2,
      rediscoveryMs: 0,
      drivers: { receiptPrinter: { statusTimeoutMs: 200 } },
    });
    await manager.start();
    printer.stop(); // the printer hangs: the port stays open, nothing answers
    clock.advance(1000);
    await sleep(50);
    clock.advance(200);
    await until(
      () => /no heartbeat answer \(1\)/.test(manager!.statusOf('receiptPrinter').health.lastError ?? ''),
      3000,
      'first miss',
    );
    expect(manager.statusOf('receiptPrinter').health.state).toBe('error');
    clock.advance(1000);
    await sleep(50);
    clock.advance(200);
    await until(() => manager!.statusOf('receiptPrinter').health.state === 'reconnecting', 3000, 'reopen');
    // The port itself is fine, so the reopen succeeds; a fresh printer answers this time.
    const fresh = new PrinterSimulator(deviceEnd!);
    clock.advance(manager.statusOf('receiptPrinter').nextAttemptAt! - clock.now());
    await until(() => manager!.statusOf('receiptPrinter').health.state === 'connected', 3000, 'reopened');
    const test = manager.runTest({ role: 'receiptPrinter', action: 'status' });
    expect(await test).toMatchObject({ ok: true, detail: 'paper ok, cover closed, online' });
    expect(fresh.condition).toEqual({});
  });

  it('hot-plug: a device missing at start is opened as soon as rediscovery sees it', async () => {
    pty = new ReplugablePty();
    const clock = createManualTimers();
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), cardReader: serialConnection('cardReader', pty.hostPath) },
      timers: clock.timers,
      random: () => 0.5,
      rediscoveryMs: 300,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    const swipes: string[] = [];
    manager.devices.cardReader.onCard((e) => swipes.push(e.kind === 'swipe' ? e.maskedPan : e.kind));
    await manager.start();
    expect(manager.statusOf('cardReader').health.state).toBe('missing');
    await pty.plug();
    deviceEnd = await openSerialStream({ path: pty.devicePath, ...line });
    clock.advance(300);
    await until(() => manager!.statusOf('cardReader').health.state === 'connected', 3000, 'hot-plug');
    // Far earlier than the 60 s backoff: rediscovery found it.
    expect(clock.now() - Date.UTC(2030, 0, 1)).toBeLessThan(1000);
    await new SwipeReaderSimulator(deviceEnd).swipe(TEST_CARDS[0]);
    await until(() => swipes.length === 1, 3000, 'swipe');
    expect(swipes).toEqual(['411111******1111']);
    const ports = await manager.discover();
    expect(ports.devices.some((d) => d.path === pty!.hostPath)).toBe(true);
  });

  it('PIN pad unplugged mid-transaction: the request fails once, the pad comes back, the retry yields one PIN block', async () => {
    pty = new ReplugablePty();
    await pty.plug();
    deviceEnd = await openSerialStream({ path: pty.devicePath, ...line });
    const first = new PinPadSimulator(deviceEnd, { pin: SANDBOX_PIN, faults: { unplugOnPinRequest: true } });
    first.on((e) => {
      if (e.type === 'unplugged') void pty!.unplug();
    });
    manager = createDeviceManager({
      config: { ...emptyLaneConfig(), pinPad: serialConnection('pinPad', pty.hostPath) },
      backoff: { initialMs: 30, maxMs: 120 },
      rediscoveryMs: 0,
      drivers: { pinPad: { ackTimeoutMs: 300 } },
    });
    await manager.start();
    const pan = TEST_CARDS[0]!.pan;
    const results = [await manager.devices.pinPad.requestPin({ pan, amountCents: 100, timeoutMs: 5000 })];
    expect(results[0]).toEqual({ kind: 'failed', reason: 'PIN pad disconnected' });
    await until(() => manager!.statusOf('pinPad').attempts >= 3, 3000, 'retries while unplugged');
    expect(manager.statusOf('pinPad').health.state).toBe('reconnecting');

    await deviceEnd.close().catch(() => undefined);
    await pty.plug();
    deviceEnd = await openSerialStream({ path: pty.devicePath, ...line });
    new PinPadSimulator(deviceEnd, { pin: SANDBOX_PIN, initialKsn: first.ksn });
    await until(() => manager!.statusOf('pinPad').health.state === 'connected', 3000, 'reconnected');
    results.push(await manager.devices.pinPad.requestPin({ pan, amountCents: 100, timeoutMs: 5000 }));
    // The unplugged request never produced a PIN block; the retry produced exactly one.
    expect(results.filter((r) => r.kind === 'pin')).toHaveLength(1);
    expect(results[1]).toMatchObject({ kind: 'pin', ksn: 'FFFF9876543210E00001' });
  });
});
