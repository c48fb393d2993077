/**
 * A VISA/VeriFone packet PIN pad (docs/devices.md §4.2-4.3) over any ByteStream: ACK/NAK link
 * layer, Z2 display, 08 master-key select, Z62/70 PIN entry answered by 73 (DUKPT) or 71
 * (master/session, when the request carries a session key), 72 cancel answered by EOT, and the
 * cardholder's Cancel key and entry timeout answered by EOT (PP791 p.244; MX800 p.309).
 *
 * DUKPT uses the sandbox BDK and a KSN counter that starts after FFFF9876543210E00000, so the gateway's
 * sandbox derives the same key and PIN 1234 verifies. The PIN is "typed" by the script (`pin`) or by
 * the UI's simulated keypad (`enterPin`, `pressCancel`). It never leaves this object in clear.
 */
import { tdesDecryptBlock, tdesEncryptBlock } from '../protocols/block-cipher';
import { encryptTdesDukptPinBlock } from '../protocols/dukpt-tdes';
import { bytesToHex, hexToBytes } from '../protocols/hex';
import { encodePinBlockFormat0 } from '../protocols/iso9564-pin-block';
import { type LinkFailure, type LinkTimers, VerifoneLink, realTimers } from '../protocols/verifone-link';
import {
  type DecodedPacket,
  type PinRequest70,
  type VerifoneMessage,
  type Z62Request,
  bodyText,
  encodeMessage,
  parseMessage,
} from '../protocols/verifone-packet';
import type { ByteStream } from '../transports/byte-stream';
import { StreamWriter } from './stream-writer';

/** The sandbox's DUKPT base derivation key (the X9.24 test BDK, docs/decisions.md#sandbox-data). */
export const SANDBOX_BDK = '0123456789ABCDEFFEDCBA9876543210';
/** The first transaction uses counter 1 of this key set: KSN FFFF9876543210E00001. */
export const SANDBOX_INITIAL_KSN = 'FFFF9876543210E00000';
/** Master keys of a pad in master/session mode when none are configured (a test key, never real). */
export const SANDBOX_MASTER_KEY = '0123456789ABCDEFFEDCBA9876543210';

export type PinPadFaults = {
  /** Corrupt the LRC of every packet the pad sends; the host NAKs, the pad gives up with EOT. */
  badLrc?: boolean;
  /** NAK every packet received, good LRC or not. */
  nakStorm?: boolean;
  /** Close the stream right after ACKing a PIN request: the cable pulled mid-transaction. */
  unplugOnPinRequest?: boolean;
  /** Delay every write by this many ms. */
  slowMs?: number;
};

export type PinPadSimulatorOptions = {
  bdk?: string;
  /** The KSN before the first transaction; each PIN entry advances its counter. */
  initialKsn?: string;
  /** Scripted PIN, typed `pinDelayMs` after each request. Omit to wait for `enterPin`. */
  pin?: string;
  pinDelayMs?: number;
  /** Master keys 0..9 for the master/session variant (71). Default: all SANDBOX_MASTER_KEY. */
  masterKeys?: readonly string[];
  faults?: PinPadFaults;
  /** 7E1 line: refuse 8-bit output and mask input. */
  sevenBit?: boolean;
  ackTimeoutMs?: number;
  /** Overrides the request's timeout field ('1'..'9' x 30 s, default 270 s per PP791 p.201). */
  pinTimeoutMs?: number;
  timers?: LinkTimers;
};

export type PinPadState = 'idle' | 'awaiting-pin';

export type PinPadEvent =
  | { type: 'display'; text: string }
  | { type: 'pin-request'; mode: 'dukpt' | 'master-session'; amountCents?: number; prompt: string }
  | { type: 'pin-sent'; ksn?: string }
  | { type: 'cancelled'; by: 'host' | 'cardholder' | 'timeout' }
  | { type: 'link-failure'; reason: LinkFailure }
  | { type: 'unplugged' };

type Session = {
  account: string;
  sessionKey?: string;
  minPinLength: number;
  maxPinLength: number;
  processingPrompt: string;
  timer: unknown;
  scriptTimer: unknown;
};

const COUNTER_BITS = 21n;
const COUNTER_MASK = (1n << COUNTER_BITS) - 1n;

function popcount(n: bigint): number {
  let c = 0;
  for (let v = n; v > 0n; v >>= 1n) c += Number(v & 1n);
  return c;
}

/**
 * The next KSN an originating device uses: counter + 1, skipping counters with more than ten one-bits
 * by adding their lowest set bit (ANSI X9.24-1 A.2). Undefined when the 21-bit counter is exhausted.
 */
