import { afterEach, describe, expect, it } from 'vitest';
import { WedgeScanDetector } from '../../../common/wedge-scan';
import {
  emptyLaneConfig,
  simulatedLaneConfig,
  validateLaneDeviceConfig,
  type LaneDeviceConfig,
} from '../../../native/devices/device-config';
import { createDeviceManager, type DeviceManager } from '../../../native/devices/device-manager';
import { discoverDevices, hidDiscoveryFilters } from '../../../native/devices/discovery';
import { createSimulatedDevices, type SimulatedDevices } from '../../../native/devices/simulated-devices';
import type { BarcodeScan } from '../../../native/drivers/roles';
import { buildHidPosScanReports } from '../../../native/protocols/hid-pos-scanner';
import { createRecordedHidPort, type HidSelector } from '../../../native/transports/hid-transport';
import { until } from '../support/pty-streams';

const usd = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
const upcA = { symbology: 'upc-a' as const, data: '036000241457' };
const blank = ' '.repeat(20);

describe('the sandbox scanner and pole display behind the real drivers', () => {
  let sims: SimulatedDevices | undefined;
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    await sims?.stop();
    manager = undefined;
    sims = undefined;
  });

  async function setup(): Promise<{ sims: SimulatedDevices; manager: DeviceManager; scans: BarcodeScan[] }> {
    sims = createSimulatedDevices();
    manager = createDeviceManager({
      config: simulatedLaneConfig(),
      simulated: sims,
      backoff: { initialMs: 20, maxMs: 100 },
      rediscoveryMs: 0,
    });
    await manager.start();
    const scans: BarcodeScan[] = [];
    manager.devices.scanner.onScan((s) => scans.push(s));
    // Where a wedge's keys go: the shared timing rule, then the manager's wedge input (as the core does).
    const m = manager;
    const detector = new WedgeScanDetector();
    sims.controls.onWedgeKeys((keys) => {
      for (const k of keys) {
        const step = detector.push(k.key, k.at);
        if (step.kind === 'scan') m.scannerWedge()?.pushScan(step.data);
      }
    });
    return { sims, manager, scans };
  }

  it('scans through each scanner kind the simulated scanner plays', async () => {
    const { sims, manager, scans } = await setup();
    expect(manager.statusOf('scanner').health).toMatchObject({
      state: 'connected',
      detail: { transport: 'serial+hid+wedge' },
    });
    await sims.controls.scan(upcA, 'serial');
    await sims.controls.scan({ symbology: 'ean-8', data: '96385074' }, 'hid');
    await sims.controls.scan({ symbology: 'code-128', data: 'TP-LOYALTY-00042' }, 'wedge');
    await sims.controls.scan({ symbology: 'upc-a', data: '036000241458' }, 'hid');
    await until(() => scans.length >= 4, 3000, 'four scans');
    expect(scans.map((s) => [s.source, s.symbology, s.data, s.validated])).toEqual([
      ['serial', 'upc-a', '036000241457', true],
      ['hid', 'ean-8', '96385074', true],
      ['wedge', 'unknown', 'TP-LOYALTY-00042', true],
      ['hid', 'upc-a', '036000241458', false],
    ]);
    expect(sims.controls.state().scanner.scans).toBe(4);
  });

  it('runs the tech tests: read a barcode, show the display test', async () => {
    const { sims, manager } = await setup();
    const read = manager.runTest({ role: 'scanner', action: 'read-barcode', timeoutMs: 3000 });
    await sims.controls.scan(upcA, 'serial');
    expect(await read).toEqual({
      ok: true,
      detail: 'upc-a 036000241457: valid (check digit verified)',
    });
    const misread = manager.runTest({ role: 'scanner', action: 'read-barcode', timeoutMs: 3000 });
    await sims.controls.scan({ symbology: 'upc-a', data: '036000241458' }, 'hid');
    expect(await misread).toMatchObject({
      ok: false,
      error: expect.stringMatching(/refused, the check digit/) as unknown,
    });
    expect(
      await manager.runTest({ role: 'poleDisplay', action: 'display-test', text: 'LANE 3' }),
    ).toMatchObject({
      ok: true,
    });
    await until(
      () => sims.controls.state().poleDisplay.lines[0].includes('LANE 3'),
      3000,
      'the display test',
    );
    expect(sims.controls.state().poleDisplay.lines).toEqual(['       LANE 3       ', '12345678901234567890']);
  });

  it('gives the core a pole display to show items, totals and messages on', async () => {
    const { sims, manager } = await setup();
    const pole = manager.devices.poleDisplay;
    await pole.showItem({ name: 'Coffee beans 1 lb', priceCents: 1299 }, usd, {
      label: 'Subtotal',
      cents: 1598,
    });
    await until(() => sims.controls.state().poleDisplay.lines[0].startsWith('Coffee'), 3000, 'the item');
    expect(sims.controls.state().poleDisplay.lines).toEqual(['Coffee beans  $12.99', 'Subtotal      $15.98']);
    await pole.showMessage('THANK YOU');
    await until(() => sims.controls.state().poleDisplay.lines[0].includes('THANK'), 3000, 'thank you');
    expect(pole.lines()).toEqual(['     THANK YOU      ', blank]);
  });

  it('reconnects a scanner unplugged and plugged back, with all three sides working again', async () => {
    const { sims, manager, scans } = await setup();
    await sims.controls.unplug('scanner');
    await until(
      () => manager.statusOf('scanner').health.state === 'reconnecting',
      2000,
      'the unplug noticed',
    );
    expect(manager.scannerWedge()).toBeUndefined();
    await expect(sims.controls.scan(upcA, 'serial')).rejects.toThrow(/unplugged/);
    sims.controls.replug('scanner');
    await until(() => manager.statusOf('scanner').health.state === 'connected', 3000, 'the scanner back');
    await sims.controls.scan(upcA, 'hid');
    await sims.controls.scan(upcA, 'wedge');
    await until(() => scans.length >= 2, 3000, 'two scans after the replug');
    expect(scans.map((s) => s.source)).toEqual(['hid', 'wedge']);
  });

  it('shows nothing on an unplugged pole display, and answers "not connected" to the core', async () => {
    const { sims, manager } = await setup();
    await manager.devices.poleDisplay.showMessage('HELLO');
    await sims.controls.unplug('poleDisplay');
    await until(() => manager.statusOf('poleDisplay').health.state === 'reconnecting', 2000, 'the unplug');
    expect(sims.controls.state().poleDisplay.lines).toEqual([blank, blank]);
    await expect(manager.devices.poleDisplay.showMessage('HELLO')).rejects.toThrow(
      /poleDisplay not connected/,
    );
    expect(manager.devices.poleDisplay.lines()).toBeUndefined();
    expect(await manager.runTest({ role: 'poleDisplay', action: 'display-test' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^poleDisplay is reconnecting/) as unknown,
    });
  });
});

