import { join } from 'node:path';
import { CardReaderDriver, type CardReaderDriverOptions } from '../drivers/card-reader';
import type { ChipReaderDriverOptions } from '../drivers/chip-reader';
import type { ContactlessReaderDriverOptions } from '../drivers/contactless-reader';
import { NgaReaderDriver } from '../drivers/nga-reader';
import type { DriverLifecycle } from '../drivers/driver-lifecycle';
import { Listeners } from '../drivers/listeners';
import { PinPadDriver, type PinPadDriverOptions } from '../drivers/pin-pad';
import { ReceiptPrinterDriver, type ReceiptPrinterDriverOptions } from '../drivers/receipt-printer';
import type {
  CardReader,
  CardReaderEvent,
  ChipReader,
  ContactlessReader,
  DeviceHealth,
  DeviceRole,
  DeviceState,
  PinPad,
  ReceiptPrinter,
  RoleApi,
  SignaturePad,
  SignaturePoint,
  Unsubscribe,
} from '../drivers/roles';
import { SignaturePadDriver, type SignaturePadDriverOptions } from '../drivers/signature-pad';
import { systemTimers, type TimerHandle, type Timers } from '../drivers/timers';
import type { ByteStream } from '../transports/byte-stream';
import {
  listHidDevices,
  openHidDevice,
  type HidDevicePort,
  type HidFilter,
  type HidListing,
  type HidSelector,
} from '../transports/hid-transport';
import {
  createKeyboardWedgeTransport,
  type KeyboardWedgeTransport,
} from '../transports/keyboard-wedge-transport';
import {
  listSerialPorts,
  openSerialStream,
  type SerialPortList,
  type SerialSettings,
} from '../transports/serial-transport';
import {
  deviceRoles,
  emptyLaneConfig,
  validateLaneDeviceConfig,
  type DeviceConnection,
  type LaneDeviceConfig,
} from './device-config';
import { discoverDevices, hidDiscoveryFilters, type DiscoveryResult } from './discovery';
import { fileSink, recordHidPort, recordStream } from './frame-recorder';

/** How the manager reaches hardware; replaced in tests (pty paths, recorded HID, no HID at all). */
export type TransportFactory = {
  openSerial(settings: SerialSettings): Promise<ByteStream>;
  openHid(selector: HidSelector): Promise<HidDevicePort>;
  createWedge(): KeyboardWedgeTransport;
  listSerial(options: { configuredPaths: readonly string[] }): Promise<SerialPortList>;
  listHid(filters: readonly HidFilter[]): Promise<HidListing>;
};

export const systemTransports: TransportFactory = {
  openSerial: openSerialStream,
  openHid: openHidDevice,
  createWedge: () => createKeyboardWedgeTransport(),
  listSerial: (options) => listSerialPorts(options),
  listHid: (filters) => listHidDevices(filters),
};

/** Where `simulated` connections come from (simulated-devices.ts in the sandbox). */
export type SimulatedDeviceSource = {
  /** The driver's end of the role's simulated device, freshly connected. */
  open(role: DeviceRole): Promise<ByteStream>;
};

export type BackoffPolicy = {
  /** First retry delay. Default 500 ms. */
  initialMs: number;
  /** Cap. Default 30 s: a tech plugging a device back in should not wait longer than that. */
  maxMs: number;
  multiplier: number;
  /** ± fraction of the delay, so lanes that lost a shared hub do not retry in lockstep. Default 0.2. */
  jitter: number;
};

export type DeviceManagerOptions = {
  config?: LaneDeviceConfig;
  transports?: Partial<TransportFactory>;
  simulated?: SimulatedDeviceSource;
  timers?: Timers;
  /** [0, 1) source for jitter. Default Math.random. */
  random?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** Heartbeat period for devices whose protocol has one. Default 10 s. */
  heartbeatMs?: number;
  /** Consecutive failed heartbeats before the port is closed and reopened. Default 3. */
  heartbeatFailuresBeforeReconnect?: number;
  /** Hot-plug: how often missing devices are looked for. Default 5 s; 0 disables. */
  rediscoveryMs?: number;
  /**
   * Wraps every opened byte stream. Default: the frame recorder when the configuration names a
   * `recordFramesTo` folder, else nothing.
   */
  wrapStream?: (role: DeviceRole, stream: ByteStream) => ByteStream;
  drivers?: {
    cardReader?: Omit<CardReaderDriverOptions, 'timers'>;
    pinPad?: Omit<PinPadDriverOptions, 'timers' | 'sevenBit'>;
    contactless?: Omit<ContactlessReaderDriverOptions, 'timers'>;
    /** The contact chip interface of the reader configured as `contactless` (one NGA reader, one link). */
    chipReader?: Omit<ChipReaderDriverOptions, 'timers'>;
    signaturePad?: Omit<SignaturePadDriverOptions, 'timers'>;
    receiptPrinter?: Omit<ReceiptPrinterDriverOptions, 'timers'>;
  };
};

