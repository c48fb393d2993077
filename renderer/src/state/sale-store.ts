import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Bridge,
  BridgeResult,
  CatalogItemView,
  CustomerDisplayView,
  DiscountLimitsView,
  LiveTenderView,
  ManagerApproval,
  ReceiptView,
  SaleOutcome,
  SaleProgress,
  SaleSettingsView,
  ScanView,
  SignatureInput,
  TenderRequest,
  TenderView,
  TicketDiscount,
  TicketView,
  TransactionView,
} from '../../../common/bridge/contract';
import { amountNeedsConfirmation, DEFAULT_CONFIRM_ABOVE_CENTS } from '../../../common/amount-ceiling';
import { formatCents, keypadOverflows, popDigit, pushDigit, taxOf } from '../format/money';
import { i18n } from '../i18n/i18n';
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

export type SaleSettings = SaleSettingsView;

/** The tender a cashier chose, held while a large amount is confirmed. */
export type PendingTender = 'credit' | 'preauth' | TenderForm;

/**
 * A change to the ticket's lines, as the cashier asks for it: each is one `ticket.*` command. Adding a line
 * opens a ticket of lines first when there is none (an amount typed on the keypad becomes its first line,
 * an open item).
 */
export type TicketChange =
  /** The amount typed on the keypad, as an open item. */
  | { kind: 'keypadAmount' }
  | { kind: 'item'; itemId: number; unitPriceCents?: number }
  | { kind: 'scan'; data: string; aimId?: string }
  | { kind: 'openItem'; priceCents: number; name?: string }
  | { kind: 'quantity'; lineId: string; quantity: number }
  | { kind: 'price'; lineId: string; unitPriceCents: number }
  | { kind: 'lineDiscount'; lineId: string; discount: TicketDiscount | null }
  | { kind: 'ticketDiscount'; discount: TicketDiscount | null }
  | { kind: 'void'; lineId: string };

/** What a scan comes to, before anything is added: the screen asks for what is missing. */
export type ScanStep =
  /** Ring it: the change to make (the screen runs it, with the manager's PIN if the core asks). */
  | { kind: 'ring'; change: TicketChange }
  /** An open-price item: its price is typed first. */
  | { kind: 'price'; item: CatalogItemView }
  /** No item has this code: a manager may add it, anyone may ring an open item. */
  | { kind: 'unknown'; barcode: string }
  /**
   * Not added (a misread, an inactive item, a payment under way): `scanNote` says why. Or another window
   * of the lane claimed the scan first: nothing to say here.
   */
  | { kind: 'refused' };

/** The last scan's or item's outcome, where the cashier looks. */
export type ScanNote =
  | { tone: 'ok'; text: string }
  | { tone: 'bad'; text: string }
  | { tone: 'unknown'; text: string; barcode: string };

/** The ticket's dialogs (one at a time). */
export type TicketDialog =
  | { kind: 'openItem'; barcode?: string }
  | { kind: 'price'; lineId: string }
  | { kind: 'itemPrice'; item: CatalogItemView }
  | { kind: 'discount'; lineId: string | null }
  | { kind: 'addItem'; barcode: string };

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
  /** The catalog's quick keys (items without a barcode), in key order. */
  quickKeys: CatalogItemView[];
  /** The store has a catalog to search (false: the keypad's open items only). */
  hasCatalog: boolean;
  /** What a cashier may give without a manager (shown beside the discount). */
  discountLimits: DiscountLimitsView | null;
  /** The ticket line the cashier touched: its quantity, discount, price and void are offered. */
  selectedLineId: string | null;
  scanNote: ScanNote | null;
  dialog: TicketDialog | null;

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

  /** Reads the quick keys, whether the store has a catalog, and the discount limits. */
  loadCatalog(): Promise<void>;
  /**
   * Makes one change to the ticket's lines (in order: changes wait for the one before). `forbidden` comes
   * back as it is, its message the manager's reason: the screen asks for the PIN and sends it again with
   * `approval`. Other refusals are shown (`error`) and change nothing.
   */
  changeTicket(change: TicketChange, approval?: ManagerApproval): Promise<BridgeResult<TicketView>>;
  /** What a scan comes to: refused (a misread is never looked up), unknown, an open price, or a line. */
  readScan(
    scan: Pick<ScanView, 'data' | 'aimId' | 'validated' | 'problem'> & { scanId?: string },
  ): Promise<ScanStep>;
  /** The cashier picked an item (quick key, search): a line, or its price first. */
  pickItem(item: CatalogItemView): ScanStep;
  selectLine(lineId: string | null): void;
  openDialog(dialog: TicketDialog): void;
  closeDialog(): void;
  setScanNote(note: ScanNote | null): void;
  /** A keyboard-wedge scan's keys reached the keypad: the amount goes back to what it was before them. */
  undoScanKeys(amountCents: number): void;
  /** The tip on a ticket of lines (the keypad's tip goes with `sale.open`). */
  setTicketTip(tipCents: number): Promise<void>;
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
  selectedLineId: null,
  scanNote: null,
  dialog: null,
};

