import type {
  BalanceView,
  EbtProgram,
  LiveTenderView,
  ItemizedTicketView,
  PreauthCompleteRequest,
  ReceiptPrintResult,
  SaleProgress,
  ReceiptView,
  RefundOutcome,
  SaleOpenRequest,
  SaleOutcome,
  SalePayRequest,
  SaleStep,
  SignatureInput,
  TenderView,
  TicketView,
  TransactionView,
} from '../../common/bridge/contract';
import type { Language } from '../../common/store-locale';
import { BridgeFailure } from '../../common/bridge/failure';
import { bridgeFailureOf, UNKNOWN_MESSAGE, type AfterUnknown } from '../gateway-client/bridge-failure';
import type { GatewayFailure } from '../gateway-client/errors';
import { newId } from '../util/ids';
import { isCents } from '../util/money';
import * as cardServices from './card-services';
import { drawerOpensFor } from './cash-drawer';
import type { ChipSale } from './chip-sale';
import { journaledCall, numbered, stamped, type JournaledSend, type Stamp } from '../journal/journaled-call';
import * as postSale from './post-sale';
import { printReceipt, receiptOf, transactionReceiptOf } from './receipt-printing';
import type { SaleEngineDeps } from './sale-deps';
import { signatureSvg } from './signature';
import { isTaken, recompute } from './tender-amounts';
import { applyLines } from './ticket-lines';
import { checkPayment, newTicket } from './ticket-rules';
import { restoreTender } from './ticket-restore';
import { runTender } from './tenders';
import { tenderContext } from './tenders/context';

/**
 * A refund or void made for something else (a return from a receipt): `receipt: false` leaves its receipt
 * to the caller, `onNumber` hears its journal number before the request leaves.
 */
export type PostSaleOptions = { receipt?: boolean; onNumber?: (utn: string) => Promise<void> };

type Active = {
  ticketId: string;
  tenderId: string;
  abort: AbortController;
  /** A chip card in its transaction on the reader, until it is told the issuer's answer. */
  chip?: ChipSale;
  /** The last prompt of this tender and when it was given (a window that attaches later shows it). */
  prompt?: { progress: SaleProgress; at: number };
};

/**
 * The sale engine orchestrates a lane's tickets: it opens them, runs one tender at a time (each tender's
 * flow in tenders/: waiting for card → reading → PIN → authorizing → remove card → signature → done),
 * splits a ticket over several tenders, collects signatures and closes the ticket when it is paid. Every
 * request that can move money goes through the journaled call (journaled-call.ts); post-sale operations
 * (post-sale.ts), card services outside a ticket (card-services.ts) and receipts are delegated.
 */
