import type {
  JournalOperation,
  TenderKind,
  TenderRequest,
  TenderView,
  TicketView,
} from '../../../common/bridge/contract';
import type { PinResult } from '../../../native/drivers/roles';
import type { NewEntry } from '../../journal/journal-store';
import type { AcquiredCard, AcquireOptions, AcquireResult, Prompt } from '../card-acquire';
import type { ChipSale } from '../chip-sale';
import type { JournaledSend } from '../../journal/journaled-call';
import type { SaleEngineDeps } from '../sale-deps';
import type { Split } from '../tender-amounts';

/**
 * One tender's flow (cash, check, card on file, credit/pre-authorization, PIN debit/EBT, gift): it reads
 * what it needs (card, PIN, check details), sends through the journaled call and writes its outcome onto
 * `ctx.view`. Bad input throws a BridgeFailure before anything is sent; the engine owns the ticket.
 */
export type TenderFlow<R extends TenderRequest> = (request: R, ctx: TenderContext) => Promise<void>;

/** The request of the tenders of kind `K`. */
export type TenderOf<K extends TenderKind> = Extract<TenderRequest, { kind: K }>;

/** What the sale engine hands a tender flow. */
export type TenderContext = {
  deps: SaleEngineDeps;
  ticket: TicketView;
  /** The tender the cashier sees; the flow sets its status, card, amounts and message. */
  view: TenderView;
  /** What this tender asks for, tip included (`view.requestedCents` when it started). */
  amountCents: number;
  split: Split;
  allowDuplicate: boolean;
  signal: AbortSignal;
  prompt: Prompt;
  /** The journal row's fields shared by every tender of this ticket. */
  entry(operation: JournalOperation, amountCents: number): Omit<NewEntry, 'now'>;
  journaled: JournaledSend;
  /** Reads a card with the lane's readers and settings (card-acquire.ts). */
  acquire(
    options: Pick<AcquireOptions, 'entry' | 'keyed' | 'amountCents' | 'otherAmountCents' | 'chip'>,
  ): Promise<AcquireResult>;
  /** The chip conversation of a card that went online, kept so the engine releases the card if the tender stops. */
  chipSale(card: AcquiredCard): ChipSale | undefined;
  pin(card: AcquiredCard, amountCents: number): Promise<PinResult>;
};

/** A tender that stopped before anything was sent: no card or PIN, cancelled, or a device failed. */
export function stopped(view: TenderView, why: 'cancelled' | 'timeout' | 'failed', reason?: string): void {
  view.status = 'cancelled';
  view.message =
    why === 'cancelled'
      ? 'Cancelled.'
      : why === 'timeout'
        ? 'No card or PIN in time: try again.'
        : `The device failed: ${reason ?? 'try again'}.`;
}

/** A card read or PIN entry that did not end with a card or a PIN, onto the tender. */
export function stoppedBy(
  view: TenderView,
  r: { kind: 'cancelled' | 'timeout' } | { kind: 'failed'; reason: string },
): void {
  stopped(view, r.kind, r.kind === 'failed' ? r.reason : undefined);
}
