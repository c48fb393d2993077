import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DeviceConfigView,
  DeviceConnectionView,
  DeviceRoleName,
  DeviceStatusView,
  DeviceTestRequest,
  DeviceTestResultView,
  DiscoveryView,
  FrameRecorderView,
  FrameView,
  ScanView,
  SimulatorStateView,
  SymbologyName,
  WedgeSettingsView,
} from '../../common/bridge/contract';
import { DEVICE_ROLES } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { newId } from '../util/ids';
import { createScanClaims, type ScanClaims } from './scan-claims';
import { WedgeScanDetector, wedgeScanSettings } from '../../common/wedge-scan';
import {
  createDeviceManager,
  type DeviceManager,
  type DeviceManagerOptions,
  type DeviceStatus,
} from '../../native/devices/device-manager';
import {
  emptyLaneConfig,
  simulatedLaneConfig,
  validateLaneDeviceConfig,
  type DeviceConnection,
  type LaneDeviceConfig,
} from '../../native/devices/device-config';
import { parseRecording } from '../../native/devices/frame-recorder';
import {
  createSimulatedDevices,
  type ScanVia,
  type SimulatedDevices,
  type SimulatedDevicesOptions,
} from '../../native/devices/simulated-devices';
import type { BarcodeScan, DeviceRole, RoleApi, Symbology } from '../../native/drivers/roles';
import { maskPan } from '../../native/protocols/pan-mask';
import { TEST_BARCODES } from '../../native/simulators/test-barcodes';
import { CHIP_TEST_CARDS, TEST_CARDS, type TestCard } from '../../native/simulators/test-cards';

// The bridge's device shapes are declared in the contract (the renderer cannot import native/); these
// lines make the compiler prove that they stay the same shapes as native's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameConnection: Same<DeviceConnectionView, DeviceConnection> = true;
const sameRole: Same<DeviceRoleName, DeviceRole> = true;
const sameSymbology: Same<SymbologyName, Symbology> = true;
void sameConnection;
void sameRole;
void sameSymbology;

export type DeviceSetup =
  | { kind: 'simulated'; options?: SimulatedDevicesOptions }
  | { kind: 'configured'; config: LaneDeviceConfig }
  | { kind: 'none' };

export type DeviceHost = {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly devices: RoleApi;
  readonly manager: DeviceManager;
  readonly simulated: SimulatedDevices | undefined;
  connected(role: DeviceRoleName): boolean;
  list(): DeviceStatusView[];
  onStatus(listener: (s: DeviceStatusView) => void): () => void;
  config(): DeviceConfigView;
  setConfig(config: DeviceConfigView): Promise<DeviceConfigView>;
  discover(): Promise<DiscoveryView>;
  reconnect(role: DeviceRoleName): Promise<DeviceStatusView>;
  test(t: DeviceTestRequest): Promise<DeviceTestResultView>;
  recorder(limit: number): FrameRecorderView;
  setRecorder(enabled: boolean): Promise<FrameRecorderView>;
  simulatorState(): SimulatorStateView;
  /** Scans a label through the simulated scanner (sandbox only). */
  simulatorScan(barcode: { symbology: SymbologyName; data: string }, via: ScanVia): Promise<void>;
  /** Every scan of the lane's scanner, as the bridge shows it. */
  onScan(listener: (scan: ScanView) => void): () => void;
  /** A keyboard-wedge scan a screen told from typing; answers the scan as read. */
  wedgeScan(data: string): ScanView;
  /** How a screen tells a wedge scan from typing; null when the scanner is no wedge. */
  wedgeSettings(): WedgeSettingsView | null;
  /** True for the first window to claim a scan for its ticket; every later claim is false. */
  claimScan(scanId: string): boolean;
};

/**
 * A scan's view, with the id the windows claim it by (scan-claims.ts). Each listener of one scan gets its
 * own view of the same scan object: the id is kept per object, so every view of a scan carries one id.
 */
