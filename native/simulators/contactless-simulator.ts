/**
 * An ID TECH ViVOpay contactless reader speaking Protocol 2 (devices-reference.md §3.3) over any
 * ByteStream: ping, get configuration, LED, buzzer, activate transaction (answered with EMV TLV data
 * built from a test card once a card is tapped) and cancel. A frame with a bad CRC is answered with
 * status 04; a frame that stalls longer than the 200 ms inter-byte limit with status 08 (timeout).
 *
 * The cryptogram (9F26) is a deterministic stand-in, not an ARQC under an issuer key: the sandbox
 * processor does not verify cryptograms.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type TlvNode, encodeTlv } from '../protocols/ber-tlv';
import { type LinkTimers, realTimers } from '../protocols/verifone-link';
import {
  type ActivateTransactionRequest,
  VIVO2_COMMANDS,
  VIVO2_STATUS,
  type Vivo2Frame,
  parseActivateTransactionData,
  toBcd,
} from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import { DEFAULT_TEST_CARD, type TestCard } from './test-cards';
import { type VivopayLinkFaults, VivopayLinkSimulator } from './vivopay-link-simulator';

/** The link's faults (bad CRC, NAK storm, slow answers) and this reader's own. */
export type ContactlessFaults = VivopayLinkFaults & {
  /** Close the stream when a transaction is activated. */
  unplugOnActivate?: boolean;
};

export type ContactlessSimulatorOptions = {
  /** The card a scripted tap presents. */
  card?: TestCard;
  /** Tap the card automatically `tapDelayMs` after each activate. Default true. */
  autoTap?: boolean;
  tapDelayMs?: number;
  faults?: ContactlessFaults;
  /** Inter-byte limit before a partial frame is answered with a timeout (§3.3). Default 200 ms. */
  interByteTimeoutMs?: number;
  timers?: LinkTimers;
  /** Clock for 9A when the host sends no date. */
  now?: () => Date;
};

export type ContactlessEvent =
  | { type: 'activated'; amountCents: number }
  | { type: 'tapped'; last4: string }
  | { type: 'timeout' }
  | { type: 'cancelled' }
  | { type: 'led'; led: number; red: boolean; green: boolean }
  | { type: 'beep'; pattern: number }
  | { type: 'bad-frame' };

type Pending = { req: ActivateTransactionRequest; timer: unknown; tapTimer: unknown };

/** EMV `n` fields as BCD; `cn` (5A) and 57 left-justified with 'F' padding (EMV Book 3 Annex A). */
function cnBytes(digits: string): Uint8Array {
  const s = digits.length % 2 === 0 ? digits : `${digits}F`;
  return Uint8Array.from(Buffer.from(s, 'hex'));
}

function lastDayOfMonth(yymm: string): string {
  const year = 2000 + Number(yymm.slice(0, 2));
  const month = Number(yymm.slice(2, 4));
  return String(new Date(Date.UTC(year, month, 0)).getUTCDate()).padStart(2, '0');
}