describe('real scanner connections through the manager', () => {
  let manager: DeviceManager | undefined;
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });

  it('opens a HID scanner on its HID POS interface (usage page 0x8C) and reads its reports', async () => {
    const recorded = createRecordedHidPort({
      info: { vendorId: 0x0c2e, productId: 0x0b8f, usagePage: 0x8c },
    });
    const asked: HidSelector[] = [];
    const config: LaneDeviceConfig = {
      ...emptyLaneConfig(),
      scanner: { kind: 'hid', vendorId: 0x0c2e, productId: 0x0b8f },
    };
    manager = createDeviceManager({
      config,
      rediscoveryMs: 0,
      transports: {
        openHid: (selector) => {
          asked.push(selector);
          return Promise.resolve(recorded.port);
        },
      },
    });
    const scans: BarcodeScan[] = [];
    manager.devices.scanner.onScan((s) => scans.push(s));
    await manager.start();
    expect(asked).toEqual([{ vendorId: 0x0c2e, productId: 0x0b8f, usagePage: 0x8c }]);
    for (const r of buildHidPosScanReports('036000241457', ']E0')) recorded.device.emitReport(r);
    await until(() => scans.length === 1, 2000, 'the scan');
    expect(scans[0]).toMatchObject({ source: 'hid', symbology: 'upc-a', validated: true });
    expect(manager.scannerWedge()).toBeUndefined();
  });

  it('takes wedge scans for a keyboard-wedge scanner, keeping its prefix and suffix settings', async () => {
    const v = validateLaneDeviceConfig({
      scanner: { kind: 'wedge', prefix: '~', suffix: 'Tab', minLength: 8 },
    });
    expect(v).toMatchObject({
      ok: true,
      value: { scanner: { kind: 'wedge', prefix: '~', suffix: 'Tab', minLength: 8 } },
    });
    manager = createDeviceManager({ config: v.ok ? v.value : emptyLaneConfig(), rediscoveryMs: 0 });
    await manager.start();
    const scans: BarcodeScan[] = [];
    manager.devices.scanner.onScan((s) => scans.push(s));
    manager.scannerWedge()?.pushScan(']E06291041500213');
    expect(scans).toMatchObject([
      { source: 'wedge', symbology: 'ean-13', data: '6291041500213', validated: true },
    ]);
    expect(manager.statusOf('scanner')).toMatchObject({ kind: 'wedge', attachment: 'keyboard' });
  });
});

