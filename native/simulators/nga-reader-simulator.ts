/**
 * One simulated ID TECH NGA reader on one link, with both interfaces the hardware has: the contactless
 * simulator (02-01 activate and the small commands, unchanged) and the contact chip simulator (60-1x,
 * 02-40). Commands are decoded once here and handed to the interface they belong to over in-process
 * pairs; both interfaces' answers go back out on the one link, as from one device.
 *
 * 05-01 Cancel goes to whichever interface has a transaction open (both, if both have), else to the
 * contactless side, which answers it as before.
 */
import { type LinkTimers, realTimers } from '../protocols/verifone-link';
import {
  type Vivo2Frame,
  Vivo2Decoder,
  encodeVivo2Command,
  encodeVivo2Response,
} from '../protocols/vivotech2';
import { type ByteStream, createMemoryPair } from '../transports/byte-stream';
import { ChipSimulator, type ChipSimulatorOptions } from './chip-simulator';
import { ContactlessSimulator, type ContactlessSimulatorOptions } from './contactless-simulator';
import { StreamWriter } from './stream-writer';
import type { TestCard } from './test-cards';

export type NgaReaderSimulatorOptions = {
  contactless?: ContactlessSimulatorOptions;
  chip?: ChipSimulatorOptions;
  /** Inter-byte limit on the outer link before a partial frame is answered with a timeout. Default 200 ms. */
  interByteTimeoutMs?: number;
  timers?: LinkTimers;
};

const CHIP_COMMAND = 0x60;
const START_240 = { cmd: 0x02, sub: 0x40 };
const CANCEL = { cmd: 0x05, sub: 0x01 };
const STATUS_CRC_ERROR = 0x04;
const STATUS_TIMEOUT = 0x08;

export class NgaReaderSimulator {
  readonly contactless: ContactlessSimulator;
  readonly chip: ChipSimulator;
  private readonly link: ByteStream;
  private readonly writer: StreamWriter;
  private readonly decoder = new Vivo2Decoder({ direction: 'command' });
  private readonly timers: LinkTimers;
  private readonly interByteMs: number;
  private readonly toContactless: ByteStream;
  private readonly toChip: ByteStream;
  private readonly unsubscribe: (() => void)[] = [];
  private interByteTimer: unknown;

  constructor(link: ByteStream, opts: NgaReaderSimulatorOptions = {}) {
    this.link = link;
    this.timers = opts.timers ?? realTimers;
    this.interByteMs = opts.interByteTimeoutMs ?? 200;
    this.writer = new StreamWriter(link);
    const [ctlsHost, ctlsDevice] = createMemoryPair('nga-contactless-host', 'nga-contactless');
    const [chipHost, chipDevice] = createMemoryPair('nga-chip-host', 'nga-chip');
    this.toContactless = ctlsHost;
    this.toChip = chipHost;
    this.contactless = new ContactlessSimulator(ctlsDevice, opts.contactless);
    this.chip = new ChipSimulator(chipDevice, opts.chip);
    this.unsubscribe.push(
      ctlsHost.onData((chunk) => this.writer.write(chunk)),
      chipHost.onData((chunk) => this.writer.write(chunk)),
      link.onData((chunk) => this.receive(chunk)),
      link.onClose(() => void this.stop()),
      // An interface that "unplugs" (fault) takes the whole reader with it.
      ctlsHost.onClose(() => void this.link.close()),
      chipHost.onClose(() => void this.link.close()),
    );
  }

  /**
   * A card tapped on the reader: to the contact + contactless 02-40 that waits (the chip side answers it
   * with the contactless record), else to the contactless activation (02-01). False when neither waits.
   */
  tap(card: TestCard = this.contactless.card): boolean {
    const amounts = this.chip.pendingAmounts;
    if (this.chip.waitingForTap && amounts) {
      const record = this.contactless.tapRecord(card, {
        amountCents: amounts.amountCents,
        ...(amounts.otherAmountCents !== undefined ? { otherAmountCents: amounts.otherAmountCents } : {}),
        ...(amounts.transactionType !== undefined ? { transactionType: amounts.transactionType } : {}),
        ...(amounts.currencyCode !== undefined ? { currencyCode: amounts.currencyCode } : {}),
      });
      return this.chip.tapped(record, card.pan.slice(-4));
    }
    return this.contactless.tap(card);
  }

  /** Either interface waits for a tap. */
  get waitingForTap(): boolean {
    return this.chip.waitingForTap || this.contactless.waitingForCard;
  }

  async stop(): Promise<void> {
    this.clearInterByte();
    for (const u of this.unsubscribe) u();
    this.unsubscribe.length = 0;
    this.contactless.stop();
    this.chip.stop();
    await Promise.all([this.toContactless.close(), this.toChip.close()]);
  }

  private receive(chunk: Uint8Array): void {
    this.decoder.push(chunk, (f) => this.route(f));
    this.clearInterByte();
    if (this.decoder.hasPartial) {
      this.interByteTimer = this.timers.setTimeout(() => {
        this.interByteTimer = undefined;
        this.decoder.reset();
        this.writer.write(encodeVivo2Response(0x00, STATUS_TIMEOUT));
      }, this.interByteMs);
    }
  }

  private clearInterByte(): void {
    if (this.interByteTimer !== undefined) this.timers.clearTimeout(this.interByteTimer);
    this.interByteTimer = undefined;
  }

  private route(f: Vivo2Frame): void {
    if (!f.crcOk) {
      // Re-encoding would repair the CRC: answer here, as either interface would (status 04).
      this.writer.write(encodeVivo2Response(f.cmd, STATUS_CRC_ERROR));
      return;
    }
    const frame = encodeVivo2Command(f.cmd, f.subOrStatus, f.data);
    const forward = (to: ByteStream): void => {
      void to.write(frame).catch(() => undefined);
    };
    if (f.cmd === CHIP_COMMAND || (f.cmd === START_240.cmd && f.subOrStatus === START_240.sub)) {
      forward(this.toChip);
      return;
    }
    if (f.cmd === CANCEL.cmd && f.subOrStatus === CANCEL.sub) {
      const chip = this.chip.busy;
      const ctls = this.contactless.waitingForCard;
      if (chip) forward(this.toChip);
      if (ctls || !chip) forward(this.toContactless);
      return;
    }
    forward(this.toContactless);
  }
}