export function nextKsn(ksn: string): string | undefined {
  const k = BigInt(`0x${ksn}`);
  let counter = (k & COUNTER_MASK) + 1n;
  while (popcount(counter) > 10) counter += counter & -counter;
  if (counter > COUNTER_MASK) return undefined;
  return ((k & ~COUNTER_MASK) | counter).toString(16).toUpperCase().padStart(20, '0');
}

function formatAmount(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** PP791 71 error code for a PIN request whose account field is unusable (p.245). */
function accountErrorCode(body: string): string {
  const account = body.slice(body.indexOf('.') + 1).split('\u001c')[0] ?? '';
  if (account === '') return '0';
  if (!/^\d+$/.test(account)) return '4';
  if (account.length < 8) return '2';
  if (account.length > 19) return '3';
  return '6';
}

export class PinPadSimulator {
  private readonly stream: ByteStream;
  private readonly opts: PinPadSimulatorOptions;
  private readonly timers: LinkTimers;
  private readonly writer: StreamWriter;
  private readonly link: VerifoneLink;
  private readonly listeners = new Set<(e: PinPadEvent) => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private faults: PinPadFaults;
  private ksnValue: string;
  private masterKeyIndex = 0;
  private session: Session | undefined;
  private displayText = '';
  private stopped = false;

  constructor(stream: ByteStream, opts: PinPadSimulatorOptions = {}) {
    this.stream = stream;
    this.opts = opts;
    this.timers = opts.timers ?? realTimers;
    this.faults = { ...opts.faults };
    this.ksnValue = (opts.initialKsn ?? SANDBOX_INITIAL_KSN).toUpperCase();
    this.writer = new StreamWriter(stream, { delayMs: this.faults.slowMs ?? 0 });
    this.link = new VerifoneLink({
      write: (bytes) => this.writer.write(bytes),
      onPacket: (p) => this.onPacket(p),
      onEot: () => this.endSession(),
      ackTimeoutMs: opts.ackTimeoutMs ?? 2000,
      timers: this.timers,
      sevenBit: opts.sevenBit ?? false,
      acceptPacket: () => !this.faults.nakStorm,
    });
    this.unsubscribe.push(
      stream.onData((chunk) => this.link.receive(chunk)),
      stream.onClose(() => this.stop()),
    );
  }

  /** The text the pad shows, for the UI's simulated pad. */
  get display(): string {
    return this.displayText;
  }

  get state(): PinPadState {
    return this.session ? 'awaiting-pin' : 'idle';
  }

  /** The KSN of the last PIN block sent (or the initial KSN before any). */
  get ksn(): string {
    return this.ksnValue;
  }

  on(listener: (e: PinPadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setFaults(faults: PinPadFaults): void {
    this.faults = { ...faults };
    this.writer.delayMs = faults.slowMs ?? 0;
  }

  /**
   * The cardholder types `digits` and presses Enter. False when no PIN is being asked for or the length
   * is outside the request's bounds (a real pad keeps waiting).
   */
  enterPin(digits: string): boolean {
    const s = this.session;
    if (!s || !/^\d+$/.test(digits)) return false;
    if (digits.length < s.minPinLength || digits.length > s.maxPinLength) return false;
    this.clearSessionTimers(s);
    this.session = undefined;
    const response = this.pinResponse(s, digits);
    this.setDisplay(s.processingPrompt);
    this.sendMessage(response);
    this.emit(response.type === '73' ? { type: 'pin-sent', ksn: response.ksn } : { type: 'pin-sent' });
    return true;
  }

  /** The cardholder presses Cancel: the pad ends the session with EOT (PP791 p.244). */
  pressCancel(): void {
    if (!this.session) return;
    this.endSession();
    this.link.sendEot();
    this.emit({ type: 'cancelled', by: 'cardholder' });
  }

  /** Detaches from the stream (without closing it) and stops timers. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.endSession();
    this.link.close();
    for (const u of this.unsubscribe) u();
  }

  private emit(e: PinPadEvent): void {
    for (const l of this.listeners) l(e);
  }

  private setDisplay(text: string): void {
    this.displayText = text;
    this.emit({ type: 'display', text });
  }

  private sendMessage(msg: VerifoneMessage): void {
    const frame = encodeMessage(msg, { sevenBit: this.opts.sevenBit ?? false });
    if (this.faults.badLrc) {
      const last = frame.length - 1;
      frame[last] = (frame[last] ?? 0) ^ 0x55;
    }
    void this.link.send(frame).then((r) => {
      if (!r.ok && r.reason !== 'closed') this.emit({ type: 'link-failure', reason: r.reason });
    });
  }

  private onPacket(packet: DecodedPacket): void {
    const msg = parseMessage(packet.kind, packet.body);
    switch (msg.type) {
      case 'Z2':
        this.setDisplay(msg.text);
        return;
      case '08':
        this.masterKeyIndex = msg.keyIndex;
        return;
      case 'Z62':
      case '70':
        this.startSession(msg);
        return;
      case '72':
        // The host cancels: ACKed by the link, then EOT ends the session (§4.3).
        this.endSession();
        this.link.sendEot();
        this.emit({ type: 'cancelled', by: 'host' });
        return;
      case 'unknown': {
        const text = bodyText(packet.body);
        if (text.startsWith('Z62.') || text.startsWith('70.')) {
          this.sendMessage({ type: '71-error', code: accountErrorCode(text), meaning: '' });
        }
        return;
      }
      default:
        return;
    }
  }

  private startSession(msg: Z62Request | PinRequest70): void {
    this.endSession();
    if (this.faults.unplugOnPinRequest) {
      // Let the ACK reach the host first (flushed, then a moment on the wire): a pad pulled after it
      // took the request.
      void this.writer
        .flushed()
        .then(() => new Promise((resolve) => setTimeout(resolve, 20)))
        .then(() => {
          this.emit({ type: 'unplugged' });
          return this.stream.close();
        });
      return;
    }
    const ms = msg.sessionKey !== undefined;
    if (!ms && nextKsn(this.ksnValue) === undefined) {
      this.sendMessage({ type: '71-error', code: 'F', meaning: '' });
      return;
    }
    const timeoutDigit = Number(msg.timeout ?? '9');
    const timeoutMs =
      this.opts.pinTimeoutMs ?? (timeoutDigit >= 1 && timeoutDigit <= 9 ? timeoutDigit : 9) * 30_000;
    const s: Session = {
      account: msg.account,
      minPinLength: msg.type === 'Z62' ? msg.minPinLength : 4,
      maxPinLength: msg.type === 'Z62' ? msg.maxPinLength : 12,
      processingPrompt: msg.type === 'Z62' ? msg.processingPrompt : 'PROCESSING',
      timer: this.timers.setTimeout(() => this.onPinTimeout(), timeoutMs),
      scriptTimer: undefined,
    };
    if (msg.sessionKey !== undefined) s.sessionKey = msg.sessionKey;
    this.session = s;
    const prompt = msg.type === 'Z62' ? msg.prompt1 : `AMOUNT ${formatAmount(msg.amountCents)}`;
    this.setDisplay(prompt);
    this.emit({
      type: 'pin-request',
      mode: ms ? 'master-session' : 'dukpt',
      prompt,
      ...(msg.type === '70' ? { amountCents: msg.amountCents } : {}),
    });
    const pin = this.opts.pin;
    if (pin !== undefined) {
      s.scriptTimer = this.timers.setTimeout(() => {
        if (this.session === s) this.enterPin(pin);
      }, this.opts.pinDelayMs ?? 0);
    }
  }

  private onPinTimeout(): void {
    if (!this.session) return;
    this.endSession();
    this.link.sendEot();
    this.emit({ type: 'cancelled', by: 'timeout' });
  }

  private clearSessionTimers(s: Session): void {
    this.timers.clearTimeout(s.timer);
    if (s.scriptTimer !== undefined) this.timers.clearTimeout(s.scriptTimer);
  }

  private endSession(): void {
    if (this.session) this.clearSessionTimers(this.session);
    this.session = undefined;
  }

  private pinResponse(s: Session, pin: string): VerifoneMessage {
    if (s.sessionKey !== undefined) {
      // Master/session: the working key arrives encrypted under the selected master key (MX800 Z60).
      const master = hexToBytes(this.opts.masterKeys?.[this.masterKeyIndex] ?? SANDBOX_MASTER_KEY);
      const enc = hexToBytes(s.sessionKey);
      const halves = enc.length === 8 ? [enc] : [enc.subarray(0, 8), enc.subarray(8, 16)];
      const clearKey = halves.map((h) => tdesDecryptBlock(master, h));
      const working = new Uint8Array(16);
      working.set(clearKey[0] ?? new Uint8Array(8), 0);
      // A single-length working key is used as K1 = K2, i.e. single DES.
      working.set(clearKey[1] ?? clearKey[0] ?? new Uint8Array(8), 8);
      const block = tdesEncryptBlock(working, hexToBytes(encodePinBlockFormat0(pin, s.account)));
      return { type: '71', pinLength: pin.length, format: '01', pinBlock: bytesToHex(block) };
    }
    const ksn = nextKsn(this.ksnValue) ?? this.ksnValue;
    this.ksnValue = ksn;
    const pinBlock = encryptTdesDukptPinBlock({
      bdk: this.opts.bdk ?? SANDBOX_BDK,
      ksn,
      pin,
      pan: s.account,
    });
    return { type: '73', ksn, pinBlock };
  }
}

/** Factory form, for symmetry with the other simulators. */
export function createPinPadSimulator(
  stream: ByteStream,
  opts: PinPadSimulatorOptions = {},
): PinPadSimulator {
  return new PinPadSimulator(stream, opts);
}
