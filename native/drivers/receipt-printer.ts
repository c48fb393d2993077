import {
  buildReceipt,
  drawerKick,
  parseDleEotStatus,
  statusRequest,
  type ReceiptCode,
  type ReceiptLine as EscPosLine,
  type StatusKind,
} from '../protocols/escpos';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type {
  DeviceHealth,
  PrinterStatus,
  PrintResult,
  Receipt,
  ReceiptLine,
  ReceiptPrinter,
  Unsubscribe,
} from './roles';
import { systemTimers, type TimerHandle, type Timers } from './timers';

export type ReceiptPrinterDriverOptions = {
  timers?: Timers;
  /** Characters per line in font A: 42 on 80 mm printers, 32 on 58 mm. Default 42. */
  columns?: number;
  /** Wait for one DLE EOT reply; printers answer at once even while busy (§6). Default 1000 ms. */
  statusTimeoutMs?: number;
};

type StatusWaiter = { n: StatusKind; resolve: (byte: number | undefined) => void; timer: TimerHandle };

/** Maps the role's receipt model onto the ESC/POS encoder's lines. */
export function toEscPosLines(lines: readonly ReceiptLine[], columns: number): (EscPosLine | ReceiptCode)[] {
  const out: (EscPosLine | ReceiptCode)[] = [];
  for (const line of lines) {
    switch (line.kind) {
      case 'text':
        out.push({
          text: line.text,
          ...(line.align ? { align: line.align } : {}),
          ...(line.bold ? { bold: true } : {}),
          ...(line.large ? { large: true } : {}),
        });
        break;
      case 'pair': {
        const right = line.right.slice(0, columns);
        const left = line.left.slice(0, Math.max(0, columns - right.length - 1));
        out.push({ text: left.padEnd(columns - right.length) + right, ...(line.bold ? { bold: true } : {}) });
        break;
      }
      case 'rule':
        out.push({ text: '---' });
        break;
      case 'feed':
        for (let i = 0; i < Math.min(line.lines, 20); i += 1) out.push({ text: '' });
        break;
      case 'barcode':
        out.push({ code128: line.data });
        break;
      // The QR code is the on-screen receipt's, for the customer's phone: on paper its text is printed,
      // so the receipt's one scannable code is the barcode (what a return scans back).
      case 'qr':
        out.push({ text: line.data, align: 'center' });
        break;
    }
  }
  return out;
}

/**
 * ESC/POS receipt printer (docs/devices.md §6). Status comes from DLE EOT real-time requests, one
 * reply byte each, answered even while the printer is busy, so they double as the heartbeat. A receipt
 * is not sent to a printer that reports paper end, an open cover or offline.
 */
