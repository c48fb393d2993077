/**
 * An ID TECH NGA reader's contact EMV interface (VP3300-class) speaking Protocol 2 over any ByteStream:
 * 60-10 / 02-40 start (waits for a card to be inserted), 60-11 authenticate (1st GENERATE AC: an ARQC
 * under the card's real ICC key), 60-12 apply host response (EXTERNAL AUTHENTICATE, scripts 71, 2nd
 * GENERATE AC, scripts 72, 9F5B), 05-01 cancel, ping. Frame layouts come from protocols/idtech-emv.ts,
 * which holds every layout choice the public sources leave open (docs/idtech-emv.md); the card is
 * chip-card.ts.
 *
 * Faults a test or the sandbox panel can script: a chip that cannot be read (fallback result 0007), a
 * card that stops answering (result 3006 after the reader's own wait), a card pulled out before
 * authenticate or completion (3005), a card that declines after an approval (AAC at the 2nd GENERATE AC),
 * a reader that never answers one command, a corrupted CRC, a NAK storm, slow answers, an unplug.
 */
import { randomBytes } from 'node:crypto';
import { type TlvNode, findTlv } from '../protocols/ber-tlv';
import { cvmResults, decodeCvmList, selectCvm } from '../protocols/emv-cvm';
import { encodeScriptResults, type ScriptResult } from '../protocols/emv-issuer-script';
import {
  ATTRIBUTION_CONTACT,
  ATTRIBUTION_CONTACTLESS_EMV,
  EMV_RESULT,
  IDTECH_EMV_COMMANDS,
  PROTOCOL2_STATUS,
  type TransactionAmounts,
  decodeOutputTags,
  encodeActivateFailureData,
  encodeActivateResponseData,
  encodeContactResponseData,
  parseActivateTransaction240Data,
  parseContactApplyHostResponseData,
  parseContactAuthenticateData,
  parseContactStartData,
} from '../protocols/idtech-emv';
import { type LinkTimers, realTimers } from '../protocols/verifone-link';
import { type Vivo2Frame, toBcd } from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import { type ChipAtcStore, memoryAtcStore } from './chip-atc';
import { CID, SimulatedChipCard, type TerminalAcData } from './chip-card';
import { DEFAULT_CHIP_TEST_CARD, SANDBOX_PIN, type TestCard } from './test-cards';
import { type VivopayLinkFaults, VivopayLinkSimulator } from './vivopay-link-simulator';

/** The link's faults (bad CRC, NAK storm, slow answers) and this reader's own. */
export type ChipFaults = VivopayLinkFaults & {
  /** The chip never answers reset: start ends in "fallback to magstripe" (0007), or 3002 without fallback. */
  chipUnreadable?: boolean;
  /** The card stops answering at this step: the reader answers 3006 after `cardTimeoutMs`. */
  cardNotAnswering?: 'authenticate' | 'complete';
  /** The cardholder pulls the card out just before this step: the reader answers 3005. */
  removeCardBefore?: 'authenticate' | 'complete';
  /** The card answers AAC at the 2nd GENERATE AC whatever the issuer said. */
  declineAfterApproval?: boolean;
  /** The reader never answers this command (the host's own timeout must end it). */
  silentOn?: 'start' | 'authenticate' | 'complete';
  /** Close the stream when a transaction starts. */
  unplugOnStart?: boolean;
};

export type ChipSimulatorOptions = {
  /** The card an insert presents when none is named. Default: the sandbox Visa chip card. */
  card?: TestCard;
  /** Insert the card automatically `insertDelayMs` after each start. Default false. */
  autoInsert?: boolean;
  insertDelayMs?: number;
  faults?: ChipFaults;
  /** The cards' ATCs. Default: in memory, from 1. */
  atcStore?: ChipAtcStore;
  /** How long the reader waits for a card that stopped answering before it says so (3006). Default 2000 ms. */
  cardTimeoutMs?: number;
  /** Inter-byte limit before a partial frame gets a timeout answer (docs/devices.md §3.3). Default 200 ms. */
  interByteTimeoutMs?: number;
  timers?: LinkTimers;
  /** Clock for 9A. */
  now?: () => Date;
};

export type ChipEvent =
  | { type: 'waiting-for-card'; amountCents: number }
  | { type: 'inserted'; last4: string }
  | { type: 'tapped'; last4: string }
  | { type: 'fallback'; last4: string }
  | { type: 'online-request'; last4: string; cvm: string }
  | { type: 'completed'; decision: 'TC' | 'AAC'; scripts: number }
  | { type: 'card-removed' }
  | { type: 'card-not-answering' }
  | { type: 'timeout' }
  | { type: 'cancelled' }
  | { type: 'bad-frame' };

