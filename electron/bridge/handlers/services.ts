import type {
  AuditEntryView,
  CommandName,
  CommandPayload,
  CommandValue,
  DiagnosticsBundle,
  Events,
  GatewayTestResult,
  ReversalQueueView,
  Session,
  TerminalStatusView,
} from '../../../common/bridge/contract';
import type { CallContext } from '../connection';
import type { BatchClose } from '../../batch/batch-close';
import type { Catalog } from '../../catalog/catalog';
import type { TerminalCoreConfig } from '../../core/config';
import type { CustomerDisplay } from '../../customer/customer-display';
import type { DeviceHost } from '../../devices/device-host';
import type { EmailReceipts } from '../../email/email-receipts';
import type { EmailSettings } from '../../email/email-settings';
import type { GatewayClient } from '../../gateway-client/client';
import type { Journal } from '../../journal/journal-protocol';
import type { ReversalWorker } from '../../journal/reversal-worker';
import type { Actor, Roles } from '../../roles/roles';
import type { Returns } from '../../returns/returns';
import type { ItemizedSale } from '../../sale/itemized-sale';
import type { SaleEngine } from '../../sale/sale-engine';
import type { Settings } from '../../settings';
import type { StoreAndForward } from '../../store-forward/saf';
import type { Tills } from '../../till/tills';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/log';

/** What the command handlers work with: the parts the composition root (core/wiring.ts) built. */
export type CoreServices = {
  config: TerminalCoreConfig;
  settings: Settings;
  journal: Journal;
  client: GatewayClient;
  engine: SaleEngine;
  /** The ticket of lines (ticket.*), on the sale engine and the catalog. */
  itemized: ItemizedSale;
  catalog: Catalog;
  roles: Roles;
  devices: DeviceHost;
  reversals: ReversalWorker;
  saf: StoreAndForward;
  batchClose: BatchClose;
  tills: Tills;
  /** Returns from a receipt (returns.*). */
  returns: Returns;
  clock: Clock;
  log: Logger;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  audit: (who: Actor | 'system', action: string, detail: string, approvedBy?: Actor) => Promise<void>;
  auditList: (limit: number) => Promise<AuditEntryView[]>;
  testGateway: () => Promise<GatewayTestResult>;
  reversalView: () => Promise<ReversalQueueView>;
  status: (session: Session | null) => Promise<TerminalStatusView>;
  diagnostics: () => Promise<DiagnosticsBundle>;
  /** Emailed receipts: the store's mail server settings and the queue's sender. */
  email: { settings: EmailSettings; receipts: EmailReceipts };
  /** The customer's side: what the customer display shows and may answer. */
  customer: CustomerDisplay;
  /** A customer display's launch address, when the terminal serves one (its loopback server is up). */
  customerDisplayUrl: () => string | undefined;
};

export type Handler<K extends CommandName> = (
  payload: CommandPayload<K>,
  ctx: CallContext,
) => Promise<CommandValue<K>>;

/** Every command's implementation: the map the dispatcher calls into. */
export type Handlers = { [K in CommandName]: Handler<K> };

/** The commands of some domains (`sale` → every `sale.*`): what one file of handlers/ implements. */
export type HandlerSlice<Domain extends string> = Pick<Handlers, Extract<CommandName, `${Domain}.${string}`>>;
