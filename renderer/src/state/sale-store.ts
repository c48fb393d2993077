import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeResult,
  BusinessSettingsView,
  CustomerDisplayView,
  LiveTenderView,
  ManagerApproval,
  ReceiptView,
  SaleOutcome,
  SaleProgress,
  SignatureInput,
  TenderRequest,
  TenderView,
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
 * - `tip`: the customer chooses the tip on the customer display; the cashier waits (Skip, Cancel).
 * - `paying`: the devices and the gateway are working; prompts follow `sale.progress`.
 * - `result`: the last tender did not finish the ticket (declined, partial, cancelled, unknown, offline):
 *   its outcome, and the choice of the next tender for what remains.
 * - `signature`: the approved tender needs the customer's signature.
 * - `done`: the ticket is paid: the outcome and the receipt.
 */
export type SalePhase = 'entry' | 'form' | 'tip' | 'paying' | 'result' | 'signature' | 'done';

export type SaleSettings = Pick<
  BusinessSettingsView,
  'taxRatePercent' | 'tipPrompt' | 'tipPresetsPercent' | 'confirmAboveCents'
>;

/** The tender a cashier chose, held while a large amount is confirmed. */
export type PendingTender = 'credit' | 'preauth' | TenderForm;

export type ReversalWatch = {
  utn: string;
  state: 'reversing' | 'reversed' | 'failed';
  message?: string;
  /** Attempts the reversal worker made so far, and why the last one did not go through. */
  attempts?: number;
  lastError?: string;
};

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
  /** What the customer display shows (its tip question, the customer's choices), while one is attached. */
  customer: CustomerDisplayView | null;

  init(): () => void;
  loadSettings(): Promise<void>;
  /**
   * Shows what the lane is doing now: the tender the core is running (any window's), else the lane's open
   * ticket, else the ticket this window showed before it reloaded (its outcome, if it finished meanwhile).
   */
  attach(openTicketId?: string, recoveredTicketId?: string): Promise<void>;
  /** Shows a ticket where it stands; a closed one only when `finished` allows it (it was on screen). */
  restore(ticketId: string, finished?: boolean): Promise<void>;
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
  /** True when the customer chooses the tip on the customer display (tips on, a display attached). */
  tipFromCustomer(): boolean;
  /** The cashier ends the customer's tip question: `skip` pays with no tip, `cancel` goes back. */
  endTipAsk(action: 'skip' | 'cancel'): Promise<void>;
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

/**
 * Where a window keeps the ticket it shows, across a reload (the tab's sessionStorage): a tender that
 * finished while the window reloaded, or while nobody was signed in, still shows its outcome.
 */
export type TicketMemory = { get(): string | null; set(ticketId: string | null): void };

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

/** The outcome a window that did not start the tender reads from the ticket (`sale.updated`, a restore). */
function outcomeOf(ticket: TicketView, tender: TenderView): SaleOutcome {
  const signatureRequired = tender.signature?.required === true && !tender.signature.captured;
  return {
    ticket,
    tender,
    needsAnotherTender: ticket.status === 'open' && ticket.remainingCents > 0,
    signatureRequired,
  };
}

/**
 * The ticket is saved once with the tender's outcome and once more when it closes as paid: the first,
 * with nothing left to pay and no signature owed, is not yet where the screen should land.
 */
function aboutToClose(ticket: TicketView, tender: TenderView): boolean {
  return (
    ticket.status === 'open' &&
    ticket.remainingCents === 0 &&
    !(tender.signature?.required === true && !tender.signature.captured)
  );
}

