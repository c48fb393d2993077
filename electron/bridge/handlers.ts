import { batchHandlers } from './handlers/batch';
import { cardServiceHandlers } from './handlers/card-services';
import { catalogHandlers } from './handlers/catalog';
import { customerHandlers } from './handlers/customer';
import { deviceHandlers } from './handlers/devices';
import { diagnosticsHandlers } from './handlers/diagnostics';
import { employeeHandlers } from './handlers/employees';
import { emailHandlers } from './handlers/email';
import { gatewayHandlers } from './handlers/gateway';
import { merchantHandlers } from './handlers/merchant';
import { receiptHandlers } from './handlers/receipts';
import { returnHandlers } from './handlers/returns';
import { reversalHandlers } from './handlers/reversals';
import { saleHandlers } from './handlers/sale';
import { scannerHandlers } from './handlers/scanner';
import type { CoreServices, Handlers } from './handlers/services';
import { sessionHandlers } from './handlers/session';
import { simulatorHandlers } from './handlers/simulator';
import { storeHandlers } from './handlers/store';
import { storeAndForwardHandlers } from './handlers/store-and-forward';
import { tillHandlers } from './handlers/till';
import { ticketHandlers } from './handlers/ticket';
import { transactionHandlers } from './handlers/transactions';

export type { CoreServices, Handlers } from './handlers/services';

/**
 * Every command's implementation, one file of handlers/ per domain, each held to its slice of the map;
 * `satisfies Handlers` here makes a command without a handler fail to compile.
 */
export function createHandlers(s: CoreServices): Handlers {
  return {
    ...sessionHandlers(s),
    ...employeeHandlers(s),
    ...saleHandlers(s),
    ...cardServiceHandlers(s),
    ...receiptHandlers(s),
    ...transactionHandlers(s),
    ...returnHandlers(s),
    ...batchHandlers(s),
    ...tillHandlers(s),
    ...merchantHandlers(s),
    ...storeAndForwardHandlers(s),
    ...reversalHandlers(s),
    ...gatewayHandlers(s),
    ...deviceHandlers(s),
    ...scannerHandlers(s),
    ...catalogHandlers(s),
    ...ticketHandlers(s),
    ...storeHandlers(s),
    ...diagnosticsHandlers(s),
    ...simulatorHandlers(s),
    ...emailHandlers(s),
    ...customerHandlers(s),
  } satisfies Handlers;
}
