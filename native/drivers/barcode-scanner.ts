import { MAX_SCAN_LENGTH, readBarcodeScan } from '../protocols/barcode-scan';
import { HidPosScanAssembler } from '../protocols/hid-pos-scanner';
import type { PriceEmbeddedLayout } from '../protocols/upc-price-embedded';
import type { ByteStream } from '../transports/byte-stream';
import type { HidDevicePort } from '../transports/hid-transport';
import type { WedgeScanInput } from '../transports/wedge-scan-input';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type { BarcodeScan, BarcodeScanner, DeviceHealth, Unsubscribe } from './roles';
import { systemTimers, type TimerHandle, type Timers } from './timers';

/** The three ways a scanner reaches the terminal; a simulated scanner is all three at once. */
export type ScannerSource =
  /** RS-232 / USB-CDC scanner: ASCII data, an optional AIM identifier first, CR and/or LF after. */
  | { kind: 'serial'; stream: ByteStream }
  /** USB HID POS scanner (usage page 0x8C): scanned data reports (protocols/hid-pos-scanner.ts). */
  | { kind: 'hid'; port: HidDevicePort }
  /** Keyboard wedge: finished scans from the screens' (or the sandbox's) timing rule. */
  | { kind: 'wedge'; input: WedgeScanInput };

export type BarcodeScannerDriverOptions = {
  timers?: Timers;
  /** How the store's scale lays out number-system-2 UPC-A labels. */
  priceEmbeddedLayout?: PriceEmbeddedLayout;
  /**
   * A serial scan normally ends with CR or LF; a scanner set to send no suffix is read as one scan after
   * this much silence. Default 100 ms: a scan streams in within a few ms at 9600 baud and up.
   */
  serialIdleMs?: number;
};

/**
 * Barcode scanner driver: one `BarcodeScan` per physical scan, whatever the transport, read by the one
 * barcode rule. A misread is delivered as a scan with `validated: false` and its reason, so the screen can
 * say "scan it again" instead of looking it up.
 */
export class BarcodeScannerDriver implements BarcodeScanner, DriverLifecycle {
  readonly role = 'scanner' as const;
  /** Scanners speak only when they scan: there is nothing to ask them (no heartbeat). */
  readonly heartbeat = undefined;
  private readonly sources: readonly ScannerSource[];
  private readonly timers: Timers;
  private readonly tracker: HealthTracker;
  private readonly scans: Listeners<BarcodeScan>;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly layout: PriceEmbeddedLayout | undefined;
  private readonly serialIdleMs: number;
  private readonly assembler = new HidPosScanAssembler();
  private serialLine = '';
  private idleTimer: TimerHandle | undefined;
  private closing = false;
  private lost = false;
  private count = 0;
  private refused = 0;

  constructor(sources: readonly ScannerSource[], options: BarcodeScannerDriverOptions = {}) {
    if (sources.length === 0) throw new Error('a scanner needs at least one source');
    this.sources = sources;
    this.timers = options.timers ?? systemTimers;
    this.layout = options.priceEmbeddedLayout;
    this.serialIdleMs = options.serialIdleMs ?? 100;
    this.tracker = new HealthTracker(this.timers);
    this.scans = new Listeners<BarcodeScan>((err) =>
      this.tracker.error(`scan listener failed: ${err instanceof Error ? err.name : 'error'}`),
    );
    for (const source of sources) {
      switch (source.kind) {
        case 'serial':
          this.unsubscribe.push(
            source.stream.onData((chunk) => this.onSerialData(chunk)),
            source.stream.onClose((reason) => this.onTransportClosed(reason)),
          );
          break;
        case 'hid':
          this.unsubscribe.push(
            source.port.onReport((report) => this.onHidReport(report)),
            source.port.onClose((reason) => this.onTransportClosed(reason)),
          );
          break;
        case 'wedge':
          this.unsubscribe.push(
            source.input.onScan((text) => {
              this.tracker.seen();
              this.read(text, 'wedge');
            }),
            source.input.onClose((reason) => this.onTransportClosed(reason)),
          );
          break;
      }
    }
  }

  onScan(listener: (scan: BarcodeScan) => void): Unsubscribe {
    return this.scans.add(listener);
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      transport: this.sources.map((s) => s.kind).join('+'),
      scans: this.count,
      refused: this.refused,
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    for (const u of this.unsubscribe) u();
    this.tracker.closed(undefined);
    await Promise.all(
      this.sources.map((s) =>
        s.kind === 'serial' ? s.stream.close() : s.kind === 'hid' ? s.port.close() : s.input.close(),
      ),
    );
  }

  private read(text: string, source: BarcodeScan['source'], aimId?: string): void {
    const r = readBarcodeScan(text, {
      ...(aimId !== undefined ? { aimId } : {}),
      ...(this.layout ? { priceEmbeddedLayout: this.layout } : {}),
    });
    const scan: BarcodeScan = { kind: 'scan', source, ...r, at: this.timers.now() };
    this.count += 1;
    // A misread is the label's or the aim's, not the scanner's fault: counted, never shown as a device problem.
    if (!scan.validated) this.refused += 1;
    this.scans.emit(scan);
  }

  private onSerialData(chunk: Uint8Array): void {
    this.tracker.seen();
    for (const b of chunk) {
      if (b === 0x0d || b === 0x0a) {
        this.completeSerialScan();
        continue;
      }
      this.serialLine += String.fromCharCode(b);
      if (this.serialLine.length > MAX_SCAN_LENGTH) {
        // Line noise or a scanner sending without a suffix into a wrong baud rate: refuse what came.
        this.read(this.serialLine, 'serial');
        this.serialLine = '';
      }
    }
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer =
      this.serialLine === ''
        ? undefined
        : this.timers.setTimeout(() => this.completeSerialScan(), this.serialIdleMs);
  }

  private completeSerialScan(): void {
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const line = this.serialLine;
    this.serialLine = '';
    // The LF of a CR LF suffix (and keep-alive blank lines) are not scans.
    if (line === '') return;
    this.read(line, 'serial');
  }

  private onHidReport(report: Uint8Array): void {
    this.tracker.seen();
    const r = this.assembler.push(report);
    if (r.kind === 'partial') return;
    if (r.kind === 'error') {
      this.count += 1;
      this.refused += 1;
      this.tracker.error(`unreadable HID POS report: ${r.message}`);
      this.scans.emit({
        kind: 'scan',
        source: 'hid',
        symbology: 'unknown',
        data: '',
        validated: false,
        checkedBy: 'scanner',
        problem: 'the scanner sent a report that could not be read: scan it again',
        at: this.timers.now(),
      });
      return;
    }
    this.read(r.scan.text, 'hid', r.scan.aimId);
  }

  private onTransportClosed(reason: Error | undefined): void {
    if (this.lost) return;
    this.lost = true;
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.serialLine = '';
    this.assembler.reset();
    this.tracker.closed(reason);
    if (this.closing) return;
    // One source gone is the scanner gone (a simulated scanner's three sources are one device): let go of
    // the others, so the manager's reopen starts from fresh ones.
    for (const u of this.unsubscribe) u();
    for (const s of this.sources) {
      const closing =
        s.kind === 'serial' ? s.stream.close() : s.kind === 'hid' ? s.port.close() : s.input.close();
      void closing.catch(() => undefined);
    }
    this.disconnects.emit(reason);
  }
}