export type DeviceStatus = {
  role: DeviceRole;
  kind: DeviceConnection['kind'];
  /** Where it is attached: a serial path, `hid:0x0801:0x0002`, `keyboard`, `simulated`, or `not configured`. */
  attachment: string;
  health: DeviceHealth;
  /** Reconnect attempts since the device was last connected. */
  attempts: number;
  /** Epoch ms of the next reconnect attempt, while one is scheduled. */
  nextAttemptAt?: number;
};

/** What a tech's "test" button does per role (the tech screen and `npm run tool`). */
export type DeviceTest =
  | { role: 'cardReader'; action: 'read-card'; timeoutMs?: number }
  | { role: 'pinPad'; action: 'display-text'; text?: string }
  | { role: 'contactless'; action: 'beep' | 'ping' }
  | { role: 'receiptPrinter'; action: 'print-test-receipt' | 'status' }
  | { role: DeviceRole; action: 'heartbeat' };

export type DeviceTestResult = { ok: true; detail: string } | { ok: false; error: string };

type Driver = CardReaderDriver | PinPadDriver | NgaReaderDriver | SignaturePadDriver | ReceiptPrinterDriver;

type Slot = {
  role: DeviceRole;
  connection: DeviceConnection;
  driver: Driver | undefined;
  state: DeviceState;
  lastError: string | undefined;
  lastSeenAt: number | undefined;
  everConnected: boolean;
  attempts: number;
  connecting: boolean;
  /** Bumped on every (re)configuration and stop, so a stale async open cannot attach its driver. */
  generation: number;
  retryTimer: TimerHandle | undefined;
  nextAttemptAt: number | undefined;
  heartbeatTimer: TimerHandle | undefined;
  heartbeatFailures: number;
  detach: Unsubscribe[];
  lastEmitted: string;
};

export type DeviceManager = {
  /** Opens every configured device; resolves once each has had its first attempt. Never rejects. */
  start(): Promise<void>;
  /** Closes every device and stops all timers. */
  stop(): Promise<void>;
  readonly config: LaneDeviceConfig;
  /** Validates and applies a new configuration; only roles whose connection changed are reopened. */
  reconfigure(config: unknown): Promise<{ ok: true } | { ok: false; errors: string[] }>;
  /** Stable role objects: they survive reconnects, so subscribe once. */
  readonly devices: RoleApi;
  status(): DeviceStatus[];
  statusOf(role: DeviceRole): DeviceStatus;
  /** Fires when a device's state or last error changes. */
  onStatus(listener: (status: DeviceStatus) => void): Unsubscribe;
  /** The last hot-plug scan, or a fresh one. */
  discover(): Promise<DiscoveryResult>;
  /** Closes and reopens a device now (the tech's "reconnect" button). */
  reconnect(role: DeviceRole): Promise<void>;
  runTest(test: DeviceTest): Promise<DeviceTestResult>;
  /** Where the renderer's keystrokes go when the card reader is a keyboard wedge. */
  keyboardWedge(): KeyboardWedgeTransport | undefined;
};

