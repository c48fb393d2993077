/**
 * A USB HID POS barcode scanner (usage page 0x8C): each scan goes out as scanned data reports
 * (protocols/hid-pos-scanner.ts), 56 data bytes a report, continued reports for longer scans. No HID device
 * can be created on the build machines, so the reports go through the same replay double a recorded HID
 * session uses (transports/hid-transport.ts): the driver reads them through the adapter a real device has.
 */
import { aimIdentifierFor } from '../protocols/aim-symbology-id';
import { buildHidPosScanReports, HID_POS_USAGE_PAGE } from '../protocols/hid-pos-scanner';
import {
  createRecordedHidPort,
  type HidDevicePort,
  type RecordedHidDevice,
} from '../transports/hid-transport';
import type { TestBarcode } from './test-barcodes';

/** A Honeywell Voyager 1400g in HID POS mode, as it enumerates (vendor 0x0C2E). */
export const SIMULATED_HID_POS_SCANNER = {
  vendorId: 0x0c2e,
  productId: 0x0b8f,
  usagePage: HID_POS_USAGE_PAGE,
};

export type HidPosScannerOptions = {
  /** Fill the Symbology Identifier bytes. Default true. */
  aim?: boolean;
};

export class HidPosScannerSimulator {
  /** The driver's end. */
  readonly port: HidDevicePort;
  private readonly device: RecordedHidDevice;
  readonly aim: boolean;
  scans = 0;

  constructor(options: HidPosScannerOptions = {}) {
    this.aim = options.aim ?? true;
    const { port, device } = createRecordedHidPort({
      info: { ...SIMULATED_HID_POS_SCANNER, path: 'simulated-hid-pos', product: 'Simulated HID POS scanner' },
    });
    this.port = port;
    this.device = device;
  }

  /** Sends the reports of one scan; they arrive asynchronously, as node-hid delivers them. */
  scan(barcode: Pick<TestBarcode, 'symbology' | 'data'>): void {
    const aim = this.aim ? aimIdentifierFor(barcode.symbology) : undefined;
    for (const r of buildHidPosScanReports(barcode.data, aim)) this.device.emitReport(r);
    this.scans += 1;
  }

  /** The USB cable pulled: hidapi reports a read error, the port closes. */
  unplug(): void {
    this.device.unplug('scanner unplugged');
  }
}
