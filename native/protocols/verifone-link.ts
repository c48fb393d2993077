/**
 * The VISA/VeriFone packet link layer (docs/devices.md §4.2) as one state machine that both the
 * host driver and the PIN-pad simulator use:
 *
 * - receiving: a packet with a good LRC is ACKed and delivered; a bad LRC is NAKed (PP791 p.26, p.35).
 * - sending: one packet at a time; wait for ACK (default 2 s, as the Semnox driver does); on NAK or
 *   silence resend; after the third failed try send EOT and report failure ("EOT after 3 NAKs", MX800
 *   tables; PP791 p.35/36/46).
 * - an ACK counts only while a packet awaits one. The protocol has no sequence numbers, so each copy we
 *   send earns at most one reply: a copy resent after silence may still be answered late, and that late
 *   reply must not acknowledge the next packet. The next packet waits until the replies owed by earlier
 *   copies have come, or one ACK wait has passed. An ACK or NAK with nothing waiting is stray (counted).
 * - an EOT is never a reply to our packet (the peer ends a session with it): it is reported, and a packet
 *   in flight keeps waiting for its own ACK or NAK.
 *
 * No I/O and no clocks of its own: bytes go out through `write`, and timers are injected so tests run
 * without sleeping.
 */
import { type DecodedPacket, PacketDecoder, type PacketDecoderEvent, encodeControl } from './verifone-packet';

export type LinkTimers = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** The global timers, for production use. */
export const realTimers: LinkTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export type LinkFailure =
  /** The peer NAKed every try; we sent EOT. */
  | 'nak-limit'
  /** The peer never answered ACK/NAK within the ACK wait, on every try; we sent EOT. */
  | 'timeout'
  /** `close()` was called with the packet unacknowledged. */
  | 'closed';

export type SendResult = { ok: true; tries: number } | { ok: false; reason: LinkFailure; tries: number };

export type VerifoneLinkOptions = {
  /** Puts bytes on the wire. Called synchronously from `send`, `receive` and timer callbacks. */
  write: (bytes: Uint8Array) => void;
  /** A packet with a good LRC, after it has been ACKed. */
  onPacket: (packet: DecodedPacket) => void;
  /**
   * The peer sent EOT (session ended: cancel, timeout, or it gave up on our NAKs). Also while one of our
   * packets waits: whose session it ends is for the caller to tell, by what the peer had acknowledged.
   */
  onEot?: () => void;
  /** A packet with a bad LRC arrived and was NAKed (diagnostics). */
  onBadPacket?: (packet: DecodedPacket) => void;
  /** ACK wait per try. Default 2000 ms. */
  ackTimeoutMs?: number;
  /** Transmissions before giving up. Default 3. */
  maxTries?: number;
  timers?: LinkTimers;
  /** Mask received bytes to 7 bits (7E1 read as 8N1). */
  sevenBit?: boolean;
  /**
   * Fault injection for simulators: return false to NAK a packet whose LRC is fine (a "NAK storm").
   * Default: accept every good packet.
   */
  acceptPacket?: (packet: DecodedPacket) => boolean;
};

type Pending = {
  frame: Uint8Array;
  tries: number;
  /** ACKs and NAKs received for this packet's copies. */
  replies: number;
  resolve: (r: SendResult) => void;
  onAck: (() => void) | undefined;
};

const ACK_BYTES = encodeControl('ACK');
const NAK_BYTES = encodeControl('NAK');
const EOT_BYTES = encodeControl('EOT');

export class VerifoneLink {
  private readonly opts: VerifoneLinkOptions;
  private readonly timers: LinkTimers;
  private readonly ackTimeoutMs: number;
  private readonly maxTries: number;
  private readonly decoder: PacketDecoder;
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private timer: unknown;
  /** Replies still due for copies of packets already finished (each copy earns at most one). */
  private owed = 0;
  private holdTimer: unknown;
  private stray = 0;
  private closed = false;
  private readonly onEvent = (e: PacketDecoderEvent): void => this.handle(e);

  constructor(opts: VerifoneLinkOptions) {
    this.opts = opts;
    this.timers = opts.timers ?? realTimers;
    this.ackTimeoutMs = opts.ackTimeoutMs ?? 2000;
    this.maxTries = opts.maxTries ?? 3;
    this.decoder = new PacketDecoder({ sevenBit: opts.sevenBit ?? false });
  }

