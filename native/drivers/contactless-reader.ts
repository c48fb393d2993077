import { readEmvCardData, sanitizeEmvForLog } from '../protocols/emv-sanitize';
import { bytesToHex } from '../protocols/hex';
import { maskPan } from '../protocols/pan-mask';
import {
  buildActivateTransaction,
  buildBuzzer,
  buildCancelTransaction,
  buildPing,
  parseActivateTransactionResponse,
  VIVO2_COMMANDS,
  VIVO2_STATUS,
  vivo2StatusText,
  type Vivo2Frame,
} from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import type { DriverLifecycle, HealthTracker } from './driver-lifecycle';
import { Listeners } from './listeners';
import type {
  ContactlessReader,
  ContactlessRequest,
  ContactlessResult,
  DeviceHealth,
  Unsubscribe,
} from './roles';
import { systemTimers, type Timers } from './timers';
import { VivopayLink } from './vivopay-link';

export type ContactlessReaderDriverOptions = {
  timers?: Timers;
  /** Wait for the answer to a short command (ping, buzzer, cancel). Default 1000 ms. */
  commandTimeoutMs?: number;
  /**
   * Extra wait beyond the transaction timeout handed to the reader: the reader itself answers status 08
   * when its timeout passes (§3.3), so the host's timer is only the backstop. Default 2000 ms.
   */
  activateGraceMs?: number;
};

/**
 * ID TECH ViVOpay Protocol 2 reader (docs/devices.md §3.3): ping, buzzer, and the Activate Transaction
 * flow, whose answer is the EMV TLV the gateway needs. One command outstanding at a time, except Cancel,
 * which is sent while Activate waits for a tap.
 */
export class ContactlessReaderDriver implements ContactlessReader, DriverLifecycle {
  readonly role = 'contactless' as const;
  private readonly stream: ByteStream;
  private readonly commandTimeoutMs: number;
  private readonly activateGraceMs: number;
  private readonly link: VivopayLink;
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private activating: { resolve: (r: ContactlessResult) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closing = false;

  constructor(stream: ByteStream, options: ContactlessReaderDriverOptions = {}) {
    this.stream = stream;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    this.activateGraceMs = options.activateGraceMs ?? 2000;
    this.link = new VivopayLink(stream, {
      timers: options.timers ?? systemTimers,
      protocolName: 'ViVOpay',
      // The activate's non-OK statuses (timeout, cancelled, card errors) are the tap's outcome, not a fault.
      reportsStatus: (frame) => frame.cmd !== VIVO2_COMMANDS.activateTransaction.cmd,
      statusText: vivo2StatusText,
      onClosed: (reason) => this.onClosed(reason),
    });
    this.tracker = this.link.tracker;
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      ...this.link.counters(),
      busy: this.activating !== undefined,
    });
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  async ping(): Promise<boolean> {
    const frame = await this.exclusive(() =>
      this.command(buildPing(), VIVO2_COMMANDS.ping.cmd, this.commandTimeoutMs),
    );
    return frame?.crcOk === true && frame.subOrStatus === VIVO2_STATUS.ok;
  }

  /** Ping as heartbeat; while a transaction waits for a tap the reader is evidently there. */
  readonly heartbeat = async (): Promise<void> => {
    if (this.activating) return;
    if (!(await this.ping())) {
      this.tracker.error('contactless reader did not answer ping', true);
      throw new Error('contactless reader did not answer ping');
    }
  };

  async beep(): Promise<void> {
    const frame = await this.exclusive(() =>
      this.command(buildBuzzer(0x01), VIVO2_COMMANDS.buzzer.cmd, this.commandTimeoutMs),
    );
    if (!frame) throw new Error('contactless reader did not answer the buzzer command');
  }

  async activateTransaction(request: ContactlessRequest): Promise<ContactlessResult> {
    if (!this.tracker.isOpen) return { kind: 'failed', reason: 'contactless reader not connected' };
    if (this.activating)
      return { kind: 'failed', reason: 'a contactless transaction is already in progress' };
    const timeoutSeconds = Math.min(255, Math.max(1, Math.ceil(request.timeoutMs / 1000)));
    let frameOut: Uint8Array;
    try {
      frameOut = buildActivateTransaction({ amountCents: request.amountCents, timeoutSeconds });
    } catch (err) {
      return { kind: 'failed', reason: err instanceof Error ? err.message : 'bad amount' };
    }
    return this.exclusive(
      () =>
        new Promise<ContactlessResult>((resolve) => {
          const pending = { resolve };
          this.activating = pending;
          const waitMs = timeoutSeconds * 1000 + this.activateGraceMs;
          this.command(frameOut, VIVO2_COMMANDS.activateTransaction.cmd, waitMs).then(
            (frame) => this.finishActivate(pending, frame),
            () => this.finishActivate(pending, undefined),
          );
        }),
    );
  }

  async cancel(): Promise<void> {
    const pending = this.activating;
    if (!pending) return;
    this.activating = undefined;
    pending.resolve({ kind: 'cancelled' });
    // The activate waiter stays registered: the reader answers the activate (status 08/0A) after the
    // cancel, and that answer must be consumed here, not mistaken for the next command's.
    await this.command(buildCancelTransaction(), VIVO2_COMMANDS.cancelTransaction.cmd, this.commandTimeoutMs);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failAll();
    this.link.detach();
    this.tracker.closed(undefined);
    await this.stream.close();
  }

  private finishActivate(
    pending: { resolve: (r: ContactlessResult) => void },
    frame: Vivo2Frame | undefined,
  ): void {
    // Cancelled (or superseded): the reader's late answer to this activate is dropped on purpose.
    if (this.activating !== pending) return;
    this.activating = undefined;
    if (!frame) {
      // No answer at all, not even the reader's own timeout status: stop it so it cannot charge later.
      this.command(
        buildCancelTransaction(),
        VIVO2_COMMANDS.cancelTransaction.cmd,
        this.commandTimeoutMs,
      ).catch(() => undefined);
      pending.resolve({ kind: 'timeout' });
      return;
    }
    const r = parseActivateTransactionResponse(frame);
    if (!r.ok) {
      if (r.status === VIVO2_STATUS.timeout) pending.resolve({ kind: 'timeout' });
      else {
        const reason =
          r.status === VIVO2_STATUS.crcError && !frame.crcOk
            ? 'card data arrived corrupted (CRC); tap again'
            : `reader answered: ${r.reason}`;
        pending.resolve({ kind: 'failed', reason });
      }
      return;
    }
    const emvTlvHex = bytesToHex(r.raw);
    const card = readEmvCardData(emvTlvHex);
    const result: ContactlessResult = {
      kind: 'emv',
      emvTlvHex,
      sanitizedEmvHex: sanitizeEmvForLog(emvTlvHex),
    };
    if (card.ok) result.maskedPan = maskPan(card.value.pan);
    pending.resolve(result);
  }

  /** Serialises commands: Protocol 2 readers handle one at a time. */
  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private command(frame: Uint8Array, cmd: number, timeoutMs: number): Promise<Vivo2Frame | undefined> {
    return this.link.command(frame, cmd, timeoutMs);
  }

  private failAll(): void {
    this.link.failAll();
    const pending = this.activating;
    this.activating = undefined;
    pending?.resolve({ kind: 'failed', reason: 'contactless reader disconnected' });
  }

  /** The link has already answered its waiting commands. */
  private onClosed(reason: Error | undefined): void {
    this.failAll();
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
