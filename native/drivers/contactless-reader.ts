import { readEmvCardData, sanitizeEmvForLog } from '../protocols/emv-sanitize';
import { bytesToHex } from '../protocols/hex';
import { maskPan } from '../protocols/pan-mask';
import {
  buildActivateTransaction,
  buildBuzzer,
  buildCancelTransaction,
  buildPing,
  parseActivateTransactionResponse,
  Vivo2Decoder,
  VIVO2_COMMANDS,
  VIVO2_STATUS,
  vivo2StatusText,
  type Vivo2Frame,
} from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type {
  ContactlessReader,
  ContactlessRequest,
  ContactlessResult,
  DeviceHealth,
  Unsubscribe,
} from './roles';
import { systemTimers, type TimerHandle, type Timers } from './timers';

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

type Waiter = {
  cmd: number;
  resolve: (frame: Vivo2Frame | undefined) => void;
  timer: TimerHandle;
};

/**
 * ID TECH ViVOpay Protocol 2 reader (devices-reference §3.3): ping, buzzer, and the Activate Transaction
 * flow, whose answer is the EMV TLV the gateway needs. One command outstanding at a time, except Cancel,
 * which is sent while Activate waits for a tap.
 */
export class ContactlessReaderDriver implements ContactlessReader, DriverLifecycle {
  readonly role = 'contactless' as const;
  private readonly stream: ByteStream;
  private readonly timers: Timers;
  private readonly commandTimeoutMs: number;
  private readonly activateGraceMs: number;
  private readonly decoder = new Vivo2Decoder({ direction: 'response' });
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private waiters: Waiter[] = [];
  private activating: { resolve: (r: ContactlessResult) => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closing = false;
  private badCrc = 0;

  constructor(stream: ByteStream, options: ContactlessReaderDriverOptions = {}) {
    this.stream = stream;
    this.timers = options.timers ?? systemTimers;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    this.activateGraceMs = options.activateGraceMs ?? 2000;
    this.tracker = new HealthTracker(this.timers);
    this.unsubscribe.push(
      stream.onData((chunk) => {
        this.tracker.seen();
        this.decoder.push(chunk, (frame) => this.onFrame(frame));
      }),
      stream.onClose((reason) => this.onClosed(reason)),
    );
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      badCrc: this.badCrc,
      droppedBytes: this.decoder.droppedBytes,
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
    for (const u of this.unsubscribe) u();
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

  /** Writes a command and resolves with the matching response, or undefined on timeout/close. */
  private command(frame: Uint8Array, cmd: number, timeoutMs: number): Promise<Vivo2Frame | undefined> {
    if (!this.stream.isOpen) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        cmd,
        resolve,
        timer: this.timers.setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          this.tracker.error(`no answer to ViVOpay command 0x${cmd.toString(16).padStart(2, '0')}`);
          resolve(undefined);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
      this.stream.write(frame).catch((err: unknown) => {
        this.tracker.error(`write failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
  }

  private onFrame(frame: Vivo2Frame): void {
    if (!frame.crcOk) this.badCrc += 1;
    const i = this.waiters.findIndex((w) => w.cmd === frame.cmd);
    if (i < 0) return; // an answer nobody waits for (a timed-out ping's late reply)
    const [waiter] = this.waiters.splice(i, 1);
    if (!waiter) return;
    this.timers.clearTimeout(waiter.timer);
    if (frame.subOrStatus !== VIVO2_STATUS.ok && frame.cmd !== VIVO2_COMMANDS.activateTransaction.cmd) {
      this.tracker.error(`reader status: ${vivo2StatusText(frame.subOrStatus)}`);
    }
    waiter.resolve(frame);
  }

  private failAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      this.timers.clearTimeout(w.timer);
      w.resolve(undefined);
    }
    const pending = this.activating;
    this.activating = undefined;
    pending?.resolve({ kind: 'failed', reason: 'contactless reader disconnected' });
  }

  private onClosed(reason: Error | undefined): void {
    this.failAll();
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
