import type {
  BalanceView,
  CardSummary,
  EbtProgram,
  Events,
  JournalOperation,
  PreauthCompleteRequest,
  ReceiptPrintResult,
  ReceiptView,
  RefundOutcome,
  SaleOpenRequest,
  SaleOutcome,
  SalePayRequest,
  SaleStep,
  SignatureInput,
  TenderRequest,
  TenderView,
  TicketView,
  TransactionView,
} from '../bridge/contract';
import { BridgeFailure } from '../bridge/failure';
import { taxCents } from '../../common/percent';
import type { CardSaleRequest, SaleResponse } from '../../gateway/contract/card-sale';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { TransactionType } from '../../gateway/contract/card-sale';
import type { RoleApi } from '../../native/drivers/roles';
import { lastFour, maskPan } from '../../native/protocols/pan-mask';
import type { GatewayClient, GatewayResult } from '../gateway-client/client';
import type { GatewayFailure } from '../gateway-client/errors';
import type { Journal } from '../journal/journal-protocol';
import type { EntryPatch, JournalRow, NewEntry } from '../journal/journal-store';
import type { SettingsShape } from '../settings';
import type { StoreAndForward } from '../store-forward/saf';
import { safEligibility } from '../store-forward/saf';
import type { Clock } from '../util/clock';
import { newId } from '../util/ids';
import type { Logger } from '../util/log';
import { centsFromText, fromWire, isCents, toWire } from '../util/money';
import { acquireCard, type AcquiredCard } from './card-acquire';
import { ChipSale, PIN_CARD_ON_HOLD, refusedTender } from './chip-sale';
import { buildReceipt, toPrinterReceipt } from './receipt';
import { checkReloadOpen, checkReloadTender, checkReloadTicket } from './gift-reload-rules';
import { signatureSvg } from './signature';

type SaleAnswer = SaleResponse;

export type SaleEngineDeps = {
  journal: Journal;
  gateway: () => GatewayClient;
  devices: () => RoleApi | undefined;
  connected: (role: 'cardReader' | 'pinPad' | 'contactless' | 'signaturePad' | 'receiptPrinter') => boolean;
  settings: () => Readonly<SettingsShape>;
  clock: Clock;
  log: Logger;
  emit: <E extends keyof Events>(event: E, payload: Events[E]) => void;
  /** A new unknown outcome: the reversal worker should look now. */
  kickReversals: () => void;
  saf: StoreAndForward;
  /** Every answer (or its absence) tells the core whether the gateway is reachable. */
  gatewayReached: (reached: boolean, error?: string) => void;
  merchantName: () => string;
};

const UNKNOWN_MESSAGE = 'Do not retry — no answer from the gateway. The terminal is reversing this sale.';

type Active = {
  ticketId: string;
  tenderId: string;
  abort: AbortController;
  /** A chip card in its transaction on the reader, until it is told the issuer's answer. */
  chip?: ChipSale;
};

/** Plain words for a failed tender. */
function failureMessage(f: GatewayFailure): string {
  if (f.kind === 'unknown-outcome') return UNKNOWN_MESSAGE;
  if (f.kind === 'unreachable' && f.where === 'processor')
    return 'The card network is unavailable; nothing was charged. Try again or use another tender.';
  if (f.kind === 'unreachable')
    return 'The gateway is unreachable (offline); nothing was charged. Use another tender.';
  return f.message;
}

/** The gateway's balance text ("1,234.56") in cents; undefined when absent or unreadable. */
function balanceCents(value: string | undefined): number | undefined {
  return centsFromText(value);
}

function cardSummary(card: AcquiredCard, cardType?: string): CardSummary {
  return {
    maskedPan: card.maskedPan,
    last4: card.last4,
    cardType: cardType ?? card.brand,
    entry: card.entry,
    ...(card.source === 'swipe' && card.name ? { cardholderName: card.name } : {}),
  };
}

type CardFields = Partial<
  Pick<
    CardSaleRequest,
    | 'Track2'
    | 'EmvData'
    | 'CardNumber'
    | 'ExpDate'
    | 'CVN'
    | 'ZipCode'
    | 'Street'
    | 'PosEntryMode'
    | 'PosCode'
  >
>;

/** The card fields of a sale request, by how the card was read. */
function cardFields(card: AcquiredCard): CardFields {
  switch (card.source) {
    case 'swipe':
      return {
        Track2: card.track2,
        PosEntryMode: card.fallback ? 'ChipFallbackSwipe' : 'Swiped',
        PosCode: 'Retail',
      };
    case 'emv':
      return {
        EmvData: card.emvHex,
        PosEntryMode: card.entry === 'contactless' ? 'Contactless' : 'Chip',
        PosCode: 'Retail',
      };
    case 'keyed':
      return {
        CardNumber: card.pan,
        ExpDate: card.expiry,
        ...(card.cvn ? { CVN: card.cvn } : {}),
        ...(card.zip ? { ZipCode: card.zip } : {}),
        ...(card.street ? { Street: card.street } : {}),
        PosEntryMode: 'KeyEntered',
        PosCode: 'Retail',
      };
  }
}

/** The parts of one tender's amount as the gateway wants them. */
type Split = { baseCents: number; taxCents: number; tipCents: number };

export function toTransactionView(r: JournalRow): TransactionView {
  return {
    userTransactionNumber: r.utn,
    ...(r.ticketId ? { ticketId: r.ticketId } : {}),
    operation: r.operation,
    state: r.state,
    amountCents: r.amountCents,
    tipCents: r.tipCents,
    cashBackCents: r.cashBackCents,
    ...(r.last4 ? { last4: r.last4 } : {}),
    ...(r.cardType ? { cardType: r.cardType } : {}),
    ...(r.authCode ? { authCode: r.authCode } : {}),
    ...(r.srn ? { serviceReferenceNumber: r.srn } : {}),
    ...(r.originalSrn ? { originalServiceReferenceNumber: r.originalSrn } : {}),
    refundedCents: r.refundedCents,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.message ? { message: r.message } : {}),
    ...(r.cardDecision ? { cardDecision: r.cardDecision } : {}),
    ...(r.scriptResults ? { scriptResults: r.scriptResults } : {}),
  };
}

/**
 * The sale engine: one state machine per tender (waiting for card → reading → PIN → authorizing → remove
 * card → signature → done), tickets with split tender, and the journaled gateway calls. Every request that
 * can move money goes through `journaled`: the journal row is committed before the request leaves, the
 * answer updates it, and no answer queues a reversal.
 */
export class SaleEngine {
  private readonly tickets = new Map<string, TicketView>();
  private active: Active | undefined;
  private lastReceiptTicket: string | undefined;

  constructor(private readonly deps: SaleEngineDeps) {}

