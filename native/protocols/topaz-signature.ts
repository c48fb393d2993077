/**
 * Topaz SigLite / SignatureGem serial pen packets -> points -> strokes, and the inverse for the
 * simulator. docs/devices.md §5.1.
 *
 * REVERSE-ENGINEERED: Topaz publishes no byte-level spec. This follows the open-source driver
 * l1n/topaz-dext (`lib/topaz.js`, its `MODELS` table) and a public AVR bridge (`topaz_serial.cpp`,
 * "#define TOPAZ_PACKET 5"). Verify against a real pad before trusting it with a new model.
 *
 *   5-byte packet; byte 0 has bit 7 set (sync), bytes 1..4 have bit 7 clear.
 *   b0: bit7 sync, bit6 pen near, bits4..2 type (0/1/4 point, 2 info, 7 pressure), bit0 pen down
 *   X = ((b2 & 0x1F) << 7) | (b1 & 0x7F)      Y = ((b4 & 0x1F) << 7) | (b3 & 0x7F)
 *   X = Y = 0xFFF means "ignore this coordinate".
 * A stroke ends on the first packet whose pen-down bit is clear.
 */

export type TopazPacketType = 'point' | 'info' | 'pressure' | 'other';

export type TopazPacket = {
  type: TopazPacketType;
  /** Raw status byte b0. */
  status: number;
  penDown: boolean;
  near: boolean;
  /** Raw 12-bit tablet coordinates. */
  x: number;
  y: number;
  /** 0xFFF/0xFFF: the pad has no coordinate for this packet. */
  ignore: boolean;
};

export type TopazModel = {
  name: string;
  xStart: number;
  xStop: number;
  yStart: number;
  yStop: number;
  logicalX: number;
  logicalY: number;
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'even' | 'odd';
  stopBits: 1 | 2;
};

/**
 * The models whose figures the reference gives (topaz-dext `MODELS`; §5.1). Only the SigLite 1x5 has
 * a scaling row; the others share it until their own numbers are measured.
 */
export const TOPAZ_MODELS = {
  SigLite1X5: {
    name: 'SigLite 1x5',
    xStart: 500,
    xStop: 2650,
    yStart: 700,
    yStop: 2100,
    logicalX: 2150,
    logicalY: 1400,
    baudRate: 19200,
    dataBits: 8,
    parity: 'odd',
    stopBits: 1,
  },
} as const satisfies Record<string, TopazModel>;

export const TOPAZ_PACKET_LENGTH = 5;
const IGNORE = 0xfff;

function packetType(status: number): TopazPacketType {
  const t = (status >> 2) & 0x07;
  if (t === 0 || t === 1 || t === 4) return 'point';
  if (t === 2) return 'info';
  if (t === 7) return 'pressure';
  return 'other';
}

/** Decodes one 5-byte packet starting at `offset`; the caller has checked the sync bits. */
export function decodeTopazPacket(b: Uint8Array, offset = 0): TopazPacket {
  const status = b[offset] ?? 0;
  const x = (((b[offset + 2] ?? 0) & 0x1f) << 7) | ((b[offset + 1] ?? 0) & 0x7f);
  const y = (((b[offset + 4] ?? 0) & 0x1f) << 7) | ((b[offset + 3] ?? 0) & 0x7f);
  return {
    type: packetType(status),
    status,
    penDown: (status & 0x01) !== 0,
    near: (status & 0x40) !== 0,
    x,
    y,
    ignore: x === IGNORE && y === IGNORE,
  };
}

export type TopazPacketInput = {
  x: number;
  y: number;
  penDown: boolean;
  /** Default true: a pen touching the glass is also near it. */
  near?: boolean;
  /** Type field, bits 4..2 of b0. Default 0 (point). */
  typeBits?: number;
};

/** The 5 bytes of a pen packet (used by the simulator); coordinates are raw 12-bit tablet units. */
export function encodeTopazPacket(p: TopazPacketInput): Uint8Array {
  const x = clampInt(p.x, 0, IGNORE);
  const y = clampInt(p.y, 0, IGNORE);
  const status =
    0x80 | ((p.near ?? true) ? 0x40 : 0) | (((p.typeBits ?? 0) & 0x07) << 2) | (p.penDown ? 1 : 0);
  return Uint8Array.of(status, x & 0x7f, (x >> 7) & 0x1f, y & 0x7f, (y >> 7) & 0x1f);
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(v)));
}

/**
 * Incremental packet decoder. A byte with bit 7 set always starts a packet, so a lost byte costs at
 * most one packet and the decoder resynchronises on the next status byte.
 */
export class TopazDecoder {
  private readonly buf = new Uint8Array(TOPAZ_PACKET_LENGTH);
  private len = 0;
  droppedBytes = 0;

