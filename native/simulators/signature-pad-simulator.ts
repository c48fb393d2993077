/**
 * A Topaz-style serial signature pad (docs/devices.md §5.1, reverse-engineered format): it sends
 * 5-byte pen packets for a scripted signature or for strokes the UI's simulated pad draws. Basic SigLite
 * pads take no commands, so input is ignored. Faults: slow, split writes, a lost byte now and then (the
 * host must resynchronise on the next status byte), and the cable pulled mid-signature.
 */
import {
  TOPAZ_MODELS,
  TOPAZ_PACKET_LENGTH,
  type TopazModel,
  encodeStrokes,
  encodeTopazPacket,
  unscaleTopazPoint,
} from '../protocols/topaz-signature';
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';

export type LogicalPoint = { x: number; y: number };

/**
 * A short scripted signature in SigLite 1x5 logical units (2150 x 1400): a looped initial, a second
 * letter and an underline.
 */
export const SCRIPTED_SIGNATURE: readonly (readonly LogicalPoint[])[] = [
  [
    { x: 300, y: 300 },
    { x: 420, y: 250 },
    { x: 520, y: 400 },
    { x: 480, y: 800 },
    { x: 380, y: 1000 },
    { x: 260, y: 950 },
    { x: 240, y: 820 },
  ],
  [
    { x: 700, y: 300 },
    { x: 700, y: 1000 },
    { x: 900, y: 950 },
    { x: 1000, y: 650 },
    { x: 900, y: 350 },
    { x: 700, y: 300 },
  ],
  [
    { x: 200, y: 1200 },
    { x: 800, y: 1180 },
    { x: 1400, y: 1200 },
  ],
];

export type SignaturePadFaults = {
  slowMs?: number;
  chunkSize?: number;
  chunkGapMs?: number;
  /** Drop one byte out of every this many packets (a noisy USB-serial line). */
  dropByteEvery?: number;
  /** Send half of the next signature, then close the stream. */
  unplugMidSignature?: boolean;
};

export type SignaturePadSimulatorOptions = {
  model?: TopazModel;
  faults?: SignaturePadFaults;
};

export class SignaturePadSimulator {
  private readonly stream: ByteStream;
  private readonly writer: StreamWriter;
  private readonly model: TopazModel;
  private faults: SignaturePadFaults;

  constructor(stream: ByteStream, opts: SignaturePadSimulatorOptions = {}) {
    this.stream = stream;
    this.model = opts.model ?? TOPAZ_MODELS.SigLite1X5;
    this.faults = { ...opts.faults };
    this.writer = new StreamWriter(stream);
    this.applyFaults();
  }

  setFaults(faults: SignaturePadFaults): void {
    this.faults = { ...faults };
    this.applyFaults();
  }

  /** Sends the pen packets of `strokes` (logical units); resolves once they are on the stream. */
  async sign(strokes: readonly (readonly LogicalPoint[])[] = SCRIPTED_SIGNATURE): Promise<void> {
    let bytes = encodeStrokes(strokes, this.model);
    const every = this.faults.dropByteEvery;
    if (every !== undefined && every > 0) bytes = dropBytes(bytes, every);
    if (this.faults.unplugMidSignature) {
      const half = Math.floor(bytes.length / TOPAZ_PACKET_LENGTH / 2) * TOPAZ_PACKET_LENGTH;
      this.writer.write(bytes.subarray(0, half));
      await this.writer.flushed();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await this.stream.close();
      return;
    }
    this.writer.write(bytes);
    await this.writer.flushed();
  }

  /** One live pen sample from the UI's simulated pad (logical units). */
  pen(x: number, y: number, penDown: boolean): void {
    const raw = unscaleTopazPoint(x, y, this.model);
    this.writer.write(encodeTopazPacket({ x: raw.x, y: raw.y, penDown }));
  }

  stop(): void {}

  private applyFaults(): void {
    this.writer.delayMs = this.faults.slowMs ?? 0;
    this.writer.chunkSize = this.faults.chunkSize;
    this.writer.chunkGapMs = this.faults.chunkGapMs ?? 0;
  }
}

/** Removes the third byte of every `every`-th packet. */
function dropBytes(bytes: Uint8Array, every: number): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 1) {
    const packet = Math.floor(i / TOPAZ_PACKET_LENGTH);
    if (packet % every === every - 1 && i % TOPAZ_PACKET_LENGTH === 2) continue;
    out.push(bytes[i] ?? 0);
  }
  return Uint8Array.from(out);
}

export function createSignaturePadSimulator(
  stream: ByteStream,
  opts: SignaturePadSimulatorOptions = {},
): SignaturePadSimulator {
  return new SignaturePadSimulator(stream, opts);
}