type StartKind = '60-10' | '02-40';

type StartRequest = TransactionAmounts & {
  kind: StartKind;
  /** A 02-40 that enables the contactless interface too: a tap may answer it (tapped()). */
  contactless: boolean;
  allowFallback: boolean;
  cardSeatedTimeoutSeconds: number;
  authenticateTimeoutSeconds: number;
  outputTags: string[] | undefined;
  forceOnline: boolean;
};

type Pending = { req: StartRequest; timer: unknown; insertTimer: unknown };

type Session = {
  req: StartRequest;
  testCard: TestCard;
  card: SimulatedChipCard;
  phase: 'started' | 'online';
  removed: boolean;
  /** TVR (95) as the kernel built it for the 1st GENERATE AC. */
  tvr: Uint8Array;
  /** Tags of this transaction (terminal data, card data, results) for the output lists. */
  values: Map<string, Uint8Array>;
  timer: unknown;
};

/** Terminal configuration: US terminal (9F1A 0840), attended online-only (9F35 22), capabilities 9F33. */
const TERMINAL: Readonly<Record<string, string>> = {
  '9F1A': '0840',
  '9F35': '22',
  // Manual key entry, magstripe, IC with contacts; enciphered PIN online, signature, no CVM; SDA/DDA/CDA off.
  '9F33': 'E06000',
  '9F40': '6000F0A001',
  '9F1E': '5449504F494E5431',
};

/** NEO2 p.185: the start's default output tags. */
const START_OUTPUT = ['57', '5A', '5F34', '5F20', '5F24', '5F25', '5F2D', '50', '84', '4F', '9F39', '8E'];

/** What 60-11 returns by default: everything an authorisation needs (EmvData) — card data included. */
const AUTHENTICATE_OUTPUT = [
  '9F02',
  '9F03',
  '9F1A',
  '95',
  '5F2A',
  '9A',
  '9C',
  '9F37',
  '82',
  '9F36',
  '9F10',
  '9F26',
  '9F27',
  '9F34',
  '9F33',
  '9F35',
  '9F39',
  '84',
  '4F',
  '50',
  '57',
  '5A',
  '5F24',
  '5F34',
  '9F0D',
  '9F0E',
  '9F0F',
];

/** What 60-12 returns: the final cryptogram and its context, the ARC applied, script results. */
const COMPLETE_OUTPUT = ['9F27', '9F26', '9F36', '9F10', '95', '9B', '8A', '9F5B'];

