import { detectBrand } from '../protocols/card-brand';
import { parseSwipe } from '../protocols/iso7813-track';
import {
  buildGetProperty,
  MAGTEK_FEATURE_REPORT_LENGTH,
  MAGTEK_PROPERTY,
  magtekSwipeText,
  parseMagtekResponse,
  parseMagtekSwipeReport,
} from '../protocols/magtek-hid';
import { lastFour, maskPan } from '../protocols/pan-mask';
import type { ByteStream } from '../transports/byte-stream';
import type { HidDevicePort } from '../transports/hid-transport';
import type { KeyboardWedgeTransport } from '../transports/keyboard-wedge-transport';
import { HealthTracker, type DriverLifecycle } from './driver-lifecycle';
import { Listeners } from './listeners';
import type { CardReader, CardReaderEvent, CardSwipe, DeviceHealth, Unsubscribe } from './roles';
import { systemTimers, type TimerHandle, type Timers } from './timers';

/** The three ways a magstripe reader reaches the terminal. */
export type CardReaderTransport =
  /** MagTek serial (RS-232/USB-CDC) reader: `[T1][T2][T3]CR`, the wedge format (docs/devices.md §2.4). */
  | { kind: 'serial'; stream: ByteStream }
  /** MagTek USB HID reader: one 337/338-byte input report per swipe (§2.2). */
  | { kind: 'hid'; port: HidDevicePort }
  /** Keyboard-emulation reader: keystrokes through the wedge decoder (§2.4). */
  | { kind: 'wedge'; wedge: KeyboardWedgeTransport };

export type CardReaderDriverOptions = {
  timers?: Timers;
  /**
   * A serial swipe normally ends with CR; if a reader is configured without a terminator, the bytes are
   * taken as one swipe after this much silence. Default 250 ms (a swipe streams in well under that).
   */
  serialIdleMs?: number;
  /** Feature-report heartbeat wait for HID readers. Default 1000 ms. */
  heartbeatTimeoutMs?: number;
};

// A three-track swipe is under 230 characters (§1); anything longer without a CR is line noise.
const MAX_SERIAL_SWIPE = 1024;

/**
 * Turns reader output (tracks with sentinels, as a wedge types them) into a card event. Messages name
 * which part failed, never the data.
 */
export function swipeToEvent(raw: string, source: CardSwipe['source']): CardReaderEvent {
  const parsed = parseSwipe(raw);
  if (!parsed.ok) {
    switch (parsed.error) {
      case 'E':
        return {
          kind: 'read-error',
          source,
          reason: 'bad-read',
          message: 'the reader could not decode the stripe',
        };
      case 'empty':
        return { kind: 'read-error', source, reason: 'bad-read', message: 'blank or unreadable card' };
      case 'mismatch':
        return { kind: 'read-error', source, reason: 'unparseable', message: 'track 1 and track 2 disagree' };
      case 'format':
        return {
          kind: 'read-error',
          source,
          reason: 'unparseable',
          message: 'not an ISO 7813 financial card',
        };
    }
  }
  const v = parsed.value;
  if (!v.track2) {
    return { kind: 'read-error', source, reason: 'no-track2', message: 'track 2 missing; swipe again' };
  }
  const event: CardSwipe = {
    kind: 'swipe',
    source,
    track2: v.track2.trackData,
    maskedPan: maskPan(v.pan),
    last4: lastFour(v.pan),
    brand: detectBrand(v.pan),
    expiry: v.expiryYYMM,
    serviceCode: v.serviceCode,
  };
  if (v.track1) event.track1 = v.track1.trackData;
  if (v.name) event.cardholderName = v.name;
  return event;
}

/**
 * Card reader driver: one event per physical swipe, whatever the transport. Never logs or throws card
 * data; a bad read is a `read-error` event.
 */
export class CardReaderDriver implements CardReader, DriverLifecycle {
  readonly role = 'cardReader' as const;
  readonly heartbeat: (() => Promise<void>) | undefined;
  private readonly transport: CardReaderTransport;
  private readonly timers: Timers;
  private readonly tracker: HealthTracker;
  private readonly cards: Listeners<CardReaderEvent>;
  private readonly disconnects = new Listeners<Error | undefined>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly serialIdleMs: number;
  private readonly heartbeatTimeoutMs: number;
  private serialBuffer = '';
  private idleTimer: TimerHandle | undefined;
  private closing = false;
  private swipes = 0;
  private readErrors = 0;

