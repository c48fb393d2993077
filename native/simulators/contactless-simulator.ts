/**
 * An ID TECH ViVOpay contactless reader speaking Protocol 2 (docs/devices.md §3.3) over any
 * ByteStream: ping, get configuration, LED, buzzer, activate transaction (answered with EMV TLV data
 * built from a test card once a card is tapped) and cancel. A frame with a bad CRC is answered with
 * status 04; a frame that stalls longer than the 200 ms inter-byte limit with status 08 (timeout).
 *
 * A tapped card answers with a real ARQC (9F26) under the sandbox issuer keys of its scheme, as its chip
 * would at the 1st GENERATE AC (chip-card.ts; the profile from test-cards.ts `tapProfile`), with the data
 * it covers (Book 2 Table 26, 9F10) and its own transaction counter (per card, shared with the contact
 * slot when the store is): the sandbox issuer checks contactless EmvData as it checks a chip read. A card
 * of a scheme the sandbox holds no keys for (Amex, Discover) carries a stand-in the issuer cannot verify.
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
import { type ChipAtcStore, memoryAtcStore } from './chip-atc';
import { SimulatedChipCard, type TerminalAcData } from './chip-card';
import { DEFAULT_TEST_CARD, type TestCard, tapProfile } from './test-cards';
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
  /** The cards' ATCs (the chip slot's store, on a reader with both). Default: in memory, from 1. */
  atcStore?: ChipAtcStore;
};

/** A transaction a tap answers: the activation's, or a combined start's with its cash back (9F03). */
export type TapRequest = ActivateTransactionRequest & { otherAmountCents?: number };

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
  private readonly atc: ChipAtcStore;
  /** Counter of the stand-in cryptograms of cards the sandbox holds no keys for. */
  private standIns = 0;
  card: TestCard;
  /** LED state for the UI: index -> [red, green]. */
  readonly leds = new Map<number, { red: boolean; green: boolean }>();
  beeps = 0;

  constructor(stream: ByteStream, opts: ContactlessSimulatorOptions = {}) {
    this.opts = opts;
    this.timers = opts.timers ?? realTimers;
    this.card = opts.card ?? DEFAULT_TEST_CARD;
    this.atc = opts.atcStore ?? memoryAtcStore();
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
  tapRecord(card: TestCard, req: TapRequest): TlvNode[] {
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

  /**
   * The card's 1st GENERATE AC for a tap: its chip's ARQC under the sandbox issuer keys, counted on its
   * own ATC; or, for a scheme the sandbox holds no keys for, a stand-in of the same shape.
   */
  private firstGenerateAc(
    card: TestCard,
    terminal: TerminalAcData,
  ): { ac: Uint8Array; atc: Uint8Array; iad?: Uint8Array; psn?: string } {
    const profile = tapProfile(card);
    if (profile) {
      const chip = new SimulatedChipCard(
        { ...card, chip: profile },
        { nextAtc: () => this.atc.next(card.pan, profile.panSequenceNumber) },
      );
      const ac = chip.firstGenerateAc(terminal);
      chip.endTransaction();
      return { ac: ac.ac, atc: ac.atc, iad: ac.iad, psn: profile.panSequenceNumber };
    }
    this.standIns += 1;
    const atc = Uint8Array.of((this.standIns >> 8) & 0xff, this.standIns & 0xff);
    const ac = createHash('sha256')
      .update(`${card.pan}|${Buffer.from(terminal['9F02']).toString('hex')}|${this.standIns}`)
      .update(terminal['9F37'])
      .digest()
      .subarray(0, 8);
    return { ac: Uint8Array.from(ac), atc };
  }

  /** The EMV data a contactless card and kernel produce for this request (EMV Book 3 tags). */
  private emvData(card: TestCard, req: TapRequest): TlvNode[] {
    const date = req.date ?? yymmdd(this.opts.now?.() ?? new Date());
    // Book 2 Table 26's terminal half, as the kernel fills the card's CDOL1 (no TVR bit set: no ODA).
    const terminal: TerminalAcData = {
      '9F02': toBcd(req.amountCents, 6),
      '9F03': toBcd(req.otherAmountCents ?? 0, 6),
      '9F1A': Uint8Array.of(0x08, 0x40),
      '95': new Uint8Array(5),
      '5F2A': toBcd(req.currencyCode ?? 840, 2),
      '9A': toBcd(date, 3),
      '9C': toBcd(req.transactionType ?? 0, 1),
      '9F37': Uint8Array.from(randomBytes(4)),
    };
    const chip = this.firstGenerateAc(card, terminal);
    const nodes: TlvNode[] = [
      ...Object.entries(terminal).map(([tag, value]) => ({ tag, value })),
      { tag: '9F26', value: chip.ac },
      // 0x80: ARQC, the card asks to go online.
      { tag: '9F27', value: Uint8Array.of(0x80) },
      { tag: '82', value: SimulatedChipCard.AIP },
      { tag: '9F36', value: chip.atc },
      ...(chip.iad ? [{ tag: '9F10', value: chip.iad }] : []),
      ...(chip.psn ? [{ tag: '5F34', value: toBcd(chip.psn, 1) }] : []),
      // POS entry mode 07: contactless EMV (docs/idtech-emv.md §5); a contact chip read says 05.
      { tag: '9F39', value: Uint8Array.of(0x07) },
    ];
    const track2 = `${card.pan}D${card.expiryYYMM}${card.serviceCode}0000000000000`.slice(0, 37);
    nodes.push(
      { tag: '57', value: cnBytes(track2) },
      { tag: '5A', value: cnBytes(card.pan) },
      { tag: '5F24', value: toBcd(`${card.expiryYYMM}${lastDayOfMonth(card.expiryYYMM)}`, 3) },
    );
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