function yymmdd(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}`;
}

export class ChipSimulator {
  private readonly opts: ChipSimulatorOptions;
  private readonly timers: LinkTimers;
  private readonly link: VivopayLinkSimulator;
  private readonly listeners = new Set<(e: ChipEvent) => void>();
  private readonly atc: ChipAtcStore;
  /** The cards' offline PINs as issuer scripts changed them, by PAN and PSN; in memory only. */
  private readonly offlinePins = new Map<string, string>();
  private faults: ChipFaults;
  private pending: Pending | undefined;
  private session: Session | undefined;
  private delayed: unknown;
  card: TestCard;

  constructor(stream: ByteStream, opts: ChipSimulatorOptions = {}) {
    this.opts = opts;
    this.timers = opts.timers ?? realTimers;
    this.card = opts.card ?? DEFAULT_CHIP_TEST_CARD;
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

  on(listener: (e: ChipEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setFaults(faults: ChipFaults): void {
    this.faults = { ...faults };
    this.link.setFaults(faults);
  }

  /** A start waits for a card. */
  get waitingForCard(): boolean {
    return this.pending !== undefined;
  }

  /** The start that waits also listens on the contactless interface (02-40 with DFEF37 bit 1). */
  get waitingForTap(): boolean {
    return this.pending?.req.contactless === true;
  }

  /** The amounts of the start that waits (what a tapped card's record must carry). */
  get pendingAmounts(): TransactionAmounts | undefined {
    return this.pending?.req;
  }

  /**
   * A card tapped while a contact + contactless 02-40 waits: the reader answers that start for the
   * contactless interface with the tap's record (`tlvs`, built by the contactless side of the reader).
   * Status 23 "request online authorization": the record carries an ARQC (docs/idtech-emv.md §2.1).
   */
  tapped(tlvs: readonly TlvNode[], last4: string): boolean {
    const p = this.pending;
    if (!p?.req.contactless) return false;
    this.finishPending();
    if (this.faults.silentOn === 'start') return true;
    this.respond(
      IDTECH_EMV_COMMANDS.activateTransaction.cmd,
      PROTOCOL2_STATUS.requestOnlineAuthorization,
      encodeActivateResponseData(ATTRIBUTION_CONTACTLESS_EMV, tlvs),
    );
    this.emit({ type: 'tapped', last4 });
    return true;
  }

  /** A card is in the slot, in a transaction. */
  get cardInserted(): boolean {
    return this.session !== undefined && !this.session.removed;
  }

  /** True while a transaction is open (waiting for a card, or a card in it). */
  get busy(): boolean {
    return this.pending !== undefined || this.session !== undefined;
  }

  /** The cardholder inserts `card` (the panel's "insert"). False when no start waits for a card. */
  insert(card: TestCard = this.card): boolean {
    const p = this.pending;
    if (!p) return false;
    this.finishPending();
    const last4 = card.pan.slice(-4);
    if (this.faults.chipUnreadable || !card.chip || card.chip.behaviour === 'unreadable') {
      // Book 4 §6.6.2: fallback is the payment system's to allow; the command's FallBack byte says so.
      this.answerStart(p.req, p.req.allowFallback ? EMV_RESULT.fallbackToMsr : EMV_RESULT.smartcardFail);
      this.emit({ type: 'fallback', last4 });
      return true;
    }
    const pinKey = `${card.pan}|${card.chip.panSequenceNumber}`;
    const chip = new SimulatedChipCard(card, {
      nextAtc: () => this.atc.next(card.pan, card.chip?.panSequenceNumber ?? '00'),
      offlinePin: {
        current: () => this.offlinePinOf(card),
        change: (pin) => {
          this.offlinePins.set(pinKey, pin);
        },
      },
    });
    const values = new Map<string, Uint8Array>();
    for (const [tag, hex] of Object.entries(TERMINAL)) values.set(tag, Buffer.from(hex, 'hex'));
    for (const n of chip.applicationData()) values.set(n.tag, n.value);
    values.set('9F39', Uint8Array.of(0x05));
    values.set('9F02', toBcd(p.req.amountCents, 6));
    values.set('9F03', toBcd(p.req.otherAmountCents ?? 0, 6));
    values.set('9C', toBcd(p.req.transactionType ?? 0, 1));
    values.set('5F2A', toBcd(p.req.currencyCode ?? 840, 2));
    const session: Session = {
      req: p.req,
      testCard: card,
      card: chip,
      phase: 'started',
      removed: false,
      // TVR byte 1 bit 8: offline data authentication was not performed (not modelled); byte 4 bit 4:
      // merchant forced the transaction online.
      tvr: Uint8Array.of(0x80, 0x00, 0x00, p.req.forceOnline ? 0x08 : 0x00, 0x00),
      values,
      timer: undefined,
    };
    this.session = session;
    this.emit({ type: 'inserted', last4 });
    this.answerStart(p.req, EMV_RESULT.startOk, this.output(session, p.req.outputTags ?? START_OUTPUT));
    // TimeOut2: the reader gives up on a host that never sends 60-11.
    session.timer = this.timers.setTimeout(
      () => {
        if (this.session === session && session.phase === 'started') this.endSession();
      },
      Math.max(1, session.req.authenticateTimeoutSeconds || 60) * 1000,
    );
    return true;
  }

  /**
   * The offline PIN `card` holds now: as personalised, or as an issuer PIN change script set it in this
   * simulator. A sandbox test card's PIN, for tests and the panel; never logged.
   */
  offlinePinOf(card: TestCard): string {
    const psn = card.chip?.panSequenceNumber ?? '00';
    return this.offlinePins.get(`${card.pan}|${psn}`) ?? card.chip?.offlinePin ?? SANDBOX_PIN;
  }

  /** The cardholder pulls the card out. True when a card was in a transaction. */
  removeCard(): boolean {
    const s = this.session;
    if (!s || s.removed) return false;
    s.removed = true;
    this.emit({ type: 'card-removed' });
    return true;
  }

  stop(): void {
    this.finishPending();
    this.endSession();
    this.link.stop();
  }

  private emit(e: ChipEvent): void {
    for (const l of this.listeners) l(e);
  }

  private respond(cmd: number, status: number, data?: Uint8Array): void {
    this.link.respond(cmd, status, data);
  }

  private respondContact(resultCode: number, tlvs: readonly TlvNode[] = []): void {
    this.respond(0x60, PROTOCOL2_STATUS.ok, encodeContactResponseData(resultCode, tlvs));
  }

  /** A well-formed command of this interface (the link has already answered bad frames with 04). */
  private onFrame(f: Vivo2Frame): void {
    const C = IDTECH_EMV_COMMANDS;
    if (f.cmd === 0x60) {
      if (f.subOrStatus === C.contactStart.sub) return this.start(f, '60-10');
      if (f.subOrStatus === C.contactAuthenticate.sub) return this.authenticate(f);
      if (f.subOrStatus === C.contactApplyHostResponse.sub) return this.applyHostResponse(f);
      return this.respond(f.cmd, PROTOCOL2_STATUS.unknownSubCommand);
    }
    if (f.cmd === C.activateTransaction.cmd) {
      if (f.subOrStatus === C.activateTransaction.sub) return this.start(f, '02-40');
      return this.respond(f.cmd, PROTOCOL2_STATUS.unknownSubCommand);
    }
    if (f.cmd === C.cancelTransaction.cmd) {
      if (f.subOrStatus === C.cancelTransaction.sub) return this.cancel(f);
      return this.respond(f.cmd, PROTOCOL2_STATUS.unknownSubCommand);
    }
    if (f.cmd === 0x18 && f.subOrStatus === 0x01) return this.respond(f.cmd, PROTOCOL2_STATUS.ok);
    this.respond(f.cmd, PROTOCOL2_STATUS.unknownCommand);
  }

  private start(f: Vivo2Frame, kind: StartKind): void {
    if (this.busy) {
      this.respond(f.cmd, PROTOCOL2_STATUS.commandNotAllowed);
      return;
    }
    let req: StartRequest | undefined;
    if (kind === '60-10') {
      const r = parseContactStartData(f.data);
      if (r)
        req = {
          kind,
          ...r,
          contactless: false,
          outputTags: r.outputTags,
          forceOnline: r.forceOnline ?? false,
        };
    } else {
      const r = parseActivateTransaction240Data(f.data);
      if (r && !r.interfaces.contact) {
        // This simulator is the contact interface; a contactless-only 02-40 is not for it.
        this.respond(f.cmd, PROTOCOL2_STATUS.parameterNotSupported);
        return;
      }
      if (r)
        req = {
          kind,
          contactless: r.interfaces.contactless,
          amountCents: r.amountCents,
          ...(r.otherAmountCents !== undefined ? { otherAmountCents: r.otherAmountCents } : {}),
          ...(r.transactionType !== undefined ? { transactionType: r.transactionType } : {}),
          ...(r.currencyCode !== undefined ? { currencyCode: r.currencyCode } : {}),
          allowFallback: r.fallbackAllowed,
          cardSeatedTimeoutSeconds: r.timeoutSeconds,
          authenticateTimeoutSeconds: r.nextCommandTimeoutSeconds ?? 60,
          outputTags: r.outputTags,
          forceOnline: true,
        };
    }
    if (!req) {
      this.respond(f.cmd, PROTOCOL2_STATUS.malformattedData);
      return;
    }
    if (this.faults.unplugOnStart) {
      this.link.unplugAfterFlush();
      return;
    }
    const request = req;
    const p: Pending = {
      req: request,
      timer: this.timers.setTimeout(
        () => this.onNoCard(),
        Math.max(1, request.cardSeatedTimeoutSeconds || 30) * 1000,
      ),
      insertTimer: undefined,
    };
    this.pending = p;
    this.emit({ type: 'waiting-for-card', amountCents: request.amountCents });
    if (this.opts.autoInsert) {
      p.insertTimer = this.timers.setTimeout(() => {
        if (this.pending === p) this.insert();
      }, this.opts.insertDelayMs ?? 0);
    }
  }

  /** Answers the start that is waiting: 60-10 with an EMV result, 02-40 with its own conventions. */
  private answerStart(req: StartRequest, resultCode: number, tlvs: readonly TlvNode[] = []): void {
    if (this.faults.silentOn === 'start') return;
    if (req.kind === '60-10') {
      this.respondContact(resultCode, tlvs);
      return;
    }
    const cmd = IDTECH_EMV_COMMANDS.activateTransaction.cmd;
    if (resultCode === EMV_RESULT.startOk)
      this.respond(cmd, PROTOCOL2_STATUS.ok, encodeActivateResponseData(ATTRIBUTION_CONTACT, tlvs));
    else if (resultCode === EMV_RESULT.timeout) this.respond(cmd, PROTOCOL2_STATUS.timeout);
    else this.respond(cmd, PROTOCOL2_STATUS.failed, encodeActivateFailureData(resultCode));
  }

  private onNoCard(): void {
    const p = this.pending;
    if (!p) return;
    this.finishPending();
    this.answerStart(p.req, EMV_RESULT.timeout);
    this.emit({ type: 'timeout' });
  }

  private authenticate(f: Vivo2Frame): void {
    const s = this.session;
    if (!s || s.phase !== 'started') {
      this.respond(f.cmd, PROTOCOL2_STATUS.commandNotAllowed);
      return;
    }
    const update = parseContactAuthenticateData(f.data);
    if (!update) {
      this.respond(f.cmd, PROTOCOL2_STATUS.malformattedData);
      return;
    }
    if (s.timer !== undefined) this.timers.clearTimeout(s.timer);
    s.timer = undefined;
    if (this.faults.removeCardBefore === 'authenticate') this.removeCard();
    if (s.removed) return this.endWith(EMV_RESULT.smartcardAbsent);
    if (this.faults.silentOn === 'authenticate') return;
    if (this.faults.cardNotAnswering === 'authenticate') return this.cardStopsAnswering();
    for (const tag of ['9F02', '9F03', '9C']) {
      const n = findTlv(update, tag);
      if (n) s.values.set(tag, n.value);
    }
    const dfee1a = findTlv(update, 'DFEE1A');
    const outputTags = dfee1a ? decodeOutputTags(dfee1a.value) : undefined;
    const v = (tag: string): Uint8Array => s.values.get(tag) ?? new Uint8Array(0);
    // CVM processing (Book 3 §10.5) against the card's 8E; the PIN itself goes online from the PIN pad.
    const cvmList = decodeCvmList(v('8E'));
    const cvm = cvmList
      ? selectCvm(cvmList, { onlinePin: true, signature: true })
      : { method: 'fail' as const };
    s.values.set('9F34', cvmResults(cvm));
    const terminal: TerminalAcData = {
      '9F02': v('9F02'),
      '9F03': v('9F03'),
      '9F1A': v('9F1A'),
      '95': s.tvr,
      '5F2A': v('5F2A'),
      '9A': toBcd(yymmdd(this.opts.now?.() ?? new Date()), 3),
      '9C': v('9C'),
      '9F37': Uint8Array.from(randomBytes(4)),
    };
    const ac = s.card.firstGenerateAc(terminal);
    for (const [tag, value] of Object.entries(terminal)) s.values.set(tag, value);
    s.values.set('82', SimulatedChipCard.AIP);
    s.values.set('9F36', ac.atc);
    s.values.set('9F10', ac.iad);
    s.values.set('9F26', ac.ac);
    s.values.set('9F27', Uint8Array.of(ac.cid));
    s.phase = 'online';
    this.respondContact(EMV_RESULT.goOnline, this.output(s, outputTags ?? AUTHENTICATE_OUTPUT));
    this.emit({ type: 'online-request', last4: s.testCard.pan.slice(-4), cvm: cvm.method });
  }

  private applyHostResponse(f: Vivo2Frame): void {
    const s = this.session;
    if (!s || s.phase !== 'online') {
      this.respond(f.cmd, PROTOCOL2_STATUS.commandNotAllowed);
      return;
    }
    const r = parseContactApplyHostResponseData(f.data);
    if (!r) {
      this.respond(f.cmd, PROTOCOL2_STATUS.malformattedData);
      return;
    }
    if (this.faults.removeCardBefore === 'complete') this.removeCard();
    if (s.removed) return this.endWith(EMV_RESULT.smartcardAbsent);
    if (this.faults.silentOn === 'complete') return;
    if (this.faults.cardNotAnswering === 'complete') return this.cardStopsAnswering();
    const tvr = Uint8Array.from(s.tvr);
    // TSI (9B): CVM, card risk management and terminal risk management performed.
    let tsi = 0x40 | 0x20 | 0x08;
    const results: ScriptResult[] = [];
    let arc: Uint8Array | undefined;
    if (r.kind === 'online') {
      arc = r.arc;
      if (r.issuerAuthData) {
        tsi |= 0x10;
        // TVR byte 5 bit 7: issuer authentication failed (Book 3 Annex C5).
        if (s.card.externalAuthenticate(r.issuerAuthData) === 'failed') tvr[4] = (tvr[4] ?? 0) | 0x40;
      }
      for (const script of (r.scripts ?? []).filter((x) => x.tag === '71')) {
        const res = s.card.runScript(script);
        // Byte 5 bit 6: script processing failed before the final GENERATE AC.
        if (res.outcome !== 'successful') tvr[4] = (tvr[4] ?? 0) | 0x20;
        results.push(res);
      }
    } else {
      // Book 4 Annex A6: "unable to go online, offline declined".
      arc = Uint8Array.from(Buffer.from('Z3', 'ascii'));
      s.values.set('8A', arc);
    }
    const final = s.card.secondGenerateAc(
      r.kind === 'online' ? r.arc : undefined,
      tvr,
      this.faults.declineAfterApproval === true,
    );
    if (r.kind === 'online') {
      for (const script of (r.scripts ?? []).filter((x) => x.tag === '72')) {
        const res = s.card.runScript(script);
        // Byte 5 bit 5: script processing failed after the final GENERATE AC.
        if (res.outcome !== 'successful') tvr[4] = (tvr[4] ?? 0) | 0x10;
        results.push(res);
      }
    }
    if (results.length > 0) tsi |= 0x04;
    s.values.set('9F27', Uint8Array.of(final.cid));
    s.values.set('9F26', final.ac);
    s.values.set('9F10', final.iad);
    s.values.set('95', tvr);
    s.values.set('9B', Uint8Array.of(tsi, 0x00));
    if (arc) s.values.set('8A', arc);
    if (results.length > 0) s.values.set('9F5B', encodeScriptResults(results));
    const approved = final.cid === CID.tc;
    const outputTags = COMPLETE_OUTPUT.filter((t) => t !== '9F5B' || results.length > 0);
    this.endSession();
    this.respondContact(approved ? EMV_RESULT.approved : EMV_RESULT.declined, this.output(s, outputTags));
    this.emit({ type: 'completed', decision: approved ? 'TC' : 'AAC', scripts: results.length });
  }

  private cancel(f: Vivo2Frame): void {
    const p = this.pending;
    if (p) {
      this.finishPending();
      if (p.req.kind === '60-10') this.respondContact(EMV_RESULT.cancelled);
      else this.respond(IDTECH_EMV_COMMANDS.activateTransaction.cmd, PROTOCOL2_STATUS.failed);
      this.emit({ type: 'cancelled' });
    } else if (this.session) {
      this.endSession();
      this.emit({ type: 'cancelled' });
    }
    this.respond(f.cmd, PROTOCOL2_STATUS.ok);
  }

  /** The card went quiet: the reader waits its own time, then reports it (3006) and ends the transaction. */
  private cardStopsAnswering(): void {
    const s = this.session;
    this.delayed = this.timers.setTimeout(() => {
      this.delayed = undefined;
      if (this.session !== s) return;
      this.endWith(EMV_RESULT.smartcardTimeout);
      this.emit({ type: 'card-not-answering' });
    }, this.opts.cardTimeoutMs ?? 2000);
  }

  private endWith(resultCode: number): void {
    this.endSession();
    this.respondContact(resultCode);
  }

  private endSession(): void {
    const s = this.session;
    if (this.delayed !== undefined) this.timers.clearTimeout(this.delayed);
    this.delayed = undefined;
    if (!s) return;
    if (s.timer !== undefined) this.timers.clearTimeout(s.timer);
    s.card.endTransaction();
    this.session = undefined;
  }

  private finishPending(): void {
    const p = this.pending;
    if (!p) return;
    this.timers.clearTimeout(p.timer);
    if (p.insertTimer !== undefined) this.timers.clearTimeout(p.insertTimer);
    this.pending = undefined;
  }

  /** The requested tags that this transaction has, in the requested order (DFEE1A semantics). */
  private output(s: Session, tags: readonly string[]): TlvNode[] {
    const out: TlvNode[] = [];
    for (const tag of tags) {
      const value = s.values.get(tag);
      if (value) out.push({ tag, value });
    }
    return out;
  }
}

export function createChipSimulator(stream: ByteStream, opts: ChipSimulatorOptions = {}): ChipSimulator {
  return new ChipSimulator(stream, opts);
}