  constructor(transport: CardReaderTransport, options: CardReaderDriverOptions = {}) {
    this.transport = transport;
    this.timers = options.timers ?? systemTimers;
    this.serialIdleMs = options.serialIdleMs ?? 250;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 1000;
    this.tracker = new HealthTracker(this.timers);
    this.cards = new Listeners<CardReaderEvent>((err) =>
      this.tracker.error(`card listener failed: ${err instanceof Error ? err.name : 'error'}`),
    );
    switch (transport.kind) {
      case 'serial':
        this.unsubscribe.push(
          transport.stream.onData((chunk) => this.onSerialData(chunk)),
          transport.stream.onClose((reason) => this.onTransportClosed(reason)),
        );
        this.heartbeat = undefined;
        break;
      case 'hid':
        this.unsubscribe.push(
          transport.port.onReport((report) => this.onHidReport(report)),
          transport.port.onClose((reason) => this.onTransportClosed(reason)),
        );
        this.heartbeat = () => this.hidHeartbeat(transport.port);
        break;
      case 'wedge':
        this.unsubscribe.push(
          transport.wedge.onSwipe((data) => {
            this.tracker.seen();
            this.emit(swipeToEvent(data, 'wedge'));
          }),
          transport.wedge.onClose((reason) => this.onTransportClosed(reason)),
        );
        this.heartbeat = undefined;
        break;
    }
  }

  onCard(listener: (event: CardReaderEvent) => void): Unsubscribe {
    return this.cards.add(listener);
  }

  onDisconnect(listener: (reason: Error | undefined) => void): Unsubscribe {
    return this.disconnects.add(listener);
  }

  health(): DeviceHealth {
    return this.tracker.snapshot({
      transport: this.transport.kind,
      swipes: this.swipes,
      readErrors: this.readErrors,
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    for (const u of this.unsubscribe) u();
    this.tracker.closed(undefined);
    switch (this.transport.kind) {
      case 'serial':
        await this.transport.stream.close();
        break;
      case 'hid':
        await this.transport.port.close();
        break;
      case 'wedge':
        await this.transport.wedge.close();
        break;
    }
  }

  private emit(event: CardReaderEvent): void {
    if (event.kind === 'swipe') this.swipes += 1;
    else {
      this.readErrors += 1;
      this.tracker.error(`read error: ${event.message}`);
    }
    this.cards.emit(event);
  }

  private onSerialData(chunk: Uint8Array): void {
    this.tracker.seen();
    for (const b of chunk) {
      if (b === 0x0d || b === 0x0a) {
        this.completeSerialSwipe();
        continue;
      }
      this.serialBuffer += String.fromCharCode(b);
      if (this.serialBuffer.length > MAX_SERIAL_SWIPE) {
        this.serialBuffer = '';
        this.emit({
          kind: 'read-error',
          source: 'serial',
          reason: 'unparseable',
          message: 'reader sent an over-long line',
        });
      }
    }
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer =
      this.serialBuffer === ''
        ? undefined
        : this.timers.setTimeout(() => this.completeSerialSwipe(), this.serialIdleMs);
  }

  private completeSerialSwipe(): void {
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const raw = this.serialBuffer;
    this.serialBuffer = '';
    // CR LF pairs and keep-alive blank lines are not swipes.
    if (raw.trim() === '') return;
    this.emit(swipeToEvent(raw, 'serial'));
  }

  private onHidReport(report: Uint8Array): void {
    this.tracker.seen();
    const parsed = parseMagtekSwipeReport(report);
    if (!parsed.ok) {
      this.emit({
        kind: 'read-error',
        source: 'hid',
        reason: 'unparseable',
        message: `unsupported MagTek report (${report.length} bytes: ${parsed.error})`,
      });
      return;
    }
    // §2.2: the reader sends a report even for an undecodable swipe; magtekSwipeText turns a track in
    // error into `E`, which the track parser reports as a bad read.
    this.emit(swipeToEvent(magtekSwipeText(parsed.value), 'hid'));
  }

  /** GET_PROPERTY track-ID-enable (§2.3): any well-formed answer proves the reader is alive. */
  private async hidHeartbeat(port: HidDevicePort): Promise<void> {
    const exchange = async (): Promise<void> => {
      await port.sendFeatureReport(0, buildGetProperty(MAGTEK_PROPERTY.trackIdEnable));
      const answer = await port.getFeatureReport(0, MAGTEK_FEATURE_REPORT_LENGTH);
      const r = parseMagtekResponse(answer);
      if (!r.ok) throw new Error(`MagTek reader answered with a malformed feature report (${r.error})`);
      if (r.value.resultName !== 'success') throw new Error(`MagTek reader answered ${r.value.resultName}`);
    };
    let timer: TimerHandle | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.timers.setTimeout(
        () => reject(new Error('MagTek reader did not answer the feature report')),
        this.heartbeatTimeoutMs,
      );
    });
    try {
      await Promise.race([exchange(), timeout]);
      this.tracker.seen();
    } catch (err) {
      this.tracker.error(err instanceof Error ? err.message : String(err), true);
      throw err;
    } finally {
      if (timer !== undefined) this.timers.clearTimeout(timer);
    }
  }

  private onTransportClosed(reason: Error | undefined): void {
    if (this.idleTimer !== undefined) this.timers.clearTimeout(this.idleTimer);
    // A swipe cut off by the unplug is a bad read, not a silent loss.
    if (this.serialBuffer.trim() !== '') {
      this.serialBuffer = '';
      this.emit({
        kind: 'read-error',
        source: 'serial',
        reason: 'bad-read',
        message: 'reader disconnected mid-swipe',
      });
    }
    this.tracker.closed(reason);
    if (!this.closing) this.disconnects.emit(reason);
  }
}
