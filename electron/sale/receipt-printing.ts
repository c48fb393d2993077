import type { ReceiptPrintResult, ReceiptView, TicketView } from '../bridge/contract';
import { buildReceipt, toPrinterReceipt } from './receipt';
import type { SaleEngineDeps } from './sale-deps';

type ReceiptDeps = Pick<
  SaleEngineDeps,
  'settings' | 'merchantName' | 'clock' | 'connected' | 'devices' | 'emit'
>;

export function receiptOf(deps: ReceiptDeps, t: TicketView, copy: 'customer' | 'merchant'): ReceiptView {
  const s = deps.settings();
  const store = s.store;
  return buildReceipt(
    t,
    copy,
    {
      merchantName: store.storeName.trim() || deps.merchantName(),
      laneId: s.laneId,
      mid: s.gateway.mid,
      addressLines: store.addressLines,
      phone: store.phone,
      returnPolicy: store.returnPolicy,
    },
    deps.clock.now(),
  );
}

/** Prints a receipt; without a printer (or when it fails) the answer carries the receipt to show on screen. */
export async function printReceipt(
  deps: ReceiptDeps,
  view: ReceiptView,
  ticketId: string,
  openDrawer: boolean,
): Promise<ReceiptPrintResult> {
  if (!deps.connected('receiptPrinter')) {
    deps.emit('receipt.printed', { ticketId, printed: false, reason: 'No printer connected' });
    return { printed: false, reason: 'No printer connected: show the receipt on screen.', receipt: view };
  }
  const printer = deps.devices()?.receiptPrinter;
  const r = printer
    ? await printer.print(toPrinterReceipt(view, openDrawer))
    : { ok: false as const, reason: 'offline' as const, message: 'printer not connected' };
  deps.emit('receipt.printed', { ticketId, printed: r.ok, ...(r.ok ? {} : { reason: r.message }) });
  return r.ok
    ? { printed: true }
    : { printed: false, reason: `The printer failed: ${r.message}`, receipt: view };
}
