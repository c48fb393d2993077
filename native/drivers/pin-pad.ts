import { VerifoneLink, type SendResult } from '../protocols/verifone-link';
import { encodeMessage, parseMessage, type VerifoneMessage } from '../protocols/verifone-packet';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type { DeviceHealth, PinPad, PinRequest, PinResult, Unsubscribe } from './roles';
import { systemTimers, type TimerHandle, type Timers } from './timers';

export type PinPadDriverOptions = {
  timers?: Timers;
  /** ACK wait per try (§4.3 suggests 2–3 s; the Semnox driver uses 2 s). Default 2000 ms. */
  ackTimeoutMs?: number;
  /** Tries before EOT (§4.2: "EOT after 3 NAKs"). Default 3. */
  maxTries?: number;
  /** The line is 7E1/7O1: every byte must be < 0x80 and received bytes are masked (§4.2). */
  sevenBit?: boolean;
  /** Which PIN-entry message to send: Z62 (prompt text) or 70 (the pad shows the amount). Default Z62. */
  request?: 'Z62' | '70';
  minPinLength?: number;
  maxPinLength?: number;
  /** Idle text shown after a PIN request ends (Z2). Default 'WELCOME'. */
  idleText?: string;
  /**
   * How long the next request waits for the EOT that ends a cancelled session (§4.3: the pad answers 72
   * with EOT). Past it the pad is taken to have ended the session silently. Default 5000 ms.
   */
  sessionEndWaitMs?: number;
};

type Pending = {
  resolve: (r: PinResult) => void;
  timer: TimerHandle;
  /** Bad-LRC packets seen before this request: more at EOT time means the pad gave up on our NAKs. */
  badPacketsAtStart: number;
  /**
   * The pad ACKed this request. The line is ordered and the pad answers only what it has taken, so a
   * 73 or EOT read before that ACK belongs to an earlier request, never to this one.
   */
  acked: boolean;
};

/** A cancelled session, until the pad's EOT for our 72 ends it. */
type SessionEnding = { done: Promise<void>; finish: () => void; acked: boolean };

