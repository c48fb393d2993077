import { afterEach, describe, expect, it } from 'vitest';
import { WedgeScanDetector } from '../../../common/wedge-scan';
import { BarcodeScannerDriver } from '../../../native/drivers/barcode-scanner';
import type { BarcodeScan } from '../../../native/drivers/roles';
import { buildHidPosScanReports } from '../../../native/protocols/hid-pos-scanner';
import { SerialScannerSimulator } from '../../../native/simulators/serial-scanner-simulator';
import { TEST_BARCODES } from '../../../native/simulators/test-barcodes';
import { WedgeScannerSimulator } from '../../../native/simulators/wedge-scanner-simulator';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { createWedgeScanInput } from '../../../native/transports/wedge-scan-input';
import { openPtyStreams, sleep, until, type PtyStreams } from '../support/pty-streams';

const upcA = { symbology: 'upc-a' as const, data: '036000241457' };
const misreadUpcA = { symbology: 'upc-a' as const, data: '036000241458' };
const code128 = { symbology: 'code-128' as const, data: 'TP-LOYALTY-00042' };
const priceLabel = TEST_BARCODES.find((b) => b.note.includes('item 12345'))!;

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const brief = (s: BarcodeScan) => ({
  source: s.source,
  symbology: s.symbology,
  data: s.data,
  validated: s.validated,
});

describe('BarcodeScannerDriver over a socat pty (serial scanner)', () => {
  let pty: PtyStreams | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  async function setup(options: ConstructorParameters<typeof SerialScannerSimulator>[1] = {}) {
    pty = await openPtyStreams({ baudRate: 9600 });
    const sim = new SerialScannerSimulator(pty.device, options);
    const driver = new BarcodeScannerDriver([{ kind: 'serial', stream: pty.host }]);
    const scans: BarcodeScan[] = [];
    driver.onScan((s) => scans.push(s));
    return { sim, driver, scans };
  }

  it('reads AIM identifier + data + CR, one scan each, also when the UART splits them', async () => {
    const { sim, driver, scans } = await setup();
    await sim.scan(upcA);
    sim.setFaults({ chunkSize: 3, chunkGapMs: 10 });
    await sim.scan(code128);
    sim.setFaults({});
    await sim.scan(priceLabel);
    await until(() => scans.length >= 3, 5000, 'three scans');
    await sleep(200);
    expect(scans.map(brief)).toEqual([
      { source: 'serial', symbology: 'upc-a', data: '036000241457', validated: true },
      { source: 'serial', symbology: 'code-128', data: 'TP-LOYALTY-00042', validated: true },
      { source: 'serial', symbology: 'upc-a', data: priceLabel.data, validated: true },
    ]);
    expect(scans[0]?.aimId).toBe(']E0');
    expect(scans[2]?.priceEmbedded).toEqual({ itemCode: '12345', priceCents: 2875 });
    expect(driver.health()).toMatchObject({ state: 'connected', detail: { scans: 3, refused: 0 } });
  });

  it('refuses a misread with its reason and keeps reading', async () => {
    const { sim, driver, scans } = await setup();
    await sim.scan(misreadUpcA);
    await sim.scan(upcA);
    await until(() => scans.length >= 2, 5000, 'two scans');
    expect(scans[0]).toMatchObject({
      validated: false,
      problem: expect.stringMatching(/check digit/) as unknown,
    });
    expect(scans[0]?.gtin).toBeUndefined();
    expect(scans[1]).toMatchObject({ validated: true });
    expect(driver.health()).toMatchObject({ detail: { scans: 2, refused: 1 } });
    // A misread is the label's, not the scanner's: no device problem on the tech's Health table.
    expect(driver.health().lastError).toBeUndefined();
  });

  it('takes CR LF as one suffix, and a scanner with no suffix and no identifier by its silence', async () => {
    const crlf = await setup({ suffix: '\r\n' });
    await crlf.sim.scan(upcA);
    await crlf.sim.scan(upcA);
    await until(() => crlf.scans.length >= 2, 5000, 'two scans');
    await sleep(150);
    expect(crlf.scans).toHaveLength(2);
    await pty?.close();
    const bare = await setup({ suffix: '', aim: false });
    await bare.sim.scan({ symbology: 'ean-8', data: '96385074' });
    await until(() => bare.scans.length >= 1, 5000, 'a scan after the silence');
    expect(bare.scans[0]).toMatchObject({ symbology: 'ean-8', data: '96385074', validated: true });
    expect(bare.scans[0]?.aimId).toBeUndefined();
  });

  it('signals the disconnect when the cable goes mid-scan, and makes no scan of the half', async () => {
    const { sim, driver, scans } = await setup({ faults: { unplugMidScan: true } });
    const lost = new Promise<void>((resolve) => driver.onDisconnect(() => resolve()));
    await sim.scan(upcA);
    await pty?.pair.close();
    await lost;
    expect(scans).toEqual([]);
    expect(driver.health().state).toBe('missing');
  });
});

