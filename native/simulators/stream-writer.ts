/**
 * The simulators' output side: writes go out in order, optionally late ("slow responses") or cut into
 * small pieces with gaps (a UART delivering a frame in several reads), and a write to a stream that
 * went away is dropped instead of surfacing as an unhandled rejection.
 */
import type { ByteStream } from '../transports/byte-stream';

export type StreamWriterOptions = {
  /** Delay before each write, in ms (fault "slow"). Default 0. */
  delayMs?: number;
  /** Split each write into pieces of at most this many bytes. Default: whole writes. */
  chunkSize?: number;
  /** Pause between pieces, in ms. Default 0. */
  chunkGapMs?: number;
  /** Write failures (the stream closed under us); default: ignored. */
  onError?: (error: Error) => void;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class StreamWriter {
  private readonly stream: ByteStream;
  private tail: Promise<void> = Promise.resolve();
  delayMs: number;
  chunkSize: number | undefined;
  chunkGapMs: number;
  private readonly onError: ((error: Error) => void) | undefined;

  constructor(stream: ByteStream, opts: StreamWriterOptions = {}) {
    this.stream = stream;
    this.delayMs = opts.delayMs ?? 0;
    this.chunkSize = opts.chunkSize;
    this.chunkGapMs = opts.chunkGapMs ?? 0;
    this.onError = opts.onError;
  }

  /** Queues bytes; returns at once. Order is preserved across calls. */
  write(bytes: Uint8Array): void {
    const copy = Uint8Array.from(bytes);
    this.tail = this.tail.then(() => this.send(copy)).catch((e: unknown) => this.fail(e));
  }

  /** Resolves once everything queued so far has been handed to the stream. */
  flushed(): Promise<void> {
    return this.tail;
  }

  private async send(bytes: Uint8Array): Promise<void> {
    if (this.delayMs > 0) await sleep(this.delayMs);
    if (!this.stream.isOpen) return;
    const size = this.chunkSize && this.chunkSize > 0 ? this.chunkSize : bytes.length;
    for (let i = 0; i < bytes.length; i += size) {
      if (i > 0 && this.chunkGapMs > 0) await sleep(this.chunkGapMs);
      if (!this.stream.isOpen) return;
      await this.stream.write(bytes.subarray(i, i + size));
    }
  }

  private fail(e: unknown): void {
    this.onError?.(e instanceof Error ? e : new Error(String(e)));
  }
}
