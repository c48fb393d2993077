import type { ConnectionKind } from '../../common/bridge/contract';
import type { BridgeConnection } from '../bridge/connection';
import type { Catalog } from '../catalog/catalog';
import type { DeviceHost, DeviceSetup } from '../devices/device-host';
import type { DeviceManagerOptions } from '../../native/devices/device-manager';
import type { EmailReceiptsOptions } from '../email/email-receipts';
import type { GatewayTimeouts } from '../gateway-client/client';
import type { Journal } from '../journal/journal';
import type { GatewayDefaults } from '../settings';
import type { BackoffPolicy } from '../util/backoff';
import type { Clock, Timers } from '../util/clock';
import type { LogEntry, Logger } from '../util/log';

export const TERMINAL_VERSION = '0.1.0';

/** What a terminal core is built from: its data folder, the gateway's defaults, devices, clock and timers. */
export type TerminalCoreConfig = {
  /** Journal, key file, frames, lock: everything the lane keeps lives here. */
  dataDir: string;
  /** Default lane id until a tech sets one. */
  laneId?: string;
  gateway: GatewayDefaults;
  devices?: DeviceSetup;
  /** Sandbox mode: the simulator panel's commands are available. */
  sandbox?: boolean;
  merchantName?: string;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  reversalBackoff?: BackoffPolicy;
  /** While the gateway is offline, how often to probe it. Default 10 s. */
  probeMs?: number;
  /** Overrides of the money-moving/other timeouts (the fault suite shortens them). */
  timeouts?: Partial<GatewayTimeouts>;
  deviceManager?: Omit<DeviceManagerOptions, 'config' | 'simulated'>;
  /** Where log lines go besides the in-memory ring (already masked). */
  logSink?: (entry: LogEntry) => void;
  /** The emailed-receipt sender's pace (tests shorten it): backoff, deadline, SMTP timeouts. */
  email?: Pick<EmailReceiptsOptions, 'backoff' | 'giveUpAfterMs' | 'keepFailedMs' | 'timeouts' | 'idleMs'>;
  /** How long the customer display thanks, and waits for a receipt choice (tests shorten them). */
  customerDisplay?: { thanksMs?: number; receiptAskMs?: number };
};

/** A built terminal core: startable, stoppable, and reached through bridge connections. */
export type TerminalCore = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A connection of the bridge: a terminal screen or tool (default), or a customer display. */
  connect(kind?: ConnectionKind): BridgeConnection;
  /**
   * The loopback server that serves the screens hands in how it issues a customer display's launch
   * address (`customerDisplay.launch`); until then the command answers `unavailable`.
   */
  serveCustomerDisplay(issue: () => string): void;
  readonly dataDir: string;
  /** For tests and the fault suite: the journal as the core sees it. */
  readonly journal: Journal;
  /** For tests: the catalog as the core sees it. */
  readonly catalog: Catalog;
  /** Resolves once no reversal is pending (or false at the deadline). */
  reversalsDrained(timeoutMs: number): Promise<boolean>;
  readonly devices: DeviceHost;
  readonly log: Logger;
};