describe('BarcodeScannerDriver over recorded HID POS reports', () => {
  // Recorded from the usage tables' layout: report ID 2, byte count, "]E0", data, vendor bytes, continued bit.
  const recordedUpcA = hex(
    '02 0C 5D 45 30 30 33 36 30 30 30 32 34 31 34 35 37' + '00'.repeat(44) + '63 00 00',
  );

  function setup() {
    const { port, device } = createRecordedHidPort({
      info: { vendorId: 0x0c2e, productId: 0x0b8f, usagePage: 0x8c },
    });
    const driver = new BarcodeScannerDriver([{ kind: 'hid', port }]);
    const scans: BarcodeScan[] = [];
    driver.onScan((s) => scans.push(s));
    return { device, driver, scans };
  }

  it('reads a recorded report and a scan continued over two reports', async () => {
    const { device, scans } = setup();
    device.emitReport(recordedUpcA);
    const long = `]Q1${'https://tillpoint.example/loyalty/'.padEnd(70, 'x')}`;
    for (const r of buildHidPosScanReports(long.slice(3), ']Q1')) device.emitReport(r);
    await until(() => scans.length >= 2, 2000, 'two scans');
    expect(scans.map(brief)).toEqual([
      { source: 'hid', symbology: 'upc-a', data: '036000241457', validated: true },
      { source: 'hid', symbology: 'qr', data: long.slice(3), validated: true },
    ]);
  });

  it('refuses a malformed report in words, and reads the next one', async () => {
    const { device, scans } = setup();
    device.emitReport(new Uint8Array(12));
    device.emitReport(recordedUpcA);
    await until(() => scans.length >= 2, 2000, 'two scans');
    expect(scans[0]).toMatchObject({
      source: 'hid',
      validated: false,
      problem: expect.stringMatching(/scan it again/) as unknown,
    });
    expect(scans[1]).toMatchObject({ validated: true });
  });

  it('signals the disconnect on unplug', async () => {
    const { device, driver } = setup();
    const lost = new Promise<Error | undefined>((resolve) => driver.onDisconnect(resolve));
    device.unplug();
    expect((await lost)?.message).toMatch(/disconnected/);
  });
});

describe('BarcodeScannerDriver fed by the keyboard-wedge rule', () => {
  it('reads the scans the shared timing rule tells from the simulated wedge typing, and not the typing', () => {
    const input = createWedgeScanInput();
    const driver = new BarcodeScannerDriver([{ kind: 'wedge', input }]);
    const scans: BarcodeScan[] = [];
    driver.onScan((s) => scans.push(s));
    const detector = new WedgeScanDetector();
    const wedge = new WedgeScannerSimulator();
    wedge.onKeys((keys) => {
      for (const k of keys) {
        const step = detector.push(k.key, k.at);
        if (step.kind === 'scan') input.pushScan(step.data);
      }
    });
    wedge.scan(upcA, 1000);
    // A person typing the same digits and Enter, 70-120 ms apart: no scan.
    [...'036000241457', 'Enter'].forEach((key, i) => detector.push(key, 5000 + i * (70 + (i % 3) * 25)));
    wedge.scan({ symbology: 'code-128', data: 'ABC-123' }, 9000);
    expect(scans.map(brief)).toEqual([
      { source: 'wedge', symbology: 'upc-a', data: '036000241457', validated: true },
      { source: 'wedge', symbology: 'unknown', data: 'ABC-123', validated: true },
    ]);
  });
});
