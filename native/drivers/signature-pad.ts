import { strokesToPng, strokesToSvg } from '../protocols/signature-render';
import { StrokeAssembler, TopazDecoder, TOPAZ_MODELS, type TopazModel } from '../protocols/topaz-signature';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type { DeviceHealth, Signature, SignaturePad, SignaturePoint, Unsubscribe } from './roles';
import { systemTimers, type Timers } from './timers';

export type SignaturePadDriverOptions = {
  timers?: Timers;
  /** Scaling of the pad (§5.1 `MODELS` table). Default SigLite 1x5. */
  model?: TopazModel;
  /** Rendered image width in pixels. Default 600. */
  renderWidth?: number;
};

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Topaz-style serial signature pad (reverse-engineered protocol, docs/devices.md §5.1). The pad streams
 * pen packets whenever the pen is near; the host decides when a signature starts and ends (a SigLite has
 * no buttons), so strokes are collected only between `startCapture` and `finishCapture`.
 */
export class SignaturePadDriver implements SignaturePad, DriverLifecycle {
  readonly role = 'signaturePad' as const;
  private readonly stream: ByteStream;
  private readonly timers: Timers;
  private readonly model: TopazModel;
  private readonly renderWidth: number;
  private readonly decoder = new TopazDecoder();
  private readonly assembler: StrokeAssembler;
  private readonly tracker: HealthTracker;
  private readonly strokes: Listeners<SignaturePoint[]>;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private capturing = false;
  private captureStart = 0;
  private closing = false;
  private packets = 0;

  constructor(stream: ByteStream, options: SignaturePadDriverOptions = {}) {
    this.stream = stream;
    this.timers = options.timers ?? systemTimers;
    this.model = options.model ?? TOPAZ_MODELS.SigLite1X5;
    this.renderWidth = options.renderWidth ?? 600;
    this.assembler = new StrokeAssembler(this.model);
    this.tracker = new HealthTracker(this.timers);
    this.strokes = new Listeners<SignaturePoint[]>();
    this.unsubscribe.push(
      stream.onData((chunk) => this.onData(chunk)),
      stream.onClose((reason) => this.onClosed(reason)),
    );
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      capturing: this.capturing,
      packets: this.packets,
      droppedBytes: this.decoder.droppedBytes,
    });
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  onStroke(listener: (stroke: SignaturePoint[]) => void): Unsubscribe {
    return this.strokes.add(listener);
  }

  startCapture(): void {
    this.assembler.clear();
    this.decoder.reset();
    this.capturing = true;
    this.captureStart = this.timers.now();
  }

  finishCapture(): Promise<Signature | undefined> {
    if (!this.capturing) return Promise.resolve(undefined);
    const last = this.assembler.endStroke();
    if (last) this.strokes.emit(last);
    this.capturing = false;
    const strokes = this.assembler.strokes.map((s) => s.map((p) => ({ ...p })));
    this.assembler.clear();
    if (strokes.length === 0) return Promise.resolve(undefined);
    const source = { width: this.model.logicalX, height: this.model.logicalY };
    const render = { source, width: this.renderWidth };
    const height = Math.round((this.renderWidth * source.height) / source.width);
    return Promise.resolve({
      strokes,
      width: this.renderWidth,
      height,
      svg: strokesToSvg(strokes, render),
      pngBase64: toBase64(strokesToPng(strokes, render)),
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.capturing = false;
    for (const u of this.unsubscribe) u();
    this.tracker.closed(undefined);
    await this.stream.close();
  }

  private onData(chunk: Uint8Array): void {
    this.tracker.seen();
    this.decoder.push(chunk, (packet) => {
      this.packets += 1;
      if (!this.capturing) return;
      const done = this.assembler.add(packet, this.timers.now() - this.captureStart);
      if (done) this.strokes.emit(done);
    });
  }

  private onClosed(reason: Error | undefined): void {
    // A signature cut off by an unplug is not a signature: finishCapture returns nothing and the
    // cashier asks for it again on the reconnected pad.
    this.assembler.clear();
    this.capturing = false;
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
