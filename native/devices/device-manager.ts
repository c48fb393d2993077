import { backoffDelay, type BackoffPolicy } from '../drivers/backoff';
import { BarcodeScannerDriver } from '../drivers/barcode-scanner';
import { CardReaderDriver } from '../drivers/card-reader';
import type { DriverLifecycle } from '../drivers/driver-lifecycle';
import { Listeners } from '../drivers/listeners';
import type {
  BarcodeScan,
  CardReaderEvent,
  DeviceHealth,
  DeviceRole,
  DeviceState,
  RoleApi,
  SignaturePoint,
  Unsubscribe,
} from '../drivers/roles';
import { SignaturePadDriver } from '../drivers/signature-pad';
import { systemTimers, type TimerHandle, type Timers } from '../drivers/timers';
import type { ByteStream } from '../transports/byte-stream';
import type { HidFilter } from '../transports/hid-transport';
import type { KeyboardWedgeTransport } from '../transports/keyboard-wedge-transport';
import type { WedgeScanInput } from '../transports/wedge-scan-input';
import {
  deviceRoles,
  emptyLaneConfig,
  validateLaneDeviceConfig,
  type DeviceConnection,
  type LaneDeviceConfig,
} from './device-config';
import { runDeviceTest, type DeviceTest, type DeviceTestResult } from './device-tests';
import { discoverDevices, hidDiscoveryFilters, type DiscoveryResult } from './discovery';
import {
  createDriverFactory,
  systemTransports,
  type Driver,
  type DriverOptions,
  type SimulatedDeviceSource,
  type TransportFactory,
} from './driver-factory';
import { createRoleFacades } from './role-facades';

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
  drivers?: DriverOptions;
  /** How a test receipt writes its time (the store's zone: the caller knows it). See DeviceTestDeps. */
  formatTime?: (at: number) => string;
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
  /**
   * Where keyboard-wedge scans go (a screen's, or the sandbox's simulated wedge), when the scanner is a
   * wedge or simulated and connected.
   */
  scannerWedge(): WedgeScanInput | undefined;
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

/** Reconnects: 500 ms, 1 s, 2 s … capped at 30 s (a tech plugging a device back in should not wait longer), ±20 %. */
const defaultBackoff: BackoffPolicy = { initialMs: 500, maxMs: 30_000, multiplier: 2, jitter: 0.2 };

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
  let config: LaneDeviceConfig = options.config ?? emptyLaneConfig();
  let running = false;
  let rediscoveryTimer: TimerHandle | undefined;
  let lastDiscovery: DiscoveryResult | undefined;
  const statusListeners = new Listeners<DeviceStatus>();
  const cardListeners = new Listeners<CardReaderEvent>();
  const strokeListeners = new Listeners<SignaturePoint[]>();
  const scanListeners = new Listeners<BarcodeScan>();
  const factory = createDriverFactory({
    transports,
    simulated: options.simulated,
    timers,
    drivers: options.drivers,
    config: () => config,
    wrapStream: options.wrapStream,
  });

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
    if (d?.problem !== undefined && state === 'connected') h.problem = d.problem;
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
    // Only state, error and problem changes are news; lastSeenAt moves with every byte.
    const key = `${st.health.state}|${st.health.lastError ?? ''}|${st.attempts}|${st.health.problem ?? ''}`;
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

  function attach(s: Slot, driver: Driver): void {
    s.driver = driver;
    const life: DriverLifecycle = driver;
    s.detach.push(life.onDisconnect((reason) => onLost(s, driver, reason)));
    if (driver instanceof CardReaderDriver) s.detach.push(driver.onCard((e) => cardListeners.emit(e)));
    if (driver instanceof SignaturePadDriver)
      s.detach.push(driver.onStroke((st) => strokeListeners.emit(st)));
    if (driver instanceof BarcodeScannerDriver) s.detach.push(driver.onScan((sc) => scanListeners.emit(sc)));
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
      const driver = await factory.open(s.role, s.connection);
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
      } else publish(s); // the heartbeat may have learnt of a problem (a printer's paper ran out)
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

  const devices: RoleApi = createRoleFacades({
    driverOf: (role) => slot(role).driver,
    healthOf: (role) => healthOf(slot(role)),
    cards: cardListeners,
    strokes: strokeListeners,
    scans: scanListeners,
  });

  function runTest(test: DeviceTest): Promise<DeviceTestResult> {
    return runDeviceTest(
      {
        devices,
        timers,
        ...(options.formatTime ? { formatTime: options.formatTime } : {}),
        unavailable: (role) => {
          const s = slot(role);
          return s.driver ? undefined : `${role} is ${s.state}${s.lastError ? `: ${s.lastError}` : ''}`;
        },
        heartbeat: async (role) => {
          const s = slot(role);
          return (await beat(s))
            ? { ok: true, hasHeartbeat: heartbeatOf(s.driver) !== undefined }
            : { ok: false, error: s.lastError ?? 'no answer' };
        },
      },
      test,
    );
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
      await factory.closeWedge();
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
    keyboardWedge: () => (slot('cardReader').connection.kind === 'wedge' ? factory.wedge : undefined),
    scannerWedge: () => {
      const s = slot('scanner');
      const kind = s.connection.kind;
      return s.driver && (kind === 'wedge' || kind === 'simulated') ? factory.scannerWedge : undefined;
    },
  };
}
