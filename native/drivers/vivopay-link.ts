import { type Vivo2Frame, Vivo2Decoder, VIVO2_STATUS } from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker } from './driver-lifecycle';
import type { Unsubscribe } from './roles';
import type { TimerHandle, Timers } from './timers';

type Waiter = { cmd: number; resolve: (frame: Vivo2Frame | undefined) => void; timer: TimerHandle };

export type VivopayLinkOptions = {
  timers: Timers;
  /** Name of the protocol in the "no answer" message (the two readers' logs name it differently). */
  protocolName: string;
  /** Whether a non-OK status in this answer is a device fault worth showing (each reader decides). */
  reportsStatus: (frame: Vivo2Frame) => boolean;
  statusText: (status: number) => string;
  /** The transport closed; the waiters have already been answered `undefined`. */
  onClosed: (reason: Error | undefined) => void;
};

/**
 * The host side of one ViVOpay / ID TECH Protocol 2 serial link: receives frames, matches each answer
 * to the oldest command waiting for that command byte (answers come in order on one link), times out
 * commands nobody answers, and keeps the link's health counters. Both the chip (IDG) and the contactless
 * reader drive their commands through it.
 */
export class VivopayLink {
  readonly tracker: HealthTracker;
  private readonly decoder = new Vivo2Decoder({ direction: 'response' });
  private readonly unsubscribe: Unsubscribe[] = [];
  private waiters: Waiter[] = [];
  private badCrc = 0;

  constructor(
    private readonly stream: ByteStream,
    private readonly options: VivopayLinkOptions,
  ) {
    this.tracker = new HealthTracker(options.timers);
    this.unsubscribe.push(
      stream.onData((chunk) => {
        this.tracker.seen();
        this.decoder.push(chunk, (frame) => this.onFrame(frame));
      }),
      stream.onClose((reason) => {
        this.failAll();
        options.onClosed(reason);
      }),
    );
  }

  /** Counters for the driver's health detail. */
  counters(): { badCrc: number; droppedBytes: number } {
    return { badCrc: this.badCrc, droppedBytes: this.decoder.droppedBytes };
  }

  /** Writes a command and resolves with the matching response, or undefined on timeout/close. */
  command(frame: Uint8Array, cmd: number, timeoutMs: number): Promise<Vivo2Frame | undefined> {
    if (!this.stream.isOpen) return Promise.resolve(undefined);
    const { timers } = this.options;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        cmd,
        resolve,
        timer: timers.setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          this.tracker.error(
            `no answer to ${this.options.protocolName} command 0x${cmd.toString(16).padStart(2, '0')}`,
          );
          resolve(undefined);
        }, timeoutMs),
      };
      // With nothing asked, a frame half read is line noise (or a cut-off late answer): the answer to this
      // command can only start after it, and a decoder still waiting for that frame's bytes would take
      // the answer's bytes for them.
      if (this.waiters.length === 0) this.decoder.reset();
      this.waiters.push(waiter);
      this.stream.write(frame).catch((err: unknown) => {
        this.tracker.error(`write failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
  }

  /** Answers `undefined` to every command waiting for one of these command bytes and forgets them. */
  abandon(cmds: readonly number[]): void {
    for (const w of this.waiters.filter((x) => cmds.includes(x.cmd))) {
      this.options.timers.clearTimeout(w.timer);
      w.resolve(undefined);
    }
    this.waiters = this.waiters.filter((x) => !cmds.includes(x.cmd));
  }

  /** Answers `undefined` to every waiting command. */
  failAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      this.options.timers.clearTimeout(w.timer);
      w.resolve(undefined);
    }
  }

  /** Stops listening to the stream (idempotent); the stream stays open. */
  detach(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe.length = 0;
  }

  private onFrame(frame: Vivo2Frame): void {
    if (!frame.crcOk) this.badCrc += 1;
    const i = this.waiters.findIndex((w) => w.cmd === frame.cmd);
    // An answer nobody here waits for: a late reply, or another interface's on a shared link.
    if (i < 0) return;
    const [waiter] = this.waiters.splice(i, 1);
    if (!waiter) return;
    this.options.timers.clearTimeout(waiter.timer);
    if (frame.subOrStatus !== VIVO2_STATUS.ok && this.options.reportsStatus(frame)) {
      this.tracker.error(`reader status: ${this.options.statusText(frame.subOrStatus)}`);
    }
    waiter.resolve(frame);
  }
}