/** The driver's heartbeat, where its protocol has one. */
function heartbeatOf(d: Driver | undefined): (() => Promise<void>) | undefined {
  if (!d) return undefined;
  const life: DriverLifecycle = d;
  return life.heartbeat;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function attachmentOf(c: DeviceConnection): string {
  switch (c.kind) {
    case 'serial':
      return c.path;
    case 'hid':
      return `hid:0x${c.vendorId.toString(16).padStart(4, '0')}:0x${c.productId.toString(16).padStart(4, '0')}`;
    case 'wedge':
      return 'keyboard';
    case 'simulated':
      return 'simulated';
    case 'none':
      return 'not configured';
  }
}

const defaultBackoff: BackoffPolicy = { initialMs: 500, maxMs: 30_000, multiplier: 2, jitter: 0.2 };

/**
 * Exponential backoff with symmetric jitter (the stripe-node `RequestSender` habit): attempt 0 waits
 * about `initialMs`, each further attempt `multiplier` times longer, capped at `maxMs`.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.multiplier ** attempt);
  const spread = base * policy.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}

/**
 * Creates the lane's device manager. It owns every device: it opens them from the configuration,
 * heartbeats the ones whose protocol allows it, reconnects with backoff when a port drops, notices
 * devices plugged in later, and hands the terminal core one stable object per role.
 */
export function createDeviceManager(options: DeviceManagerOptions = {}): DeviceManager {
  const timers = options.timers ?? systemTimers;
  const random = options.random ?? Math.random;
  const transports: TransportFactory = { ...systemTransports, ...options.transports };
  const backoff: BackoffPolicy = { ...defaultBackoff, ...options.backoff };
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const heartbeatLimit = options.heartbeatFailuresBeforeReconnect ?? 3;
  const rediscoveryMs = options.rediscoveryMs ?? 5000;
  const recordingPath = (role: DeviceRole): string | undefined =>
    config.recordFramesTo === undefined
      ? undefined
      : join(
          config.recordFramesTo,
          `${role}-${new Date(timers.now()).toISOString().replace(/[:.]/g, '-')}.jsonl`,
        );
  const wrap =
    options.wrapStream ??
    ((role: DeviceRole, s: ByteStream): ByteStream => {
      const path = recordingPath(role);
      return path === undefined ? s : recordStream(s, fileSink(path), { timers });
    });
  const wrapHid = (role: DeviceRole, port: HidDevicePort): HidDevicePort => {
    const path = recordingPath(role);
    return path === undefined ? port : recordHidPort(port, fileSink(path), { timers });
  };

  let config: LaneDeviceConfig = options.config ?? emptyLaneConfig();
  let running = false;
  let rediscoveryTimer: TimerHandle | undefined;
  let lastDiscovery: DiscoveryResult | undefined;
  let wedge: KeyboardWedgeTransport | undefined;
  const statusListeners = new Listeners<DeviceStatus>();
  const cardListeners = new Listeners<CardReaderEvent>();
  const strokeListeners = new Listeners<SignaturePoint[]>();

  const slots = new Map<DeviceRole, Slot>(
    deviceRoles.map((role) => [
      role,
      {
        role,
        connection: config[role],
        driver: undefined,
        state: 'missing',
        lastError: undefined,
        lastSeenAt: undefined,
        everConnected: false,
        attempts: 0,
        connecting: false,
        generation: 0,
        retryTimer: undefined,
        nextAttemptAt: undefined,
        heartbeatTimer: undefined,
        heartbeatFailures: 0,
        detach: [],
        lastEmitted: '',
      },
    ]),
  );
  const slot = (role: DeviceRole): Slot => slots.get(role) as Slot;

  function healthOf(s: Slot): DeviceHealth {
    const d = s.driver?.health();
    let state = s.state;
    // A driver that is open but whose own checks fail (e.g. a HID feature report unanswered) is in error.
    if (state === 'connected' && d?.state === 'error') state = 'error';
    const h: DeviceHealth = { state };
    const lastError = s.lastError ?? d?.lastError;
    if (lastError !== undefined) h.lastError = lastError;
    const seen = Math.max(s.lastSeenAt ?? 0, d?.lastSeenAt ?? 0);
    if (seen > 0) h.lastSeenAt = seen;
    if (d?.detail) h.detail = d.detail;
    if (s.connection.kind === 'none') h.detail = { configured: false };
    return h;
  }

  function statusOf(role: DeviceRole): DeviceStatus {
    const s = slot(role);
    const st: DeviceStatus = {
      role,
      kind: s.connection.kind,
      attachment: attachmentOf(s.connection),
      health: healthOf(s),
      attempts: s.attempts,
    };
    if (s.nextAttemptAt !== undefined) st.nextAttemptAt = s.nextAttemptAt;
    return st;
  }

  function publish(s: Slot): void {
    const st = statusOf(s.role);
    // Only state and error changes are news; lastSeenAt moves with every byte.
    const key = `${st.health.state}|${st.health.lastError ?? ''}|${st.attempts}`;
    if (key === s.lastEmitted) return;
    s.lastEmitted = key;
    statusListeners.emit(st);
  }

  function setState(s: Slot, state: DeviceState, error?: string): void {
    s.state = state;
    if (error !== undefined) s.lastError = error;
    publish(s);
  }

  function clearTimers(s: Slot): void {
    if (s.retryTimer !== undefined) timers.clearTimeout(s.retryTimer);
    if (s.heartbeatTimer !== undefined) timers.clearTimeout(s.heartbeatTimer);
    s.retryTimer = undefined;
    s.heartbeatTimer = undefined;
    s.nextAttemptAt = undefined;
  }

  async function openDriver(s: Slot): Promise<Driver> {
    const c = s.connection;
    const t = { timers };
    const openStream = async (): Promise<ByteStream> => {
      if (c.kind === 'serial') {
        const { kind: _kind, ...settings } = c;
        return wrap(s.role, await transports.openSerial(settings));
      }
      if (c.kind === 'simulated') {
        if (!options.simulated) throw new Error('no simulated devices in this build');
        return wrap(s.role, await options.simulated.open(s.role));
      }
      throw new Error(`a ${c.kind} connection cannot carry the ${s.role} protocol`);
    };
    switch (s.role) {
      case 'cardReader': {
        const o = { ...options.drivers?.cardReader, ...t };
        if (c.kind === 'hid') {
          return new CardReaderDriver(
            {
              kind: 'hid',
              port: wrapHid(
                s.role,
                await transports.openHid({ vendorId: c.vendorId, productId: c.productId }),
              ),
            },
            o,
          );
        }
        if (c.kind === 'wedge') {
          wedge ??= transports.createWedge();
          if (!wedge.isOpen) wedge = transports.createWedge();
          return new CardReaderDriver({ kind: 'wedge', wedge }, o);
        }
        return new CardReaderDriver({ kind: 'serial', stream: await openStream() }, o);
      }
      case 'pinPad':
        return new PinPadDriver(await openStream(), {
          ...options.drivers?.pinPad,
          ...t,
          // 7-bit lines (7E1/7O1) cannot carry bytes >= 0x80 (§4.2).
          sevenBit: c.kind === 'serial' && c.dataBits === 7,
        });
      case 'contactless':
        // An NGA reader: contactless and contact chip on the same link.
        return new NgaReaderDriver(await openStream(), {
          ...t,
          ...(options.drivers?.contactless ? { contactless: options.drivers.contactless } : {}),
          ...(options.drivers?.chipReader ? { chip: options.drivers.chipReader } : {}),
        });
      case 'signaturePad':
        return new SignaturePadDriver(await openStream(), { ...options.drivers?.signaturePad, ...t });
      case 'receiptPrinter':
        return new ReceiptPrinterDriver(await openStream(), { ...options.drivers?.receiptPrinter, ...t });
    }
  }

  function attach(s: Slot, driver: Driver): void {
    s.driver = driver;
    const life: DriverLifecycle = driver;
    s.detach.push(life.onDisconnect((reason) => onLost(s, driver, reason)));
    if (driver instanceof CardReaderDriver) s.detach.push(driver.onCard((e) => cardListeners.emit(e)));
    if (driver instanceof SignaturePadDriver)
      s.detach.push(driver.onStroke((st) => strokeListeners.emit(st)));
  }

  function detach(s: Slot): Driver | undefined {
    for (const d of s.detach) d();
    s.detach = [];
    const d = s.driver;
    s.driver = undefined;
    return d;
  }

  async function connect(s: Slot): Promise<void> {
    if (!running || s.connecting || s.driver || s.connection.kind === 'none') return;
    s.connecting = true;
    const generation = s.generation;
    if (s.retryTimer !== undefined) timers.clearTimeout(s.retryTimer);
    s.retryTimer = undefined;
    s.nextAttemptAt = undefined;
    try {
      const driver = await openDriver(s);
      if (generation !== s.generation || !running) {
        await driver.close().catch(() => undefined);
        return;
      }
      attach(s, driver);
      s.everConnected = true;
      s.attempts = 0;
      s.heartbeatFailures = 0;
      s.lastSeenAt = timers.now();
      s.lastError = undefined;
      setState(s, 'connected');
      scheduleHeartbeat(s);
    } catch (err) {
      if (generation !== s.generation || !running) return;
      s.lastError = describe(err);
      setState(s, s.everConnected ? 'reconnecting' : 'missing');
      scheduleRetry(s);
    } finally {
      if (generation === s.generation) s.connecting = false;
    }
  }

  function scheduleRetry(s: Slot): void {
    if (!running || s.connection.kind === 'none' || s.connection.kind === 'wedge') return;
    if (s.retryTimer !== undefined) timers.clearTimeout(s.retryTimer);
    const delay = backoffDelay(backoff, s.attempts, random);
    s.attempts += 1;
    s.nextAttemptAt = timers.now() + delay;
    s.retryTimer = timers.setTimeout(() => {
      s.retryTimer = undefined;
      void connect(s);
    }, delay);
    publish(s);
  }

  function onLost(s: Slot, driver: Driver, reason: Error | undefined): void {
    if (s.driver !== driver) return;
    detach(s);
    if (s.heartbeatTimer !== undefined) timers.clearTimeout(s.heartbeatTimer);
    s.heartbeatTimer = undefined;
    s.lastError = reason ? reason.message : 'device closed the connection';
    setState(s, 'reconnecting');
    scheduleRetry(s);
  }

  function scheduleHeartbeat(s: Slot): void {
    if (s.heartbeatTimer !== undefined) timers.clearTimeout(s.heartbeatTimer);
    s.heartbeatTimer = undefined;
    if (!running || heartbeatMs <= 0 || !heartbeatOf(s.driver)) return;
    s.heartbeatTimer = timers.setTimeout(() => {
      s.heartbeatTimer = undefined;
      void beat(s);
    }, heartbeatMs);
  }

  async function beat(s: Slot): Promise<boolean> {
    const driver = s.driver;
    const heartbeat = heartbeatOf(driver);
    if (!driver || !heartbeat) return true;
    try {
      await heartbeat();
      if (s.driver !== driver) return false;
      s.heartbeatFailures = 0;
      s.lastSeenAt = timers.now();
      if (s.state !== 'connected' || s.lastError !== undefined) {
        s.lastError = undefined;
        setState(s, 'connected');
      }
      scheduleHeartbeat(s);
      return true;
    } catch (err) {
      if (s.driver !== driver) return false;
      s.heartbeatFailures += 1;
      setState(s, 'error', `no heartbeat answer (${s.heartbeatFailures}): ${describe(err)}`);
      if (s.heartbeatFailures >= heartbeatLimit) {
        // The port is open but nobody answers: reopen it, which also resets a wedged USB-serial bridge.
        detach(s);
        await driver.close().catch(() => undefined);
        s.lastError = `no answer to ${heartbeatLimit} heartbeats; reopening`;
        s.everConnected = true;
        setState(s, 'reconnecting');
        scheduleRetry(s);
      } else scheduleHeartbeat(s);
      return false;
    }
  }

  async function rediscover(): Promise<DiscoveryResult> {
    const configuredPaths = deviceRoles
      .map((r) => slot(r).connection)
      .flatMap((c) => (c.kind === 'serial' ? [c.path] : []));
    const hidFilters: HidFilter[] = [...hidDiscoveryFilters];
    for (const r of deviceRoles) {
      const c = slot(r).connection;
      if (c.kind === 'hid') hidFilters.push({ vendorId: c.vendorId, productId: c.productId });
    }
    const result = await discoverDevices({
      configuredPaths,
      listSerial: (o) => transports.listSerial({ configuredPaths: o?.configuredPaths ?? [] }),
      listHid: () => transports.listHid(hidFilters),
    });
    lastDiscovery = result;
    // Hot-plug: a device that was missing and is now present is opened at once, not at its next backoff.
    for (const r of deviceRoles) {
      const s = slot(r);
      if (!running || s.driver || s.connecting) continue;
      const c = s.connection;
      const present =
        (c.kind === 'serial' && result.devices.some((d) => d.transport === 'serial' && d.path === c.path)) ||
        (c.kind === 'hid' &&
          result.devices.some(
            (d) => d.transport === 'hid' && d.vendorId === c.vendorId && d.productId === c.productId,
          ));
      if (present) void connect(s);
    }
    return result;
  }

  function scheduleRediscovery(): void {
    if (!running || rediscoveryMs <= 0) return;
    rediscoveryTimer = timers.setTimeout(() => {
      rediscoveryTimer = undefined;
      rediscover()
        .catch(() => undefined)
        .finally(scheduleRediscovery);
    }, rediscoveryMs);
  }

  async function closeSlot(s: Slot, state: DeviceState): Promise<void> {
    s.generation += 1;
    s.connecting = false;
    clearTimers(s);
    const d = detach(s);
    s.attempts = 0;
    s.heartbeatFailures = 0;
    s.everConnected = false;
    if (d) await d.close().catch(() => undefined);
    s.state = state;
  }

  // ------------------------------------------------------------------------------------------------
  // Role facades: stable objects over whatever driver is attached right now.

  const notConnected = (role: DeviceRole): string => `${role} not connected`;

  const cardReader: CardReader = {
    role: 'cardReader',
    onCard: (l) => cardListeners.add(l),
    health: () => healthOf(slot('cardReader')),
  };
  const pinPad: PinPad = {
    role: 'pinPad',
    display: async (text) => {
      const d = slot('pinPad').driver;
      if (!(d instanceof PinPadDriver)) throw new Error(notConnected('pinPad'));
      await d.display(text);
    },
    requestPin: async (request) => {
      const d = slot('pinPad').driver;
      if (!(d instanceof PinPadDriver)) return { kind: 'failed', reason: 'PIN pad not connected' };
      return d.requestPin(request);
    },
    cancel: async () => {
      const d = slot('pinPad').driver;
      if (d instanceof PinPadDriver) await d.cancel();
    },
    health: () => healthOf(slot('pinPad')),
  };
  const ngaReader = (): NgaReaderDriver | undefined => {
    const d = slot('contactless').driver;
    return d instanceof NgaReaderDriver ? d : undefined;
  };
  const contactless: ContactlessReader = {
    role: 'contactless',
    ping: async () => {
      const d = ngaReader();
      return d ? d.contactless.ping() : false;
    },
    activateTransaction: async (request) => {
      const d = ngaReader();
      if (!d) return { kind: 'failed', reason: 'contactless reader not connected' };
      return d.contactless.activateTransaction(request);
    },
    cancel: async () => {
      await ngaReader()?.contactless.cancel();
    },
    beep: async () => {
      const d = ngaReader();
      if (!d) throw new Error(notConnected('contactless'));
      await d.contactless.beep();
    },
    health: () => healthOf(slot('contactless')),
  };
  const chipNotConnected = {
    kind: 'failed',
    code: 'not-connected',
    reason: 'chip reader not connected',
  } as const;
  const chipReader: ChipReader = {
    role: 'chipReader',
    start: async (request) => {
      const d = ngaReader();
      return d ? d.chip.start(request) : chipNotConnected;
    },
    complete: async (response) => {
      const d = ngaReader();
      return d ? d.chip.complete(response) : chipNotConnected;
    },
    cancel: async () => {
      await ngaReader()?.chip.cancel();
    },
    inTransaction: () => ngaReader()?.chip.inTransaction() ?? false,
    health: () => healthOf(slot('contactless')),
  };
  const signaturePad: SignaturePad = {
    role: 'signaturePad',
    startCapture: () => {
      const d = slot('signaturePad').driver;
      if (d instanceof SignaturePadDriver) d.startCapture();
    },
    onStroke: (l) => strokeListeners.add(l),
    finishCapture: async () => {
      const d = slot('signaturePad').driver;
      return d instanceof SignaturePadDriver ? d.finishCapture() : undefined;
    },
    health: () => healthOf(slot('signaturePad')),
  };
  const receiptPrinter: ReceiptPrinter = {
    role: 'receiptPrinter',
    print: async (receipt) => {
      const d = slot('receiptPrinter').driver;
      if (!(d instanceof ReceiptPrinterDriver))
        return { ok: false, reason: 'offline', message: 'printer not connected' };
      return d.print(receipt);
    },
    cut: async () => {
      const d = slot('receiptPrinter').driver;
      if (!(d instanceof ReceiptPrinterDriver)) throw new Error(notConnected('receiptPrinter'));
      await d.cut();
    },
    kickDrawer: async () => {
      const d = slot('receiptPrinter').driver;
      if (!(d instanceof ReceiptPrinterDriver)) throw new Error(notConnected('receiptPrinter'));
      await d.kickDrawer();
    },
    status: async () => {
      const d = slot('receiptPrinter').driver;
      if (!(d instanceof ReceiptPrinterDriver)) throw new Error(notConnected('receiptPrinter'));
      return d.status();
    },
    health: () => healthOf(slot('receiptPrinter')),
  };
  const devices: RoleApi = { cardReader, pinPad, contactless, chipReader, signaturePad, receiptPrinter };

  async function runTest(test: DeviceTest): Promise<DeviceTestResult> {
    const s = slot(test.role);
    if (!s.driver)
      return { ok: false, error: `${test.role} is ${s.state}${s.lastError ? `: ${s.lastError}` : ''}` };
    try {
      switch (test.action) {
        case 'heartbeat':
          return (await beat(s))
            ? {
                ok: true,
                detail: heartbeatOf(s.driver) ? 'answered' : 'port open (protocol has no heartbeat)',
              }
            : { ok: false, error: s.lastError ?? 'no answer' };
        case 'read-card': {
          const timeoutMs = 'timeoutMs' in test && test.timeoutMs !== undefined ? test.timeoutMs : 15_000;
          const event = await new Promise<CardReaderEvent | undefined>((resolve) => {
            const timer = timers.setTimeout(() => {
              off();
              resolve(undefined);
            }, timeoutMs);
            const off = cardListeners.add((e) => {
              timers.clearTimeout(timer);
              off();
              resolve(e);
            });
          });
          if (!event) return { ok: false, error: 'no card swiped' };
          return event.kind === 'swipe'
            ? { ok: true, detail: `${event.brand} ${event.maskedPan} exp ${event.expiry}` }
            : { ok: false, error: event.message };
        }
        case 'display-text':
          await pinPad.display('text' in test && test.text !== undefined ? test.text : 'TILLPOINT TEST');
          return { ok: true, detail: 'text sent' };
        case 'beep':
          await contactless.beep();
          return { ok: true, detail: 'beeped' };
        case 'ping':
          return (await contactless.ping())
            ? { ok: true, detail: 'answered' }
            : { ok: false, error: 'no answer' };
        case 'status': {
          const st = await receiptPrinter.status();
          return {
            ok: true,
            detail: `paper ${st.paper}, cover ${st.coverOpen ? 'open' : 'closed'}, ${st.online ? 'online' : 'offline'}`,
          };
        }
        case 'print-test-receipt': {
          const r = await receiptPrinter.print({
            lines: [
              { kind: 'text', text: 'TILLPOINT', align: 'center', bold: true, large: true },
              { kind: 'text', text: 'Printer test', align: 'center' },
              { kind: 'rule' },
              { kind: 'pair', left: 'Time', right: new Date(timers.now()).toISOString().slice(0, 19) },
              { kind: 'rule' },
            ],
          });
          return r.ok ? { ok: true, detail: 'printed' } : { ok: false, error: r.message };
        }
      }
    } catch (err) {
      return { ok: false, error: describe(err) };
    }
  }

  return {
    get config() {
      return config;
    },
    devices,
    async start() {
      if (running) return;
      running = true;
      await Promise.all(deviceRoles.map((r) => connect(slot(r))));
      for (const r of deviceRoles) publish(slot(r));
      scheduleRediscovery();
    },
    async stop() {
      running = false;
      if (rediscoveryTimer !== undefined) timers.clearTimeout(rediscoveryTimer);
      rediscoveryTimer = undefined;
      await Promise.all(deviceRoles.map((r) => closeSlot(slot(r), 'missing')));
      if (wedge) await wedge.close();
      wedge = undefined;
    },
    async reconfigure(next) {
      const v = validateLaneDeviceConfig(next);
      if (!v.ok) return v;
      config = v.value;
      await Promise.all(
        deviceRoles.map(async (r) => {
          const s = slot(r);
          if (JSON.stringify(s.connection) === JSON.stringify(config[r])) return;
          await closeSlot(s, 'missing');
          s.connection = config[r];
          s.lastError = undefined;
          publish(s);
          await connect(s);
        }),
      );
      return { ok: true };
    },
    status: () => deviceRoles.map(statusOf),
    statusOf,
    onStatus: (l) => statusListeners.add(l),
    async discover() {
      return lastDiscovery && running && rediscoveryMs > 0 ? lastDiscovery : rediscover();
    },
    async reconnect(role) {
      const s = slot(role);
      await closeSlot(s, 'reconnecting');
      publish(s);
      await connect(s);
    },
    runTest,
    keyboardWedge: () => (slot('cardReader').connection.kind === 'wedge' ? wedge : undefined),
  };
}
