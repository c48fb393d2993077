import { detectBrand } from '../protocols/card-brand';
import { decodeCvmList, selectCvm } from '../protocols/emv-cvm';
import { readEmvCardData, sanitizeEmvForLog } from '../protocols/emv-sanitize';
import { bytesToHex, hexToBytes, isHex } from '../protocols/hex';
import {
  type ApplyHostResponse,
  EMV_RESULT,
  IDTECH_EMV_COMMANDS,
  PROTOCOL2_STATUS,
  TRANSACTION_TYPE,
  activateFailureResultCode,
  buildActivateTransaction240,
  buildCancel,
  buildContactApplyHostResponse,
  buildContactAuthenticate,
  buildContactStart,
  emvResultText,
  encodeOutputTags,
  parseActivateResponse,
  parseContactResponse,
  protocol2StatusText,
} from '../protocols/idtech-emv';
import { type TlvNode, TlvError, decodeTlvTopLevel, encodeTlv, findTlv } from '../protocols/ber-tlv';
import { isArc } from '../protocols/emv-issuer-response';
import { maskPan } from '../protocols/pan-mask';
import { type Vivo2Frame, encodeVivo2Command } from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import type { DriverLifecycle, HealthTracker } from './driver-lifecycle';
import { Listeners } from './listeners';
import type {
  ChipCardInfo,
  ChipCompletion,
  ChipCvm,
  ChipFailure,
  ChipFailureCode,
  ChipHostResponse,
  ChipReader,
  ChipStartRequest,
  ChipStartResult,
  DeviceHealth,
  Unsubscribe,
} from './roles';
import { systemTimers, type Timers } from './timers';
import { VivopayLink } from './vivopay-link';

export type ChipReaderDriverOptions = {
  timers?: Timers;
  /** Wait for a short command's answer (cancel, ping). Default 1000 ms. */
  commandTimeoutMs?: number;
  /**
   * How long the card may take at authenticate and at completion (GENERATE AC, scripts) before the host
   * gives up on the reader; the reader reports a silent card itself (3006) sooner. Default 10 s.
   */
  cardStepTimeoutMs?: number;
  /** Extra wait beyond the card-seated timeout handed to the reader, as the contactless driver. Default 2000 ms. */
  graceMs?: number;
  /** How to start: 60-10 Contact Start (VP3300, the default) or 02-40 with DFEF37 = contact. */
  startCommand?: '60-10' | '02-40';
  /** Allow fallback to the stripe when the chip cannot be read (60-10 FallBack / DFEF3C). Default true. */
  allowFallback?: boolean;
  /** How long the reader waits for 60-11 after its start answer (TimeOut2). Default 60 s. */
  authenticateTimeoutSeconds?: number;
};

/** What the driver asks the reader for at each step (DFEE1A): card data and the CVM list first, then EmvData. */
const START_TAGS = ['57', '5A', '5F24', '5F34', '5F20', '50', '84', '4F', '8E', '9F39'];
const AUTHENTICATE_TAGS = [
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
  '50',
  '57',
  '5A',
  '5F24',
  '5F34',
];

const TYPE_CODE: Readonly<Record<NonNullable<ChipStartRequest['type']>, number>> = {
  purchase: TRANSACTION_TYPE.purchase,
  cash: TRANSACTION_TYPE.cash,
  'purchase-with-cashback': TRANSACTION_TYPE.purchaseWithCashback,
  refund: TRANSACTION_TYPE.refund,
};

const failed = (code: ChipFailureCode, reason: string): ChipFailure => ({ kind: 'failed', code, reason });

type State =
  | { step: 'idle' }
  | { step: 'starting'; cancelled: boolean; resolve: (r: ChipStartResult) => void }
  | { step: 'authenticating' }
  | { step: 'awaiting-host'; startTlv: TlvNode[] }
  | { step: 'completing' };

/**
 * The contact chip interface of an ID TECH NGA reader (VP3300-class), host-driven over Protocol 2:
 * start (60-10, or 02-40 with DFEF37 = contact) → authenticate (60-11, the 1st GENERATE AC) → the sale
 * engine goes online → apply host response (60-12: ARPC, scripts, 2nd GENERATE AC) → TC or AAC. Cancel
 * (05-01) at any time. The byte layouts and every choice the public sources leave open are in
 * protocols/idtech-emv.ts (bare § numbers here are docs/idtech-emv.md's); docs/chip.md describes the flow
 * for the sale engine.
 *
 * Card data stays in the results' `emvTlvHex` (for the gateway only); everything else is masked.
 */