  push(chunk: Uint8Array, onPacket: (packet: TopazPacket) => void): void {
    for (let i = 0; i < chunk.length; i += 1) {
      const b = chunk[i] ?? 0;
      if ((b & 0x80) !== 0) {
        this.droppedBytes += this.len;
        this.buf[0] = b;
        this.len = 1;
        continue;
      }
      if (this.len === 0) {
        this.droppedBytes += 1;
        continue;
      }
      this.buf[this.len] = b;
      this.len += 1;
      if (this.len === TOPAZ_PACKET_LENGTH) {
        this.len = 0;
        onPacket(decodeTopazPacket(this.buf));
      }
    }
  }

  feed(chunk: Uint8Array): TopazPacket[] {
    const out: TopazPacket[] = [];
    this.push(chunk, (p) => out.push(p));
    return out;
  }

  get hasPartial(): boolean {
    return this.len > 0;
  }

  reset(): void {
    this.droppedBytes += this.len;
    this.len = 0;
  }
}

// ---------------------------------------------------------------------------------------------------
// Scaling and strokes

/** A point in the model's logical coordinates (0..logicalX, 0..logicalY), `t` in ms. */
export type SignaturePoint = { x: number; y: number; t: number };
export type SignatureStroke = SignaturePoint[];

/** Tablet units -> logical units: x' = (X - xStart) * logicalX / (xStop - xStart), clamped (§5.1). */
export function scaleTopazPoint(x: number, y: number, model: TopazModel): { x: number; y: number } {
  const sx = ((x - model.xStart) * model.logicalX) / (model.xStop - model.xStart);
  const sy = ((y - model.yStart) * model.logicalY) / (model.yStop - model.yStart);
  return {
    x: Math.min(model.logicalX, Math.max(0, Math.round(sx))),
    y: Math.min(model.logicalY, Math.max(0, Math.round(sy))),
  };
}

/** Logical units -> tablet units, the inverse the simulator needs. */
export function unscaleTopazPoint(x: number, y: number, model: TopazModel): { x: number; y: number } {
  return {
    x: Math.round(model.xStart + (x * (model.xStop - model.xStart)) / model.logicalX),
    y: Math.round(model.yStart + (y * (model.yStop - model.yStart)) / model.logicalY),
  };
}

/**
 * Turns decoded packets into strokes: pen-down point packets extend the current stroke; the first
 * packet with the pen up ends it. Info/pressure packets and ignored coordinates add no point.
 */
export class StrokeAssembler {
  private readonly model: TopazModel;
  private current: SignatureStroke = [];
  readonly strokes: SignatureStroke[] = [];

  constructor(model: TopazModel = TOPAZ_MODELS.SigLite1X5) {
    this.model = model;
  }

  /** Adds a packet received at time `t` (ms); returns the stroke it completed, if any. */
  add(packet: TopazPacket, t = 0): SignatureStroke | undefined {
    if (!packet.penDown) return this.endStroke();
    if (packet.type !== 'point' || packet.ignore) return undefined;
    const p = scaleTopazPoint(packet.x, packet.y, this.model);
    this.current.push({ x: p.x, y: p.y, t });
    return undefined;
  }

  /** Ends a stroke in progress (e.g. the host stops capture with the pen still down). */
  endStroke(): SignatureStroke | undefined {
    if (this.current.length === 0) return undefined;
    const done = this.current;
    this.strokes.push(done);
    this.current = [];
    return done;
  }

  get inStroke(): boolean {
    return this.current.length > 0;
  }

  clear(): void {
    this.current = [];
    this.strokes.length = 0;
  }
}

/**
 * The pen packets a pad would send for `strokes` given in logical units: each point pen-down, then one
 * pen-up (near) packet at the stroke's last point.
 */
export function encodeStrokes(
  strokes: readonly (readonly { x: number; y: number }[])[],
  model: TopazModel = TOPAZ_MODELS.SigLite1X5,
): Uint8Array {
  const packets: Uint8Array[] = [];
  for (const stroke of strokes) {
    for (const p of stroke) {
      const raw = unscaleTopazPoint(p.x, p.y, model);
      packets.push(encodeTopazPacket({ x: raw.x, y: raw.y, penDown: true }));
    }
    const last = stroke[stroke.length - 1];
    if (last) {
      const raw = unscaleTopazPoint(last.x, last.y, model);
      packets.push(encodeTopazPacket({ x: raw.x, y: raw.y, penDown: false }));
    }
  }
  const out = new Uint8Array(packets.length * TOPAZ_PACKET_LENGTH);
  packets.forEach((p, i) => out.set(p, i * TOPAZ_PACKET_LENGTH));
  return out;
}