export function createSaleStore(
  bridge: Bridge,
  now: () => number = () => performance.now(),
  memory?: TicketMemory,
): SaleStore {
  const store = createStore<SaleState>()((set, get) => {
    let reversalTimer: ReturnType<typeof setTimeout> | undefined;
    /** This window's own calls in flight (pay, signature): their answers move the screen, not the events. */
    let own = 0;
    /** The tender this window follows without having started it (a reload, a second window). */
    let followed: string | null = null;
    /** A ticket whose tender runs elsewhere and is not a sale (a gift card load on its own screen). */
    let notOurs: string | null = null;
    let attaching: Promise<void> | undefined;

    const mine = async <T>(call: () => Promise<T>): Promise<T> => {
      own += 1;
      try {
        return await call();
      } finally {
        own -= 1;
      }
    };

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
        // The customer chooses the tip on the customer display: none goes with the ticket from here.
        ...(s.tipCents > 0 && !get().tipFromCustomer() ? { tipCents: s.tipCents } : {}),
      });
      if (!opened.ok) {
        set({ opening: false, error: describeError(opened.error) });
        return null;
      }
      set({ ticket: opened.value, opening: false });
      return opened.value;
    };

    const follow = (live: LiveTenderView): void => {
      const t = live.ticket;
      if (followed === live.tenderId && get().phase === 'paying') {
        if (live.progress) set({ progress: live.progress, ticket: t });
        return;
      }
      if (reversalTimer) clearTimeout(reversalTimer);
      reversalTimer = undefined;
      followed = live.tenderId;
      set({
        ...fresh,
        ticket: t,
        subtotalCents: t.subtotalCents,
        tipCents: t.tipCents,
        phase: 'paying',
        progress: live.progress,
      });
    };

    /** A `sale.updated` of the ticket on screen that this window's own call did not cause. */
    const followTicket = (t: TicketView): void => {
      const s = get();
      if (t.status === 'abandoned') {
        // Given up in another window: this one starts over too.
        get().newSale();
        return;
      }
      if (s.phase === 'paying') {
        const tender = t.tenders.find((x) => x.tenderId === followed);
        if (!tender || tender.status === 'in-progress' || aboutToClose(t, tender)) return;
        followed = null;
        afterOutcome(outcomeOf(t, tender));
        return;
      }
      if ((s.phase === 'signature' || s.phase === 'result') && s.outcome) {
        const tender = t.tenders.find((x) => x.tenderId === s.outcome?.tender.tenderId);
        if (!tender || aboutToClose(t, tender)) return;
        const signed = s.phase === 'signature' && tender.signature?.captured === true;
        if (signed || t.status === 'paid')
          set({
            outcome: { ...s.outcome, tender, ticket: t, signatureRequired: false },
            phase: t.status === 'paid' ? 'done' : 'result',
            error: null,
          });
      }
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

    /**
     * Card tenders ask the customer for the tip first when the customer chooses it: resolves false when the
     * cashier cancelled the question (the screen goes back), true to go on paying.
     */
    const askCustomerTip = async (ticket: TicketView, tender: TenderRequest): Promise<boolean> => {
      if (tender.kind !== 'credit' && tender.kind !== 'debit') return true;
      if (
        !get().tipFromCustomer() ||
        ticket.tenders.some((t) => t.status === 'approved' || t.status === 'partial')
      )
        return true;
      const back = get().outcome ? 'result' : 'entry';
      set({ phase: 'tip', error: null });
      const r = await mine(() => bridge.send('customerDisplay.askTip', { ticketId: ticket.ticketId }));
      if (!r.ok) {
        // The display went away meanwhile: the tip stays as it is and the sale goes on.
        if (r.error.code === 'unavailable') return true;
        set({ phase: back, error: describeError(r.error) });
        return false;
      }
      set({ ticket: r.value.ticket });
      if (r.value.outcome === 'cancelled') {
        set({ phase: back });
        return false;
      }
      return true;
    };

    /** The customer display's view arrived: a tip question for the ticket on screen is waited for here too. */
    const takeCustomer = (v: CustomerDisplayView): void => {
      const now = get().customer;
      if (now && v.version < now.version) return;
      set({ customer: v });
      const s = get();
      if (v.ask?.kind === 'tip' && v.ask.ticketId === s.ticket?.ticketId && s.phase === 'entry' && own === 0)
        set({ phase: 'tip' });
    };

    return {
      ...fresh,
      settings: null,
      customer: null,

      init() {
        const offs = [
          bridge.on('sale.progress', (p) => {
            // Progress without a ticket id belongs to balance checks outside a ticket.
            if (p.ticketId === '' || p.ticketId === notOurs) return;
            const { phase, ticket } = get();
            if (phase === 'paying') {
              if (!ticket || p.ticketId === ticket.ticketId) set({ progress: p });
              return;
            }
            // A tender this window does not show (another window's, or from before a reload): follow it.
            if (own === 0 && p.step !== 'done' && p.step !== 'signature') void get().attach();
          }),
          bridge.on('sale.updated', (t) => {
            if (get().ticket?.ticketId !== t.ticketId) return;
            set({ ticket: t });
            if (own === 0) followTicket(t);
          }),
          bridge.on('customer.updated', (v) => {
            takeCustomer(v);
            // Another window (or this one before a reload) asked: once the customer answered, back to the
            // tender choice with the tip on the ticket.
            const s = get();
            if (s.phase === 'tip' && own === 0 && v.ask?.kind !== 'tip') {
              set({ phase: s.outcome ? 'result' : 'entry' });
              if (s.ticket) void get().restore(s.ticket.ticketId);
            }
          }),
          bridge.on('receipt.printed', (r) => {
            if (get().ticket?.ticketId !== r.ticketId) return;
            set({
              receiptNote: r.printed
                ? 'Receipt printed.'
                : `Not printed: ${r.reason ?? 'printer unavailable'}.`,
            });
          }),
          bridge.on('reversals.updated', (queue) => {
            const watch = get().reversal;
            const item = queue.items.find((i) => i.userTransactionNumber === watch?.utn);
            if (watch?.state === 'reversing' && item)
              set({
                reversal: {
                  ...watch,
                  attempts: item.attempts,
                  ...(item.lastError ? { lastError: item.lastError } : {}),
                },
              });
            void checkReversal();
          }),
        ];
        void get().loadSettings();
        void bridge.send('customerDisplay.get', {}).then((r) => {
          if (r.ok) takeCustomer(r.value);
        });
        return () => {
          for (const off of offs) off();
          if (reversalTimer) clearTimeout(reversalTimer);
        };
      },

      async loadSettings() {
        // The customer display's state is read once someone may see it (the core refuses before sign-in).
        void bridge.send('customerDisplay.get', {}).then((c) => {
          if (c.ok) takeCustomer(c.value);
        });
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

      attach(openTicketId, recoveredTicketId) {
        if (attaching) return attaching;
        attaching = (async () => {
          if (own > 0) return;
          const live = await bridge.send('sale.live', {});
          if (!live.ok || own > 0) return;
          if (live.value) {
            if (live.value.ticket.purpose === 'gift-reload') notOurs = live.value.ticket.ticketId;
            else return follow(live.value);
          }
          if (get().ticket) return;
          // The restart closed the lane's sale (its approval confirmed after the stop), or this window
          // showed a ticket before it reloaded: its outcome, so nobody charges the customer again. The
          // status read at sign-in may still name as open a ticket that has just been paid.
          const remembered = memory?.get() ?? null;
          const id = openTicketId ?? recoveredTicketId ?? remembered;
          if (id) await get().restore(id, id === remembered || id === recoveredTicketId);
          // The customer is still choosing the tip this window asked for before it reloaded.
          const seen = get().customer;
          if (seen) takeCustomer(seen);
        })().finally(() => {
          attaching = undefined;
        });
        return attaching;
      },

      async restore(ticketId, finished = false) {
        const r = await bridge.send('sale.get', { ticketId });
        if (!r.ok) return;
        const ticket = r.value;
        const shown = ticket.status === 'paid' && finished;
        if (ticket.status !== 'open' && !shown) {
          if (memory?.get() === ticketId) memory.set(null);
          return;
        }
        set({ ...fresh, ticket, subtotalCents: ticket.subtotalCents, tipCents: ticket.tipCents });
        // Pick up where the lane stopped: a signature still owed, or the last tender's outcome.
        const unsigned = ticket.tenders.find((t) => t.signature?.required && !t.signature.captured);
        const last = unsigned ?? ticket.tenders[ticket.tenders.length - 1];
        if (!last) return;
        afterOutcome(outcomeOf(ticket, last));
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

      tipFromCustomer() {
        const s = get();
        return s.settings?.tipPrompt === true && (s.customer?.displays ?? 0) > 0;
      },

      async endTipAsk(action) {
        const ticket = get().ticket;
        if (!ticket) return;
        const r = await bridge.send('customerDisplay.endTipAsk', { ticketId: ticket.ticketId, action });
        if (!r.ok) set({ error: describeError(r.error) });
      },

      async pay(tender, options = {}) {
        if (get().phase === 'paying' || get().phase === 'tip') return;
        const opened = await ensureTicket();
        if (!opened) return;
        if (!(await askCustomerTip(opened, tender))) return;
        const ticket = get().ticket ?? opened;
        set({
          phase: 'paying',
          progress: null,
          error: null,
          lastTender: tender,
          payStartedAt: now(),
          reversal: null,
        });
        followed = null;
        const r = await mine(() =>
          bridge.send('sale.pay', {
            ticketId: ticket.ticketId,
            tender,
            ...(options.allowDuplicate ? { allowDuplicate: true } : {}),
          }),
        );
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
        const r = await mine(() =>
          bridge.send('sale.signature', {
            ticketId: ticket.ticketId,
            tenderId: outcome.tender.tenderId,
            signature: input,
          }),
        );
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
        // Signed out while a tender runs: its ticket stays remembered, so the next sign-in shows its end.
        if (get().phase !== 'paying') memory?.set(null);
        followed = null;
        set({ ...fresh });
      },
    };
  });
  store.subscribe((s, before) => {
    if (s.ticket && s.ticket.ticketId !== before.ticket?.ticketId) memory?.set(s.ticket.ticketId);
  });
  return store;
}