function yymmdd(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}`;
}

const AID_BY_BRAND: Readonly<Record<string, string>> = {
  Visa: 'A0000000031010',
  Mastercard: 'A0000000041010',
  Amex: 'A00000002501',
  Discover: 'A0000001523010',
};

/** Reader configuration returned by Get Configuration: terminal country, currency, type, capabilities. */
const CONFIGURATION: readonly TlvNode[] = [
  { tag: '9F1A', value: Uint8Array.of(0x08, 0x40) },
  { tag: '5F2A', value: Uint8Array.of(0x08, 0x40) },
  { tag: '9F35', value: Uint8Array.of(0x22) },
  { tag: '9F33', value: Uint8Array.of(0x00, 0x08, 0xe8) },
];

export class ContactlessSimulator {
  private readonly opts: ContactlessSimulatorOptions;
  private readonly timers: LinkTimers;
  private readonly link: VivopayLinkSimulator;
  private readonly listeners = new Set<(e: ContactlessEvent) => void>();
  private faults: ContactlessFaults;
  private pending: Pending | undefined;
  private atc = 0;
  card: TestCard;
  /** LED state for the UI: index -> [red, green]. */
  readonly leds = new Map<number, { red: boolean; green: boolean }>();
  beeps = 0;

  constructor(stream: ByteStream, opts: ContactlessSimulatorOptions = {}) {
    this.opts = opts;
    this.timers = opts.timers ?? realTimers;
    this.card = opts.card ?? DEFAULT_TEST_CARD;
    this.faults = { ...opts.faults };
    this.link = new VivopayLinkSimulator(stream, {
      timers: this.timers,
      interByteTimeoutMs: opts.interByteTimeoutMs,
      faults: this.faults,
      onFrame: (f) => this.onFrame(f),
      onBadFrame: () => this.emit({ type: 'bad-frame' }),
      onClose: () => this.stop(),
    });
  }

  on(listener: (e: ContactlessEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setFaults(faults: ContactlessFaults): void {
    this.faults = { ...faults };
    this.link.setFaults(faults);
  }

  /** True while an activated transaction waits for a card. */
  get waitingForCard(): boolean {
    return this.pending !== undefined;
  }

  /** Presents `card` to the field (the UI's "tap"). False when no transaction is active. */
  tap(card: TestCard = this.card): boolean {
    const p = this.pending;
    if (!p) return false;
    this.finishPending();
    this.atc += 1;
    this.respond(
      VIVO2_COMMANDS.activateTransaction.cmd,
      VIVO2_STATUS.ok,
      encodeTlv(this.emvData(card, p.req)),
    );
    this.emit({ type: 'tapped', last4: card.pan.slice(-4) });
    return true;
  }

  /**
   * The record `card` produces when tapped for a transaction the reader runs on another command (an NGA
   * reader's 02-40 with contact + contactless): the same kernel output as a tap on 02-01, its ATC counted.
   */
  tapRecord(card: TestCard, req: ActivateTransactionRequest): TlvNode[] {
    this.atc += 1;
    const nodes = this.emvData(card, req);
    this.emit({ type: 'tapped', last4: card.pan.slice(-4) });
    return nodes;
  }

  stop(): void {
    this.finishPending();
    this.link.stop();
  }

  private emit(e: ContactlessEvent): void {
    for (const l of this.listeners) l(e);
  }

  private respond(cmd: number, status: number, data?: Uint8Array): void {
    this.link.respond(cmd, status, data);
  }

  private onFrame(f: Vivo2Frame): void {
    switch (f.cmd) {
      case VIVO2_COMMANDS.ping.cmd:
        if (f.subOrStatus !== VIVO2_COMMANDS.ping.sub) break;
        this.respond(f.cmd, VIVO2_STATUS.ok);
        return;
      case VIVO2_COMMANDS.getConfiguration.cmd:
        if (f.subOrStatus !== VIVO2_COMMANDS.getConfiguration.sub) break;
        this.respond(f.cmd, VIVO2_STATUS.ok, encodeTlv(CONFIGURATION));
        return;
      case VIVO2_COMMANDS.led.cmd: {
        if (f.subOrStatus !== VIVO2_COMMANDS.led.sub) break;
        if (f.data.length !== 3) {
          this.respond(f.cmd, VIVO2_STATUS.incorrectParameter);
          return;
        }
        const led = f.data[0] ?? 0;
        const state = { red: f.data[1] === 1, green: f.data[2] === 1 };
        this.leds.set(led, state);
        this.emit({ type: 'led', led, ...state });
        this.respond(f.cmd, VIVO2_STATUS.ok);
        return;
      }
      case VIVO2_COMMANDS.buzzer.cmd:
        this.beeps += 1;
        this.emit({ type: 'beep', pattern: f.subOrStatus });
        this.respond(f.cmd, VIVO2_STATUS.ok);
        return;
      case VIVO2_COMMANDS.activateTransaction.cmd:
        if (f.subOrStatus !== VIVO2_COMMANDS.activateTransaction.sub) break;
        this.activate(f);
        return;
      case VIVO2_COMMANDS.cancelTransaction.cmd:
        if (f.subOrStatus !== VIVO2_COMMANDS.cancelTransaction.sub) break;
        if (this.pending) {
          this.finishPending();
          this.respond(VIVO2_COMMANDS.activateTransaction.cmd, VIVO2_STATUS.failed);
          this.emit({ type: 'cancelled' });
        }
        this.respond(f.cmd, VIVO2_STATUS.ok);
        return;
      default:
        this.respond(f.cmd, VIVO2_STATUS.unknownCommand);
        return;
    }
    this.respond(f.cmd, VIVO2_STATUS.unknownSubCommand);
  }

  private activate(f: Vivo2Frame): void {
    if (this.pending) {
      this.respond(f.cmd, VIVO2_STATUS.commandNotAllowed);
      return;
    }
    const req = parseActivateTransactionData(f.data);
    if (!req) {
      this.respond(f.cmd, VIVO2_STATUS.malformattedData);
      return;
    }
    if (this.faults.unplugOnActivate) {
      this.link.unplugAfterFlush();
      return;
    }
    const timeoutMs = Math.max(1, req.timeoutSeconds ?? 30) * 1000;
    const p: Pending = {
      req,
      timer: this.timers.setTimeout(() => this.onCardTimeout(), timeoutMs),
      tapTimer: undefined,
    };
    this.pending = p;
    this.emit({ type: 'activated', amountCents: req.amountCents });
    if (this.opts.autoTap ?? true) {
      p.tapTimer = this.timers.setTimeout(() => {
        if (this.pending === p) this.tap();
      }, this.opts.tapDelayMs ?? 0);
    }
  }

  private onCardTimeout(): void {
    if (!this.pending) return;
    this.finishPending();
    this.respond(VIVO2_COMMANDS.activateTransaction.cmd, VIVO2_STATUS.timeout);
    this.emit({ type: 'timeout' });
  }

  private finishPending(): void {
    const p = this.pending;
    if (!p) return;
    this.timers.clearTimeout(p.timer);
    if (p.tapTimer !== undefined) this.timers.clearTimeout(p.tapTimer);
    this.pending = undefined;
  }

  /** The EMV data a contactless card and kernel produce for this request (EMV Book 3 tags). */
  private emvData(card: TestCard, req: ActivateTransactionRequest): TlvNode[] {
    const date = req.date ?? yymmdd(this.opts.now?.() ?? new Date());
    const un = randomBytes(4);
    const atc = Uint8Array.of((this.atc >> 8) & 0xff, this.atc & 0xff);
    const cryptogram = createHash('sha256')
      .update(`${card.pan}|${req.amountCents}|${this.atc}|${Buffer.from(un).toString('hex')}`)
      .digest()
      .subarray(0, 8);
    const track2 = `${card.pan}D${card.expiryYYMM}${card.serviceCode}0000000000000`.slice(0, 37);
    const nodes: TlvNode[] = [
      { tag: '9F02', value: toBcd(req.amountCents, 6) },
      { tag: '5F2A', value: toBcd(req.currencyCode ?? 840, 2) },
      { tag: '9A', value: toBcd(date, 3) },
      { tag: '9C', value: toBcd(req.transactionType ?? 0, 1) },
      { tag: '9F26', value: Uint8Array.from(cryptogram) },
      // 0x80: ARQC, the card asks to go online.
      { tag: '9F27', value: Uint8Array.of(0x80) },
      { tag: '82', value: Uint8Array.of(0x20, 0x00) },
      { tag: '95', value: new Uint8Array(5) },
      { tag: '9F36', value: atc },
      { tag: '9F37', value: Uint8Array.from(un) },
      // POS entry mode 07: contactless EMV (idtech-emv.md §5); a contact chip read says 05.
      { tag: '9F39', value: Uint8Array.of(0x07) },
      { tag: '57', value: cnBytes(track2) },
      { tag: '5A', value: cnBytes(card.pan) },
      { tag: '5F24', value: toBcd(`${card.expiryYYMM}${lastDayOfMonth(card.expiryYYMM)}`, 3) },
    ];
    const aid = AID_BY_BRAND[card.brand];
    if (aid) nodes.push({ tag: '84', value: Uint8Array.from(Buffer.from(aid, 'hex')) });
    return nodes;
  }
}

export function createContactlessSimulator(
  stream: ByteStream,
  opts: ContactlessSimulatorOptions = {},
): ContactlessSimulator {
  return new ContactlessSimulator(stream, opts);
}