export class ChipReaderDriver implements ChipReader, DriverLifecycle {
  readonly role = 'chipReader' as const;
  private readonly stream: ByteStream;
  private readonly opts: Required<Omit<ChipReaderDriverOptions, 'timers'>>;
  private readonly link: VivopayLink;
  private readonly tracker: HealthTracker;
  private readonly disconnects = new Listeners<Error | undefined>();
  private state: State = { step: 'idle' };
  private closing = false;

  constructor(stream: ByteStream, options: ChipReaderDriverOptions = {}) {
    this.stream = stream;
    this.opts = {
      commandTimeoutMs: options.commandTimeoutMs ?? 1000,
      cardStepTimeoutMs: options.cardStepTimeoutMs ?? 10_000,
      graceMs: options.graceMs ?? 2000,
      startCommand: options.startCommand ?? '60-10',
      allowFallback: options.allowFallback ?? true,
      authenticateTimeoutSeconds: options.authenticateTimeoutSeconds ?? 60,
    };
    this.link = new VivopayLink(stream, {
      timers: options.timers ?? systemTimers,
      protocolName: 'Protocol 2',
      // Only the ping's status is a device fault: a transaction's non-OK statuses are its outcome.
      reportsStatus: (frame) => frame.cmd === 0x18,
      statusText: protocol2StatusText,
      onClosed: (reason) => this.onClosed(reason),
    });
    this.tracker = this.link.tracker;
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      ...this.link.counters(),
      busy: this.inTransaction(),
      step: this.state.step,
    });
  }

  inTransaction(): boolean {
    return this.state.step !== 'idle';
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  /** Ping (18 01) while idle: a reader in a transaction would take any other command as Cancel (§2). */
  readonly heartbeat = async (): Promise<void> => {
    if (this.inTransaction()) return;
    const frame = await this.command(encodeVivo2Command(0x18, 0x01), 0x18, this.opts.commandTimeoutMs);
    if (frame?.crcOk !== true || frame.subOrStatus !== PROTOCOL2_STATUS.ok) {
      this.tracker.error('chip reader did not answer ping', true);
      throw new Error('chip reader did not answer ping');
    }
  };

  async start(request: ChipStartRequest): Promise<ChipStartResult> {
    if (!this.tracker.isOpen || !this.stream.isOpen)
      return failed('not-connected', 'chip reader not connected');
    if (this.state.step !== 'idle') return failed('busy', 'a chip transaction is already in progress');
    const other = request.otherAmountCents ?? 0;
    const type = request.type ?? (other > 0 ? 'purchase-with-cashback' : 'purchase');
    const seconds = Math.min(255, Math.max(1, Math.ceil(request.timeoutMs / 1000)));
    // Contact and contactless in one transaction is 02-40's job (docs/idtech-emv.md §3: "02-40 (all modes)").
    const viaActivate = this.opts.startCommand === '02-40' || request.contactless === true;
    let frameOut: Uint8Array;
    try {
      if (other > request.amountCents) throw new RangeError('the cash back cannot exceed the amount');
      const amounts = {
        amountCents: request.amountCents,
        otherAmountCents: other,
        transactionType: TYPE_CODE[type],
        currencyCode: request.currencyCode ?? 840,
      };
      frameOut = viaActivate
        ? buildActivateTransaction240({
            ...amounts,
            timeoutSeconds: seconds,
            interfaces: { contact: true, contactless: request.contactless === true },
            fallback: {
              allowed: this.opts.allowFallback,
              nextCommandTimeoutSeconds: this.opts.authenticateTimeoutSeconds,
            },
            extraTlvs: [encodeOutputTags(START_TAGS)],
          })
        : buildContactStart({
            ...amounts,
            allowFallback: this.opts.allowFallback,
            cardSeatedTimeoutSeconds: seconds,
            authenticateTimeoutSeconds: this.opts.authenticateTimeoutSeconds,
            outputTags: START_TAGS,
            forceOnline: true,
          });
    } catch (err) {
      return failed('invalid-request', err instanceof Error ? err.message : 'bad amount');
    }
    const started = await new Promise<ChipStartResult | { started: TlvNode[] }>((resolve) => {
      const st: State = { step: 'starting', cancelled: false, resolve };
      this.state = st;
      const startCmd = viaActivate ? IDTECH_EMV_COMMANDS.activateTransaction.cmd : 0x60;
      this.command(frameOut, startCmd, seconds * 1000 + this.opts.graceMs).then(
        (frame) => {
          // Cancelled meanwhile: cancel() already answered; this late answer is consumed and dropped.
          if (st.cancelled || this.state !== st) return;
          resolve(this.readStart(frame, viaActivate));
        },
        () => undefined,
      );
    });
    if (!('started' in started)) {
      this.state = { step: 'idle' };
      return started;
    }
    return this.authenticate(started.started);
  }

  async complete(response: ChipHostResponse | 'unable-to-go-online'): Promise<ChipCompletion> {
    const st = this.state;
    if (st.step !== 'awaiting-host')
      return failed('no-transaction', 'no chip transaction is waiting for the host');
    let body: ApplyHostResponse;
    if (response === 'unable-to-go-online') body = { kind: 'unable-to-go-online' };
    else {
      const invalid = this.checkHostResponse(response);
      if (invalid) return failed('invalid-request', invalid);
      let scripts: TlvNode[] = [];
      if (response.scripts) {
        try {
          scripts = decodeTlvTopLevel(hexToBytes(response.scripts));
        } catch (e) {
          if (!(e instanceof TlvError)) throw e;
          return failed('invalid-request', 'scripts are not BER-TLV hex');
        }
        if (scripts.some((n) => n.tag !== '71' && n.tag !== '72'))
          return failed('invalid-request', 'scripts hold something other than 71/72 templates');
      }
      body = {
        kind: 'online',
        arc: Uint8Array.from(Buffer.from(response.arc, 'latin1')),
        ...(response.issuerAuthData ? { issuerAuthData: hexToBytes(response.issuerAuthData) } : {}),
        ...(scripts.length > 0 ? { scripts } : {}),
      };
    }
    this.state = { step: 'completing' };
    const frame = await this.command(
      buildContactApplyHostResponse(body),
      0x60,
      this.opts.cardStepTimeoutMs + this.opts.graceMs,
    );
    const result = this.readCompletion(frame);
    if (this.state.step === 'completing') this.state = { step: 'idle' };
    return result;
  }

  async cancel(): Promise<void> {
    const st = this.state;
    if (st.step === 'idle') return;
    if (st.step === 'starting') {
      st.cancelled = true;
      st.resolve({ kind: 'cancelled' });
    }
    this.state = { step: 'idle' };
    await this.sendCancel();
  }

  async close(): Promise<void> {
    this.detach();
    await this.stream.close();
  }

  /** Stops listening without closing the link (another interface's driver shares it and closes it). */
  detach(): void {
    this.closing = true;
    this.failAll();
    this.link.detach();
    this.tracker.closed(undefined);
  }

  // ------------------------------------------------------------------------------------------------

  private checkHostResponse(r: ChipHostResponse): string | undefined {
    if (typeof r.arc !== 'string' || !isArc(r.arc)) return 'arc must be two characters (8A), e.g. "00"';
    if (
      r.issuerAuthData !== undefined &&
      (!isHex(r.issuerAuthData) || r.issuerAuthData.length < 16 || r.issuerAuthData.length > 32)
    )
      return 'issuerAuthData must be 8 to 16 bytes of hex (91)';
    if (r.scripts !== undefined && (!isHex(r.scripts) || r.scripts.length > 2 * 128))
      return 'scripts must be hex of at most 128 bytes (EMV Book 4 §6.3.9)';
    return undefined;
  }

  /** The start's answer: on success the card data TLVs, else the result the sale engine acts on. */
  private readStart(
    frame: Vivo2Frame | undefined,
    viaActivate: boolean,
  ): ChipStartResult | { started: TlvNode[] } {
    if (!frame) {
      void this.sendCancel();
      return failed('no-answer', 'the chip reader did not answer the start');
    }
    if (viaActivate) {
      const r = parseActivateResponse(frame);
      if (r.ok) {
        if (r.cardInterface === 'contactless') {
          // A tap: the reader's work ends with its record (§2.2, no 2nd GENERATE AC for contactless).
          const emvTlvHex = bytesToHex(r.tlvBytes);
          return { kind: 'contactless', emvTlvHex, sanitizedEmvHex: sanitizeEmvForLog(emvTlvHex) };
        }
        if (r.cardInterface !== 'contact')
          return failed('reader-error', `02-40 answered for the ${r.cardInterface} interface`);
        return { started: r.tlv };
      }
      if (r.status === PROTOCOL2_STATUS.timeout) return { kind: 'timeout' };
      const code = activateFailureResultCode(frame);
      if (code !== undefined)
        return this.resultOutcome(code) ?? failed('reader-error', `start ended: ${emvResultText(code)}`);
      return failed('reader-error', `reader answered: ${r.reason}`);
    }
    const r = parseContactResponse(frame);
    if (!r.ok) return failed('reader-error', `reader answered: ${r.reason}`);
    if (r.resultCode === EMV_RESULT.startOk) return { started: r.tlv };
    return (
      this.resultOutcome(r.resultCode) ??
      failed('reader-error', `start ended: ${emvResultText(r.resultCode)}`)
    );
  }

  /** Result codes that end a transaction the same way at any step. */
  private resultOutcome(code: number): ChipStartResult | undefined {
    switch (code) {
      case EMV_RESULT.fallbackToMsr:
      case EMV_RESULT.fallbackSituation:
        return { kind: 'fallback', reason: 'the chip could not be read: swipe the card' };
      case EMV_RESULT.timeout:
        return { kind: 'timeout' };
      case EMV_RESULT.cancelled:
        return { kind: 'cancelled' };
      case EMV_RESULT.smartcardAbsent:
        return { kind: 'card-removed' };
      case EMV_RESULT.smartcardTimeout:
        return failed('card-not-answering', 'the card stopped answering');
      default:
        return undefined;
    }
  }

  private async authenticate(startTlv: TlvNode[]): Promise<ChipStartResult> {
    this.state = { step: 'authenticating' };
    const frame = await this.command(
      buildContactAuthenticate([encodeOutputTags(AUTHENTICATE_TAGS)]),
      0x60,
      this.opts.cardStepTimeoutMs + this.opts.graceMs,
    );
    if (!this.tracker.isOpen) return failed('not-connected', 'chip reader disconnected');
    if (this.state.step !== 'authenticating') return { kind: 'cancelled' };
    if (!frame) {
      this.state = { step: 'idle' };
      void this.sendCancel();
      return failed('no-answer', 'the chip reader did not answer authenticate');
    }
    const r = parseContactResponse(frame);
    if (!r.ok) {
      this.state = { step: 'idle' };
      return failed('reader-error', `reader answered: ${r.reason}`);
    }
    const emvTlvHex = bytesToHex(r.tlvBytes);
    const card = this.cardInfo(startTlv, emvTlvHex);
    if (r.resultCode === EMV_RESULT.goOnline) {
      if (!card) {
        this.state = { step: 'idle' };
        void this.sendCancel();
        return failed('reader-error', 'the card data (57/5A) did not parse');
      }
      this.state = { step: 'awaiting-host', startTlv };
      return {
        kind: 'online',
        card,
        cvm: this.cvm(startTlv),
        entryMode: '05',
        emvTlvHex,
        sanitizedEmvHex: sanitizeEmvForLog(emvTlvHex),
      };
    }
    this.state = { step: 'idle' };
    if ((r.resultCode === EMV_RESULT.approvedOffline || r.resultCode === EMV_RESULT.declinedOffline) && card)
      return {
        kind: 'offline',
        decision: r.resultCode === EMV_RESULT.approvedOffline ? 'TC' : 'AAC',
        card,
        emvTlvHex,
        sanitizedEmvHex: sanitizeEmvForLog(emvTlvHex),
      };
    return (
      this.resultOutcome(r.resultCode) ??
      failed('reader-error', `authenticate ended: ${emvResultText(r.resultCode)}`)
    );
  }

  private readCompletion(frame: Vivo2Frame | undefined): ChipCompletion {
    if (!frame && !this.tracker.isOpen) return failed('not-connected', 'chip reader disconnected');
    if (!frame) {
      void this.sendCancel();
      return failed('no-answer', 'the chip reader did not answer apply host response');
    }
    const r = parseContactResponse(frame);
    if (!r.ok) return failed('reader-error', `reader answered: ${r.reason}`);
    if (r.resultCode === EMV_RESULT.approved || r.resultCode === EMV_RESULT.declined) {
      const cid = findTlv(r.tlv, '9F27')?.value[0];
      // The card's final say is its CID (Book 4 Annex A6 footnote); the result code must agree with it.
      const decision: 'TC' | 'AAC' =
        cid !== undefined
          ? (cid & 0xc0) === 0x40
            ? 'TC'
            : 'AAC'
          : r.resultCode === EMV_RESULT.approved
            ? 'TC'
            : 'AAC';
      const emvTlvHex = bytesToHex(r.tlvBytes);
      const results = findTlv(r.tlv, '9F5B');
      return {
        kind: 'completed',
        decision,
        ...(results ? { scriptResults: bytesToHex(results.value) } : {}),
        emvTlvHex,
        sanitizedEmvHex: sanitizeEmvForLog(emvTlvHex),
      };
    }
    const outcome = this.resultOutcome(r.resultCode);
    if (outcome?.kind === 'card-removed' || outcome?.kind === 'cancelled' || outcome?.kind === 'failed')
      return outcome;
    return failed('reader-error', `completion ended: ${emvResultText(r.resultCode)}`);
  }

  private cardInfo(startTlv: TlvNode[], authHex: string): ChipCardInfo | undefined {
    const fromAuth = readEmvCardData(authHex);
    const startHex = bytesToHex(encodeTlv(startTlv.filter((n) => ['57', '5A', '5F24'].includes(n.tag))));
    const data = fromAuth.ok ? fromAuth : readEmvCardData(startHex);
    if (!data.ok) return undefined;
    const pan = data.value.pan;
    const info: ChipCardInfo = { maskedPan: maskPan(pan), last4: pan.slice(-4), brand: detectBrand(pan) };
    if (data.value.expiryYYMM !== undefined) info.expiry = data.value.expiryYYMM;
    if (data.value.serviceCode !== undefined) info.serviceCode = data.value.serviceCode;
    const psn = findTlv(startTlv, '5F34');
    if (psn?.value.length === 1) info.panSequenceNumber = bytesToHex(psn.value);
    const label = findTlv(startTlv, '50');
    if (label)
      info.applicationLabel = Buffer.from(label.value)
        .toString('latin1')
        .replace(/[^\x20-\x7e]/g, '');
    const aid = findTlv(startTlv, '84') ?? findTlv(startTlv, '4F');
    if (aid) info.aid = bytesToHex(aid.value);
    return info;
  }

  /** The card's CVM list against this terminal: online PIN (PIN pad) and signature supported. */
  private cvm(startTlv: TlvNode[]): ChipCvm {
    const list = findTlv(startTlv, '8E');
    const decoded = list ? decodeCvmList(list.value) : undefined;
    // No CVM list: the card asks for none (Book 3 §10.5: CVM processing is skipped when 8E is absent).
    if (!decoded) return 'no-cvm';
    return selectCvm(decoded, { onlinePin: true, signature: true }).method;
  }

  private async sendCancel(): Promise<void> {
    await this.command(buildCancel(), IDTECH_EMV_COMMANDS.cancelTransaction.cmd, this.opts.commandTimeoutMs);
    // Answers of the cancelled transaction come before the cancel's own (one link, in order): anything
    // still waiting for them now waits in vain and must not catch the next transaction's answers.
    this.link.abandon([0x60, IDTECH_EMV_COMMANDS.activateTransaction.cmd]);
  }

  private command(frame: Uint8Array, cmd: number, timeoutMs: number): Promise<Vivo2Frame | undefined> {
    return this.link.command(frame, cmd, timeoutMs);
  }

  private failAll(): void {
    this.link.failAll();
    const st = this.state;
    this.state = { step: 'idle' };
    if (st.step === 'starting') st.resolve(failed('not-connected', 'chip reader disconnected'));
  }

  /** The link has already answered its waiting commands. */
  private onClosed(reason: Error | undefined): void {
    this.failAll();
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
