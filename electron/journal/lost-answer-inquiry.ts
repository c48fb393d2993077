import type { SaleResponse } from '../../gateway/contract/card-sale';
import type { GatewayClient, GatewayResult } from '../gateway-client/client';
import type { Logger } from '../util/log';
import type { JournalRow } from './journal-store';

/**
 * The lost answer, first step: ask. A request left (its journal row committed first, journaled-call.ts)
 * and no answer came back; before anything is reversed the terminal asks the gateway what it recorded for
 * the number (GetTransaction) — the card networks' inquiry-then-reverse order. What the inquiry settles is
 * kept; the rest goes on to the reversal (reversal-worker.ts). After a crash the same question is asked
 * of the rows left `sending` (crash-inquiry.ts).
 */

/** What a tender passes to be asked about (the tenders whose lost answer can be looked up). */
export type InquiryOptions<R> = {
  /** What the gateway recorded for this number, when the answer was lost (see `inquireSale`). */
  inquire?: (utn: string) => Promise<GatewayResult<R> | undefined>;
  /** Told when the answer was lost and the inquiry starts (the cashier's screen says what it waits for). */
  onInquiry?: () => void;
};

// rule: lost-answer-inquiry
/**
 * The answer was lost while the cashier's ticket is open: ask before reversing. The row stays `sending`
 * meanwhile, so a crash now recovers it as unknown and reverses it, exactly as before; an answer the
 * inquiry cannot give leaves `result` as it was (unknown: the reversal path).
 */
export async function askAfterLostAnswer<R>(
  log: Logger,
  row: JournalRow,
  result: GatewayResult<R>,
  options: InquiryOptions<R>,
): Promise<GatewayResult<R>> {
  if (result.ok || result.failure.kind !== 'unknown-outcome' || !options.inquire) return result;
  options.onInquiry?.();
  const known = await options.inquire(row.utn).catch(() => undefined);
  if (!known) return result;
  log.log(
    'info',
    'sale',
    `${row.utn} ${row.operation}: answer lost (${result.failure.message}); GetTransaction says ${known.ok ? 'approved' : 'declined'}`,
  );
  return known;
}

/**
 * What the gateway recorded for a tender whose answer was lost: its approval (the ticket completes with
 * it: no second charge, no needless reversal) or its decline; anything else — not found, still at the
 * processor, voided, no answer to the inquiry either — is undefined and the tender takes today's path
 * (unknown, reversal queued; a reversal of a number that never arrived blocks it against a late original).
 */
export async function inquireSale(
  gateway: GatewayClient,
  utn: string,
): Promise<GatewayResult<SaleResponse> | undefined> {
  const r = await gateway.getTransaction(utn);
  if (r.ok) {
    return r.response.TransactionStatus === 'Approved'
      ? { ok: true, code: r.code, response: r.response, confirmedByInquiry: true }
      : undefined;
  }
  if (r.failure.kind === 'declined' && r.response?.TransactionStatus === 'Declined')
    return { ok: false, failure: r.failure, response: r.response, confirmedByInquiry: true };
  return undefined;
}
