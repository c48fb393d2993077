import { encodeDisplayScreen, encodeDisplaySetup } from '../protocols/escpos-customer-display';
import {
  itemRows,
  messageRows,
  totalRows,
  type DisplayRows,
  type LabelledAmount,
  type MoneyFormatter,
} from '../protocols/pole-display-lines';
import type { ByteStream } from '../transports/byte-stream';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type { DeviceHealth, PoleDisplay, Unsubscribe } from './roles';
import { systemTimers, type Timers } from './timers';

export type PoleDisplayDriverOptions = { timers?: Timers };

/**
 * Pole display driver (ESC/POS customer display commands over serial). It sets the display up once
 * (initialize, overwrite mode, cursor off, PC437) and then writes whole screens, one at a time in the
 * order asked, so a quick item-then-total never interleaves on the wire. The display answers nothing:
 * there is no heartbeat, and a write to a port that went away is what shows it gone.
 */
export class PoleDisplayDriver implements PoleDisplay, DriverLifecycle {
  readonly role = 'poleDisplay' as const;
  readonly heartbeat = undefined;
  private readonly stream: ByteStream;
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly offClose: () => void;
  private queue: Promise<void>;
  private shown: DisplayRows | undefined;
  private closing = false;
  private screens = 0;

  constructor(stream: ByteStream, options: PoleDisplayDriverOptions = {}) {
    this.stream = stream;
    this.tracker = new HealthTracker(options.timers ?? systemTimers);
    this.offClose = stream.onClose((reason) => {
      this.tracker.closed(reason);
      if (!this.closing) this.disconnects.emit(reason);
    });
    this.queue = this.send(encodeDisplaySetup()).catch(() => undefined);
  }

  showItem(
    item: { name: string; priceCents: number },
    format: MoneyFormatter,
    second?: LabelledAmount,
  ): Promise<void> {
    return this.show(itemRows(item, format, second));
  }

  showTotal(total: LabelledAmount, format: MoneyFormatter, second?: LabelledAmount): Promise<void> {
    return this.show(totalRows(total, format, second));
  }

  showMessage(first: string, second = ''): Promise<void> {
    return this.show(messageRows(first, second));
  }

  clear(): Promise<void> {
    return this.show(messageRows('', ''));
  }

  lines(): readonly [string, string] | undefined {
    return this.shown;
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({ screens: this.screens });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.offClose();
    this.tracker.closed(undefined);
    await this.queue.catch(() => undefined);
    await this.stream.close();
  }

  private show(rows: DisplayRows): Promise<void> {
    const bytes = encodeDisplayScreen(rows);
    const done = this.queue.then(async () => {
      await this.send(bytes);
      this.shown = rows;
      this.screens += 1;
    });
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async send(bytes: Uint8Array): Promise<void> {
    try {
      await this.stream.write(bytes);
      this.tracker.seen();
    } catch (err) {
      const message = `pole display write failed: ${err instanceof Error ? err.message : String(err)}`;
      this.tracker.error(message, true);
      throw new Error(message);
    }
  }
}