const ok = <T>(value: T): BridgeResult<T> => ({ ok: true, value });

/** A ticket's tenders took nothing: declined or cancelled only (its amount or lines may still change). */
function nothingTaken(t: TicketView): boolean {
  return t.tenders.every((x) => x.status === 'declined' || x.status === 'cancelled');
}

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
          reversal: { utn: watch.utn, state: 'reversed', message: i18n.t('sale:outcome.reversed') },
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
        set({ error: i18n.t('sale:notes.enterAmount') });
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

    /** Changes to the ticket's lines, one after another: a burst of scans opens one ticket, in order. */
    let ticketQueue: Promise<unknown> = Promise.resolve();
    const queued = <T>(run: () => Promise<T>): Promise<T> => {
      const next = ticketQueue.then(run);
      ticketQueue = next.catch(() => undefined);
      return next;
    };

    const refused = <T>(code: 'conflict' | 'busy', message: string): BridgeResult<T> => ({
      ok: false,
      error: { code, message },
    });

    /**
     * The ticket of lines to add to: the one on screen, or a new one. An amount typed on the keypad (or an
     * amount ticket nothing was paid on, given up for this one) becomes its first line, an open item, so
     * nothing the cashier typed is lost.
     */
    const itemizedTicket = async (): Promise<BridgeResult<TicketView>> => {
      const s = get();
      if (s.ticket?.itemized) return ok(s.ticket);
      if (s.opening) return refused('busy', i18n.t('sale:notes.opening'));
      let amount = s.subtotalCents;
      let tip = s.tipCents;
      if (s.ticket) {
        if (!nothingTaken(s.ticket)) return refused('conflict', i18n.t('sale:notes.paidAsAmount'));
        const gaveUp = await bridge.send('sale.abandon', { ticketId: s.ticket.ticketId });
        if (!gaveUp.ok) return gaveUp;
        amount = s.ticket.subtotalCents;
        tip = s.ticket.tipCents;
      }
      const opened = await bridge.send('ticket.open', {});
      if (!opened.ok) return opened;
      set({ ticket: opened.value, subtotalCents: 0, tipCents: 0, confirmedCents: null, scanGuard: false });
      let t = opened.value;
      if (amount > 0) {
        const line = await bridge.send('ticket.addOpenItem', { ticketId: t.ticketId, priceCents: amount });
        if (!line.ok) return line;
        t = line.value;
      }
      if (tip > 0 && !get().tipFromCustomer()) {
        const tipped = await bridge.send('sale.setTip', { ticketId: t.ticketId, tipCents: tip });
        if (tipped.ok) t = tipped.value;
      }
      set({ ticket: t });
      return ok(t);
    };

    const sendChange = (
      c: TicketChange,
      ticketId: string,
      approval: ManagerApproval | undefined,
    ): Promise<BridgeResult<TicketView>> => {
      const a = approval ? { approval } : {};
      switch (c.kind) {
        case 'keypadAmount':
          throw new Error('the keypad amount opens its own ticket');
        case 'item':
          return bridge.send('ticket.addItem', {
            ticketId,
            itemId: c.itemId,
            ...(c.unitPriceCents !== undefined ? { unitPriceCents: c.unitPriceCents } : {}),
            ...a,
          });
        case 'scan':
          return bridge.send('ticket.addScan', {
            ticketId,
            data: c.data,
            ...(c.aimId ? { aimId: c.aimId } : {}),
            ...a,
          });
        case 'openItem':
          return bridge.send('ticket.addOpenItem', {
            ticketId,
            priceCents: c.priceCents,
            ...(c.name ? { name: c.name } : {}),
            ...a,
          });
        case 'quantity':
          return bridge.send('ticket.setQuantity', {
            ticketId,
            lineId: c.lineId,
            quantity: c.quantity,
            ...a,
          });
        case 'price':
          return bridge.send('ticket.setPrice', {
            ticketId,
            lineId: c.lineId,
            unitPriceCents: c.unitPriceCents,
            ...a,
          });
        case 'lineDiscount':
          return bridge.send('ticket.setLineDiscount', {
            ticketId,
            lineId: c.lineId,
            discount: c.discount,
            ...a,
          });
        case 'ticketDiscount':
          return bridge.send('ticket.setDiscount', { ticketId, discount: c.discount, ...a });
        case 'void':
          return bridge.send('ticket.voidLine', { ticketId, lineId: c.lineId, ...a });
      }
    };

    /** A scan or a pick is taken on the ticket being rung, or starts the next one after a paid sale. */
    const readyToRing = (): boolean => {
      const s = get();
      if (s.phase === 'done') get().newSale();
      else if (s.phase !== 'entry') {
        set({
          scanNote: {
            tone: 'bad',
            text: i18n.t('sale:notes.finishPaymentFirst'),
          },
        });
        return false;
      }
      return true;
    };

    let settingsAsked = 0;

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
      quickKeys: [],
      hasCatalog: false,
      discountLimits: null,

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
                ? i18n.t('sale:receipt.printed')
                : i18n.t('sale:receipt.notPrinted', {
                    reason: r.reason ?? i18n.t('sale:receipt.printerUnavailable'),
                  }),
            });
          }),
          bridge.on('sale.settings', (v) => {
            // Newer than any read still on its way: that read's answer is dropped (loadSettings).
            settingsAsked += 1;
            set({ settings: v });
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
        // The lane's own settings (answered with the gateway down). Reads can cross — one at sign-in, one
        // after a save — and only the last one asked may land, so an older answer never undoes a newer.
        const asked = ++settingsAsked;
        const r = await bridge.send('sale.settings', {});
        if (r.ok && asked === settingsAsked) set({ settings: r.value });
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
            error: i18n.t('sale:notes.scanNotAmount'),
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
        // A ticket of lines is asked too, until a tender took something (an open item typed with a slip).
        const asked = s.ticket
          ? s.ticket.itemized !== undefined &&
            nothingTaken(s.ticket) &&
            s.confirmedCents !== s.ticket.totalCents
          : s.confirmedCents !== s.subtotalCents;
        if (!asked) return false;
        const ceiling = s.settings?.confirmAboveCents ?? DEFAULT_CONFIRM_ABOVE_CENTS;
        if (!amountNeedsConfirmation(s.toPayCents(), ceiling)) return false;
        set({ confirming: tender });
        return true;
      },
      confirmAmount() {
        const s = get();
        set({ confirming: null, confirmedCents: s.ticket ? s.ticket.totalCents : s.subtotalCents });
        return s.confirming;
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
        else if (r.value.printed) set({ receiptNote: i18n.t('sale:receipt.printed') });
        else
          set({
            receiptNote: i18n.t('sale:receipt.notPrintedShown', { reason: r.value.reason }),
            receipt: r.value.receipt,
          });
      },

      async reprintLast() {
        const r = await bridge.send('receipt.reprintLast', {});
        if (!r.ok) set({ error: describeError(r.error) });
        else if (r.value.printed) set({ receiptNote: i18n.t('sale:receipt.printedAgain') });
        else
          set({
            receiptNote: i18n.t('sale:receipt.notPrintedShown', { reason: r.value.reason }),
            receipt: r.value.receipt,
          });
      },

      async printFor(ticketId) {
        const r = await bridge.send('receipt.print', { ticketId, copy: 'customer' });
        if (!r.ok)
          set({ receiptNote: i18n.t('sale:receipt.couldNotPrint', { why: describeError(r.error) }) });
        else if (r.value.printed) set({ receiptNote: i18n.t('sale:receipt.printed') });
        else
          set({
            receiptNote: i18n.t('sale:receipt.notPrintedShown', { reason: r.value.reason }),
            receipt: r.value.receipt,
          });
      },

      async printTransactionReceipt(userTransactionNumber) {
        const r = await bridge.send('receipt.transaction.print', { userTransactionNumber, copy: 'customer' });
        if (!r.ok)
          set({ receiptNote: i18n.t('sale:receipt.couldNotPrint', { why: describeError(r.error) }) });
        else if (r.value.printed) set({ receiptNote: i18n.t('sale:receipt.printed') });
        else
          set({
            receiptNote: i18n.t('sale:receipt.notPrintedShown', { reason: r.value.reason }),
            receipt: r.value.receipt,
          });
      },

      async showTransactionReceipt(userTransactionNumber) {
        const r = await bridge.send('receipt.transaction.get', { userTransactionNumber, copy: 'customer' });
        if (r.ok) set({ receipt: r.value });
        else set({ receiptNote: i18n.t('sale:receipt.couldNotShow', { why: describeError(r.error) }) });
      },

      hideReceipt() {
        set({ receipt: null });
      },

      async loadCatalog() {
        const [keys, any, limits] = await Promise.all([
          bridge.send('catalog.quickKeys', {}),
          bridge.send('catalog.search', { query: '', limit: 1 }),
          bridge.send('store.discountLimits.get', {}),
        ]);
        set({
          quickKeys: keys.ok ? keys.value : [],
          hasCatalog: any.ok && any.value.items.length > 0,
          discountLimits: limits.ok ? limits.value : null,
        });
      },

      changeTicket(change, approval) {
        return queued(async () => {
          const s = get();
          if (s.phase !== 'entry') {
            const r = refused<TicketView>('conflict', i18n.t('sale:notes.finishBeforeChange'));
            set({ error: r.ok ? null : r.error.message });
            return r;
          }
          const typed = s.subtotalCents > 0 || (s.ticket !== null && !s.ticket.itemized);
          const adds =
            change.kind === 'keypadAmount' ||
            change.kind === 'item' ||
            change.kind === 'scan' ||
            change.kind === 'openItem';
          const at: BridgeResult<TicketView> =
            change.kind === 'keypadAmount' && (!typed || s.ticket?.itemized)
              ? refused('conflict', i18n.t('sale:notes.typeAmountFirst'))
              : adds
                ? await itemizedTicket()
                : s.ticket?.itemized
                  ? ok(s.ticket)
                  : refused('conflict', i18n.t('sale:notes.noLines'));
          if (!at.ok) {
            set({ error: describeError(at.error) });
            return at;
          }
          // What was on the ticket before this change (the keypad's amount counts as this change's line).
          const before = new Set(
            (change.kind === 'keypadAmount' ? [] : (at.value.itemized?.lines ?? [])).map((l) => l.lineId),
          );
          // The keypad's amount is the new ticket's first line already (itemizedTicket).
          const r =
            change.kind === 'keypadAmount' ? at : await sendChange(change, at.value.ticketId, approval);
          if (!r.ok) {
            // The manager's reason goes to the PIN dialog, not to the screen's alert.
            if (r.error.code !== 'forbidden' && r.error.code !== 'unauthorized')
              set({ error: describeError(r.error) });
            return r;
          }
          const lines = r.value.itemized?.lines ?? [];
          const added = lines.find((l) => !before.has(l.lineId));
          const selected = lines.find((l) => l.lineId === get().selectedLineId && !l.voided);
          set({
            ticket: r.value,
            error: null,
            selectedLineId: selected ? selected.lineId : null,
            ...(added
              ? {
                  scanNote: {
                    tone: 'ok' as const,
                    text: i18n.t('sale:notes.added', {
                      name: added.name,
                      amount: formatCents(added.priced.grossCents),
                    }),
                  },
                }
              : {}),
          });
          return r;
        });
      },

      async readScan(scan) {
        // The item form (a manager adding the code just scanned) takes the scan for itself.
        if (get().dialog?.kind === 'addItem') return { kind: 'refused' };
        if (!scan.validated) {
          // A misread is never looked up: the scanner's own words say what to do.
          set({
            scanNote: {
              tone: 'bad',
              text: i18n.t('sale:notes.badBarcode', {
                data: scan.data,
                problem: scan.problem ?? i18n.t('sale:notes.unreadable'),
              }),
            },
          });
          return { kind: 'refused' };
        }
        // Every window of the lane heard this scan: the one whose claim comes first rings it, the others
        // say nothing (the item is on the ticket of the window that took it, or that window says why not):
        // one scan, one answer at the counter.
        const scanId = scan.scanId;
        if (scanId !== undefined) {
          const claimFor = (ticketId: string | undefined) =>
            bridge.send('scanner.claim', { scanId, ...(ticketId ? { ticketId } : {}) });
          let claim = await claimFor(get().ticket?.ticketId);
          // The lane rings a ticket of lines this window does not show: a window free to ring follows it
          // (the item goes on that ticket, not on a second one beside it) and asks again.
          const s = get();
          const free = (s.phase === 'entry' && !s.ticket && s.subtotalCents === 0) || s.phase === 'done';
          if (claim.ok && claim.value.ringing && free) {
            await get().restore(claim.value.ringing);
            if (get().ticket?.ticketId === claim.value.ringing) claim = await claimFor(claim.value.ringing);
          }
          if (claim.ok && !claim.value.claimed) return { kind: 'refused' };
        }
        if (!readyToRing()) return { kind: 'refused' };
        const found = await bridge.send('catalog.lookup', {
          barcode: scan.data,
          ...(scan.aimId ? { aimId: scan.aimId } : {}),
        });
        if (!found.ok) {
          if (found.error.code === 'not-found') {
            set({ scanNote: { tone: 'unknown', text: describeError(found.error), barcode: scan.data } });
            return { kind: 'unknown', barcode: scan.data };
          }
          set({ scanNote: { tone: 'bad', text: describeError(found.error) } });
          return { kind: 'refused' };
        }
        // A price label carries its price; any other open-price item has its price typed first.
        if (found.value.item.openPrice && !found.value.priceEmbedded)
          return { kind: 'price', item: found.value.item };
        return {
          kind: 'ring',
          change: { kind: 'scan', data: scan.data, ...(scan.aimId ? { aimId: scan.aimId } : {}) },
        };
      },

      pickItem(item) {
        if (!readyToRing()) return { kind: 'refused' };
        if (item.openPrice) return { kind: 'price', item };
        return { kind: 'ring', change: { kind: 'item', itemId: item.id } };
      },

      selectLine(lineId) {
        set({ selectedLineId: lineId });
      },
      openDialog(dialog) {
        set({ dialog });
      },
      closeDialog() {
        set({ dialog: null });
      },
      setScanNote(note) {
        set({ scanNote: note });
      },
      undoScanKeys(amountCents) {
        const s = get();
        if (s.ticket || s.phase !== 'entry') return;
        set({ subtotalCents: amountCents, scanGuard: false, error: null });
      },

      async setTicketTip(tipCents) {
        const ticket = get().ticket;
        if (!ticket?.itemized || !nothingTaken(ticket)) return;
        const r = await bridge.send('sale.setTip', { ticketId: ticket.ticketId, tipCents });
        if (r.ok) set({ ticket: r.value, error: null });
        else set({ error: describeError(r.error) });
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