describe('scanner and pole display configuration and discovery', () => {
  it('keeps wedge settings for the scanner only, and names a bad one', () => {
    const v = validateLaneDeviceConfig({
      cardReader: { kind: 'wedge', prefix: '~' },
      scanner: { kind: 'wedge', prefix: '~', maxGapMs: 40 },
      poleDisplay: {
        kind: 'serial',
        path: '/dev/ttyUSB3',
        baudRate: 9600,
        dataBits: 8,
        parity: 'none',
        stopBits: 1,
      },
    });
    expect(v).toMatchObject({
      ok: true,
      value: {
        cardReader: { kind: 'wedge' },
        scanner: { kind: 'wedge', prefix: '~', maxGapMs: 40 },
        poleDisplay: { kind: 'serial', path: '/dev/ttyUSB3' },
      },
    });
    expect(v.ok && 'prefix' in v.value.cardReader).toBe(false);
    const bad = validateLaneDeviceConfig({ scanner: { kind: 'wedge', prefix: '\u0002', suffix: 'Escape' } });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.errors.join(' ')).toMatch(/scanner\.prefix.*|scanner\.suffix/);
    expect(
      validateLaneDeviceConfig({ poleDisplay: { kind: 'hid', vendorId: 1, productId: 2 } }),
    ).toMatchObject({
      ok: false,
      errors: ['poleDisplay: a hid connection is not supported for this role'],
    });
  });

  it('finds HID POS scanners of any maker by usage page 0x8C, and a scanner maker’s keyboard as a wedge', async () => {
    expect(hidDiscoveryFilters).toContainEqual({ usagePage: 0x8c });
    const result = await discoverDevices({
      listSerial: () => Promise.resolve({ method: 'udev', ports: [] }),
      listHid: () =>
        Promise.resolve({
          available: true,
          devices: [
            { vendorId: 0x1a86, productId: 0xe026, path: '/dev/hidraw4', usagePage: 0x8c },
            { vendorId: 0x0c2e, productId: 0x0b87, path: '/dev/hidraw5', usagePage: 0x01 },
          ],
        }),
    });
    expect(result.devices).toMatchObject([
      {
        path: '/dev/hidraw4',
        guess: { role: 'scanner', confidence: 'high' },
        suggestion: { kind: 'hid', vendorId: 0x1a86, productId: 0xe026 },
      },
      {
        path: '/dev/hidraw5',
        guess: { role: 'scanner', model: 'Honeywell barcode scanner' },
        suggestion: { kind: 'wedge' },
      },
    ]);
  });
});
