import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeResult,
  BusinessSettingsView,
  ManagerApproval,
  ReceiptView,
  SaleOutcome,
  SaleProgress,
  SignatureInput,
  TenderRequest,
  TicketView,
  TransactionView,
} from '../../../electron/bridge/contract';
import { amountNeedsConfirmation, DEFAULT_CONFIRM_ABOVE_CENTS } from '../../../common/amount-ceiling';
import { keypadOverflows, popDigit, pushDigit, taxOf } from '../format/money';
import { describeError } from './app-store';

/** Tenders that need more input from the cashier before the device or gateway is asked. */
export type TenderForm = 'cash' | 'keyed' | 'gift' | 'check' | 'debit' | 'ebt';

/**
 * - `entry`: the amount keypad and the tender choice.
 * - `form`: a tender needs input first (cash handed over, keyed card, cash back, EBT program…).
 * - `paying`: the devices and the gateway are working; prompts follow `sale.progress`.
 * - `result`: the last tender did not finish the ticket (declined, partial, cancelled, unknown, offline):
 *   its outcome, and the choice of the next tender for what remains.
 * - `signature`: the approved tender needs the customer's signature.
 * - `done`: the ticket is paid: the outcome and the receipt.
 */
export type SalePhase = 'entry' | 'form' | 'paying' | 'result' | 'signature' | 'done';

export type SaleSettings = Pick<
  BusinessSettingsView,
  'taxRatePercent' | 'tipPrompt' | 'tipPresetsPercent' | 'confirmAboveCents'
>;

/** The tender a cashier chose, held while a large amount is confirmed. */
export type PendingTender = 'credit' | 'preauth' | TenderForm;

export type ReversalWatch = { utn: string; state: 'reversing' | 'reversed' | 'failed'; message?: string };

export type SaleState = {
  phase: SalePhase;
  form: TenderForm | null;
  subtotalCents: number;
  tipCents: number;
  settings: SaleSettings | null;
  ticket: TicketView | null;
  progress: SaleProgress | null;
  outcome: SaleOutcome | null;
  error: string | null;
  receipt: ReceiptView | null;
  receiptNote: string | null;
  reversal: ReversalWatch | null;
  /** performance.now() when the tender left for the core (the e2e run reads the screen, not this). */
  payStartedAt: number | null;
  /** The tender request of the last attempt, for "Charge again" after a duplicate refusal. */
  lastTender: TenderRequest | null;
  /**
   * The keypad overflowed (a ninth digit: a barcode scanner, not a hand): every key is swallowed until
   * Enter, Esc, Backspace or Delete ends the burst, so the scan's last digits and its Enter start nothing.
   */
  scanGuard: boolean;
  /** A tender chosen for an amount above the lane's ceiling, waiting for the cashier's confirmation. */
  confirming: PendingTender | null;
  /** The subtotal the cashier confirmed above the ceiling (a changed amount asks again). */
  confirmedCents: number | null;
  /** The ticket is being opened with the amount typed: keys typed meanwhile must not change it. */
  opening: boolean;

  init(): () => void;
  loadSettings(): Promise<void>;
  restore(ticketId: string): Promise<void>;
  digit(d: string): void;
  backspace(): void;
  clearAmount(): void;
  setSubtotal(cents: number): void;
  setTip(cents: number): void;
  /** Ends a swallowed scanner burst (Enter, Esc, Backspace, Delete). */
  endScan(): void;
  /** What the customer would pay for the amount typed (tax and tip by the core's rules), or the ticket's. */
  toPayCents(): number;
  /**
   * True (and the confirmation asked) when `tender` may not start yet: the amount is above the lane's
   * ceiling and the cashier has not confirmed it.
   */
  holdForConfirmation(tender: PendingTender): boolean;
  /** The cashier confirmed the large amount: answers the tender that waited for it. */
  confirmAmount(): PendingTender | null;
  /** The cashier went back to the amount. */
  cancelConfirmation(): void;
  /** Opens the ticket (if not yet) so the form shows the core's own total, then shows the form. */
  chooseForm(form: TenderForm): Promise<void>;
  /** Back to the keypad with the same amount: an empty ticket is given up (nothing was taken on it). */
  editAmount(): Promise<void>;
  closeForm(): void;
  pay(tender: TenderRequest, options?: { allowDuplicate?: boolean }): Promise<void>;
  cancel(): Promise<void>;
  signature(input: SignatureInput): Promise<boolean>;
  /** Gives up the ticket (approved tenders are reversed by the core); starts a new sale on success. */
  abandon(approval: ManagerApproval | undefined): Promise<BridgeResult<TicketView | null>>;
  showReceipt(): Promise<void>;
  printReceipt(): Promise<void>;
  reprintLast(): Promise<void>;
  /** Prints an earlier ticket's receipt (from today's transactions); shown on screen when it cannot print. */
  printFor(ticketId: string): Promise<void>;
  /** A refund's or a void's receipt, printed (or shown when it cannot print) or shown. */
  printTransactionReceipt(userTransactionNumber: string): Promise<void>;
  showTransactionReceipt(userTransactionNumber: string): Promise<void>;
  hideReceipt(): void;
  newSale(): void;
};

