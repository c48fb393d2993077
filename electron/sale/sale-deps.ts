import type { Events } from '../../common/bridge/contract';
import type { RoleApi } from '../../native/drivers/roles';
import type { GatewayClient } from '../gateway-client/client';
import type { Journal } from '../journal/journal-protocol';
import type { SettingsShape } from '../settings';
import type { StoreAndForward } from '../store-forward/saf';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';

/** What the sale engine and its tenders are given by the core (core.ts wires them). */
export type SaleEngineDeps = {
  journal: Journal;
  gateway: () => GatewayClient;
  devices: () => RoleApi | undefined;
  connected: (role: 'cardReader' | 'pinPad' | 'contactless' | 'signaturePad' | 'receiptPrinter') => boolean;
  settings: () => Readonly<SettingsShape>;
  clock: Clock;
  log: Logger;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  /** A new unknown outcome: the reversal worker should look now. */
  kickReversals: () => void;
  saf: StoreAndForward;
  /** Every answer (or its absence) tells the core whether the gateway is reachable. */
  gatewayReached: (reached: boolean, error?: string) => void;
  merchantName: () => string;
  /** A customer display is attached: the customer chooses the receipt, so their copy does not print by itself. */
  customerChoosesReceipt?: () => boolean;
};
