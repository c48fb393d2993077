import type { CustomerDisplayView } from './customer';
import type { DeviceStatusView } from './devices';
import type { EmailQueueView } from './email';
import type { GatewayStatusView } from './gateway';
import type { ReversalQueueView } from './reversals';
import type { SaleProgress, SaleSettingsView, TicketView } from './sale';
import type { ScanView } from './scanner';
import type { Session } from './session';
import type { SimulatorStateView } from './simulator';
import type { SafView } from './store-and-forward';
import type { TillStatusView } from './till';

export type Events = {
  'sale.progress': SaleProgress;
  'sale.updated': TicketView;
  'session.changed': Session | null;
  'devices.status': DeviceStatusView;
  'gateway.status': GatewayStatusView;
  'reversals.updated': ReversalQueueView;
  'saf.updated': SafView;
  'simulator.changed': SimulatorStateView;
  /** A ticket's receipt, or (`ticketId` '' and `userTransactionNumber`) a refund's or a void's. */
  'receipt.printed': { ticketId: string; printed: boolean; reason?: string; userTransactionNumber?: string };
  /** Every scan of the lane's scanner, refused ones included (`validated: false`). */
  'scanner.scanned': ScanView;
  /** A till opened, moved cash, left the drawer, was counted or signed off; a day closed. */
  'till.changed': TillStatusView;
  /** The emailed-receipt queue changed (queued, sent, retried, given up); addresses masked. */
  'email.updated': EmailQueueView;
  /** A manager saved the lane's sale settings (in any window): every sale screen takes them at once. */
  'sale.settings': SaleSettingsView;
  /** What the customer display shows changed (the only event a customer display receives). */
  'customer.updated': CustomerDisplayView;
};

export type EventName = keyof Events;