export type SaleStore = StoreApi<SaleState>;

const fresh = {
  phase: 'entry' as SalePhase,
  form: null,
  subtotalCents: 0,
  tipCents: 0,
  ticket: null,
  progress: null,
  outcome: null,
  error: null,
  receipt: null,
  receiptNote: null,
  reversal: null,
  payStartedAt: null,
  lastTender: null,
  scanGuard: false,
  confirming: null,
  confirmedCents: null,
  opening: false,
};

/** How long the screen follows an unknown outcome's reversal before leaving it to the queue view. */
const REVERSAL_WATCH_MS = 120_000;

export function createSaleStore(bridge: Bridge, now: () => number = () => performance.now()): SaleStore {
  return createStore<SaleState>()((set, get) => {
    let reversalTimer: ReturnType<typeof setTimeout> | undefined;

    const checkReversal = async (): Promise<void> => {
      const watch = get().reversal;
      if (!watch || watch.state !== 'reversing') return;
      const r = await bridge.send('transactions.list', { limit: 200 });
      if (!r.ok) return;
      const row: TransactionView | undefined = r.value.find((t) => t.userTransactionNumber === watch.utn);
      if (!row) return;
      if (row.state === 'reversed' || row.state === 'voided')
        set({
          reversal: { utn: watch.utn, state: 'reversed', message: 'Reversed: the customer is not charged.' },
        });
      else if (row.state === 'failed')
        set({
          reversal: { utn: watch.utn, state: 'failed', ...(row.message ? { message: row.message } : {}) },
        });
    };

    const watchReversal = (utn: string): void => {
      set({ reversal: { utn, state: 'reversing' } });
      const started = Date.now();
      const tick = (): void => {
        reversalTimer = undefined;
        void checkReversal().then(() => {
          const w = get().reversal;
          if (w?.utn === utn && w.state === 'reversing' && Date.now() - started < REVERSAL_WATCH_MS)
            reversalTimer = setTimeout(tick, 1000);
        });
      };
      tick();
    };

    const ensureTicket = async (): Promise<TicketView | null> => {
      const s = get();
      if (s.ticket) return s.ticket;
      if (s.opening) return null; // a second key while the first opens the ticket
      if (s.subtotalCents <= 0) {
        set({ error: 'Enter the amount first.' });
        return null;
      }
      // Tax is left to the core (the merchant's rate, its rounding): the screen then shows the ticket's.
      set({ opening: true });
      const opened = await bridge.send('sale.open', {
        subtotalCents: s.subtotalCents,
        ...(s.tipCents > 0 ? { tipCents: s.tipCents } : {}),
      });
      if (!opened.ok) {
        set({ opening: false, error: describeError(opened.error) });
        return null;
      }
      set({ ticket: opened.value, opening: false });
      return opened.value;
    };

    const afterOutcome = (outcome: SaleOutcome): void => {
      const t = outcome.tender;
      const base = { outcome, ticket: outcome.ticket, progress: null, form: null, error: null };
      if (outcome.signatureRequired) set({ ...base, phase: 'signature' });
      else if (outcome.ticket.status === 'paid') set({ ...base, phase: 'done' });
      else set({ ...base, phase: 'result' });
      // A lost answer and an approval the card refused are both being reversed: follow it to the end.
      if ((t.status === 'unknown' || t.cardRefusal) && t.userTransactionNumber)
        watchReversal(t.userTransactionNumber);
    };

    return {
      ...fresh,
      settings: null,

      init() {
        const offs = [
          bridge.on('sale.progress', (p) => {
            const ticket = get().ticket;
            // Progress without a ticket id belongs to balance checks outside a ticket.
            if (get().phase !== 'paying' || (ticket && p.ticketId && p.ticketId !== ticket.ticketId)) return;
            set({ progress: p });
          }),
          bridge.on('sale.updated', (t) => {
            if (get().ticket?.ticketId === t.ticketId) set({ ticket: t });
          }),
          bridge.on('receipt.printed', (r) => {
            if (get().ticket?.ticketId !== r.ticketId) return;
            set({
              receiptNote: r.printed
                ? 'Receipt printed.'
                : `Not printed: ${r.reason ?? 'printer unavailable'}.`,
            });
          }),
          bridge.on('reversals.updated', () => {
            void checkReversal();
          }),
        ];
        void get().loadSettings();
        return () => {
          for (const off of offs) off();
          if (reversalTimer) clearTimeout(reversalTimer);
        };
      },

      async loadSettings() {
        const r = await bridge.send('business.get', {});
        if (r.ok)
          set({
            settings: {
              taxRatePercent: r.value.taxRatePercent,
              tipPrompt: r.value.tipPrompt,
              tipPresetsPercent: r.value.tipPresetsPercent,
              ...(r.value.confirmAboveCents !== undefined
                ? { confirmAboveCents: r.value.confirmAboveCents }
                : {}),
            },
          });
      },

      async restore(ticketId) {
        const r = await bridge.send('sale.get', { ticketId });
        if (!r.ok || r.value.status !== 'open') return;
        const ticket = r.value;
        set({ ...fresh, ticket, subtotalCents: ticket.subtotalCents, tipCents: ticket.tipCents });
        // Pick up where the lane stopped: a signature still owed, or the last tender's outcome.
        const unsigned = ticket.tenders.find((t) => t.signature?.required && !t.signature.captured);
        const last = unsigned ?? ticket.tenders[ticket.tenders.length - 1];
        if (!last) return;
        afterOutcome({
          ticket,
          tender: last,
          needsAnotherTender: ticket.remainingCents > 0,
          signatureRequired: unsigned !== undefined,
        });
      },

      digit(d) {
        const s = get();
        if (s.phase !== 'entry' || s.ticket || s.opening || s.scanGuard) return;
        if (keypadOverflows(s.subtotalCents, d)) {
          // A ninth digit is a scanner's, not a hand's: the amount it made is no amount at all.
          set({
            subtotalCents: 0,
            tipCents: 0,
            confirmedCents: null,
            scanGuard: true,
            error:
              'That looks like a barcode scan, not an amount (more than eight digits): the amount is cleared. Type the amount.',
          });
          return;
        }
        set({ subtotalCents: pushDigit(s.subtotalCents, d), error: null });
      },
      backspace() {
        if (get().phase !== 'entry' || get().ticket || get().opening) return;
        if (get().scanGuard) return get().endScan();
        set({ subtotalCents: popDigit(get().subtotalCents) });
      },
      clearAmount() {
        if (get().phase !== 'entry' || get().ticket || get().opening) return;
        set({ subtotalCents: 0, tipCents: 0, error: null, scanGuard: false });
      },
      endScan() {
        set({ scanGuard: false });
      },
      toPayCents() {
        const s = get();
        if (s.ticket) return s.ticket.remainingCents;
        return s.subtotalCents + taxOf(s.subtotalCents, s.settings?.taxRatePercent ?? 0) + s.tipCents;
      },
      holdForConfirmation(tender) {
        const s = get();
        if (s.ticket || s.confirmedCents === s.subtotalCents) return false;
        const ceiling = s.settings?.confirmAboveCents ?? DEFAULT_CONFIRM_ABOVE_CENTS;
        if (!amountNeedsConfirmation(s.toPayCents(), ceiling)) return false;
        set({ confirming: tender });
        return true;
      },
      confirmAmount() {
        const pending = get().confirming;
        set({ confirming: null, confirmedCents: get().subtotalCents });
        return pending;
      },
      cancelConfirmation() {
        set({ confirming: null });
      },
      setSubtotal(cents) {
        if (get().ticket) return;
        set({ subtotalCents: cents });
      },
      setTip(cents) {
        if (get().ticket) return;
        set({ tipCents: cents });
      },

      async chooseForm(form) {
        const ticket = await ensureTicket();
        if (ticket) set({ phase: 'form', form, error: null });
      },

      async editAmount() {
        const ticket = get().ticket;
        if (!ticket || ticket.tenders.some((t) => t.status !== 'declined' && t.status !== 'cancelled'))
          return;
        const r = await bridge.send('sale.abandon', { ticketId: ticket.ticketId });
        if (!r.ok) {
          set({ error: describeError(r.error) });
          return;
        }
        set({ ...fresh, subtotalCents: ticket.subtotalCents, tipCents: ticket.tipCents });
      },
      closeForm() {
        const s = get();
        set({ phase: s.ticket && s.outcome ? 'result' : 'entry', form: null });
      },

      async pay(tender, options = {}) {
        if (get().phase === 'paying') return;
        const ticket = await ensureTicket();
        if (!ticket) return;
        set({
          phase: 'paying',
          progress: null,
          error: null,
          lastTender: tender,
          payStartedAt: now(),
          reversal: null,
        });
        const r = await bridge.send('sale.pay', {
          ticketId: ticket.ticketId,
          tender,
          ...(options.allowDuplicate ? { allowDuplicate: true } : {}),
        });
        if (!r.ok) {
          // Refused before any tender ran (busy, device missing, invalid): back to the choice, with why.
          const back = get().outcome ? 'result' : 'entry';
          set({ phase: back, progress: null, error: describeError(r.error) });
          const t = await bridge.send('sale.get', { ticketId: ticket.ticketId });
          if (t.ok) set({ ticket: t.value });
          return;
        }
        afterOutcome(r.value);
      },

      async cancel() {
        const ticket = get().ticket;
        if (!ticket || get().phase !== 'paying') return;
        // The core stops the device wait; `pay` then resolves with a cancelled tender.
        const r = await bridge.send('sale.cancel', { ticketId: ticket.ticketId });
        if (!r.ok) set({ error: describeError(r.error) });
      },

      async signature(input) {
        const { ticket, outcome } = get();
        if (!ticket || !outcome) return false;
        const r = await bridge.send('sale.signature', {
          ticketId: ticket.ticketId,
          tenderId: outcome.tender.tenderId,
          signature: input,
        });
        if (!r.ok) {
          set({ error: describeError(r.error) });
          return false;
        }
        const t = await bridge.send('sale.get', { ticketId: ticket.ticketId });
        const updated = t.ok ? t.value : ticket;
        set({
          ticket: updated,
          outcome: { ...outcome, tender: r.value, ticket: updated, signatureRequired: false },
          error: null,
          phase: updated.status === 'paid' ? 'done' : 'result',
        });
        return true;
      },

      async abandon(approval) {
        const ticket = get().ticket;
        if (!ticket) {
          get().newSale();
          return { ok: true, value: null };
        }
        const r = await bridge.send('sale.abandon', {
          ticketId: ticket.ticketId,
          ...(approval ? { approval } : {}),
        });
        if (r.ok) get().newSale();
        else if (r.error.code !== 'forbidden') set({ error: describeError(r.error) });
        return r;
      },

      async showReceipt() {
        const ticket = get().ticket;
        if (!ticket) return;
        const r = await bridge.send('receipt.get', { ticketId: ticket.ticketId, copy: 'customer' });
        if (r.ok) set({ receipt: r.value });
        else set({ error: describeError(r.error) });
      },

      async printReceipt() {
        const ticket = get().ticket;
        if (!ticket) return;
        const r = await bridge.send('receipt.print', { ticketId: ticket.ticketId, copy: 'customer' });
        if (!r.ok) set({ error: describeError(r.error) });
        else if (r.value.printed) set({ receiptNote: 'Receipt printed.' });
        else
          set({
            receiptNote: `Not printed: ${r.value.reason}. Showing it on screen.`,
            receipt: r.value.receipt,
          });
      },

      async reprintLast() {
        const r = await bridge.send('receipt.reprintLast', {});
        if (!r.ok) set({ error: describeError(r.error) });
        else if (r.value.printed) set({ receiptNote: 'Last receipt printed again.' });
        else
          set({
            receiptNote: `Not printed: ${r.value.reason}. Showing it on screen.`,
            receipt: r.value.receipt,
          });
      },

      async printFor(ticketId) {
        const r = await bridge.send('receipt.print', { ticketId, copy: 'customer' });
        if (!r.ok) set({ receiptNote: `Could not print: ${describeError(r.error)}` });
        else if (r.value.printed) set({ receiptNote: 'Receipt printed.' });
        else
          set({
            receiptNote: `Not printed: ${r.value.reason}. Showing it on screen.`,
            receipt: r.value.receipt,
          });
      },

      async printTransactionReceipt(userTransactionNumber) {
        const r = await bridge.send('receipt.transaction.print', { userTransactionNumber, copy: 'customer' });
        if (!r.ok) set({ receiptNote: `Could not print: ${describeError(r.error)}` });
        else if (r.value.printed) set({ receiptNote: 'Receipt printed.' });
        else
          set({
            receiptNote: `Not printed: ${r.value.reason}. Showing it on screen.`,
            receipt: r.value.receipt,
          });
      },

      async showTransactionReceipt(userTransactionNumber) {
        const r = await bridge.send('receipt.transaction.get', { userTransactionNumber, copy: 'customer' });
        if (r.ok) set({ receipt: r.value });
        else set({ receiptNote: `Could not show the receipt: ${describeError(r.error)}` });
      },

      hideReceipt() {
        set({ receipt: null });
      },

      newSale() {
        if (reversalTimer) clearTimeout(reversalTimer);
        reversalTimer = undefined;
        set({ ...fresh });
      },
    };
  });
}
