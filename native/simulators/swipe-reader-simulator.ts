/**
 * A MagTek-format serial magstripe reader (docs/devices.md §1, §2.4): each swipe is sent as
 * `[%track1?][;track2?]CR`, upper case, a track that failed to read carrying the letter `E` as its data,
 * a blank track nothing. Tracks are built from a test card (PAN, name, expiry, service code).
 * Faults: slow swipes, a swipe cut into small pieces with gaps (a UART's partial reads), and the cable
 * pulled halfway through a swipe.
 */
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';
import { DEFAULT_TEST_CARD, type TestCard, track1For, track2For } from './test-cards';

export type TrackState = 'ok' | 'error' | 'blank';

export type SwipeOptions = {
  /** Default 'ok'. */
  track1?: TrackState;
  /** Default 'ok'. */
  track2?: TrackState;
};

export type SwipeReaderFaults = {
  /** Delay before each swipe, ms. */
  slowMs?: number;
  /** Deliver each swipe in pieces of this many bytes... */
  chunkSize?: number;
  /** ...with this gap between them, ms. */
  chunkGapMs?: number;
  /** Send the first half of the next swipe, then close the stream. */
  unplugMidSwipe?: boolean;
};

export type SwipeReaderSimulatorOptions = {
  card?: TestCard;
  faults?: SwipeReaderFaults;
};

const CR = '\r';

/** The characters a MagTek reader sends for one swipe (§2.4 default format). */
export function swipeOutput(card: TestCard, opts: SwipeOptions = {}): string {
  const track = (state: TrackState, sentinel: string, full: string): string =>
    state === 'blank' ? '' : state === 'error' ? `${sentinel}E?` : full;
  return (
    track(opts.track1 ?? 'ok', '%', track1For(card)) + track(opts.track2 ?? 'ok', ';', track2For(card)) + CR
  );
}

function ascii(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i += 1) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

export class SwipeReaderSimulator {
  private readonly stream: ByteStream;
  private readonly writer: StreamWriter;
  private faults: SwipeReaderFaults;
  card: TestCard;

  constructor(stream: ByteStream, opts: SwipeReaderSimulatorOptions = {}) {
    this.stream = stream;
    this.card = opts.card ?? DEFAULT_TEST_CARD;
    this.faults = { ...opts.faults };
    this.writer = new StreamWriter(stream);
    this.applyFaults();
  }

  setFaults(faults: SwipeReaderFaults): void {
    this.faults = { ...faults };
    this.applyFaults();
  }

  /** Swipes `card` (default: the configured card); resolves once the bytes are on the stream. */
  async swipe(card: TestCard = this.card, opts: SwipeOptions = {}): Promise<void> {
    const bytes = ascii(swipeOutput(card, opts));
    if (this.faults.unplugMidSwipe) {
      this.writer.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      await this.writer.flushed();
      // A moment on the wire before the cable goes, as a real half-read would.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await this.stream.close();
      return;
    }
    this.writer.write(bytes);
    await this.writer.flushed();
  }

  /** A swipe too fast or crooked to read: both tracks `E`. */
  badSwipe(): Promise<void> {
    return this.swipe(this.card, { track1: 'error', track2: 'error' });
  }

  /** Nothing to stop: the reader only speaks when swiped. Present for symmetry with the others. */
  stop(): void {}

  private applyFaults(): void {
    this.writer.delayMs = this.faults.slowMs ?? 0;
    this.writer.chunkSize = this.faults.chunkSize;
    this.writer.chunkGapMs = this.faults.chunkGapMs ?? 0;
  }
}

export function createSwipeReaderSimulator(
  stream: ByteStream,
  opts: SwipeReaderSimulatorOptions = {},
): SwipeReaderSimulator {
  return new SwipeReaderSimulator(stream, opts);
}