  /** Brings back the tickets still open when the terminal stopped. */
  async restore(): Promise<void> {
    for (const t of await this.deps.journal.openTickets()) {
      try {
        const view = JSON.parse(t.data) as TicketView;
        // A tender in progress when the terminal stopped takes its outcome from the journal, which is the
        // truth: approved if the answer was committed, otherwise unknown (and being reversed).
        for (const tender of view.tenders) {
          if (tender.status !== 'in-progress') continue;
          const row = await this.deps.journal.byTender(tender.tenderId);
          if (!row) {
            tender.status = 'cancelled';
            tender.message = 'The terminal stopped before this tender was sent.';
            continue;
          }
          tender.userTransactionNumber = row.utn;
          if (row.state === 'approved' || row.state === 'partial' || row.state === 'stored') {
            tender.status = row.state;
            tender.approvedCents = row.approvedCents;
            if (row.authCode) tender.authCode = row.authCode;
            if (row.srn) tender.serviceReferenceNumber = row.srn;
          } else if (row.state === 'declined' || row.state === 'failed') {
            tender.status = 'declined';
            tender.message = row.message ?? 'Declined.';
          } else if (row.state === 'reversed') {
            tender.status = 'reversed';
          } else if (row.state === 'reversing' && row.message) {
            // Reversed by decision (an approval the chip card never confirmed): the journal says why.
            tender.status = 'reversed';
            tender.message = row.message;
          } else {
            tender.status = 'unknown';
            tender.message = UNKNOWN_MESSAGE;
          }
        }
        this.tickets.set(view.ticketId, this.recompute(view));
      } catch {
        this.deps.log.log('warn', 'sale', `ticket ${t.ticketId} could not be restored`);
      }
    }
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  // ---------------------------------------------------------------------------------------------------
  // Tickets

  async open(req: SaleOpenRequest): Promise<TicketView> {
    if (!isCents(req.subtotalCents) || req.subtotalCents <= 0)
      throw new BridgeFailure('invalid', 'The amount must be a positive number of cents.');
    if (req.purpose !== undefined && req.purpose !== 'sale' && req.purpose !== 'gift-reload')
      throw new BridgeFailure('invalid', 'A ticket is for a sale or a gift card load.');
    const reload = req.purpose === 'gift-reload';
    if (reload) checkReloadOpen(req);
    const rate = this.deps.settings().sale.taxRatePercent;
    // The same rule the screen previews with (common/percent.ts): half up on the exact product.
    const tax = reload ? 0 : (req.taxCents ?? taxCents(req.subtotalCents, rate));
    const tip = req.tipCents ?? 0;
    if (!isCents(tax) || tax < 0 || !isCents(tip) || tip < 0)
      throw new BridgeFailure('invalid', 'Tax and tip must be zero or a positive number of cents.');
    if (
      req.invoiceNumber !== undefined &&
      (typeof req.invoiceNumber !== 'string' || req.invoiceNumber.length > 64)
    )
      throw new BridgeFailure('invalid', 'The invoice number is at most 64 characters.');
    const now = this.deps.clock.now();
    const ticket: TicketView = this.recompute({
      ticketId: newId('T'),
      status: 'open',
      subtotalCents: req.subtotalCents,
      taxCents: tax,
      tipCents: tip,
      totalCents: 0,
      paidCents: 0,
      remainingCents: 0,
      tenders: [],
      ...(req.invoiceNumber ? { invoiceNumber: req.invoiceNumber } : {}),
      ...(reload ? { purpose: 'gift-reload' as const } : {}),
      openedAt: now,
    });
    this.tickets.set(ticket.ticketId, ticket);
    await this.persist(ticket);
    return ticket;
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

  async get(ticketId: string): Promise<TicketView> {
    const t = this.tickets.get(ticketId);
    if (t) return t;
    const rec = await this.deps.journal.getTicket(ticketId);
    if (!rec) throw new BridgeFailure('not-found', 'No such ticket.');
    return JSON.parse(rec.data) as TicketView;
  }

  private openTicket(ticketId: string): TicketView {
    const t = this.tickets.get(ticketId);
    if (!t) throw new BridgeFailure('not-found', 'No such open ticket.');
    if (t.status !== 'open') throw new BridgeFailure('conflict', `The ticket is ${t.status}.`);
    return t;
  }

  async setTip(ticketId: string, tipCents: number): Promise<TicketView> {
    const t = this.openTicket(ticketId);
    if (!isCents(tipCents) || tipCents < 0)
      throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.');
    if (t.purpose === 'gift-reload' && tipCents > 0)
      throw new BridgeFailure('invalid', 'A gift card load carries no tip.');
    if (t.tenders.some((x) => x.status === 'approved' || x.status === 'partial' || x.status === 'stored'))
      throw new BridgeFailure(
        'conflict',
        'A tender is already approved: add the tip on the next tender instead.',
      );
    t.tipCents = tipCents;
    this.recompute(t);
    await this.persist(t);
    return t;
  }

  /** Totals follow from the tenders; a ticket is paid once nothing remains and every signature is in. */
  private recompute(t: TicketView): TicketView {
    t.totalCents = t.subtotalCents + t.taxCents + t.tipCents;
    t.paidCents = t.tenders
      .filter((x) => x.status === 'approved' || x.status === 'partial' || x.status === 'stored')
      .reduce((s, x) => s + x.approvedCents, 0);
    t.remainingCents = Math.max(0, t.totalCents - t.paidCents);
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
    if (this.deps.settings().sale.autoPrint && this.deps.connected('receiptPrinter')) {
      const openDrawer = t.tenders.some((x) => x.kind === 'cash' && x.status === 'approved');
      // Printing must not hold up the answer to the cashier; its outcome arrives as `receipt.printed`.
      void this.print(t, 'customer', openDrawer).catch(() => undefined);
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
    this.deps.emit('sale.progress', {
      ticketId,
      tenderId,
      step,
      prompt,
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    });
  }

  async pay(req: SalePayRequest): Promise<SaleOutcome> {
    const t = this.openTicket(req.ticketId);
    if (this.active)
      throw new BridgeFailure('busy', 'Another tender is in progress: finish or cancel it first.');
    const tender = req.tender as TenderRequest | undefined;
    if (!tender || typeof tender !== 'object' || typeof tender.kind !== 'string')
      throw new BridgeFailure('invalid', 'Choose a tender.');
    if (req.tipCents !== undefined && (!isCents(req.tipCents) || req.tipCents < 0))
      throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.');
    const tip = req.tipCents ?? 0;
    checkReloadTender(t, tender, tip);
    const remainingWithTip = t.remainingCents + tip;
    const amount = req.amountCents ?? remainingWithTip;
    if (!isCents(amount) || amount <= 0)
      throw new BridgeFailure('invalid', 'The amount must be a positive number of cents.');
    if (amount > remainingWithTip && tender.kind !== 'cash')
      throw new BridgeFailure('invalid', 'The amount is more than what remains on the ticket.');
    if (tip > 0) {
      t.tipCents += tip;
      this.recompute(t);
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
      await this.runTender(t, view, tender, req, abort.signal);
    } catch (error) {
      if (view.status === 'in-progress') {
        view.status = error instanceof BridgeFailure && error.code === 'device' ? 'cancelled' : 'declined';
        view.message = error instanceof Error ? error.message : String(error);
      }
      if (!(error instanceof BridgeFailure) || view.userTransactionNumber === undefined) {
        this.recompute(t);
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
    this.recompute(t);
    await this.persist(t);
    const signatureRequired = view.signature?.required === true && !view.signature.captured;
    if (signatureRequired) {
      this.progress(t.ticketId, view.tenderId, 'signature', 'Sign here');
      if (this.deps.connected('signaturePad')) this.deps.devices()?.signaturePad.startCapture();
    } else
      this.progress(t.ticketId, view.tenderId, 'done', view.status === 'unknown' ? UNKNOWN_MESSAGE : 'Done');
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

  async abandon(ticketId: string, approvedBy: () => Promise<string>): Promise<TicketView> {
    const t = this.openTicket(ticketId);
    if (this.active?.ticketId === ticketId)
      throw new BridgeFailure('busy', 'Cancel the tender in progress first.');
    const taken = t.tenders.filter(
      (x) => (x.status === 'approved' || x.status === 'partial') && x.userTransactionNumber,
    );
    if (taken.length > 0) await approvedBy();
    for (const x of taken) {
      if (x.kind === 'cash' || x.kind === 'check') {
        x.message =
          x.kind === 'cash' ? 'Give the cash back to the customer.' : 'Return the check to the customer.';
        x.status = 'voided';
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
    this.recompute(t);
    await this.persist(t);
    this.tickets.delete(t.ticketId);
    return t;
  }

  async signature(ticketId: string, tenderId: string, input: SignatureInput): Promise<TenderView> {
    const t = await this.get(ticketId);
    const live = this.tickets.get(ticketId) ?? t;
    const tender = live.tenders.find((x) => x.tenderId === tenderId);
    if (!tender) throw new BridgeFailure('not-found', 'No such tender on this ticket.');
    if (!tender.signature?.required) throw new BridgeFailure('conflict', 'This tender needs no signature.');
    let svg: string | undefined;
    if (input.source === 'pad') {
      const sig = await this.deps.devices()?.signaturePad.finishCapture();
      if (!sig)
        throw new BridgeFailure('device', 'Nothing was signed on the pad: ask the customer to sign again.');
      svg = sig.svg;
    } else if (input.source === 'screen') {
      svg = signatureSvg(input);
      if (!svg) throw new BridgeFailure('invalid', 'The signature is empty.');
    } else throw new BridgeFailure('invalid', 'Unknown signature source.');
    tender.signature = { required: true, captured: true, svg };
    this.recompute(live);
    await this.persist(live);
    await this.maybeFinish(live);
    return tender;
  }

  private async runTender(
    t: TicketView,
    view: TenderView,
    tender: TenderRequest,
    req: SalePayRequest,
    signal: AbortSignal,
  ): Promise<void> {
    const amount = view.requestedCents;
    const split = this.split(t, view.requestedCents);
    const prompt = (step: SaleStep, text: string, seconds?: number) =>
      this.progress(t.ticketId, view.tenderId, step, text, seconds);
    const settings = this.deps.settings().sale;

    switch (tender.kind) {
      case 'cash': {
        if (!isCents(tender.tenderedCents) || tender.tenderedCents <= 0)
          throw new BridgeFailure('invalid', 'Enter the cash the customer handed over.');
        const take = Math.min(tender.tenderedCents, view.requestedCents);
        const row = await this.deps.journal.allocate({
          ...this.entryBase(t, view, 'cash', take, split),
          state: 'approved',
          approvedCents: take,
          now: this.deps.clock.now(),
        });
        view.userTransactionNumber = row.utn;
        view.approvedCents = take;
        view.requestedCents = take;
        view.changeCents = Math.max(0, tender.tenderedCents - take);
        view.status = 'approved';
        return;
      }
      case 'check': {
        const c = tender.check;
        if (
          !c ||
          !/^\d{9}$/.test(c.routingNumber ?? '') ||
          !/^\d{4,17}$/.test(c.accountNumber ?? '') ||
          !/^\d{1,10}$/.test(c.checkNumber ?? '')
        )
          throw new BridgeFailure(
            'invalid',
            'Enter the routing number (9 digits), account number and check number.',
          );
        const fields = {
          ROUTING_NUMBER: c.routingNumber,
          ACCOUNT_NUMBER: c.accountNumber,
          CHECK_NUMBER: c.checkNumber,
          CHECK_AMOUNT: (amount / 100).toFixed(2),
          ACCOUNT_TYPE: c.accountType === 'SAVING' ? ('SAVING' as const) : ('CHECKING' as const),
          PacketIdentifier: 'A' as const,
          ...(c.firstName ? { FIRST_NAME: c.firstName } : {}),
          ...(c.lastName ? { LAST_NAME: c.lastName } : {}),
          ...(c.dlNumber ? { DL_NUMBER: c.dlNumber } : {}),
          ...(c.dlState ? { DL_STATE: c.dlState } : {}),
          ...(c.phone ? { PHONE_NUMBER: c.phone } : {}),
        };
        view.card = { last4: lastFour(c.accountNumber), cardType: 'Check' };
        prompt('authorizing', 'Authorizing check…');
        // A check has no UserTransactionNumber at the gateway, so DoReversal cannot undo it: an unknown
        // outcome is left for the reconciliation view instead of a reversal.
        const { row, result } = await this.journaled(
          {
            ...this.entryBase(t, view, 'check', amount, split),
            last4: view.card.last4 ?? null,
            cardType: 'Check',
          },
          () => this.deps.gateway().processCheck(fields),
          { reversible: false },
        );
        await this.applyResult(view, row, result, {}, (r) => ({
          approvedCents: amount,
          srn: r.TransactionInfo?.ServiceTransactionNumber,
        }));
        return;
      }
      case 'token': {
        if (typeof tender.token !== 'string' || tender.token.length === 0 || tender.token.length > 128)
          throw new BridgeFailure('invalid', 'Choose a card on file.');
        view.card = { cardType: 'Card on file' };
        prompt('authorizing', 'Authorizing…');
        const { row, result } = await this.journaled(
          this.entryBase(t, view, 'token-sale', amount, split),
          (utn) =>
            this.deps.gateway().saleWithToken({
              ...this.amountFields(split),
              TransactionType: TransactionType.CREDIT_WITH_TOKEN,
              UserTransactionNumber: utn,
              Token: tender.token,
              ...(req.allowDuplicate ? { ForceDuplication: true } : {}),
              ...(t.invoiceNumber ? { InvoiceNumber: t.invoiceNumber } : {}),
            }),
          { inquire: (utn) => this.inquireSale(utn) },
        );
        await this.applySale(view, row, result, split);
        return;
      }
      case 'credit':
      case 'preauth': {
        const got = await acquireCard({
          devices: this.deps.devices(),
          entry: tender.entry,
          keyed: tender.keyed,
          amountCents: amount,
          timeoutMs: settings.cardWaitMs,
          signal,
          prompt,
          connected: (r) => this.deps.connected(r),
          chipFallbackAfterFailures: settings.chipFallbackAfterFailures,
        });
        if (got.kind !== 'card')
          return this.stopped(view, got.kind, 'reason' in got ? got.reason : undefined);
        const card = got.card;
        view.card = cardSummary(card);
        const chip = this.chipSale(card);
        // The chip's CVM (EMV Book 3 §10.5): a card that asks for its PIN online pays as PIN debit.
        let pinBlock: { ksn: string; pinBlock: string } | undefined;
        if (chip?.cvm === 'online-pin') {
          if (tender.kind === 'preauth') {
            view.status = 'declined';
            view.message = PIN_CARD_ON_HOLD;
            return;
          }
          if (!this.deps.connected('pinPad'))
            return this.stopped(view, 'failed', 'the card asks for its PIN and the PIN pad is not connected');
          const pin = await this.pin(card, amount, signal, prompt);
          if (pin.kind !== 'pin')
            return this.stopped(
              view,
              pin.kind === 'failed' ? 'failed' : pin.kind,
              pin.kind === 'failed' ? pin.reason : undefined,
            );
          pinBlock = { ksn: pin.ksn, pinBlock: pin.pinBlock };
        }
        prompt('authorizing', chip ? 'Authorizing… Do not remove the card' : 'Authorizing…');
        const operation: JournalOperation =
          tender.kind === 'preauth' ? 'preauth' : pinBlock ? 'debit' : 'sale';
        const fields = {
          ...this.amountFields(split),
          TransactionType:
            tender.kind === 'preauth'
              ? TransactionType.Pre_Authorization
              : pinBlock
                ? TransactionType.SaleDebit
                : TransactionType.CREDIT,
          ...cardFields(card),
          ...(pinBlock ? { KSN: pinBlock.ksn, PinBlock: pinBlock.pinBlock } : {}),
          ...(req.allowDuplicate ? { ForceDuplication: true } : {}),
          ...(t.invoiceNumber ? { InvoiceNumber: t.invoiceNumber } : {}),
        };
        const { row, result } = await this.journaled(
          {
            ...this.entryBase(t, view, operation, amount, split),
            last4: card.last4,
            cardType: card.brand,
            entryMode: card.entry,
          },
          (utn) => {
            const body = { ...fields, UserTransactionNumber: utn };
            return tender.kind === 'preauth'
              ? this.deps.gateway().preAuthorization(body)
              : pinBlock
                ? this.deps.gateway().saleDebit(body)
                : this.deps.gateway().sale(body);
          },
          {
            inquire: (utn) => this.inquireSale(utn),
            offline: async (r) => {
              // A PIN block is never stored (store-and-forward is credit only).
              if (tender.kind !== 'credit' || pinBlock) return false;
              const exposure = await this.deps.saf.exposure();
              const ok = safEligibility(this.deps.settings().saf, exposure.exposureCents, {
                source: card.source,
                tender: 'credit',
                amountCents: amount,
              });
              if (!ok.ok) {
                view.message = `The gateway is unreachable (offline); nothing was charged. ${ok.reason}`;
                return false;
              }
              if (chip && !(await chip.approvesOffline())) {
                view.message =
                  'The gateway is unreachable (offline) and the card declined offline; nothing was charged.';
                return false;
              }
              const stored = await this.deps.saf.store(
                r,
                { ...fields, UserTransactionNumber: r.utn },
                card.last4,
                card.brand,
              );
              view.userTransactionNumber = stored.utn;
              view.status = 'stored';
              view.approvedCents = amount;
              view.message = 'Approved offline (store-and-forward): forwarded when the gateway returns.';
              return true;
            },
          },
        );
        if (view.status !== 'stored') {
          const verdict = chip ? await chip.afterAnswer(row, result) : undefined;
          if (verdict?.kind === 'refused') refusedTender(view, verdict.row, verdict.why);
          else
            await this.applySale(
              view,
              row,
              result,
              split,
              verdict?.kind === 'confirmed' ? verdict.patch : {},
            );
        }
        if (card.source === 'emv') prompt('remove-card', 'Remove card');
        const floor = this.deps.settings().sale.signatureFloorCents;
        // A chip card says itself whether it wants a signature (its CVM); other cards follow the floor.
        const wantsSignature = chip ? chip.cvm === 'signature' : view.approvedCents >= floor;
        if (
          (view.status === 'approved' || view.status === 'partial' || view.status === 'stored') &&
          wantsSignature
        ) {
          view.signature = { required: true, captured: false };
        }
        return;
      }
      case 'debit':
      case 'ebt': {
        const entry = tender.entry ?? 'present';
        const cashBack = tender.kind === 'debit' ? (tender.cashBackCents ?? 0) : 0;
        if (!isCents(cashBack) || cashBack < 0)
          throw new BridgeFailure('invalid', 'Cash back must be zero or a positive number of cents.');
        if (!this.deps.connected('pinPad'))
          throw new BridgeFailure(
            'device',
            'The PIN pad is not connected: use credit or ask a tech to check the PIN pad.',
          );
        const got = await acquireCard({
          devices: this.deps.devices(),
          entry,
          amountCents: amount + cashBack,
          otherAmountCents: cashBack,
          timeoutMs: settings.cardWaitMs,
          signal,
          prompt,
          connected: (r) => this.deps.connected(r),
          chipFallbackAfterFailures: settings.chipFallbackAfterFailures,
        });
        if (got.kind !== 'card')
          return this.stopped(view, got.kind, 'reason' in got ? got.reason : undefined);
        const card = got.card;
        view.card = cardSummary(card, tender.kind === 'ebt' ? 'EBT' : undefined);
        const chip = this.chipSale(card);
        const pin = await this.pin(card, amount + cashBack, signal, prompt);
        if (pin.kind !== 'pin')
          return this.stopped(
            view,
            pin.kind === 'failed' ? 'failed' : pin.kind,
            pin.kind === 'failed' ? pin.reason : undefined,
          );
        prompt('authorizing', chip ? 'Authorizing… Do not remove the card' : 'Authorizing…');
        const program: EbtProgram | undefined = tender.kind === 'ebt' ? tender.program : undefined;
        const operation: JournalOperation =
          tender.kind === 'debit' ? 'debit' : program === 'cash' ? 'ebt-cash' : 'ebt-food';
        const fields = {
          ...(tender.kind === 'ebt' && program === 'food'
            ? { Amount: toWire(amount) } // EBT food: no tax, tip or cash back (gateway rule)
            : this.amountFields(split)),
          ...cardFields(card),
          KSN: pin.ksn,
          PinBlock: pin.pinBlock,
          ...(cashBack > 0 ? { CashBackAmount: toWire(cashBack) } : {}),
          ...(req.allowDuplicate ? { ForceDuplication: true } : {}),
        };
        view.cashBackCents = cashBack;
        const { row, result } = await this.journaled(
          {
            ...this.entryBase(t, view, operation, amount, split),
            cashBackCents: cashBack,
            last4: card.last4,
            cardType: view.card.cardType ?? card.brand,
            entryMode: card.entry,
          },
          (utn) =>
            tender.kind === 'debit'
              ? this.deps.gateway().saleDebit({
                  ...fields,
                  TransactionType: TransactionType.SaleDebit,
                  UserTransactionNumber: utn,
                })
              : this.deps.gateway().ebtSale(program === 'cash' ? 'cash' : 'food', {
                  ...fields,
                  TransactionType: TransactionType.EBT,
                  UserTransactionNumber: utn,
                }),
          { inquire: (utn) => this.inquireSale(utn) },
        );
        const verdict = chip ? await chip.afterAnswer(row, result) : undefined;
        if (verdict?.kind === 'refused') refusedTender(view, verdict.row, verdict.why);
        else
          await this.applySale(view, row, result, split, verdict?.kind === 'confirmed' ? verdict.patch : {});
        if (card.source === 'emv') prompt('remove-card', 'Remove card');
        return;
      }
      case 'gift': {
        let card: AcquiredCard;
        if (tender.entry === 'keyed') card = this.giftKeyed(tender.keyed?.cardNumber);
        else {
          const got = await acquireCard({
            devices: this.deps.devices(),
            entry: 'swipe',
            amountCents: amount,
            timeoutMs: settings.cardWaitMs,
            signal,
            prompt,
            connected: (r) => this.deps.connected(r),
            chip: 'none',
          });
          if (got.kind !== 'card')
            return this.stopped(view, got.kind, 'reason' in got ? got.reason : undefined);
          card = got.card;
        }
        view.card = { ...cardSummary(card, 'Gift'), maskedPan: card.maskedPan };
        prompt('authorizing', 'Authorizing…');
        const { row, result } = await this.journaled(
          {
            ...this.entryBase(t, view, 'gift-sale', amount, split),
            last4: card.last4,
            cardType: 'Gift',
            entryMode: card.entry,
          },
          (utn) =>
            this.deps.gateway().giftSale({
              ...this.amountFields(split),
              TransactionType: TransactionType.GIFTCARD,
              UserTransactionNumber: utn,
              ...this.giftFields(card),
              ...(req.allowDuplicate ? { ForceDuplication: true } : {}),
            }),
          { inquire: (utn) => this.inquireSale(utn) },
        );
        await this.applySale(view, row, result, split);
        return;
      }
      default:
        throw new BridgeFailure('invalid', 'Unknown tender.');
    }
  }

  /**
   * The chip conversation of a card read from the contact slot that went online (chip-sale.ts). It is
   * kept on the tender in progress, so pay() releases the card if the tender stops before the card is
   * told anything.
   */
  private chipSale(card: AcquiredCard): ChipSale | undefined {
    const chip = ChipSale.for(card, this.deps.devices()?.chipReader, {
      journal: this.deps.journal,
      clock: this.deps.clock,
      log: this.deps.log,
      kickReversals: this.deps.kickReversals,
    });
    if (chip && this.active) this.active.chip = chip;
    return chip;
  }

  private giftKeyed(cardNumber: string | undefined): AcquiredCard {
    const pan = (cardNumber ?? '').replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(pan))
      throw new BridgeFailure('invalid', 'The gift card number is 12 to 19 digits.');
    return {
      source: 'keyed',
      pan,
      expiry: '',
      maskedPan: maskPan(pan),
      last4: lastFour(pan),
      brand: 'Gift',
      entry: 'keyed',
    };
  }

  private stopped(view: TenderView, why: 'cancelled' | 'timeout' | 'failed', reason?: string): void {
    view.status = 'cancelled';
    view.message =
      why === 'cancelled'
        ? 'Cancelled.'
        : why === 'timeout'
          ? 'No card or PIN in time: try again.'
          : `The device failed: ${reason ?? 'try again'}.`;
  }

  private async pin(
    card: AcquiredCard,
    amountCents: number,
    signal: AbortSignal,
    prompt: (step: SaleStep, text: string, seconds?: number) => void,
  ) {
    const pad = this.deps.devices()?.pinPad;
    if (!pad) return { kind: 'failed' as const, reason: 'PIN pad not connected' };
    const timeoutMs = this.deps.settings().sale.pinWaitMs;
    prompt('pin-entry', 'Customer entering PIN', Math.round(timeoutMs / 1000));
    const onAbort = () => {
      pad.cancel().catch(() => undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await pad.requestPin({ pan: card.pan, amountCents, timeoutMs });
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * How one tender's amount is split for the gateway. A tender that pays the whole ticket sends its tax and
   * tip as such; a part payment sends the tip first (it belongs to the card that added it) and the rest as
   * the base amount.
   */
  private split(t: TicketView, amountCents: number): Split {
    const paid = t.paidCents;
    if (paid === 0 && amountCents === t.totalCents)
      return { baseCents: t.subtotalCents, taxCents: t.taxCents, tipCents: t.tipCents };
    const tipPaid = t.tenders
      .filter((x) => x.status === 'approved' || x.status === 'partial')
      .reduce((s, x) => s + x.tipCents, 0);
    const tip = Math.min(Math.max(0, t.tipCents - tipPaid), amountCents - 1);
    return { baseCents: amountCents - Math.max(0, tip), taxCents: 0, tipCents: Math.max(0, tip) };
  }

  private amountFields(s: Split): { Amount: number; TaxAmount?: number; TipAmount?: number } {
    return {
      Amount: toWire(s.baseCents),
      ...(s.taxCents > 0 ? { TaxAmount: toWire(s.taxCents) } : {}),
      ...(s.tipCents > 0 ? { TipAmount: toWire(s.tipCents) } : {}),
    };
  }

  private entryBase(
    t: TicketView,
    view: TenderView,
    operation: JournalOperation,
    amount: number,
    s: Split,
  ): Omit<NewEntry, 'now'> {
    return {
      laneId: this.deps.settings().laneId,
      operation,
      amountCents: amount - s.tipCents,
      tipCents: s.tipCents,
      taxCents: s.taxCents,
      ticketId: t.ticketId,
      tenderId: view.tenderId,
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // The journaled call

  /**
   * Commit the journal row, send, record the answer. `offline` may take over a request that provably never
   * left (store-and-forward); `reversible: false` leaves an unknown outcome for the reconciliation view
   * (checks have no UserTransactionNumber at the gateway).
   */
  async journaled<R>(
    entry: Omit<NewEntry, 'now'>,
    send: (utn: string) => Promise<GatewayResult<R>>,
    options: {
      reversible?: boolean;
      offline?: (row: JournalRow) => Promise<boolean>;
      /** What the gateway recorded for this number, when the answer was lost (see `inquireSale`). */
      inquire?: (utn: string) => Promise<GatewayResult<R> | undefined>;
    } = {},
  ): Promise<{ row: JournalRow; result: GatewayResult<R> }> {
    const row = await this.deps.journal.allocate({ ...entry, now: this.deps.clock.now() });
    let result: GatewayResult<R>;
    try {
      result = await send(row.utn);
    } catch (error) {
      // A bug between commit and answer: treat as an unknown outcome, which is always safe.
      result = {
        ok: false,
        failure: { kind: 'unknown-outcome', message: error instanceof Error ? error.message : String(error) },
      };
    }
    // The answer was lost while the cashier's ticket is open: ask before reversing (the card networks'
    // inquiry-then-reverse order). The row stays `sending` meanwhile, so a crash now recovers it as
    // unknown and reverses it, exactly as before; an answer the inquiry cannot give leaves today's path.
    if (
      !result.ok &&
      result.failure.kind === 'unknown-outcome' &&
      (options.reversible ?? true) &&
      options.inquire
    ) {
      const known = await options.inquire(row.utn).catch(() => undefined);
      if (known) {
        this.deps.log.log(
          'info',
          'sale',
          `${row.utn} ${entry.operation}: answer lost (${result.failure.message}); GetTransaction says ${known.ok ? 'approved' : 'declined'}`,
        );
        result = known;
      }
    }
    const now = this.deps.clock.now();
    if (result.ok) {
      this.deps.gatewayReached(true);
      return { row, result };
    }
    const f = result.failure;
    this.deps.gatewayReached(f.where !== 'network', f.where === 'network' ? f.message : undefined);
    if (f.kind === 'unknown-outcome') {
      const reversible = options.reversible ?? true;
      const updated = reversible
        ? await this.deps.journal.markUnknown(row.utn, f.message, now, now)
        : await this.deps.journal.update(
            row.utn,
            { state: 'unknown', message: `${f.message} (check the reconciliation view)` },
            now,
          );
      if (reversible) this.deps.kickReversals();
      this.deps.log.log(
        'warn',
        'sale',
        `${row.utn} ${entry.operation}: unknown outcome (${f.message})${reversible ? '; reversal queued' : ''}`,
      );
      return { row: updated, result };
    }
    if (
      f.kind === 'unreachable' &&
      f.where === 'network' &&
      options.offline &&
      (await options.offline(row))
    ) {
      return { row: (await this.deps.journal.get(row.utn)) ?? row, result };
    }
    const updated = await this.deps.journal.update(
      row.utn,
      {
        state: f.kind === 'declined' ? 'declined' : 'failed',
        message: result.confirmedByInquiry
          ? `${f.message} (answer lost; confirmed by GetTransaction)`
          : f.message,
        ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
      },
      now,
    );
    return { row: updated, result };
  }

  /**
   * What the gateway recorded for a tender whose answer was lost: its approval (the ticket completes with
   * it: no second charge, no needless reversal) or its decline; anything else — not found, still at the
   * processor, voided, no answer to the inquiry either — is undefined and the tender takes today's path
   * (unknown, reversal queued; a reversal of a number that never arrived blocks it against a late original).
   */
  private async inquireSale(utn: string): Promise<GatewayResult<SaleAnswer> | undefined> {
    const r = await this.deps.gateway().getTransaction(utn);
    if (r.ok) {
      return r.response.TransactionStatus === 'Approved'
        ? { ok: true, code: r.code, response: r.response, confirmedByInquiry: true }
        : undefined;
    }
    if (r.failure.kind === 'declined' && r.response?.TransactionStatus === 'Declined')
      return { ok: false, failure: r.failure, response: r.response, confirmedByInquiry: true };
    return undefined;
  }

  /** A sale response onto the tender and the journal row (`patch`: what the chip card said, if any). */
  private applySale(
    view: TenderView,
    row: JournalRow,
    result: GatewayResult<SaleAnswer>,
    split: Split,
    patch: EntryPatch = {},
  ): Promise<void> {
    return this.applyResult(view, row, result, patch, (r) => {
      const asked = split.baseCents + split.taxCents + split.tipCents;
      const partial = result.ok && result.code === ResponseCode.PartialApproval;
      const approved = partial ? fromWire(r.Amount) + fromWire(r.TaxAmount) + fromWire(r.TipAmount) : asked;
      return {
        approvedCents: Math.min(asked, approved),
        authCode: r.AuthorizationNumber,
        srn: r.ServiceReferenceNumber,
        cardType: r.CardType,
        balanceCents: balanceCents(r.Balance),
      };
    });
  }

  private async applyResult<R extends { Msg: string[] }>(
    view: TenderView,
    row: JournalRow,
    result: GatewayResult<R>,
    patch: EntryPatch,
    read: (r: R) => {
      approvedCents: number;
      authCode?: string | undefined;
      srn?: string | undefined;
      cardType?: string | undefined;
      balanceCents?: number | undefined;
    },
  ): Promise<void> {
    view.userTransactionNumber = row.utn;
    if (!result.ok) {
      const f = result.failure;
      view.status =
        f.kind === 'unknown-outcome'
          ? 'unknown'
          : f.kind === 'unreachable' && f.where === 'network'
            ? 'offline-refused'
            : 'declined';
      view.message = view.message ?? failureMessage(f);
      if (f.code !== undefined) view.gatewayCode = f.code;
      if (f.declineCode !== undefined) view.declineCode = f.declineCode;
      if (result.response && 'Balance' in result.response) {
        const b = balanceCents((result.response as { Balance?: string }).Balance);
        if (b !== undefined) view.balanceCents = b;
      }
      return;
    }
    const got = read(result.response);
    const partial = got.approvedCents < view.requestedCents;
    view.status = partial ? 'partial' : 'approved';
    view.approvedCents = got.approvedCents;
    view.gatewayCode = result.code;
    if (got.authCode) view.authCode = got.authCode;
    if (got.srn) view.serviceReferenceNumber = got.srn;
    if (got.cardType && view.card) view.card.cardType = got.cardType;
    if (got.balanceCents !== undefined) view.balanceCents = got.balanceCents;
    if (partial)
      view.message = `Partially approved for ${(got.approvedCents / 100).toFixed(2)}: collect the rest with another tender.`;
    // Committed before the cashier sees "approved": a crash after this point keeps the sale.
    await this.deps.journal.update(
      row.utn,
      {
        ...patch,
        state: partial ? 'partial' : 'approved',
        approvedCents: view.approvedCents,
        authCode: view.authCode ?? null,
        srn: view.serviceReferenceNumber ?? null,
        cardType: view.card?.cardType ?? null,
        gatewayCode: view.gatewayCode ?? null,
        message:
          (partial ? 'Partial approval' : 'Approved') +
          (result.confirmedByInquiry ? ' (answer lost; confirmed by GetTransaction)' : ''),
      },
      this.deps.clock.now(),
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Refunds, voids, pre-authorization completion, gift reload, balances

  async refund(srn: string, amountCents: number | undefined): Promise<RefundOutcome> {
    if (typeof srn !== 'string' || srn.length === 0)
      throw new BridgeFailure('invalid', 'Choose the transaction to refund.');
    if (amountCents !== undefined && (!isCents(amountCents) || amountCents <= 0))
      throw new BridgeFailure('invalid', 'The refund amount must be a positive number of cents.');
    const original = await this.deps.journal.bySrn(srn);
    const refundable = original ? original.approvedCents - original.refundedCents : undefined;
    if (amountCents !== undefined && refundable !== undefined && amountCents > refundable)
      throw new BridgeFailure('invalid', `At most ${(refundable / 100).toFixed(2)} can be refunded.`);
    const amount = amountCents ?? refundable ?? 0;
    const { row, result } = await this.journaled(
      {
        laneId: this.deps.settings().laneId,
        operation: 'refund',
        amountCents: amount,
        originalSrn: srn,
        last4: original?.last4 ?? null,
        cardType: original?.cardType ?? null,
      },
      (utn) =>
        amountCents === undefined
          ? this.deps.gateway().doFullRefund({ ServiceTransactionNumber: srn, UserTransactionNumber: utn })
          : this.deps.gateway().doRefund({
              ServiceTransactionNumber: srn,
              UserTransactionNumber: utn,
              Amount: toWire(amountCents),
            }),
    );
    if (!result.ok) throw this.failureOf(result.failure);
    const r = result.response;
    const refunded =
      amountCents ??
      (fromWire((r as { RefundedAmount?: number }).RefundedAmount) || fromWire(r.Amount) || amount);
    const now = this.deps.clock.now();
    const done = await this.deps.journal.update(
      row.utn,
      {
        state: 'approved',
        amountCents: refunded,
        approvedCents: refunded,
        authCode: r.AuthorizationNumber ?? null,
        srn: r.ServiceReferenceNumber ?? null,
        gatewayCode: result.code,
        message: 'Refunded',
      },
      now,
    );
    let remaining: number | undefined;
    if (original) {
      const total = original.refundedCents + refunded;
      remaining = Math.max(0, original.approvedCents - total);
      await this.deps.journal.update(
        original.utn,
        { refundedCents: total, ...(remaining === 0 ? { state: 'refunded' } : {}) },
        now,
      );
    }
    return {
      transaction: toTransactionView(done),
      ...(remaining !== undefined ? { remainingRefundableCents: remaining } : {}),
    };
  }

  async void(srn: string): Promise<RefundOutcome> {
    if (typeof srn !== 'string' || srn.length === 0)
      throw new BridgeFailure('invalid', 'Choose the transaction to void.');
    const original = await this.deps.journal.bySrn(srn);
    // A void cannot be reversed (the gateway refuses DoReversal of a void): an unknown void is checked in
    // the reconciliation view, and voiding again is safe (a second void is refused, never doubled).
    const { row, result } = await this.journaled(
      {
        laneId: this.deps.settings().laneId,
        operation: 'void',
        amountCents: original ? original.approvedCents : 0,
        originalSrn: srn,
        last4: original?.last4 ?? null,
        cardType: original?.cardType ?? null,
      },
      (utn) => this.deps.gateway().doVoid({ ServiceTransactionNumber: srn, UserTransactionNumber: utn }),
      { reversible: false },
    );
    if (!result.ok) throw this.failureOf(result.failure);
    const now = this.deps.clock.now();
    const done = await this.deps.journal.update(
      row.utn,
      { state: 'approved', approvedCents: row.amountCents, gatewayCode: result.code, message: 'Voided' },
      now,
    );
    if (original) await this.deps.journal.update(original.utn, { state: 'voided' }, now);
    return { transaction: toTransactionView(done) };
  }

  async preauthComplete(req: PreauthCompleteRequest): Promise<TransactionView> {
    if (typeof req.serviceReferenceNumber !== 'string' || !isCents(req.amountCents) || req.amountCents <= 0)
      throw new BridgeFailure('invalid', 'Choose the pre-authorization and the final amount.');
    const tip = req.tipCents ?? 0;
    if (!isCents(tip) || tip < 0)
      throw new BridgeFailure('invalid', 'The tip must be zero or a positive number of cents.');
    const original = await this.deps.journal.bySrn(req.serviceReferenceNumber);
    const { row, result } = await this.journaled(
      {
        laneId: this.deps.settings().laneId,
        operation: 'preauth-complete',
        amountCents: req.amountCents,
        tipCents: tip,
        originalSrn: req.serviceReferenceNumber,
        last4: original?.last4 ?? null,
        cardType: original?.cardType ?? null,
      },
      (utn) =>
        this.deps.gateway().closePreauth({
          Amount: toWire(req.amountCents),
          ServiceReferenceNumber: req.serviceReferenceNumber,
          UserTransactionNumber: utn,
          ...(tip > 0 ? { AdditionalTip: toWire(tip) } : {}),
        }),
    );
    if (!result.ok) throw this.failureOf(result.failure);
    const r = result.response;
    const done = await this.deps.journal.update(
      row.utn,
      {
        state: 'approved',
        approvedCents: req.amountCents + tip,
        authCode: r.AuthorizationNumber ?? null,
        srn: r.ServiceReferenceNumber ?? null,
        gatewayCode: result.code,
        message: 'Pre-authorization completed',
      },
      this.deps.clock.now(),
    );
    return toTransactionView(done);
  }

  private async exclusive<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.active) throw new BridgeFailure('busy', 'A tender is in progress: finish or cancel it first.');
    const abort = new AbortController();
    this.active = { ticketId: '', tenderId: '', abort };
    try {
      return await work(abort.signal);
    } finally {
      this.active = undefined;
    }
  }

  /** Cancels a balance inquiry or reload waiting for a card. */
  cancelOutsideTicket(): void {
    if (this.active?.ticketId === '') this.active.abort.abort();
  }

  private async giftCard(
    entry: 'swipe' | 'keyed' | undefined,
    keyed: { cardNumber: string } | undefined,
    signal: AbortSignal,
  ): Promise<AcquiredCard> {
    if (entry === 'keyed') return this.giftKeyed(keyed?.cardNumber);
    const got = await acquireCard({
      devices: this.deps.devices(),
      entry: 'swipe',
      amountCents: 0,
      timeoutMs: this.deps.settings().sale.cardWaitMs,
      signal,
      prompt: (step, text, s) => this.progress('', '', step, text, s),
      connected: (r) => this.deps.connected(r),
      chip: 'none',
    });
    if (got.kind !== 'card')
      throw new BridgeFailure('device', got.kind === 'cancelled' ? 'Cancelled.' : 'No card in time.');
    return got.card;
  }

  private giftFields(card: AcquiredCard): CardFields {
    // A gift card has no expiry to key: only its number.
    return card.source === 'keyed'
      ? { CardNumber: card.pan, PosEntryMode: 'KeyEntered', PosCode: 'Retail' }
      : cardFields(card);
  }

  giftBalance(
    entry: 'swipe' | 'keyed' | undefined,
    keyed: { cardNumber: string } | undefined,
  ): Promise<BalanceView> {
    return this.exclusive(async (signal) => {
      const card = await this.giftCard(entry, keyed, signal);
      const result = await this.deps
        .gateway()
        .giftBalance({ ...this.giftFields(card), TransactionType: TransactionType.GIFTCARD });
      if (!result.ok) throw this.failureOf(result.failure);
      return {
        kind: 'gift',
        balanceCents: balanceCents(result.response.Balance) ?? 0,
        card: { maskedPan: card.maskedPan, last4: card.last4, cardType: 'Gift', entry: card.entry },
      };
    });
  }

  /**
   * Loads a gift card. With `ticketId`, the load that paid `gift-reload` ticket paid for (checked against
   * the journal's earlier attempts of that ticket); without, the caller has a manager's approval.
   */
  giftReload(
    amountCents: number,
    entry: 'swipe' | 'keyed' | undefined,
    keyed: { cardNumber: string } | undefined,
    ticketId?: string,
  ): Promise<TransactionView> {
    if (!isCents(amountCents) || amountCents <= 0)
      throw new BridgeFailure('invalid', 'The reload amount must be a positive number of cents.');
    return this.exclusive(async (signal) => {
      let ticket: TicketView | undefined;
      if (ticketId !== undefined) {
        ticket = await this.get(ticketId);
        const attempts = (
          await this.deps.journal.list({ operations: ['gift-reload'], limit: 10_000 })
        ).filter((r) => r.ticketId === ticketId);
        checkReloadTicket(ticket, amountCents, attempts);
      }
      const card = await this.giftCard(entry, keyed, signal);
      const { row, result } = await this.journaled(
        {
          laneId: this.deps.settings().laneId,
          operation: 'gift-reload',
          amountCents,
          last4: card.last4,
          cardType: 'Gift',
          entryMode: card.entry,
          ...(ticketId !== undefined ? { ticketId } : {}),
        },
        (utn) =>
          this.deps.gateway().giftReload({
            ...this.giftFields(card),
            Amount: toWire(amountCents),
            TransactionType: TransactionType.GIFTCARD,
            UserTransactionNumber: utn,
          }),
      );
      if (ticket) {
        ticket.giftReload = {
          state: result.ok ? 'loaded' : result.failure.kind === 'unknown-outcome' ? 'unknown' : 'failed',
          amountCents,
          userTransactionNumber: row.utn,
          last4: card.last4,
          ...(result.ok ? {} : { message: failureMessage(result.failure) }),
        };
        await this.persist(ticket);
      }
      if (!result.ok) throw this.failureOf(result.failure);
      const done = await this.deps.journal.update(
        row.utn,
        {
          state: 'approved',
          approvedCents: amountCents,
          authCode: result.response.AuthorizationNumber ?? null,
          srn: result.response.ServiceReferenceNumber ?? null,
          gatewayCode: result.code,
          message: `Reloaded; balance ${result.response.Balance ?? 'unknown'}`,
        },
        this.deps.clock.now(),
      );
      return toTransactionView(done);
    });
  }

  ebtBalance(program: EbtProgram): Promise<BalanceView> {
    if (program !== 'food' && program !== 'cash')
      throw new BridgeFailure('invalid', 'Choose EBT food or cash.');
    return this.exclusive(async (signal) => {
      if (!this.deps.connected('pinPad')) throw new BridgeFailure('device', 'The PIN pad is not connected.');
      const prompt = (step: SaleStep, text: string, s?: number) => this.progress('', '', step, text, s);
      const got = await acquireCard({
        devices: this.deps.devices(),
        entry: 'present',
        amountCents: 0,
        timeoutMs: this.deps.settings().sale.cardWaitMs,
        signal,
        prompt,
        connected: (r) => this.deps.connected(r),
        // A balance inquiry has no issuer answer to hand a chip: the card is swiped or tapped.
        chip: 'none',
      });
      if (got.kind !== 'card')
        throw new BridgeFailure('device', got.kind === 'cancelled' ? 'Cancelled.' : 'No card in time.');
      const pin = await this.pin(got.card, 0, signal, prompt);
      if (pin.kind !== 'pin')
        throw new BridgeFailure('device', pin.kind === 'failed' ? pin.reason : 'No PIN entered.');
      prompt('authorizing', 'Checking balance…');
      const result = await this.deps.gateway().ebtBalance(program, {
        ...cardFields(got.card),
        KSN: pin.ksn,
        PinBlock: pin.pinBlock,
        TransactionType: TransactionType.EBT,
      });
      if (!result.ok) throw this.failureOf(result.failure);
      const r = result.response;
      const b = balanceCents(
        program === 'food' ? (r.FoodStampBalance ?? r.Balance) : (r.CashBenefitsBalance ?? r.Balance),
      );
      prompt('done', 'Done');
      return {
        kind: program === 'food' ? 'ebt-food' : 'ebt-cash',
        balanceCents: b ?? 0,
        card: {
          maskedPan: got.card.maskedPan,
          last4: got.card.last4,
          cardType: 'EBT',
          entry: got.card.entry,
        },
      };
    });
  }

  failureOf(f: GatewayFailure): BridgeFailure {
    const code = f.kind === 'unknown-outcome' ? 'unknown-outcome' : f.kind;
    return new BridgeFailure(code, failureMessage(f), {
      ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
      ...(f.declineCode !== undefined ? { declineCode: f.declineCode } : {}),
    });
  }

  // ---------------------------------------------------------------------------------------------------
  // Receipts

  async receipt(ticketId: string, copy: 'customer' | 'merchant'): Promise<ReceiptView> {
    const t = await this.get(ticketId);
    const s = this.deps.settings();
    return buildReceipt(
      t,
      copy,
      { merchantName: this.deps.merchantName(), laneId: s.laneId, mid: s.gateway.mid },
      this.deps.clock.now(),
    );
  }

  async print(t: TicketView, copy: 'customer' | 'merchant', openDrawer = false): Promise<ReceiptPrintResult> {
    const view = await this.receipt(t.ticketId, copy);
    if (!this.deps.connected('receiptPrinter')) {
      this.deps.emit('receipt.printed', {
        ticketId: t.ticketId,
        printed: false,
        reason: 'No printer connected',
      });
      return { printed: false, reason: 'No printer connected: show the receipt on screen.', receipt: view };
    }
    const printer = this.deps.devices()?.receiptPrinter;
    const r = printer
      ? await printer.print(toPrinterReceipt(view, openDrawer))
      : { ok: false as const, reason: 'offline' as const, message: 'printer not connected' };
    this.deps.emit('receipt.printed', {
      ticketId: t.ticketId,
      printed: r.ok,
      ...(r.ok ? {} : { reason: r.message }),
    });
    return r.ok
      ? { printed: true }
      : { printed: false, reason: `The printer failed: ${r.message}`, receipt: view };
  }

  async printById(ticketId: string, copy: 'customer' | 'merchant'): Promise<ReceiptPrintResult> {
    return this.print(await this.get(ticketId), copy);
  }

  async reprintLast(): Promise<ReceiptPrintResult> {
    if (!this.lastReceiptTicket) throw new BridgeFailure('not-found', 'No receipt to reprint yet.');
    return this.printById(this.lastReceiptTicket, 'customer');
  }
}