  /** Feeds received bytes. */
  receive(chunk: Uint8Array): void {
    if (this.closed) return;
    this.decoder.push(chunk, this.onEvent);
  }

  /**
   * Sends a framed packet (from `encodeMessage` or the packet encoders) and resolves when the peer ACKs
   * it or the link gives up. Packets queue behind one another: the protocol has one outstanding packet.
   * `onAck` runs the moment the ACK is read, before any byte after it (a promise would be told later):
   * a caller that must know whether an answer came before or after the peer took its packet uses it.
   */
  send(frame: Uint8Array, onAck?: () => void): Promise<SendResult> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'closed', tries: 0 });
    return new Promise((resolve) => {
      this.queue.push({ frame, tries: 0, replies: 0, resolve, onAck });
      if (!this.current) this.next();
    });
  }

  /** Sends EOT at once, outside the ACK discipline (cancel on the pad, end of session). */
  sendEot(): void {
    if (!this.closed) this.opts.write(EOT_BYTES);
  }

  /** True while a packet waits for its ACK. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Bytes the decoder dropped as noise. */
  get droppedBytes(): number {
    return this.decoder.droppedBytes;
  }

  /** ACKs and NAKs that arrived with no packet of ours waiting and none owed (noise, a confused peer). */
  get strayReplies(): number {
    return this.stray;
  }

  /** Stops timers and fails every unacknowledged packet with 'closed'. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer();
    this.clearHold();
    const pending = [...(this.current ? [this.current] : []), ...this.queue];
    this.current = undefined;
    this.queue.length = 0;
    for (const p of pending) p.resolve({ ok: false, reason: 'closed', tries: p.tries });
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    if (this.owed > 0) {
      // Late replies to earlier copies may still come: the next packet goes out once they have, or after
      // one ACK wait (a copy the peer never read is never answered).
      this.holdTimer ??= this.timers.setTimeout(() => {
        this.holdTimer = undefined;
        this.owed = 0;
        this.next();
      }, this.ackTimeoutMs);
      return;
    }
    this.current = this.queue.shift();
    if (this.current) this.transmit(this.current);
  }

  private clearHold(): void {
    if (this.holdTimer !== undefined) {
      this.timers.clearTimeout(this.holdTimer);
      this.holdTimer = undefined;
    }
  }

  private transmit(p: Pending): void {
    p.tries += 1;
    this.opts.write(p.frame);
    this.clearTimer();
    this.timer = this.timers.setTimeout(() => this.retry('timeout'), this.ackTimeoutMs);
  }

  private retry(reason: 'nak-limit' | 'timeout'): void {
    const p = this.current;
    if (!p || this.closed) return;
    if (p.tries < this.maxTries) {
      this.transmit(p);
      return;
    }
    this.clearTimer();
    this.opts.write(EOT_BYTES);
    this.finish({ ok: false, reason, tries: p.tries });
  }

  private finish(result: SendResult): void {
    const p = this.current;
    this.clearTimer();
    this.current = undefined;
    if (p) this.owed += p.tries - p.replies;
    if (result.ok) p?.onAck?.();
    p?.resolve(result);
    if (!this.closed) this.next();
  }

  /** An ACK or NAK: the packet in flight's, one owed by an earlier copy, or stray. */
  private reply(control: 'ACK' | 'NAK'): void {
    const p = this.current;
    if (!p) {
      if (this.owed > 0) {
        this.owed -= 1;
        if (this.owed === 0) {
          this.clearHold();
          this.next();
        }
      } else this.stray += 1;
      return;
    }
    p.replies += 1;
    if (control === 'ACK') this.finish({ ok: true, tries: p.tries });
    else this.retry('nak-limit');
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private handle(e: PacketDecoderEvent): void {
    if (this.closed) return;
    if (e.type === 'control') {
      if (e.control === 'EOT') this.opts.onEot?.();
      else this.reply(e.control);
      return;
    }
    const accept = e.lrcOk && (this.opts.acceptPacket?.(e) ?? true);
    if (!accept) {
      this.opts.write(NAK_BYTES);
      if (!e.lrcOk) this.opts.onBadPacket?.(e);
      return;
    }
    this.opts.write(ACK_BYTES);
    this.opts.onPacket(e);
  }
}