function scanViews(claims: ScanClaims): (s: BarcodeScan) => ScanView {
  const ids = new WeakMap<BarcodeScan, string>();
  return (s) => {
    let scanId = ids.get(s);
    if (scanId === undefined) {
      scanId = newId('SC');
      ids.set(s, scanId);
      claims.issued(scanId);
    }
    const { kind: _kind, ...view } = s;
    return { ...view, scanId };
  };
}

/** What keeps a configured device from its job: its link, or what it reports itself. */
function problemOf(s: DeviceStatus): string | undefined {
  if (s.kind === 'none') return undefined;
  if (s.health.state === 'missing' || s.health.state === 'reconnecting') return 'not connected';
  if (s.health.state === 'error') return 'not answering';
  return s.health.problem;
}

export function toStatusView(s: DeviceStatus): DeviceStatusView {
  const problem = problemOf(s);
  return {
    role: s.role,
    kind: s.kind,
    attachment: s.attachment,
    state: s.health.state,
    ...(s.health.lastError !== undefined ? { lastError: s.health.lastError } : {}),
    ...(s.health.lastSeenAt !== undefined ? { lastSeenAt: s.health.lastSeenAt } : {}),
    attempts: s.attempts,
    ...(s.nextAttemptAt !== undefined ? { nextAttemptAt: s.nextAttemptAt } : {}),
    ...(s.health.detail ? { detail: { ...s.health.detail } } : {}),
    ...(problem ? { problem } : {}),
  };
}

function toConfigView(c: LaneDeviceConfig): DeviceConfigView {
  return {
    cardReader: c.cardReader,
    pinPad: c.pinPad,
    contactless: c.contactless,
    signaturePad: c.signaturePad,
    receiptPrinter: c.receiptPrinter,
    scanner: c.scanner,
    poleDisplay: c.poleDisplay,
  };
}

/** What the sandbox cards do, for the simulator panel (from the gateway's published table). */
const cardNotes: Record<string, string> = {
  approve: 'approves',
  decline: 'declines (100)',
  'insufficient-funds': 'declines: insufficient funds (101)',
  expired: 'expired card (102)',
  'cvn-fail': 'fails the CVN check (103)',
  partial: 'holds 20.00: partial approval above that (210)',
  slow: 'slow processor (for timeout tests)',
  unavailable: 'processor unavailable (502)',
  gift: 'sandbox gift card',
  ebt: 'sandbox EBT card (PIN 1234)',
};

/** The chip cards' behaviour in the panel's words (README "Sandbox test cards", docs/chip.md). */
function chipNote(c: TestCard): string {
  const cvm = c.chip?.cvm === 'online-pin' ? 'PIN (debit)' : 'signature';
  if (c.chip?.behaviour === 'unreadable') return 'chip cannot be read: insert, then swipe (fallback)';
  if (c.chip?.behaviour === 'declines-after-approval')
    return `chip · ${cvm}: the card declines after the approval (AAC): reversed`;
  // The gateway's sandbox issuer sends scripts 71/72 for this card (gateway/sandbox/test-cards.ts).
  if (c.pan === '4000000000000424') return `chip · ${cvm}: approval with issuer scripts (results kept)`;
  if (c.pan === '5100000000000024') return `chip · ${cvm}: approval changes its offline PIN (result kept)`;
  return `chip · ${cvm}: approves (TC)`;
}

/**
 * The lane's devices for the core: native's device manager (discovery, reconnect, health, tests) over the
 * configured hardware, or over the sandbox's simulated devices, plus the frame recorder switch and the
 * views the bridge shows.
 */