export class SaleEngine {
  private readonly tickets = new Map<string, TicketView>();
  private active: Active | undefined;
  private lastReceiptTicket: string | undefined;
  /** A ticket the restart closed as paid (an approval confirmed after the stop): the screen shows it. */
  private recoveredTicket: string | undefined;
  private readonly journaled: JournaledSend;
  /** Changes to a ticket's lines, one at a time (one may wait for a manager's PIN). */
  private amending: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SaleEngineDeps) {
    this.journaled = (entry, send, options) => journaledCall(this.deps, entry, send, options);
  }

  /** Brings back the tickets still open when the terminal stopped. */
  async restore(): Promise<void> {
    for (const t of await this.deps.journal.openTickets()) {
      try {
        const view = JSON.parse(t.data) as TicketView;
        let restored = false;
        for (const tender of view.tenders)
          if (tender.status === 'in-progress') {
            restoreTender(tender, await this.deps.journal.byTender(tender.tenderId));
            restored = true;
          }
        this.tickets.set(view.ticketId, recompute(view));
        // A tender the journal kept (an approval confirmed after the stop) may have paid the ticket.
        if (restored) {
          await this.maybeFinish(view);
          if (view.status === 'paid') this.recoveredTicket = view.ticketId;
        }
      } catch {
        this.deps.log.log('warn', 'sale', `ticket ${t.ticketId} could not be restored`);
      }
    }
  }

  /**
   * The signature pad (re)connected — at start after a restart, or plugged back in: a signature still owed
   * on an open ticket is captured on it again (the pad forgets a capture when it loses power or the link).
   */
  resumeSignatureCapture(): void {
    const owed = [...this.tickets.values()].some(
      (t) => t.status === 'open' && t.tenders.some((x) => x.signature?.required && !x.signature.captured),
    );
    if (owed && this.deps.connected('signaturePad')) this.deps.devices()?.signaturePad.startCapture();
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  // ---------------------------------------------------------------------------------------------------
  // Tickets

  /** Opens a ticket in the name of the employee `by` (the one signed in). */
  async open(req: SaleOpenRequest, by: { employeeId: number; name: string }): Promise<TicketView> {
    this.recoveredTicket = undefined;
    const ticket = {
      ...newTicket(req, this.deps.settings().sale.taxRatePercent, this.deps.clock.now()),
      employeeId: by.employeeId,
      employeeName: by.name,
    };
    this.tickets.set(ticket.ticketId, ticket);
    await this.persist(ticket);
    return ticket;
  }

  /** Opens a ticket built elsewhere (a ticket of lines: ticket-lines.ts). */
  async adopt(ticket: TicketView): Promise<TicketView> {
    this.tickets.set(ticket.ticketId, ticket);
    await this.persist(ticket);
    return ticket;
  }

  /**
   * Changes the lines of an open ticket of lines: `change` gets a copy of them and returns them changed
   * (it may wait for a manager's approval). The lines change only while nothing is paid — no tender in
   * progress, approved, partly approved or stored — checked before and again after `change`, since a
   * tender may start while it waits. Changes run one at a time.
   */
  amend(
    ticketId: string,
    change: (lines: ItemizedTicketView, ticket: TicketView) => Promise<ItemizedTicketView>,
  ): Promise<TicketView> {
    const run = this.amending.then(async () => {
      const editable = (): TicketView & { itemized: ItemizedTicketView } => {
        const t = this.openTicket(ticketId);
        if (!t.itemized)
          throw new BridgeFailure('conflict', 'This ticket was opened for an amount: it has no lines.', {
            messageId: 'sale.noLines',
          });
        if (this.active?.ticketId === ticketId)
          throw new BridgeFailure('busy', 'A tender is in progress: finish or cancel it first.', {
            messageId: 'sale.tenderInProgress',
          });
        if (t.tenders.some((x) => isTaken(x) || x.status === 'in-progress'))
          throw new BridgeFailure('conflict', 'Part of the ticket is paid: its lines can no longer change.', {
            messageId: 'sale.linesLocked',
          });
        return t as TicketView & { itemized: ItemizedTicketView };
      };
      const before = editable();
      const lines = await change(structuredClone(before.itemized), before);
      const t = editable();
      applyLines(t, lines);
      await this.persist(t);
      return t;
    });
    this.amending = run.catch(() => undefined);
    return run;
  }

  current(): TicketView | null {
    let latest: TicketView | null = null;
    for (const t of this.tickets.values())
      if (t.status === 'open' && (!latest || t.openedAt > latest.openedAt)) latest = t;
    return latest;
  }

  openTicketId(): string | undefined {
    return this.current()?.ticketId;
  }

  /** The ticket the last restart closed as paid, until the lane opens the next one. */
  recoveredTicketId(): string | undefined {
    return this.recoveredTicket;
  }

  async get(ticketId: string): Promise<TicketView> {
    const t = this.tickets.get(ticketId);
    if (t) return t;
    const rec = await this.deps.journal.getTicket(ticketId);
    if (!rec) throw new BridgeFailure('not-found', 'No such ticket.');
    return JSON.parse(rec.data) as TicketView;
  }

  private openTicket(ticketId: string): TicketView {
    const t = this.tickets.get(ticketId);
    if (!t) throw new BridgeFailure('not-found', 'No such open ticket.', { messageId: 'sale.noOpenTicket' });
    if (t.status !== 'open')
      throw new BridgeFailure('conflict', `The ticket is ${t.status}.`, {
        messageId: t.status === 'paid' ? 'sale.ticketPaid' : 'sale.ticketAbandoned',
      });
    return t;
  }

  async setTip(ticketId: string, tipCents: number): Promise<TicketView> {
    const t = this.openTicket(ticketId);
    if (!isCents(tipCents) || tipCents < 0)
      throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.', {
        messageId: 'sale.tipNotNegative',
      });
    if (t.purpose === 'gift-reload' && tipCents > 0)
      throw new BridgeFailure('invalid', 'A gift card load carries no tip.');
    if (t.tenders.some(isTaken))
      throw new BridgeFailure(
        'conflict',
        'A tender is already approved: add the tip on the next tender instead.',
        { messageId: 'sale.tipAfterApproval' },
      );
    t.tipCents = tipCents;
    recompute(t);
    await this.persist(t);
    return t;
  }

  private async persist(t: TicketView): Promise<void> {
    await this.deps.journal.saveTicket({
      ticketId: t.ticketId,
      status: t.status,
      data: JSON.stringify(t),
      openedAt: t.openedAt,
      closedAt: t.closedAt ?? null,
    });
    this.deps.emit('sale.updated', t);
  }

  private async maybeFinish(t: TicketView): Promise<void> {
    if (t.status !== 'open' || t.remainingCents > 0) return;
    if (t.tenders.some((x) => x.signature?.required && !x.signature.captured)) return;
    t.status = 'paid';
    t.closedAt = this.deps.clock.now();
    this.lastReceiptTicket = t.ticketId;
    await this.persist(t);
    this.tickets.delete(t.ticketId);
    const openDrawer = drawerOpensFor(t);
    // With a customer display the customer chooses the receipt (print, email, none): their copy waits.
    const customerChooses = this.deps.customerChoosesReceipt?.() === true;
    if (this.deps.settings().sale.autoPrint && this.deps.connected('receiptPrinter')) {
      // A signed card payment leaves a merchant copy with the signature line first; the customer's copy
      // comes last, with the drawer. Printing must not hold up the answer to the cashier; its outcome
      // arrives as `receipt.printed`.
      const signed = t.tenders.some((x) => isTaken(x) && x.signature?.required === true);
      void (async () => {
        if (signed) await this.print(t, 'merchant');
        if (!customerChooses) await this.print(t, 'customer', openDrawer);
        else if (openDrawer) await this.deps.devices()?.receiptPrinter.kickDrawer();
      })().catch(() => undefined);
    } else if (openDrawer && this.deps.connected('receiptPrinter')) {
      // No receipt printed by itself, but change or cash back still comes out of the drawer.
      void this.deps
        .devices()
        ?.receiptPrinter.kickDrawer()
        .catch(() => undefined);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Tenders

  private progress(
    ticketId: string,
    tenderId: string,
    step: SaleStep,
    prompt: string,
    timeoutSeconds?: number,
  ): void {
    const progress: SaleProgress = {
      ticketId,
      tenderId,
      step,
      prompt,
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    };
    if (this.active && this.active.tenderId === tenderId)
      this.active.prompt = { progress, at: this.deps.clock.now() };
    this.deps.emit('sale.progress', progress);
  }

  /**
   * The tender running on the lane, with its prompt as it stands now: the countdown is what is left of the
   * wait, so a window that reloads (or opens beside the first) shows the same wait the customer sees.
   */
  live(): LiveTenderView | null {
    const a = this.active;
    const ticket = a && a.ticketId !== '' ? this.tickets.get(a.ticketId) : undefined;
    if (!a || !ticket) return null;
    let progress = a.prompt?.progress ?? null;
    if (a.prompt && progress?.timeoutSeconds) {
      const elapsed = this.deps.clock.now() - a.prompt.at;
      const left = Math.max(0, Math.ceil((progress.timeoutSeconds * 1000 - elapsed) / 1000));
      const { timeoutSeconds: _was, ...rest } = progress;
      progress = left > 0 ? { ...rest, timeoutSeconds: left } : rest;
    }
    return { ticket, tenderId: a.tenderId, progress };
  }

  /** Takes one tender; its journal rows name `by` (the employee signed in). */
  async pay(req: SalePayRequest, by: Stamp): Promise<SaleOutcome> {
    const t = this.openTicket(req.ticketId);
    if (this.active)
      throw new BridgeFailure('busy', 'Another tender is in progress: finish or cancel it first.', {
        messageId: 'sale.anotherTender',
      });
    const { tender, tip, amount } = checkPayment(t, req);
    if (tip > 0) {
      t.tipCents += tip;
      recompute(t);
    }

    const view: TenderView = {
      tenderId: newId('TD'),
      kind: tender.kind,
      status: 'in-progress',
      requestedCents: Math.min(amount, t.remainingCents),
      approvedCents: 0,
      tipCents: tip,
      cashBackCents: 0,
      at: this.deps.clock.now(),
    };
    t.tenders.push(view);
    const abort = new AbortController();
    const active: Active = { ticketId: t.ticketId, tenderId: view.tenderId, abort };
    this.active = active;
    try {
      // The ticket is saved with the tender in progress, so a restart finds it (and the journal its outcome).
      await this.persist(t);
      await runTender(
        tender,
        tenderContext({
          deps: this.deps,
          journaled: stamped(this.journaled, by),
          ticket: t,
          view,
          signal: abort.signal,
          allowDuplicate: req.allowDuplicate === true,
          prompt: (step, text, seconds) => this.progress(t.ticketId, view.tenderId, step, text, seconds),
          // Kept on the tender in progress, so the card is released if the tender stops early.
          holdChip: (chip) => (active.chip = chip),
          by,
        }),
      );
    } catch (error) {
      if (view.status === 'in-progress') {
        view.status = error instanceof BridgeFailure && error.code === 'device' ? 'cancelled' : 'declined';
        view.message = error instanceof Error ? error.message : String(error);
      }
      if (!(error instanceof BridgeFailure) || view.userTransactionNumber === undefined) {
        recompute(t);
        await this.persist(t);
        this.active = undefined;
        throw error instanceof BridgeFailure
          ? error
          : new BridgeFailure('internal', 'The tender failed unexpectedly.');
      }
    } finally {
      this.active = undefined;
      // A chip card left in its transaction by a tender that stopped before the card was told anything
      // (PIN cancelled, refused, an error) is released on the reader.
      if (active.chip?.inTransaction) await active.chip.abandon();
    }
    recompute(t);
    await this.persist(t);
    const signatureRequired = view.signature?.required === true && !view.signature.captured;
    if (signatureRequired) {
      this.progress(t.ticketId, view.tenderId, 'signature', 'Sign here');
      if (this.deps.connected('signaturePad')) this.deps.devices()?.signaturePad.startCapture();
    } else
      this.progress(
        t.ticketId,
        view.tenderId,
        'done',
        view.status === 'unknown' ? (view.message ?? UNKNOWN_MESSAGE) : 'Done',
      );
    await this.maybeFinish(t);
    return {
      ticket: t,
      tender: view,
      needsAnotherTender: t.status === 'open' && t.remainingCents > 0,
      signatureRequired,
    };
  }

  async cancel(ticketId: string): Promise<TicketView> {
    const t = await this.get(ticketId);
    if (this.active?.ticketId === ticketId) this.active.abort.abort();
    return t;
  }

  async abandon(ticketId: string, approvedBy: () => Promise<unknown>): Promise<TicketView> {
    const t = this.openTicket(ticketId);
    if (this.active?.ticketId === ticketId)
      throw new BridgeFailure('busy', 'Cancel the tender in progress first.', {
        messageId: 'sale.cancelTenderFirst',
      });
    const taken = t.tenders.filter(
      (x) => (x.status === 'approved' || x.status === 'partial') && x.userTransactionNumber,
    );
    if (taken.length > 0) await approvedBy();
    for (const x of taken) {
      if (x.kind === 'cash' || x.kind === 'check') {
        x.message =
          x.kind === 'cash' ? 'Give the cash back to the customer.' : 'Return the check to the customer.';
        x.status = 'voided';
        // The cash goes back out of the drawer: its row stops counting as cash taken (money-figures), so
        // the till's count does not expect it.
        if (x.kind === 'cash')
          await this.deps.journal.update(
            x.userTransactionNumber as string,
            { state: 'voided', message: 'Ticket abandoned: cash given back' },
            this.deps.clock.now(),
          );
        continue;
      }
      await this.deps.journal.queueReversal(
        x.userTransactionNumber as string,
        'Ticket abandoned: reversing',
        this.deps.clock.now(),
      );
      x.status = 'reversed';
      x.message = 'Reversal queued: the customer is not charged.';
    }
    if (taken.length > 0) this.deps.kickReversals();
    t.status = 'abandoned';
    t.closedAt = this.deps.clock.now();
    recompute(t);
    await this.persist(t);
    this.tickets.delete(t.ticketId);
    return t;
  }

  async signature(ticketId: string, tenderId: string, input: SignatureInput): Promise<TenderView> {
    const t = await this.get(ticketId);
    const live = this.tickets.get(ticketId) ?? t;
    const tender = live.tenders.find((x) => x.tenderId === tenderId);
    if (!tender) throw new BridgeFailure('not-found', 'No such tender on this ticket.');
    if (!tender.signature?.required)
      throw new BridgeFailure('conflict', 'This tender needs no signature.', {
        messageId: 'sale.noSignatureNeeded',
      });
    // The pad, the cashier's box and the customer display may all offer a signature: the first one taken
    // is the customer's, and a later one must not replace it.
    if (tender.signature.captured)
      throw new BridgeFailure('conflict', 'The customer has already signed.', {
        messageId: 'sale.alreadySigned',
      });
    let svg: string | undefined;
    if (input.source === 'pad') {
      const pad = this.deps.devices()?.signaturePad;
      const sig = await pad?.finishCapture();
      if (!sig) {
        // Confirmed before the customer signed: the pad goes on capturing, so the signature the customer
        // now writes on it is the one the next confirmation takes (a stopped pad would ignore the pen).
        if (this.deps.connected('signaturePad')) pad?.startCapture();
        throw new BridgeFailure('device', 'Nothing was signed on the pad: ask the customer to sign again.', {
          messageId: 'sale.padNotSigned',
        });
      }
      svg = sig.svg;
    } else if (input.source === 'screen') {
      svg = signatureSvg(input);
      if (!svg)
        throw new BridgeFailure('invalid', 'The signature is empty.', { messageId: 'sale.signatureEmpty' });
    } else throw new BridgeFailure('invalid', 'Unknown signature source.');
    tender.signature = { required: true, captured: true, svg };
    recompute(live);
    await this.persist(live);
    await this.maybeFinish(live);
    return tender;
  }

  // ---------------------------------------------------------------------------------------------------
  // After the sale: refunds, voids, pre-authorization completion (post-sale.ts)

  async refund(
    srn: string,
    amountCents: number | undefined,
    by: Stamp,
    options: PostSaleOptions = {},
  ): Promise<RefundOutcome> {
    const r = await postSale.refund(this.deps, this.send(by, options), srn, amountCents);
    if (options.receipt !== false) this.autoPrint(r.transaction);
    return r;
  }

  async void(srn: string, by: Stamp, options: PostSaleOptions = {}): Promise<RefundOutcome> {
    const r = await postSale.voidSale(this.deps, this.send(by, options), srn);
    await this.markVoided(srn);
    if (options.receipt !== false) this.autoPrint(r.transaction);
    return r;
  }

  /** The journaled call for `by`, telling `onNumber` its row's number first when asked to. */
  private send(by: Stamp, options: PostSaleOptions): JournaledSend {
    const send = stamped(this.journaled, by);
    return options.onNumber ? numbered(send, options.onNumber) : send;
  }

  /** The ticket that took a voided payment says so (its receipt, printed again, reads VOIDED). */
  private async markVoided(srn: string): Promise<void> {
    const original = await this.deps.journal.bySrn(srn);
    if (!original?.ticketId || !original.tenderId) return;
    const t = await this.get(original.ticketId).catch(() => undefined);
    const tender = t?.tenders.find((x) => x.tenderId === original.tenderId);
    if (!t || !tender) return;
    tender.status = 'voided';
    tender.message = 'Voided: the payment is cancelled.';
    // An open ticket owes the voided amount again; a paid one keeps its totals as they were paid.
    if (t.status === 'open') recompute(t);
    await this.persist(t);
  }

  /** A refund's or a void's customer receipt prints by itself, like a sale's. */
  private autoPrint(tx: TransactionView): void {
    if (tx.state !== 'approved') return;
    if (!this.deps.settings().sale.autoPrint || !this.deps.connected('receiptPrinter')) return;
    void this.printTransaction(tx.userTransactionNumber, 'customer').catch(() => undefined);
  }

  preauthComplete(req: PreauthCompleteRequest, by: Stamp): Promise<TransactionView> {
    return postSale.preauthComplete(this.deps, stamped(this.journaled, by), req);
  }

  // ---------------------------------------------------------------------------------------------------
  // Card services outside a ticket: one at a time, never beside a tender (card-services.ts)

  private async exclusive<T>(
    work: (ctx: cardServices.CardServiceContext) => Promise<T>,
    by: Stamp = { employeeId: null, approvedById: null },
  ): Promise<T> {
    if (this.active)
      throw new BridgeFailure('busy', 'A tender is in progress: finish or cancel it first.', {
        messageId: 'sale.tenderInProgress',
      });
    const abort = new AbortController();
    this.active = { ticketId: '', tenderId: '', abort };
    try {
      return await work({
        deps: this.deps,
        journaled: stamped(this.journaled, by),
        signal: abort.signal,
        prompt: (step, text, s) => this.progress('', '', step, text, s),
      });
    } finally {
      this.active = undefined;
    }
  }

  /** Cancels a balance inquiry or reload waiting for a card or a PIN; false when none is waiting. */
  cancelOutsideTicket(): boolean {
    if (this.active?.ticketId !== '' || this.active.abort.signal.aborted) return false;
    this.active.abort.abort();
    return true;
  }

  giftBalance(
    entry: 'swipe' | 'keyed' | undefined,
    keyed: { cardNumber: string } | undefined,
  ): Promise<BalanceView> {
    return this.exclusive((ctx) => cardServices.giftBalance(ctx, entry, keyed));
  }

  /**
   * Loads a gift card. With `ticketId`, the load that `gift-reload` ticket paid for; without, the caller
   * has a manager's approval.
   */
  giftReload(
    amountCents: number,
    entry: 'swipe' | 'keyed' | undefined,
    keyed: { cardNumber: string } | undefined,
    ticketId: string | undefined,
    by: Stamp,
  ): Promise<TransactionView> {
    if (!isCents(amountCents) || amountCents <= 0)
      throw new BridgeFailure('invalid', 'The reload amount must be a positive number of cents.');
    return this.exclusive(async (ctx) => {
      const ticket =
        ticketId === undefined
          ? undefined
          : { view: await this.get(ticketId), save: (t: TicketView) => this.persist(t) };
      return cardServices.giftReload(ctx, amountCents, entry, keyed, ticket);
    }, by);
  }

  /**
   * Credits a return to a gift card (GiftCard/Refund: store credit, or a gift card payment given back),
   * the card swiped or typed. Alone on the lane, like a load.
   */
  giftRefund(
    amountCents: number,
    card: { entry: 'swipe' } | { entry: 'keyed'; cardNumber: string },
    by: Stamp,
    onNumber?: (utn: string) => Promise<void>,
  ): Promise<TransactionView> {
    if (!isCents(amountCents) || amountCents <= 0)
      throw new BridgeFailure('invalid', 'The amount must be a positive number of cents.');
    return this.exclusive(
      (ctx) =>
        cardServices.giftRefund(
          { ...ctx, journaled: onNumber ? numbered(ctx.journaled, onNumber) : ctx.journaled },
          amountCents,
          card.entry,
          card.entry === 'keyed' ? { cardNumber: card.cardNumber } : undefined,
        ),
      by,
    );
  }

  ebtBalance(program: EbtProgram): Promise<BalanceView> {
    if (program !== 'food' && program !== 'cash')
      throw new BridgeFailure('invalid', 'Choose EBT food or cash.');
    return this.exclusive((ctx) => cardServices.ebtBalance(ctx, program));
  }

  /** The one mapping (gateway-client/bridge-failure.ts); `after` says whether a reversal was queued. */
  failureOf(f: GatewayFailure, after: AfterUnknown = 'reconcile'): BridgeFailure {
    return bridgeFailureOf(f, after);
  }

  // ---------------------------------------------------------------------------------------------------
  // Receipts (receipt.ts builds them, receipt-printing.ts prints them)

  /** `language`: another than the store's (the customer's choice for an emailed copy). */
  async receipt(ticketId: string, copy: 'customer' | 'merchant', language?: Language): Promise<ReceiptView> {
    return receiptOf(this.deps, await this.get(ticketId), copy, language);
  }

  async print(t: TicketView, copy: 'customer' | 'merchant', openDrawer = false): Promise<ReceiptPrintResult> {
    return printReceipt(
      this.deps,
      await this.receipt(t.ticketId, copy),
      { ticketId: t.ticketId },
      openDrawer,
    );
  }

  /** The receipt of a refund or a void, by its UserTransactionNumber. */
  transactionReceipt(utn: string, copy: 'customer' | 'merchant'): Promise<ReceiptView> {
    return transactionReceiptOf(this.deps, utn, copy);
  }

  async printTransaction(utn: string, copy: 'customer' | 'merchant'): Promise<ReceiptPrintResult> {
    return printReceipt(
      this.deps,
      await this.transactionReceipt(utn, copy),
      { ticketId: '', userTransactionNumber: utn },
      false,
    );
  }

  async printById(ticketId: string, copy: 'customer' | 'merchant'): Promise<ReceiptPrintResult> {
    return this.print(await this.get(ticketId), copy);
  }

  async reprintLast(): Promise<ReceiptPrintResult> {
    if (!this.lastReceiptTicket)
      throw new BridgeFailure('not-found', 'No receipt to reprint yet.', { messageId: 'sale.noReceiptYet' });
    return this.printById(this.lastReceiptTicket, 'customer');
  }
}
