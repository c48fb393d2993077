/**
 * A 2 x 20 pole display in ESC/POS customer display mode over any ByteStream: it applies what it receives
 * to its screen (protocols/escpos-customer-display.ts) and tells listeners whenever the text changed, for
 * the simulator panel. It never answers: the real displays have nothing to say. Fault: the cable pulled
 * after N bytes.
 */
import { CustomerDisplayScreen } from '../protocols/escpos-customer-display';
import type { ByteStream } from '../transports/byte-stream';

export type PoleDisplayFaults = {
  /** Close the stream once this many bytes have been received. */
  unplugAfterBytes?: number;
};

export class PoleDisplaySimulator {
  private readonly stream: ByteStream;
  private readonly screen = new CustomerDisplayScreen();
  private readonly listeners = new Set<(lines: [string, string]) => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private faults: PoleDisplayFaults;
  private received = 0;

  constructor(stream: ByteStream, options: { faults?: PoleDisplayFaults } = {}) {
    this.stream = stream;
    this.faults = { ...options.faults };
    this.unsubscribe.push(
      stream.onData((chunk) => this.receive(chunk)),
      stream.onClose(() => this.stop()),
    );
  }

  /** The two rows as the customer reads them, 20 characters each. */
  get lines(): [string, string] {
    return this.screen.lines;
  }

  get cursorVisible(): boolean {
    return this.screen.cursorVisible;
  }

  setFaults(faults: PoleDisplayFaults): void {
    this.faults = { ...faults };
  }

  onChange(listener: (lines: [string, string]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    for (const u of this.unsubscribe.splice(0)) u();
  }

  private receive(chunk: Uint8Array): void {
    const before = this.screen.lines.join('\n');
    const limit = this.faults.unplugAfterBytes;
    const take = limit === undefined ? chunk : chunk.subarray(0, Math.max(0, limit - this.received));
    this.received += take.length;
    this.screen.apply(take);
    if (this.screen.lines.join('\n') !== before) for (const l of [...this.listeners]) l(this.screen.lines);
    if (limit !== undefined && this.received >= limit) void this.stream.close();
  }
}
