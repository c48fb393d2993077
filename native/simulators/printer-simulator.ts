/**
 * An ESC/POS receipt printer (docs/devices.md §6) over any ByteStream: it decodes what it receives
 * into printed lines (kept for tests and the UI's receipt preview), counts cuts and drawer kicks, and
 * answers DLE EOT at once, even mid-receipt, with the paper/cover state the script sets. Faults: slow
 * status answers, and the cable pulled after N bytes.
 */
import {
  type EscPosEvent,
  EscPosDecoder,
  type PrintedLine,
  type PrinterCondition,
  type StatusKind,
  encodeDleEotStatus,
} from '../protocols/escpos';
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';

export type PrinterFaults = {
  /** Delay every status answer, ms. */
  slowMs?: number;
  /** Close the stream once this many bytes have been received (paper jam + power loss). */
  unplugAfterBytes?: number;
};

export type PrinterSimulatorOptions = {
  condition?: PrinterCondition;
  faults?: PrinterFaults;
};

export type PrinterEvent = EscPosEvent | { type: 'status-sent'; n: number; byte: number };

/** A receipt: the lines printed between two cuts. */
export type PrintedReceipt = { lines: PrintedLine[]; partialCut: boolean };

export class PrinterSimulator {
  private readonly stream: ByteStream;
  private readonly writer: StreamWriter;
  private readonly decoder = new EscPosDecoder();
  private readonly listeners = new Set<(e: PrinterEvent) => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private faults: PrinterFaults;
  private received = 0;
  private current: PrintedLine[] = [];
  /** Every line printed since start. */
  readonly lines: PrintedLine[] = [];
  /** Receipts completed by a cut. */
  readonly receipts: PrintedReceipt[] = [];
  cuts = 0;
  drawerKicks = 0;
  inits = 0;
  condition: PrinterCondition;

  constructor(stream: ByteStream, opts: PrinterSimulatorOptions = {}) {
    this.stream = stream;
    this.condition = { ...opts.condition };
    this.faults = { ...opts.faults };
    this.writer = new StreamWriter(stream, { delayMs: this.faults.slowMs ?? 0 });
    this.unsubscribe.push(
      stream.onData((chunk) => this.receive(chunk)),
      stream.onClose(() => this.stop()),
    );
  }

  on(listener: (e: PrinterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setFaults(faults: PrinterFaults): void {
    this.faults = { ...faults };
    this.writer.delayMs = faults.slowMs ?? 0;
  }

  /** Paper out, cover open, drawer state: what the next DLE EOT answers report. */
  setCondition(condition: PrinterCondition): void {
    this.condition = { ...condition };
  }

  /** Lines printed since the last cut. */
  get pendingLines(): readonly PrintedLine[] {
    return this.current;
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe.length = 0;
  }

  private emit(e: PrinterEvent): void {
    for (const l of this.listeners) l(e);
  }

  private receive(chunk: Uint8Array): void {
    const limit = this.faults.unplugAfterBytes;
    let data = chunk;
    if (limit !== undefined && this.received + chunk.length >= limit) {
      data = chunk.subarray(0, Math.max(0, limit - this.received));
      this.received = limit;
      this.decoder.push(data, (e) => this.onEvent(e));
      void this.stream.close();
      return;
    }
    this.received += chunk.length;
    this.decoder.push(data, (e) => this.onEvent(e));
  }

  private onEvent(e: EscPosEvent): void {
    switch (e.type) {
      case 'line':
        // A printer out of paper or with its cover open prints nothing (it goes offline, §6).
        if (this.condition.paperEnd || this.condition.coverOpen) return;
        this.lines.push(e.line);
        this.current.push(e.line);
        break;
      case 'barcode': {
        if (this.condition.paperEnd || this.condition.coverOpen) return;
        // The paper as a person reads it: the symbol's kind and the text a scanner would read from it.
        const line: PrintedLine = {
          text: `[${e.symbology === 'code128' ? 'CODE 128' : e.symbology.toUpperCase()}] ${e.data}`,
          bold: false,
          large: false,
          underline: false,
          align: 'center',
          code: { symbology: e.symbology, data: e.data },
        };
        this.lines.push(line);
        this.current.push(line);
        break;
      }
      case 'cut':
        this.cuts += 1;
        this.receipts.push({ lines: this.current, partialCut: e.partial });
        this.current = [];
        break;
      case 'drawer':
        this.drawerKicks += 1;
        break;
      case 'init':
        this.inits += 1;
        break;
      case 'status-request':
        if (e.n >= 1 && e.n <= 4) {
          const byte = encodeDleEotStatus(e.n as StatusKind, this.condition);
          this.writer.write(Uint8Array.of(byte));
          this.emit({ type: 'status-sent', n: e.n, byte });
        }
        break;
      case 'feed':
        break;
    }
    this.emit(e);
  }
}

export function createPrinterSimulator(
  stream: ByteStream,
  opts: PrinterSimulatorOptions = {},
): PrinterSimulator {
  return new PrinterSimulator(stream, opts);
}
