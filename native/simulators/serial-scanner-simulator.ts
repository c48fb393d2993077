/**
 * A serial (RS-232 / USB-CDC) barcode scanner: each scan is sent as ASCII, with the AIM identifier first
 * when it is set to send one, and its suffix after (CR by default; CR LF and LF are the other usual
 * settings). Faults: slow scans, a scan cut into pieces with gaps (a UART's partial reads), the cable
 * pulled halfway through a scan.
 */
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';
import { scannerText, type TestBarcode } from './test-barcodes';

export type SerialScannerFaults = {
  slowMs?: number;
  chunkSize?: number;
  chunkGapMs?: number;
  /** Send the first half of the next scan, then close the stream. */
  unplugMidScan?: boolean;
};

export type SerialScannerOptions = {
  /** Send AIM identifiers (`]E0` ...). Default true. */
  aim?: boolean;
  suffix?: '\r' | '\r\n' | '\n' | '';
  faults?: SerialScannerFaults;
};

export class SerialScannerSimulator {
  private readonly stream: ByteStream;
  private readonly writer: StreamWriter;
  private faults: SerialScannerFaults;
  readonly aim: boolean;
  readonly suffix: string;
  scans = 0;

  constructor(stream: ByteStream, options: SerialScannerOptions = {}) {
    this.stream = stream;
    this.aim = options.aim ?? true;
    this.suffix = options.suffix ?? '\r';
    this.faults = { ...options.faults };
    this.writer = new StreamWriter(stream);
    this.applyFaults();
  }

  setFaults(faults: SerialScannerFaults): void {
    this.faults = { ...faults };
    this.applyFaults();
  }

  /** Scans a label; resolves once its bytes are on the stream. */
  async scan(barcode: Pick<TestBarcode, 'symbology' | 'data'>): Promise<void> {
    const text = scannerText(barcode, this.aim) + this.suffix;
    const bytes = Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 0xff));
    this.scans += 1;
    if (this.faults.unplugMidScan) {
      this.writer.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      await this.writer.flushed();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await this.stream.close();
      return;
    }
    this.writer.write(bytes);
    await this.writer.flushed();
  }

  /** Nothing to stop: a scanner only speaks when it scans. */
  stop(): void {}

  private applyFaults(): void {
    this.writer.delayMs = this.faults.slowMs ?? 0;
    this.writer.chunkSize = this.faults.chunkSize;
    this.writer.chunkGapMs = this.faults.chunkGapMs ?? 0;
  }
}
