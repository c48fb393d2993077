import type {
  CustomerAsk,
  CustomerDisplayView,
  CustomerReceiptChoiceView,
  CustomerTipChoice,
  CustomerTipChoiceView,
  Events,
  SaleProgress,
  SignatureInput,
  StoreLocaleView,
  TicketView,
  TipAskOutcome,
} from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { emailAddressProblem } from '../../common/email-address';
import type { Language } from '../../common/store-locale';
import { customTipProblem, maxCustomTipCents, tipOptions } from '../../common/tip-choice';
import type { SaleEngine } from '../sale/sale-engine';
import { isTaken } from '../sale/tender-amounts';
import type { Timers } from '../util/clock';
import { customerOutcomeOf, customerPromptOf, customerTicketOf } from './customer-view';
import type { ReceiptMailer } from './receipt-mailer';

/** The "Thank you" stays this long after the receipt choice, then the display welcomes the next customer. */
export const THANKS_MS = 8_000;
/** A receipt nobody chose is not asked for ever: the display goes back to its welcome. */
export const RECEIPT_ASK_MS = 120_000;

export type CustomerDisplayDeps = {
  engine: Pick<SaleEngine, 'get' | 'setTip' | 'signature' | 'printById'>;
  /** The lane's tip settings now. */
  tips: () => { prompt: boolean; presetsPercent: readonly number[] };
  /** Customer displays attached now. */
  displays: () => number;
  storeName: () => string;
  /** The store's locale and currency now. */
  locale?: () => StoreLocaleView;
  emit: (view: Events['customer.updated']) => void;
  timers: Timers;
  /** Email receipts (the email queue); absent where they are not set up. */
  mailer?: ReceiptMailer | undefined;
  thanksMs?: number;
  receiptAskMs?: number;
};

export type CustomerDisplay = ReturnType<typeof createCustomerDisplay>;

type TipAsk = { ticketId: string; done: Promise<TipAskOutcome>; settle: (o: TipAskOutcome) => void };

/**
 * The customer's side of the lane (docs/terminal.md "The customer display"). It follows the sale the core
 * runs (the `sale.updated` and `sale.progress` it emits), holds what the core asks the customer — a tip
 * while the cashier waits, a signature while one is owed, a receipt once the sale is paid — and takes the
 * customer's answer only while it is asked. Everything it publishes is the customer's view
 * (customer-view.ts); the tip goes through the sale engine like any tip, bounded by the one tip rule.
 */