export function createDeviceHost(options: {
  setup: DeviceSetup;
  dataDir: string;
  /** A stored configuration from the tech's screen, overriding the setup's (not for simulated setups). */
  stored: DeviceConfigView | null;
  recorderEnabled: boolean;
  manager?: Omit<DeviceManagerOptions, 'config' | 'simulated'>;
}): DeviceHost {
  const framesDir = join(options.dataDir, 'frames');
  const claims = createScanClaims();
  const toScanView = scanViews(claims);
  // The simulated chip cards keep their counters (ATC) in the data folder: a restarted sandbox terminal's
  // cards keep counting above what its gateway has seen, which declines a repeated counter as a replay.
  const simulated =
    options.setup.kind === 'simulated'
      ? createSimulatedDevices({
          chipAtcFile: join(options.dataDir, 'chip-atc.json'),
          ...options.setup.options,
        })
      : undefined;
  let base: LaneDeviceConfig =
    options.setup.kind === 'simulated'
      ? simulatedLaneConfig()
      : options.setup.kind === 'configured'
        ? options.setup.config
        : emptyLaneConfig();
  if (options.stored) {
    const v = validateLaneDeviceConfig(options.stored);
    // A stored configuration that no longer validates (e.g. written by a newer build) is ignored.
    if (
      v.ok &&
      (options.setup.kind !== 'simulated' ||
        Object.values(options.stored).some((c) => c.kind !== 'simulated'))
    )
      base = v.value;
  }
  let recording = options.recorderEnabled;
  const withRecorder = (c: LaneDeviceConfig): LaneDeviceConfig => {
    const { recordFramesTo: _drop, ...rest } = c;
    return recording ? { ...rest, recordFramesTo: framesDir } : rest;
  };
  const manager = createDeviceManager({
    ...options.manager,
    config: withRecorder(base),
    ...(simulated ? { simulated } : {}),
  });

  const connected = (role: DeviceRoleName): boolean => manager.statusOf(role).health.state === 'connected';

  /** The wedge settings of the configured scanner over the shared rule's defaults; null if no wedge. */
  const wedgeSettings = (): WedgeSettingsView | null => {
    const c = manager.config.scanner;
    if (c.kind === 'simulated') return wedgeScanSettings();
    if (c.kind !== 'wedge') return null;
    const { kind: _kind, ...stored } = c;
    return wedgeScanSettings(stored);
  };

  // The sandbox's simulated wedge scanner types into the core (it has no window to type into): its keys
  // go through the same timing rule a screen applies to a real wedge's, and only a scan reaches the driver.
  if (simulated) {
    const detector = new WedgeScanDetector(wedgeScanSettings());
    simulated.controls.onWedgeKeys((keys) => {
      for (const k of keys) {
        const step = detector.push(k.key, k.at);
        if (step.kind === 'scan') manager.scannerWedge()?.pushScan(step.data);
      }
    });
  }

  const readFrames = (limit: number): FrameView[] => {
    if (!existsSync(framesDir)) return [];
    const files = readdirSync(framesDir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({ f, at: statSync(join(framesDir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(0, 10);
    const frames: FrameView[] = [];
    for (const { f } of files) {
      const role = f.split('-')[0] as DeviceRoleName;
      try {
        const rec = parseRecording(readFileSync(join(framesDir, f), 'utf8'));
        const started = Date.parse(rec.header.startedAt);
        for (const fr of rec.frames) {
          frames.push({
            at: (Number.isFinite(started) ? started : 0) + fr.t,
            role,
            direction: fr.dir,
            length: fr.hex.length / 2,
            hex: fr.hex,
            ascii: Buffer.from(fr.hex, 'hex')
              .toString('latin1')
              .replace(/[^\x20-\x7e]/g, '.'),
          });
        }
      } catch {
        // A recording cut short by a crash: skip it rather than fail the whole view.
      }
    }
    return frames.sort((a, b) => a.at - b.at).slice(-limit);
  };

  const emptySim: SimulatorStateView = {
    available: false,
    unplugged: [],
    pinPad: { display: '', awaitingPin: false },
    contactless: { waitingForCard: false, beeps: 0 },
    chip: { waitingForCard: false, cardInserted: false },
    receiptPrinter: { paper: 'ok', coverOpen: false, drawerKicks: 0, receipts: [] },
    testCards: [],
  };

  return {
    async start() {
      await manager.start();
    },
    async simulatorScan(barcode, via) {
      if (!simulated) throw new BridgeFailure('unavailable', 'There is no simulated scanner here.');
      await simulated.controls.scan(barcode, via);
    },
    onScan: (listener) => manager.devices.scanner.onScan((scan) => listener(toScanView(scan))),
    wedgeScan(data) {
      const input = manager.scannerWedge();
      if (!input)
        throw new BridgeFailure('device', 'No keyboard-wedge scanner is connected: the scan was not taken.');
      let got: BarcodeScan | undefined;
      const off = manager.devices.scanner.onScan((scan) => {
        if (scan.source === 'wedge') got ??= scan;
      });
      try {
        // The driver reads a wedge scan as it arrives: the scan has been emitted when pushScan returns.
        input.pushScan(data);
      } finally {
        off();
      }
      if (!got) throw new BridgeFailure('device', 'The scanner did not take the scan.');
      return toScanView(got);
    },
    wedgeSettings,
    claimScan: (scanId) => claims.claim(scanId),
    async stop() {
      await manager.stop();
      await simulated?.stop();
    },
    devices: manager.devices,
    manager,
    simulated,
    connected,
    list: () => manager.status().map(toStatusView),
    onStatus: (listener) => manager.onStatus((s) => listener(toStatusView(s))),
    config: () => toConfigView(manager.config),
    async setConfig(config) {
      // A screen built before the scanner and pole display roles sends neither: they stay as they are.
      const { scanner, poleDisplay } = manager.config;
      const r = await manager.reconfigure(
        withRecorder({ scanner, poleDisplay, ...(config as Partial<LaneDeviceConfig>) } as LaneDeviceConfig),
      );
      if (!r.ok) throw new BridgeFailure('invalid', r.errors.join('; '), { problems: r.errors });
      return toConfigView(manager.config);
    },
    async discover() {
      const d = await manager.discover();
      return {
        devices: d.devices.map((x) => ({
          transport: x.transport,
          path: x.path,
          ...(x.vendorId !== undefined ? { vendorId: x.vendorId } : {}),
          ...(x.productId !== undefined ? { productId: x.productId } : {}),
          ...(x.manufacturer !== undefined ? { manufacturer: x.manufacturer } : {}),
          ...(x.product !== undefined ? { product: x.product } : {}),
          ...(x.guess ? { guess: x.guess } : {}),
          ...(x.suggestion ? { suggestion: x.suggestion } : {}),
        })),
        serialMethod: d.serial.method,
        ...(d.serial.note ? { serialNote: d.serial.note } : {}),
        hid: d.hid.available ? { available: true } : { available: false, reason: d.hid.reason },
      };
    },
    async reconnect(role) {
      await manager.reconnect(role);
      return toStatusView(manager.statusOf(role));
    },
    async test(t) {
      const r = await manager.runTest(t);
      return r.ok ? { ok: true, detail: r.detail } : { ok: false, detail: r.error };
    },
    recorder(limit) {
      return { enabled: recording, frames: readFrames(limit), ...(recording ? { file: framesDir } : {}) };
    },
    async setRecorder(enabled) {
      recording = enabled;
      const r = await manager.reconfigure(withRecorder(manager.config));
      if (!r.ok) throw new BridgeFailure('invalid', r.errors.join('; '));
      // The recorder wraps a stream when it opens: reopen every device so recording starts now.
      for (const role of DEVICE_ROLES) {
        if (manager.config[role].kind !== 'none') await manager.reconnect(role);
      }
      return { enabled: recording, frames: readFrames(50), ...(recording ? { file: framesDir } : {}) };
    },
    simulatorState() {
      if (!simulated) return emptySim;
      const s = simulated.controls.state();
      return {
        available: true,
        unplugged: s.unplugged,
        pinPad: s.pinPad,
        contactless: s.contactless,
        chip: s.chip,
        receiptPrinter: s.receiptPrinter,
        poleDisplay: s.poleDisplay,
        scanner: s.scanner,
        testBarcodes: TEST_BARCODES.map((b) => ({ symbology: b.symbology, data: b.data, note: b.note })),
        testCards: [
          ...TEST_CARDS.map((c) => ({
            pan: c.pan,
            maskedPan: maskPan(c.pan),
            brand: c.brand,
            note: cardNotes[c.outcome] ?? c.outcome,
            chip: false,
          })),
          ...CHIP_TEST_CARDS.map((c) => ({
            pan: c.pan,
            maskedPan: maskPan(c.pan),
            brand: c.brand,
            note: chipNote(c),
            chip: true,
          })),
        ],
      };
    },
  };
}
