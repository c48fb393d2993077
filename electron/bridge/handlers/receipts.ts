import type { CoreServices, HandlerSlice } from './services';

/** Receipts: on screen and printed. */
export function receiptHandlers(s: CoreServices) {
  const { engine } = s;
  return {
    'receipt.get': (p) => engine.receipt(p.ticketId, p.copy ?? 'customer'),
    'receipt.print': (p) => engine.printById(p.ticketId, p.copy ?? 'customer'),
    'receipt.reprintLast': () => engine.reprintLast(),
    'receipt.transaction.get': (p) =>
      engine.transactionReceipt(p.userTransactionNumber, p.copy ?? 'customer'),
    'receipt.transaction.print': (p) =>
      engine.printTransaction(p.userTransactionNumber, p.copy ?? 'customer'),
  } satisfies HandlerSlice<'receipt'>;
}