export function createCustomerDisplay(deps: CustomerDisplayDeps) {
  let shown: TicketView | null = null;
  let prompt: SaleProgress | null = null;
  let tipAsk: TipAsk | null = null;
  let tipChoice: CustomerTipChoiceView | undefined;
  let receiptOpen = false;
  let receiptChoice: CustomerReceiptChoiceView | undefined;
  let version = 0;
  let timer: unknown;
  const listeners = new Set<(view: CustomerDisplayView) => void>();

  const clearTimer = (): void => {
    if (timer !== undefined) deps.timers.clearTimeout(timer);
    timer = undefined;
  };
  const later = (ms: number, fn: () => void): void => {
    clearTimer();
    timer = deps.timers.setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };

  const askNow = (): CustomerAsk | undefined => {
    if (!shown) return undefined;
    const t = shown;
    if (tipAsk?.ticketId === t.ticketId && t.status === 'open') {
      const { presetsPercent } = deps.tips();
      return {
        kind: 'tip',
        ticketId: t.ticketId,
        baseCents: t.subtotalCents,
        options: tipOptions(t.subtotalCents, presetsPercent),
        maxCustomCents: maxCustomTipCents(t.subtotalCents),
      };
    }
    if (t.status === 'open') {
      const owed = t.tenders.find((x) => x.signature?.required === true && !x.signature.captured);
      if (owed)
        return {
          kind: 'signature',
          ticketId: t.ticketId,
          tenderId: owed.tenderId,
          amountCents: owed.approvedCents,
        };
    }
    if (t.status === 'paid' && receiptOpen && !receiptChoice)
      return { kind: 'receipt', ticketId: t.ticketId, email: deps.mailer?.available() === true };
    return undefined;
  };

  const view = (): CustomerDisplayView => {
    const base = {
      storeName: deps.storeName(),
      ...(deps.locale ? { locale: deps.locale() } : {}),
      displays: deps.displays(),
      version,
    };
    if (!shown) return { phase: 'idle', ...base };
    const last = shown.tenders[shown.tenders.length - 1];
    const outcome = last ? customerOutcomeOf(last) : undefined;
    const step = prompt && prompt.ticketId === shown.ticketId ? customerPromptOf(prompt) : undefined;
    const ask = askNow();
    return {
      phase: shown.status === 'paid' ? 'thanks' : 'ticket',
      ...base,
      ticket: customerTicketOf(shown),
      ...(ask ? { ask } : {}),
      ...(step && last?.status === 'in-progress' ? { prompt: step } : {}),
      ...(outcome ? { outcome } : {}),
      ...(tipChoice ? { tipChoice } : {}),
      ...(receiptChoice ? { receiptChoice } : {}),
    };
  };

  const publish = (): void => {
    version += 1;
    const v = view();
    deps.emit(v);
    for (const l of listeners) l(v);
  };

  const endTip = (outcome: TipAskOutcome): void => {
    const ask = tipAsk;
    tipAsk = null;
    ask?.settle(outcome);
  };

  const reset = (ticket: TicketView | null): void => {
    if (tipAsk && tipAsk.ticketId !== ticket?.ticketId) {
      const gone = tipAsk;
      void deps.engine
        .get(gone.ticketId)
        .then((t) => gone.settle({ outcome: 'cancelled', ticket: t }))
        .catch(() => undefined);
      tipAsk = null;
    }
    shown = ticket;
    prompt = null;
    tipChoice = undefined;
    receiptOpen = false;
    receiptChoice = undefined;
    clearTimer();
  };

  const idle = (): void => {
    reset(null);
    publish();
  };

  /** The sale the core runs: a ticket opened, changed, paid or given up. */
  const onTicket = (live: TicketView): void => {
    // A copy: the engine changes its tickets in place, and this compares what was shown with what is.
    const t = structuredClone(live);
    if (t.status === 'open') {
      // A newer ticket, or the one shown: a paid ticket's receipt question gives way to the next sale.
      if (!shown || shown.ticketId !== t.ticketId) {
        if (shown && shown.status === 'open' && t.openedAt < shown.openedAt) return;
        reset(t);
      } else shown = t;
      publish();
      return;
    }
    if (!shown || shown.ticketId !== t.ticketId) return; // an older ticket (a void marks its tender)
    if (t.status === 'abandoned') {
      idle();
      return;
    }
    if (t.status === 'paid' && shown.status !== 'paid') {
      shown = t;
      prompt = null;
      receiptOpen = true;
      later(deps.receiptAskMs ?? RECEIPT_ASK_MS, idle);
      publish();
      return;
    }
    shown = t;
    publish();
  };

  const onProgress = (p: SaleProgress): void => {
    if (!shown || p.ticketId !== shown.ticketId) return;
    prompt = p.step === 'done' ? null : p;
    publish();
  };

  const tipFromCustomer = (): boolean => deps.tips().prompt && deps.displays() > 0;

  const askedTip = (ticketId: string): TipAsk => {
    if (!tipAsk || tipAsk.ticketId !== ticketId)
      throw new BridgeFailure('conflict', 'No tip is being asked on this ticket.');
    return tipAsk;
  };

  return {
    /** Fed every event the core emits (core/wiring.ts); reads the sale's. */
    observe<E extends keyof Events>(event: E, payload: Events[E]): void {
      if (event === 'sale.updated') onTicket(payload as TicketView);
      else if (event === 'sale.progress') onProgress(payload as SaleProgress);
    },

    view,

    /** A display attached or went away: the cashier's screen learns whether the customer chooses the tip. */
    displaysChanged(): void {
      publish();
    },

    onChange(listener: (view: CustomerDisplayView) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** True when the customer chooses the tip: tips are on and a customer display is attached. */
    tipFromCustomer,

    /** True when the customer chooses the receipt (the customer copy does not print by itself). */
    customerChoosesReceipt(): boolean {
      return deps.displays() > 0;
    },

    /**
     * A tip typed on a terminal connection (`sale.open`, `sale.setTip`, `sale.pay`): refused while the
     * customer chooses it, so a cashier's page cannot answer for the customer. No tip is always allowed.
     */
    checkCashierTip(tipCents: number | undefined): void {
      if (tipCents !== undefined && tipCents > 0 && tipFromCustomer())
        throw new BridgeFailure(
          'conflict',
          'The customer chooses the tip on the customer display: ask for it there, or skip it.',
        );
    },

    async askTip(ticketId: string): Promise<TipAskOutcome> {
      const t = structuredClone(await deps.engine.get(ticketId));
      if (t.status !== 'open') throw new BridgeFailure('conflict', `The ticket is ${t.status}.`);
      if (t.purpose === 'gift-reload')
        throw new BridgeFailure('conflict', 'A gift card load carries no tip.');
      if (t.tenders.some(isTaken))
        throw new BridgeFailure('conflict', 'A tender is already approved: the tip can no longer change.');
      if (!tipFromCustomer())
        throw new BridgeFailure(
          'unavailable',
          'No customer display is attached (or tips are off): the tip is chosen on this screen.',
        );
      if (shown?.ticketId === ticketId && tipChoice)
        return { outcome: tipChoice.kind === 'skipped' ? 'skipped' : 'chosen', ticket: t, tipChoice };
      if (tipAsk?.ticketId === ticketId) return tipAsk.done;
      if (shown?.ticketId !== ticketId) reset(t);
      else shown = t;
      let settle: (o: TipAskOutcome) => void = () => undefined;
      const done = new Promise<TipAskOutcome>((resolve) => (settle = resolve));
      tipAsk = { ticketId, done, settle };
      publish();
      return done;
    },

    async endTipAsk(ticketId: string, action: 'skip' | 'cancel'): Promise<CustomerDisplayView> {
      askedTip(ticketId);
      let t = structuredClone(await deps.engine.get(ticketId));
      if (action === 'skip') {
        if (t.tipCents !== 0) t = structuredClone(await deps.engine.setTip(ticketId, 0));
        tipChoice = { by: 'cashier', kind: 'skipped', tipCents: 0 };
        shown = t;
        endTip({ outcome: 'skipped', ticket: t, tipChoice });
      } else endTip({ outcome: 'cancelled', ticket: t });
      publish();
      return view();
    },

    async tip(ticketId: string, choice: CustomerTipChoice): Promise<CustomerDisplayView> {
      askedTip(ticketId);
      const t = await deps.engine.get(ticketId);
      let chosen: CustomerTipChoiceView;
      if (choice.kind === 'preset') {
        const option = tipOptions(t.subtotalCents, deps.tips().presetsPercent).find(
          (o) => o.percent === choice.percent,
        );
        if (!option) throw new BridgeFailure('invalid', 'Choose one of the tips shown.');
        chosen = { by: 'customer', kind: 'preset', tipCents: option.tipCents, percent: option.percent };
      } else if (choice.kind === 'custom') {
        const problem = customTipProblem(choice.tipCents, t.subtotalCents);
        if (problem) throw new BridgeFailure('invalid', problem);
        chosen = {
          by: 'customer',
          kind: choice.tipCents === 0 ? 'none' : 'custom',
          tipCents: choice.tipCents,
        };
      } else chosen = { by: 'customer', kind: 'none', tipCents: 0 };
      // The ask may have ended while the tip was read (the cashier skipped): the first answer stands.
      askedTip(ticketId);
      const tipped = structuredClone(await deps.engine.setTip(ticketId, chosen.tipCents));
      tipChoice = chosen;
      shown = tipped;
      endTip({ outcome: 'chosen', ticket: tipped, tipChoice: chosen });
      publish();
      return view();
    },

    async signature(
      ticketId: string,
      tenderId: string,
      input: Extract<SignatureInput, { source: 'screen' }>,
    ): Promise<CustomerDisplayView> {
      const ask = askNow();
      if (ask?.kind !== 'signature' || ask.ticketId !== ticketId || ask.tenderId !== tenderId)
        throw new BridgeFailure('conflict', 'No signature is being asked for.');
      await deps.engine.signature(ticketId, tenderId, input);
      return view();
    },

    async receipt(
      ticketId: string,
      choice: 'print' | 'email' | 'none',
      email: string | undefined,
      language?: Language,
    ): Promise<CustomerDisplayView> {
      const ask = askNow();
      if (ask?.kind !== 'receipt' || ask.ticketId !== ticketId)
        throw new BridgeFailure('conflict', 'No receipt is being asked for.');
      let result: CustomerReceiptChoiceView['result'];
      if (choice === 'print') {
        const printed = await deps.engine.printById(ticketId, 'customer');
        result = printed.printed ? 'printed' : 'not-printed';
      } else if (choice === 'email') {
        const mailer = deps.mailer;
        // Not a pretend "sent": without the email queue the customer is told to choose another way.
        if (!mailer?.available())
          throw new BridgeFailure('unavailable', 'Email receipts are not set up on this terminal.');
        const problem = emailAddressProblem(email ?? '');
        if (problem) throw new BridgeFailure('invalid', problem);
        const sent = await mailer.send(ticketId, (email ?? '').trim(), language);
        result = sent.queued ? 'email-queued' : 'email-failed';
      } else result = 'none';
      receiptChoice = { choice, result };
      later(deps.thanksMs ?? THANKS_MS, idle);
      publish();
      return view();
    },

    /** The core stops: a cashier still waiting for a tip is answered. */
    stop(): void {
      clearTimer();
      if (tipAsk && shown) endTip({ outcome: 'cancelled', ticket: shown });
    },
  };
}
