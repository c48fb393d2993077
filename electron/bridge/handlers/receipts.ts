import { str } from './checks';
import type { CoreServices, HandlerSlice } from './services';

/** Receipts: on screen and printed. */
export function receiptHandlers(s: CoreServices) {
  const { engine } = s;
  return {
    'receipt.get': (p) =>
      engine.receipt(str(p.ticketId, 'ticketId', 64), p.copy === 'merchant' ? 'merchant' : 'customer'),
    'receipt.print': (p) =>
      engine.printById(str(p.ticketId, 'ticketId', 64), p.copy === 'merchant' ? 'merchant' : 'customer'),
    'receipt.reprintLast': () => engine.reprintLast(),
  } satisfies HandlerSlice<'receipt'>;
}