function formatAmount(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * PP791 `[timeout]` is one digit '1'..'9' in units of 30 s (§4.3, p.201). The pad's own timer is rounded
 * up so the driver's (exact) timer always fires first and the host stays in charge of the outcome.
 */
function padTimeoutField(ms: number): string {
  return String(Math.min(9, Math.max(1, Math.ceil(ms / 30_000))));
}

const LINK_FAILURE_TEXT: Record<Exclude<SendResult, { ok: true }>['reason'], string> = {
  'nak-limit': 'PIN pad rejected the request 3 times (bad LRC); link reset with EOT',
  timeout: 'PIN pad did not acknowledge the request; link reset with EOT',
  closed: 'PIN pad link closed',
};

/**
 * VISA/VeriFone packet PIN pad (docs/devices.md §4.2–4.3) in DUKPT mode: Z62 (or 70) out, 73 back.
 * The link layer (ACK/NAK, 3 tries then EOT) is helper code shared with the simulator; this driver owns
 * the session: one PIN request at a time, exactly one result per request, cancel with 72. Every answer
 * is told to the request it belongs to by the order of the line: a 73 or EOT counts for a request only
 * after the pad ACKed that request; an EOT after our 72's ACK ends that cancelled session, and the next
 * request is not sent until it has (a late one would read as the next customer pressing Cancel); a 73
 * whose KSN was seen before — delivered, or dropped as late — is a retransmission and answers nothing.
 */
export class PinPadDriver implements PinPad, DriverLifecycle {
  readonly role = 'pinPad' as const;
  private readonly stream: ByteStream;
  private readonly opts: Required<Omit<PinPadDriverOptions, 'timers'>>;
  private readonly timers: Timers;
  private readonly link: VerifoneLink;
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private pending: Pending | undefined;
  private closing = false;
  private linkFailures = 0;
  /**
   * KSNs of every 73 read, delivered or dropped as late: a DUKPT KSN is never reused (X9.24-1), so a 73
   * with one of these is a retransmission of an answer already dealt with.
   */
  private readonly spentKsns: string[] = [];
  private duplicates = 0;
  private lateAnswers = 0;
  /** After a 72 the pad ends its session with EOT (§4.3); until then that EOT belongs to the old session. */
  private sessionEnding: SessionEnding | undefined;
  private badPackets = 0;
  private readonly unsubscribe: Unsubscribe[] = [];

  constructor(stream: ByteStream, options: PinPadDriverOptions = {}) {
    this.stream = stream;
    this.timers = options.timers ?? systemTimers;
    this.opts = {
      ackTimeoutMs: options.ackTimeoutMs ?? 2000,
      maxTries: options.maxTries ?? 3,
      sevenBit: options.sevenBit ?? false,
      request: options.request ?? 'Z62',
      minPinLength: options.minPinLength ?? 4,
      maxPinLength: options.maxPinLength ?? 12,
      idleText: options.idleText ?? 'WELCOME',
      sessionEndWaitMs: options.sessionEndWaitMs ?? 5000,
    };
    this.tracker = new HealthTracker(this.timers);
    this.link = new VerifoneLink({
      write: (bytes) => this.write(bytes),
      onPacket: (packet) => this.onMessage(parseMessage(packet.kind, packet.body)),
      onEot: () => this.onPadEot(),
      onBadPacket: () => {
        this.badPackets += 1;
      },
      ackTimeoutMs: this.opts.ackTimeoutMs,
      maxTries: this.opts.maxTries,
      timers: this.timers,
      sevenBit: this.opts.sevenBit,
    });
    this.unsubscribe.push(
      stream.onData((chunk) => {
        this.tracker.seen();
        this.link.receive(chunk);
      }),
      stream.onClose((reason) => this.onStreamClosed(reason)),
    );
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      linkFailures: this.linkFailures,
      badPackets: this.badPackets,
      duplicatesDropped: this.duplicates,
      lateAnswersDropped: this.lateAnswers,
      strayReplies: this.link.strayReplies,
      droppedBytes: this.link.droppedBytes,
      busy: this.pending !== undefined,
    });
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  async display(text: string): Promise<void> {
    const result = await this.sendMessage({ type: 'Z2', text: text.slice(0, 64), clear: true });
    if (!result.ok) throw new Error(LINK_FAILURE_TEXT[result.reason]);
  }

  async requestPin(request: PinRequest): Promise<PinResult> {
    if (!this.tracker.isOpen) return { kind: 'failed', reason: 'PIN pad not connected' };
    if (this.pending) return { kind: 'failed', reason: 'a PIN request is already in progress' };
    if (!/^\d{8,19}$/.test(request.pan))
      return { kind: 'failed', reason: 'card number not usable for PIN entry' };
    // A request sent before the pad's EOT for the previous (cancelled) session would be ended by it.
    if (this.sessionEnding) {
      await this.sessionEnding.done;
      if (this.pending) return { kind: 'failed', reason: 'a PIN request is already in progress' };
      if (!this.tracker.isOpen) return { kind: 'failed', reason: 'PIN pad not connected' };
    }
    const message: VerifoneMessage =
      this.opts.request === '70'
        ? {
            type: '70',
            account: request.pan,
            amountCents: request.amountCents,
            timeout: padTimeoutField(request.timeoutMs),
          }
        : {
            type: 'Z62',
            account: request.pan,
            minPinLength: this.opts.minPinLength,
            maxPinLength: this.opts.maxPinLength,
            allowNullPin: false,
            prompt1: 'ENTER PIN',
            prompt2: `AMOUNT ${formatAmount(request.amountCents)}`,
            processingPrompt: 'PROCESSING',
            timeout: padTimeoutField(request.timeoutMs),
          };
    let frame: Uint8Array;
    try {
      frame = encodeMessage(message, { sevenBit: this.opts.sevenBit });
    } catch (err) {
      // Encoder messages never contain the account (verifone-packet checkAccount).
      return { kind: 'failed', reason: err instanceof Error ? err.message : 'cannot encode PIN request' };
    }
    const pending: Pending = {
      resolve: () => undefined,
      badPacketsAtStart: this.badPackets,
      timer: this.timers.setTimeout(() => this.onPinTimeout(), request.timeoutMs),
      acked: false,
    };
    const result = new Promise<PinResult>((resolve) => {
      pending.resolve = resolve;
    });
    this.pending = pending;
    const sent = await this.link.send(frame, () => {
      pending.acked = true;
    });
    if (!sent.ok && this.pending === pending) {
      this.linkFailures += 1;
      this.tracker.error(LINK_FAILURE_TEXT[sent.reason]);
      this.settle({ kind: 'failed', reason: LINK_FAILURE_TEXT[sent.reason] });
    }
    return result;
  }

  async cancel(): Promise<void> {
    if (!this.pending) return;
    this.settle({ kind: 'cancelled' });
    // 72 ends the pad's session (§4.3); whether it is ACKed or not, the request is over for the host.
    await this.sendCancel();
  }

  /**
   * Closes the stream; a pending request resolves `failed`. Safe to call twice.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.settle({ kind: 'failed', reason: 'PIN pad closed' });
    this.link.close();
    for (const u of this.unsubscribe) u();
    this.tracker.closed(undefined);
    await this.stream.close();
  }

  private async sendMessage(message: VerifoneMessage, onAck?: () => void): Promise<SendResult> {
    if (!this.tracker.isOpen) return { ok: false, reason: 'closed', tries: 0 };
    const result = await this.link.send(encodeMessage(message, { sevenBit: this.opts.sevenBit }), onAck);
    if (!result.ok) {
      this.linkFailures += 1;
      this.tracker.error(LINK_FAILURE_TEXT[result.reason]);
    }
    return result;
  }

  private write(bytes: Uint8Array): void {
    if (!this.stream.isOpen) return;
    this.stream.write(bytes).catch((err: unknown) => {
      this.tracker.error(`PIN pad write failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private onMessage(message: ReturnType<typeof parseMessage>): void {
    // A pad resends its 73 when our ACK reaches it late (§4.2): the link ACKs every copy, so the copies
    // are recognised by their KSN, which DUKPT never repeats (X9.24-1), and dropped here.
    if (message.type === '73') {
      if (this.spentKsns.includes(message.ksn)) {
        this.duplicates += 1;
        return;
      }
      this.spentKsns.push(message.ksn);
      if (this.spentKsns.length > 32) this.spentKsns.shift();
    }
    const p = this.pending;
    // No request waiting, or the pad has not yet taken the one that is: the answer to an earlier request
    // (cancelled, timed out), however late. Never the PIN of the customer now at the pad.
    if (!p || !p.acked) {
      if (message.type === '73' || message.type === '71' || message.type === '71-error')
        this.lateAnswers += 1;
      return;
    }
    switch (message.type) {
      case '73':
        this.settle({ kind: 'pin', ksn: message.ksn, pinBlock: message.pinBlock });
        this.showIdle();
        return;
      case '71':
        this.settle({ kind: 'failed', reason: 'PIN pad is in master/session mode; DUKPT (73) is required' });
        return;
      case '71-error':
        this.settle({ kind: 'failed', reason: `PIN pad error ${message.code}: ${message.meaning}` });
        return;
      default:
        return;
    }
  }

  /**
   * An EOT ends the session of the last request the pad had ACKed before it: our 72's (the cancelled
   * session is over), else the pending request's (the cardholder pressed Cancel, or the pad timed out:
   * §4.3 flow). One read before the pad ACKed what we sent last ends something earlier, and is no answer.
   */
  private onPadEot(): void {
    if (this.sessionEnding) {
      if (this.sessionEnding.acked) this.sessionEnding.finish();
      return;
    }
    const p = this.pending;
    if (!p || !p.acked) return;
    if (this.badPackets > p.badPacketsAtStart) {
      // §4.2: the pad sent its answer 3 times with a bad LRC, we NAKed each, it gave up with EOT.
      this.linkFailures += 1;
      this.tracker.error('PIN pad answer arrived corrupted 3 times (bad LRC)');
      this.settle({ kind: 'failed', reason: 'PIN pad answer arrived corrupted (bad LRC); try again' });
    } else this.settle({ kind: 'cancelled' });
  }

  private onPinTimeout(): void {
    if (!this.pending) return;
    this.settle({ kind: 'timeout' });
    this.sendCancel().catch(() => undefined);
  }

  /**
   * Sends 72 and holds the next request until the pad's EOT for it has ended the session (or, a pad that
   * never sends one, `sessionEndWaitMs`): sent earlier, the next request would be ACKed and that late EOT
   * then read as the next customer pressing Cancel.
   */
  private async sendCancel(): Promise<void> {
    this.sessionEnding?.finish();
    const ending: SessionEnding = { done: Promise.resolve(), finish: () => undefined, acked: false };
    ending.done = new Promise<void>((resolve) => {
      const timer = this.timers.setTimeout(() => ending.finish(), this.opts.sessionEndWaitMs);
      ending.finish = () => {
        this.timers.clearTimeout(timer);
        if (this.sessionEnding === ending) this.sessionEnding = undefined;
        resolve();
      };
    });
    this.sessionEnding = ending;
    const sent = await this.sendMessage({ type: '72' }, () => {
      ending.acked = true;
    });
    if (!sent.ok) ending.finish();
  }

  private showIdle(): void {
    this.sendMessage({ type: 'Z2', text: this.opts.idleText, clear: true }).catch(() => undefined);
  }

  private settle(result: PinResult): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    this.timers.clearTimeout(p.timer);
    p.resolve(result);
  }

  private onStreamClosed(reason: Error | undefined): void {
    this.settle({ kind: 'failed', reason: 'PIN pad disconnected' });
    this.link.close();
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