export class ReceiptPrinterDriver implements ReceiptPrinter, DriverLifecycle {
  readonly role = 'receiptPrinter' as const;
  private readonly stream: ByteStream;
  private readonly timers: Timers;
  private readonly columns: number;
  private readonly statusTimeoutMs: number;
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private waiters: StatusWaiter[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private closing = false;
  private lastStatus: PrinterStatus | undefined;
  private noise = 0;

  constructor(stream: ByteStream, options: ReceiptPrinterDriverOptions = {}) {
    this.stream = stream;
    this.timers = options.timers ?? systemTimers;
    this.columns = options.columns ?? 42;
    this.statusTimeoutMs = options.statusTimeoutMs ?? 1000;
    this.tracker = new HealthTracker(this.timers);
    this.unsubscribe.push(
      stream.onData((chunk) => this.onData(chunk)),
      stream.onClose((reason) => this.onClosed(reason)),
    );
  }

  health(): DeviceHealth {
    const s = this.lastStatus;
    const h = this.tracker.snapshot(
      s
        ? { paper: s.paper, coverOpen: s.coverOpen, online: s.online, drawerOpen: s.drawerOpen }
        : { paper: 'unknown' },
    );
    // The same conditions that refuse a receipt (refusalFor), from the last DLE EOT status.
    const problem = !s
      ? undefined
      : s.paper === 'out'
        ? 'out of paper'
        : s.coverOpen
          ? 'cover open'
          : !s.online
            ? 'offline'
            : undefined;
    return problem ? { ...h, problem } : h;
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  readonly heartbeat = async (): Promise<void> => {
    await this.status();
  };

  status(): Promise<PrinterStatus> {
    return this.exclusive(() => this.readStatus());
  }

  print(receipt: Receipt): Promise<PrintResult> {
    return this.exclusive(async () => {
      let before: PrinterStatus;
      try {
        before = await this.readStatus();
      } catch (err) {
        return { ok: false, reason: 'offline', message: err instanceof Error ? err.message : 'no status' };
      }
      const refusal = refusalFor(before);
      if (refusal) return refusal;
      const bytes = buildReceipt(toEscPosLines(receipt.lines, this.columns), {
        columns: this.columns,
        cut: receipt.cut === false ? 'none' : 'partial',
        openDrawer: receipt.openDrawer ?? false,
      });
      try {
        await this.stream.write(bytes);
      } catch (err) {
        return { ok: false, reason: 'failed', message: err instanceof Error ? err.message : 'write failed' };
      }
      // Paper can run out during the receipt: check again so the cashier reprints instead of handing
      // over half a receipt.
      try {
        const after = await this.readStatus();
        const late = refusalFor(after);
        if (late) return { ...late, message: `${late.message}; the receipt may be incomplete` };
      } catch (err) {
        return { ok: false, reason: 'offline', message: err instanceof Error ? err.message : 'no status' };
      }
      return { ok: true };
    });
  }

  cut(): Promise<void> {
    return this.exclusive(() => this.stream.write(Uint8Array.of(0x1d, 0x56, 0x01)));
  }

  kickDrawer(): Promise<void> {
    return this.exclusive(() => this.stream.write(drawerKick()));
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failWaiters();
    for (const u of this.unsubscribe) u();
    this.tracker.closed(undefined);
    await this.stream.close();
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async readStatus(): Promise<PrinterStatus> {
    const printer = parseDleEotStatus(1, await this.request(1));
    const offline = parseDleEotStatus(2, await this.request(2));
    const paper = parseDleEotStatus(4, await this.request(4));
    const status: PrinterStatus = {
      online: !printer.offline,
      paper: paper.paperEnd || offline.stoppedAtPaperEnd ? 'out' : paper.paperNearEnd ? 'near-end' : 'ok',
      coverOpen: offline.coverOpen,
      drawerOpen: printer.drawerPin3High,
    };
    this.lastStatus = status;
    this.tracker.seen();
    return status;
  }

  /** One DLE EOT n request; rejects when the printer does not answer. */
  private request(n: StatusKind): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (!this.stream.isOpen) {
        reject(new Error('printer not connected'));
        return;
      }
      const waiter: StatusWaiter = {
        n,
        resolve: (byte) =>
          byte === undefined ? reject(new Error('printer did not answer DLE EOT')) : resolve(byte),
        timer: this.timers.setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          this.tracker.error('printer did not answer a status request', true);
          waiter.resolve(undefined);
        }, this.statusTimeoutMs),
      };
      this.waiters.push(waiter);
      this.stream.write(statusRequest(n)).catch(() => undefined);
    });
  }

  private onData(chunk: Uint8Array): void {
    for (const byte of chunk) {
      const head = this.waiters[0];
      // Status bytes have a fixed pattern (bits 1 and 4 set, 0 and 7 clear); anything else is noise.
      if (!head || !parseDleEotStatus(head.n, byte).valid) {
        this.noise += 1;
        continue;
      }
      this.waiters.shift();
      this.timers.clearTimeout(head.timer);
      head.resolve(byte);
    }
  }

  private failWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      this.timers.clearTimeout(w.timer);
      w.resolve(undefined);
    }
  }

  private onClosed(reason: Error | undefined): void {
    this.failWaiters();
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}

function refusalFor(s: PrinterStatus): Exclude<PrintResult, { ok: true }> | undefined {
  if (s.paper === 'out') return { ok: false, reason: 'paper-out', message: 'printer is out of paper' };
  if (s.coverOpen) return { ok: false, reason: 'cover-open', message: 'printer cover is open' };
  if (!s.online) return { ok: false, reason: 'offline', message: 'printer is offline' };
  return undefined;
}
