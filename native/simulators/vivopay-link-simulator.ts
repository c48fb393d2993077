/**
 * The reader side of one ViVOpay / ID TECH Protocol 2 serial link (docs/devices.md §3.3), shared by
 * the chip (IDG) and contactless reader simulators: receives command frames with the inter-byte timer,
 * answers bad frames with status 04, writes responses, and applies the link faults a test can switch on.
 * What a command means is the simulator's business (`onFrame`).
 */
import { type LinkTimers } from '../protocols/verifone-link';
import { type Vivo2Frame, Vivo2Decoder, VIVO2_STATUS, encodeVivo2Response } from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';

/** Faults of the link itself, common to both readers. */
export type VivopayLinkFaults = {
  /** Corrupt the CRC of every response. */
  badCrc?: boolean;
  /** Answer every command with status 04 (CRC error), like a reader on a noisy line. */
  nakStorm?: boolean;
  /** Delay every response, ms. */
  slowMs?: number;
};

export type VivopayLinkSimulatorOptions = {
  timers: LinkTimers;
  /** Inter-byte limit before a partial frame is answered with a timeout (§3.3). Default 200 ms. */
  interByteTimeoutMs?: number;
  faults?: VivopayLinkFaults;
  /** A well-formed command frame (good CRC, no NAK storm). */
  onFrame: (f: Vivo2Frame) => void;
  /** A frame answered with status 04. */
  onBadFrame: () => void;
  /** The stream closed. */
  onClose: () => void;
};

export class VivopayLinkSimulator {
  private readonly decoder = new Vivo2Decoder({ direction: 'command' });
  private readonly writer: StreamWriter;
  private readonly unsubscribe: (() => void)[] = [];
  private faults: VivopayLinkFaults;
  private interByteTimer: unknown;

  constructor(
    private readonly stream: ByteStream,
    private readonly opts: VivopayLinkSimulatorOptions,
  ) {
    this.faults = { ...opts.faults };
    this.writer = new StreamWriter(stream, { delayMs: this.faults.slowMs ?? 0 });
    this.unsubscribe.push(
      stream.onData((chunk) => this.receive(chunk)),
      stream.onClose(() => opts.onClose()),
    );
  }

  setFaults(faults: VivopayLinkFaults): void {
    this.faults = { ...faults };
    this.writer.delayMs = faults.slowMs ?? 0;
  }

  respond(cmd: number, status: number, data?: Uint8Array): void {
    const frame = encodeVivo2Response(cmd, status, data);
    if (this.faults.badCrc) {
      const last = frame.length - 1;
      frame[last] = (frame[last] ?? 0) ^ 0xff;
    }
    this.writer.write(frame);
  }

  /** Pulls the plug once the answers already written are out (the "unplug during a transaction" fault). */
  unplugAfterFlush(): void {
    void this.writer
      .flushed()
      .then(() => new Promise((resolve) => setTimeout(resolve, 20)))
      .then(() => this.stream.close());
  }

  /** Stops listening (idempotent); the stream stays as it is. */
  stop(): void {
    this.clearInterByte();
    for (const u of this.unsubscribe) u();
    this.unsubscribe.length = 0;
  }

  private receive(chunk: Uint8Array): void {
    this.decoder.push(chunk, (f) => this.onFrame(f));
    this.clearInterByte();
    if (this.decoder.hasPartial) {
      // §3.3: a frame that stalls past the inter-byte limit is answered with a timeout.
      this.interByteTimer = this.opts.timers.setTimeout(() => {
        this.interByteTimer = undefined;
        this.decoder.reset();
        this.respond(0x00, VIVO2_STATUS.timeout);
      }, this.opts.interByteTimeoutMs ?? 200);
    }
  }

  private clearInterByte(): void {
    if (this.interByteTimer !== undefined) this.opts.timers.clearTimeout(this.interByteTimer);
    this.interByteTimer = undefined;
  }

  private onFrame(f: Vivo2Frame): void {
    if (!f.crcOk || this.faults.nakStorm) {
      this.opts.onBadFrame();
      this.respond(f.cmd, VIVO2_STATUS.crcError);
      return;
    }
    this.opts.onFrame(f);
  }
}
