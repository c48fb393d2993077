import type { ByteStream } from '../transports/byte-stream';
import { ChipReaderDriver, type ChipReaderDriverOptions } from './chip-reader';
import { ContactlessReaderDriver, type ContactlessReaderDriverOptions } from './contactless-reader';
import type { DriverLifecycle } from './driver-lifecycle';
import type { DeviceHealth, Unsubscribe } from './roles';
import type { Timers } from './timers';

export type NgaReaderDriverOptions = {
  timers?: Timers;
  contactless?: Omit<ContactlessReaderDriverOptions, 'timers'>;
  chip?: Omit<ChipReaderDriverOptions, 'timers'>;
};

/**
 * One ID TECH NGA reader (VP3300/VP3350/NEO 2 class) on one Protocol 2 link, serving two interfaces:
 * contactless (02-01 activate, unchanged) and contact chip (60-10/60-11/60-12). Each driver decodes the
 * link itself and takes only the answers to its own commands. The reader runs one transaction at a
 * time (a command during one is taken as Cancel, docs/idtech-emv.md §2), so the heartbeat pauses while a
 * chip transaction is open, as it does for a contactless one.
 */
export class NgaReaderDriver implements DriverLifecycle {
  readonly contactless: ContactlessReaderDriver;
  readonly chip: ChipReaderDriver;

  constructor(stream: ByteStream, options: NgaReaderDriverOptions = {}) {
    const timers = options.timers ? { timers: options.timers } : {};
    this.contactless = new ContactlessReaderDriver(stream, { ...options.contactless, ...timers });
    this.chip = new ChipReaderDriver(stream, { ...options.chip, ...timers });
  }

  health(): DeviceHealth {
    const h = this.contactless.health();
    const chip = this.chip.health();
    return {
      ...h,
      ...(h.lastError === undefined && chip.lastError !== undefined ? { lastError: chip.lastError } : {}),
      detail: {
        ...h.detail,
        chipBusy: this.chip.inTransaction(),
        chipStep: String(chip.detail?.step ?? 'idle'),
      },
    };
  }

  readonly heartbeat = async (): Promise<void> => {
    if (this.chip.inTransaction()) return;
    await this.contactless.heartbeat();
  };

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.contactless.onDisconnect(listener);
  }

  async close(): Promise<void> {
    this.chip.detach();
    await this.contactless.close();
  }
}
