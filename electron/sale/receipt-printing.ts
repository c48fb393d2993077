import { formatLocale, type Language } from '../../common/store-locale';
import type { ReceiptPrintResult, ReceiptView, TicketView } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { laneTimeZone } from '../store-time-zone';
import { buildReceipt, buildTransactionReceipt, toPrinterReceipt, type ReceiptHeader } from './receipt';
import type { SaleEngineDeps } from './sale-deps';
import { toTransactionView } from './transaction-view';

type ReceiptDeps = Pick<
  SaleEngineDeps,
  'settings' | 'merchantName' | 'clock' | 'connected' | 'devices' | 'emit'
>;

export function header(deps: ReceiptDeps): ReceiptHeader {
  const s = deps.settings();
  const store = s.store;
  // Until a manager names the store, its receipts carry the launcher's merchant name.
  return {
    merchantName: store.storeName.trim() || deps.merchantName(),
    laneId: s.laneId,
    mid: s.gateway.mid,
    addressLines: store.addressLines,
    phone: store.phone,
    returnPolicy: store.returnPolicy,
    timeZone: laneTimeZone(s),
    locale: s.locale.locale,
  };
}

/**
 * A ticket's receipt, in the store's language or in `language` (a customer's choice): then written the way
 * that language is in the United States unless it is the store's own (common/store-locale.ts formatLocale).
 */
export function receiptOf(
  deps: ReceiptDeps,
  t: TicketView,
  copy: 'customer' | 'merchant',
  language?: Language,
): ReceiptView {
  const h = header(deps);
  const written = language ? { ...h, locale: formatLocale(language, h.locale ?? 'en-US') } : h;
  return buildReceipt(t, copy, written, deps.clock.now());
}

/** A refund's or a void's receipt, by its UserTransactionNumber, with the payment it gave back. */
export async function transactionReceiptOf(
  deps: ReceiptDeps & Pick<SaleEngineDeps, 'journal'>,
  utn: string,
  copy: 'customer' | 'merchant',
): Promise<ReceiptView> {
  const row = await deps.journal.get(utn);
  if (!row || (row.operation !== 'refund' && row.operation !== 'void'))
    throw new BridgeFailure('not-found', 'No refund or void with that number on this lane.');
  const original = row.originalSrn ? await deps.journal.bySrn(row.originalSrn) : undefined;
  return buildTransactionReceipt(
    toTransactionView(row),
    original ? toTransactionView(original) : undefined,
    copy,
    header(deps),
  );
}

/** Which receipt a print is for, as the `receipt.printed` event names it. */
export type PrintedFor = { ticketId: string; userTransactionNumber?: string };

/** Prints a receipt; without a printer (or when it fails) the answer carries the receipt to show on screen. */
export async function printReceipt(
  deps: ReceiptDeps,
  view: ReceiptView,
  printedFor: PrintedFor,
  openDrawer: boolean,
): Promise<ReceiptPrintResult> {
  if (!deps.connected('receiptPrinter')) {
    deps.emit('receipt.printed', { ...printedFor, printed: false, reason: 'No printer connected' });
    return { printed: false, reason: 'No printer connected: show the receipt on screen.', receipt: view };
  }
  const printer = deps.devices()?.receiptPrinter;
  const r = printer
    ? await printer.print(toPrinterReceipt(view, openDrawer))
    : { ok: false as const, reason: 'offline' as const, message: 'printer not connected' };
  deps.emit('receipt.printed', { ...printedFor, printed: r.ok, ...(r.ok ? {} : { reason: r.message }) });
  return r.ok
    ? { printed: true }
    : { printed: false, reason: `The printer failed: ${r.message}`, receipt: view };
}
