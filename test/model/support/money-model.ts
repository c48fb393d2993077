import { DeclineCode, type DeclineCodeValue } from '../../../gateway/contract/decline-codes';
import { ResponseCode } from '../../../gateway/contract/response-codes';

/**
 * The reference model of the gateway's money, in plain TypeScript: what every card, gift card and EBT
 * account should have paid and got back, and what each batch should settle, given the operations the
 * gateway answered. One pure transition per operation (`outcomes`), written from the interface's rules
 * and the (docs/model-checker.md), never from the gateway's code. A transition lists every answer
 * the rules allow with the state each leaves; the checker keeps the state whose answer the gateway gave.
 */

export type Cents = number;

/** What kind of payment a row of the model is (the gateway's `operation`, named for its tender). */
export type Kind =
  | 'sale'
  | 'debit'
  | 'preauth'
  | 'completion'
  | 'refund'
  | 'gift_activate'
  | 'gift_reload'
  | 'gift_sale'
  | 'gift_return'
  | 'ebt_sale'
  | 'ebt_return';

export type Status = 'approved' | 'declined' | 'voided' | 'reversed';

export type Payment = {
  utn: string;
  kind: Kind;
  status: Status;
  /** The parts the card or account was charged (or credited), as approved. */
  base: Cents;
  tax: Cents;
  tip: Cents;
  cashback: Cents;
  /** Card originals: the sum of their approved refunds. */
  refunded: Cents;
  /** A refund's original, a completion's preauthorization (their UserTransactionNumbers). */
  parent: string | null;
  /** The model's batch the payment joined (null: preauthorizations, declines). */
  batch: number | null;
  /** Preauthorizations: not yet closed, voided or reversed. */
  preauthOpen: boolean;
  /** Gift card key or EBT account key; null for cards. */
  account: string | null;
  /** Authorized with the slow test card (reporting only). */
  slow: boolean;
  /**
   * Claimed but not yet booked: a refund or a completion between its first unit of work (which takes the
   * number and the refundable amount, or closes the preauthorization) and its last (which books it into
   * the batch open then), with the processor in between. See `book`.
   */
  booking: boolean;
};

export type GiftCard = { key: string; opening: Cents };
export type Check = { ref: string; amount: Cents; status: 'approved' | 'voided'; day: string };
export type Settlement = { batch: number; amount: Cents };

export type Model = {
  payments: Record<string, Payment>;
  /** Order of creation (the order answers arrived in the linearization the checker kept). */
  order: string[];
  /**
   * Every UserTransactionNumber the gateway holds: used by an operation, blocked by a reversal that came
   * first, or caught: used by a payment a reversal of its group cancelled while it was at the processor
   * (nothing charged, as when blocked, but the number names that payment).
   */
  numbers: Record<string, 'used' | 'blocked' | 'caught'>;
  gifts: Record<string, GiftCard>;
  giftOrder: string[];
  ebt: { key: string; opening: Cents };
  checks: Record<string, Check>;
  checkOrder: string[];
  openBatch: number;
  settlements: Settlement[];
};

export function emptyModel(ebt: { key: string; opening: Cents }, settlements: Settlement[] = []): Model {
  return {
    payments: {},
    order: [],
    numbers: {},
    gifts: {},
    giftOrder: [],
    ebt,
    checks: {},
    checkOrder: [],
    openBatch: settlements.length + 1,
    settlements,
  };
}

/** The bound of ClosePreauth's AdditionalTip: a share of the hold (default 20 %). */
export const TIP_BOUND_PERCENT = 20;

/**
 * A stored-value cancel that would leave the balance below zero (defect 7) is "void impossible" like every
 * other reason a payment cannot be cancelled (the real catalog's 7); a tip above the bound (defect 9) has a
 * code of its own.
 */
export const CANCEL_BELOW_ZERO_CODES: readonly number[] = [ResponseCode.VoidImpossible];
export const TIP_ABOVE_BOUND_CODES: readonly number[] = [ResponseCode.TipExceedsLimit];

/** The most a gift card may hold (docs/gateway-tenders.md). */
export const GIFT_MAX_CENTS = 2_000_00;

/** What the card (or account) was charged: every part, cash back included. */
export const charged = (p: Pick<Payment, 'base' | 'tax' | 'tip' | 'cashback'>): Cents =>
  p.base + p.tax + p.tip + p.cashback;

/** What a card payment can give back: everything but cash back. */
export const refundable = (p: Payment): Cents => p.base + p.tax + p.tip;

export const REFUNDABLE: ReadonlySet<Kind> = new Set(['sale', 'debit', 'completion']);
const CREDITS: ReadonlySet<Kind> = new Set(['gift_activate', 'gift_reload', 'gift_return', 'ebt_return']);
const DEBITS: ReadonlySet<Kind> = new Set(['gift_sale', 'ebt_sale']);
/** Kinds a batch counts as returns (the gateway's operation `refund`). */
export const RETURNS: ReadonlySet<Kind> = new Set(['refund', 'gift_return', 'ebt_return']);

/** A payment's signed share of its batch: sales count what the card paid, returns what went back. */
export const batchShare = (p: Payment): Cents => (RETURNS.has(p.kind) ? -p.base : charged(p));

/** An account's balance: its opening value and every approved movement on it. */
export function balanceOf(m: Model, account: string): Cents {
  let balance = account === m.ebt.key ? m.ebt.opening : (m.gifts[account]?.opening ?? 0);
  for (const utn of m.order) {
    const p = m.payments[utn];
    if (!p || p.account !== account || p.status !== 'approved') continue;
    if (CREDITS.has(p.kind)) balance += charged(p);
    else if (DEBITS.has(p.kind)) balance -= charged(p);
  }
  return balance;
}

export const isSettled = (m: Model, p: Payment): boolean => p.batch !== null && p.batch !== m.openBatch;

export function remainingRefundable(p: Payment): Cents {
  return refundable(p) - p.refunded;
}

/** Approved payments of the open batch: what DoSettlement would settle now. */
export function openBatchTotal(m: Model): { amount: Cents; count: number } {
  let amount = 0;
  let count = 0;
  for (const utn of m.order) {
    const p = m.payments[utn];
    if (p?.status !== 'approved' || p.batch !== m.openBatch) continue;
    amount += batchShare(p);
    count += 1;
  }
  return { amount, count };
}

/** What an answer says, as far as the model can predict it. */
export type Observed = {
  code: number;
  /** A decline's reason (ResponseCode 3): its DeclineCode; absent from every other answer. */
  decline?: number;
  /** Approved total (all parts, cash back included) of a payment answer. */
  charged?: Cents;
  /** Balance of a gift card or the EBT food account after the operation. */
  balance?: Cents;
  /** AmountSettled of DoSettlement. */
  settled?: Cents;
  /** RefundedAmount of DoFullRefund. */
  refunded?: Cents;
};

/** One answer the rules allow, with the state it leaves. `codes`: any of them (a rule whose code is open). */
export type Outcome = { codes: readonly number[]; expect: Omit<Observed, 'code'>; next: Model; why: string };

/**
 * Whether an answer is the outcome's: one of its codes, its DeclineCode (a decline must give the reason the
 * rules expect, any other answer none), and every amount it predicts.
 */
export function matches(o: Outcome, obs: Observed): boolean {
  if (!o.codes.includes(obs.code)) return false;
  if (o.expect.decline !== obs.decline) return false;
  for (const key of ['charged', 'balance', 'settled', 'refunded'] as const) {
    const want = o.expect[key];
    if (want !== undefined && obs[key] !== want) return false;
  }
  return true;
}

// ---- the operations, as the checker sends them (resolved against the model before their group) ----

export type CardBehaviour = 'approve' | 'decline' | 'partial' | 'slow';
/** The partial-approval test card holds this much. */
export const PARTIAL_HOLD_CENTS = 20_00;

export type Op =
  | {
      t: 'sale';
      utn: string;
      card: CardBehaviour;
      swiped: boolean;
      base: Cents;
      tax: Cents;
      tip: Cents;
    }
  | { t: 'debit'; utn: string; card: CardBehaviour; base: Cents; cashback: Cents; wrongPin: boolean }
  | { t: 'preauth'; utn: string; card: CardBehaviour; base: Cents }
  | { t: 'close'; utn: string; target: string; amount: Cents; tip: Cents }
  | { t: 'refund'; utn: string; target: string; amount: Cents }
  | { t: 'fullRefund'; utn: string; target: string; expected: Cents | null }
  | { t: 'void'; utn: string; target: string }
  | { t: 'reverse'; target: string }
  | { t: 'settle' }
  | { t: 'giftActivate'; utn: string; card: string; amount: Cents }
  | { t: 'giftReload'; utn: string; card: string; amount: Cents }
  | { t: 'giftSale'; utn: string; card: string; amount: Cents }
  | { t: 'giftReturn'; utn: string; card: string; amount: Cents }
  | { t: 'giftBalance'; card: string }
  | { t: 'ebtSale'; utn: string; amount: Cents; wrongPin: boolean }
  | { t: 'ebtReturn'; utn: string; amount: Cents }
  | { t: 'ebtBalance' }
  | { t: 'check'; ref: string; amount: Cents; day: string }
  | { t: 'checkVoid'; ref: string; today: string }
  | { t: 'reuse'; utn: string }
  /** Not sent: the second half of a refund or a completion, placed by the linearizer (see `Payment.booking`). */
  | { t: 'book'; utn: string };

/** The "answer" of a book event: it has none of its own. */
export const BOOKED = -1;

// ---- transitions ----

const clone = (m: Model): Model => structuredClone(m);

function one(code: number, expect: Outcome['expect'], next: Model, why: string): Outcome[] {
  return [{ codes: [code], expect, next, why }];
}

/** A decline: ResponseCode 3 with its reason in DeclineCode. */
function declined(reason: DeclineCodeValue, expect: Outcome['expect'], next: Model, why: string): Outcome[] {
  return one(ResponseCode.Declined, { ...expect, decline: reason }, next, why);
}

/** The replay rule: a number the gateway holds refuses the operation before anything else. */
function numberRefusal(m: Model, utn: string): Outcome[] | null {
  const state = m.numbers[utn];
  if (state === 'blocked')
    return one(ResponseCode.TransactionNumberBlocked, {}, m, 'the number was reversed first');
  if (state === 'used' || state === 'caught')
    return one(ResponseCode.DuplicateTransactionNumber, {}, m, 'the number is used');
  return null;
}

/**
 * A payment whose number a DoReversal of its own group blocked answers 411 in two ways that differ in the
 * books: the reversal came first (the number is blocked, no payment), or it caught the payment at the
 * processor (the payment is recorded reversed, nothing charged, the number used by it). Both are allowed;
 * the books tell which. `alsoCaught` changes what a caught payment had already done (a completion had
 * closed its preauthorization).
 */
function withCaughtInFlight(
  m: Model,
  utn: string,
  group: GroupContext,
  refused: Outcome[],
  alsoCaught: (next: Model) => void = () => undefined,
): Outcome[] {
  if (m.numbers[utn] !== 'blocked' || !group.reversed.has(utn)) return refused;
  const next = clone(m);
  next.numbers[utn] = 'caught';
  alsoCaught(next);
  return [
    ...refused,
    { codes: [ResponseCode.TransactionNumberBlocked], expect: {}, next, why: 'caught at the processor' },
  ];
}

function addPayment(m: Model, p: Payment): void {
  m.payments[p.utn] = p;
  m.order.push(p.utn);
  m.numbers[p.utn] = 'used';
}

function newPayment(m: Model, fields: Pick<Payment, 'utn' | 'kind' | 'status'> & Partial<Payment>): Payment {
  const approved = fields.status === 'approved';
  return {
    base: 0,
    tax: 0,
    tip: 0,
    cashback: 0,
    refunded: 0,
    parent: null,
    batch: approved && fields.kind !== 'preauth' ? m.openBatch : null,
    preauthOpen: approved && fields.kind === 'preauth',
    account: null,
    slow: false,
    booking: false,
    ...fields,
  };
}

/**
 * A card authorization as the sandbox processor answers it (gateway/sandbox/test-cards.ts): the partial
 * card approves 20.00 of a larger card-present purchase (extras covered first) and declines keyed ones or
 * those with cash back.
 */
function authorize(
  m: Model,
  utn: string,
  kind: 'sale' | 'debit' | 'preauth',
  card: CardBehaviour,
  parts: { base: Cents; tax: Cents; tip: Cents; cashback: Cents },
  cardPresent: boolean,
  group: GroupContext,
  wrongPin = false,
): Outcome[] {
  const refused = numberRefusal(m, utn);
  if (refused) return withCaughtInFlight(m, utn, group, refused);
  const next = clone(m);
  const decline = (reason: DeclineCodeValue, why: string) => {
    addPayment(next, newPayment(next, { utn, kind, status: 'declined', ...parts }));
    return declined(reason, {}, next, why);
  };
  if (wrongPin) return decline(DeclineCode.IncorrectPin, 'the PIN block holds another PIN');
  if (card === 'decline') return decline(DeclineCode.Declined, 'the decline test card');
  const total = charged(parts);
  let approved = { ...parts };
  let code: number = ResponseCode.Success;
  if (card === 'partial' && total > PARTIAL_HOLD_CENTS) {
    const partialAllowed = cardPresent && kind !== 'preauth' && parts.cashback === 0;
    if (!partialAllowed) return decline(DeclineCode.InsufficientFunds, 'the partial card, not present');
    const extras = total - parts.base;
    approved =
      PARTIAL_HOLD_CENTS > extras
        ? { ...parts, base: PARTIAL_HOLD_CENTS - extras }
        : { base: PARTIAL_HOLD_CENTS, tax: 0, tip: 0, cashback: 0 };
    code = ResponseCode.PartialApproval;
  }
  addPayment(next, newPayment(next, { utn, kind, status: 'approved', slow: card === 'slow', ...approved }));
  return one(code, { charged: charged(approved) }, next, 'approved');
}

/**
 * Why a payment cannot be cancelled (void or reversal), or null: every reason is the real catalog's "void
 * impossible" (7). The last rule is the (defect 7): a gift or EBT credit whose value was spent
 * cannot be taken back.
 */
function cancelRefusal(m: Model, p: Payment): { codes: readonly number[]; why: string } | null {
  const impossible = (why: string) => ({ codes: [ResponseCode.VoidImpossible], why });
  if (p.status === 'voided' || p.status === 'reversed') return impossible('already cancelled');
  if (p.status !== 'approved') return impossible('not approved');
  if (p.refunded > 0) return impossible('refunded');
  if (p.kind === 'preauth' && !p.preauthOpen) return impossible('the preauthorization is closed');
  if (isSettled(m, p)) return impossible('settled');
  if (p.account !== null && CREDITS.has(p.kind) && balanceOf(m, p.account) - charged(p) < 0)
    return { codes: CANCEL_BELOW_ZERO_CODES, why: 'its value was spent: the balance would go below zero' };
  return null;
}

/** A preauthorization's completion that was not voided or reversed (it may still be being booked). */
function completionStands(m: Model, preauth: string): boolean {
  return Object.values(m.payments).some(
    (p) => p.kind === 'completion' && p.parent === preauth && p.status === 'approved',
  );
}

function cancel(next: Model, utn: string, status: 'voided' | 'reversed'): void {
  const p = next.payments[utn];
  if (!p) return;
  p.status = status;
  p.preauthOpen = false;
  if (p.kind === 'refund' && p.parent !== null) {
    const parent = next.payments[p.parent];
    if (parent) parent.refunded -= p.base;
  }
}

function refund(m: Model, utn: string, target: string, amount: Cents | null, group: GroupContext): Outcome[] {
  const refused = numberRefusal(m, utn);
  if (refused) return withCaughtInFlight(m, utn, group, refused);
  const p = m.payments[target];
  if (!p) return one(ResponseCode.ServiceTransactionNumberNotFound, {}, m, 'unknown payment');
  // Every reason a refund is refused is the real catalog's "refund impossible" (6).
  const impossible = (why: string) => one(ResponseCode.RefundImpossible, {}, m, why);
  if (p.status === 'voided' || p.status === 'reversed') return impossible('the payment is cancelled');
  if (!REFUNDABLE.has(p.kind) || p.status !== 'approved')
    return impossible('not a refundable approved payment');
  const remaining = remainingRefundable(p);
  if (remaining <= 0) return impossible('fully refunded');
  const value = amount ?? remaining;
  if (value > remaining) return impossible('more than remains');
  const next = clone(m);
  addPayment(
    next,
    newPayment(next, {
      utn,
      kind: 'refund',
      status: 'approved',
      base: value,
      parent: target,
      batch: null,
      booking: true,
    }),
  );
  const original = next.payments[target];
  if (original) original.refunded += value;
  return one(
    ResponseCode.Success,
    amount === null ? { refunded: value } : { charged: value },
    next,
    'refunded',
  );
}

function storedValue(
  m: Model,
  utn: string,
  kind: 'gift_reload' | 'gift_sale' | 'gift_return' | 'ebt_sale' | 'ebt_return',
  account: string,
  amount: Cents,
): Outcome[] {
  const refused = numberRefusal(m, utn);
  if (refused) return refused;
  const next = clone(m);
  const balance = balanceOf(m, account);
  const record = (status: Status, base: Cents) =>
    addPayment(next, newPayment(next, { utn, kind, status, base, account }));
  if (CREDITS.has(kind)) {
    if (kind.startsWith('gift') && balance + amount > GIFT_MAX_CENTS) {
      record('declined', amount);
      return one(ResponseCode.GiftCardBalanceLimit, { balance }, next, 'past the maximum balance');
    }
    record('approved', amount);
    return one(ResponseCode.Success, { charged: amount, balance: balance + amount }, next, 'credited');
  }
  if (balance >= amount) {
    record('approved', amount);
    return one(ResponseCode.Success, { charged: amount, balance: balance - amount }, next, 'debited');
  }
  if (balance > 0) {
    record('approved', balance);
    return one(ResponseCode.PartialApproval, { charged: balance, balance: 0 }, next, 'partial');
  }
  record('declined', amount);
  return declined(DeclineCode.InsufficientFunds, { balance }, next, 'empty');
}

/** What a transition may know of the operation's group: the numbers its DoReversals name. */
export type GroupContext = { reversed: ReadonlySet<string> };
const alone: GroupContext = { reversed: new Set() };

/**
 * Every answer the rules allow for `op` in state `m`, each with the state it leaves. `group` matters for
 * one rule only: a payment whose number a DoReversal of the same group blocked may have been caught at the
 * processor rather than refused before it began (withCaughtInFlight).
 */
export function outcomes(m: Model, op: Op, group: GroupContext = alone): Outcome[] {
  switch (op.t) {
    case 'sale':
      return authorize(m, op.utn, 'sale', op.card, { ...op, cashback: 0 }, op.swiped, group);
    case 'debit':
      return authorize(
        m,
        op.utn,
        'debit',
        op.card,
        { base: op.base, tax: 0, tip: 0, cashback: op.cashback },
        true,
        group,
        op.wrongPin,
      );
    case 'preauth':
      return authorize(
        m,
        op.utn,
        'preauth',
        op.card,
        { base: op.base, tax: 0, tip: 0, cashback: 0 },
        false,
        group,
      );
    case 'reuse':
      return numberRefusal(m, op.utn) ?? [];
    case 'book': {
      const p = m.payments[op.utn];
      if (!p?.booking) return one(BOOKED, {}, m, 'nothing to book');
      const next = clone(m);
      const booked = next.payments[op.utn];
      if (booked) {
        booked.booking = false;
        booked.batch = booked.status === 'approved' ? next.openBatch : null;
      }
      return one(BOOKED, {}, next, 'booked in the open batch');
    }
    case 'close': {
      const refused = numberRefusal(m, op.utn);
      const pre = m.payments[op.target];
      if (refused)
        return withCaughtInFlight(m, op.utn, group, refused, (next) => {
          // The completion had closed the preauthorization; the reversal took the hold with the capture.
          const closed = next.payments[op.target];
          if (closed) closed.preauthOpen = false;
        });
      if (!pre || pre.kind !== 'preauth')
        return one(ResponseCode.PreauthNotFound, {}, m, 'names no preauthorization');
      if (pre.status === 'declined')
        return one(ResponseCode.PreauthDeclined, {}, m, 'declined: nothing held');
      if (pre.status === 'approved' && !pre.preauthOpen && completionStands(m, op.target))
        return one(ResponseCode.PreauthCompletedBefore, {}, m, 'its completion stands');
      if (pre.status !== 'approved' || !pre.preauthOpen)
        return one(ResponseCode.PreauthNotClosable, {}, m, 'voided, reversed, or its completion cancelled');
      if (op.amount > pre.base) return one(ResponseCode.InvalidAmount, {}, m, 'more than the hold');
      if (op.tip * 100 > charged(pre) * TIP_BOUND_PERCENT)
        return [{ codes: TIP_ABOVE_BOUND_CODES, expect: {}, next: m, why: 'tip above the bound' }];
      const next = clone(m);
      const completion = newPayment(next, {
        utn: op.utn,
        kind: 'completion',
        status: 'approved',
        base: op.amount,
        tax: pre.tax,
        tip: pre.tip + op.tip,
        parent: op.target,
        slow: pre.slow,
        batch: null,
        booking: true,
      });
      addPayment(next, completion);
      const closed = next.payments[op.target];
      if (closed) closed.preauthOpen = false;
      return one(ResponseCode.Success, { charged: charged(completion) }, next, 'closed');
    }
    case 'refund':
      return refund(m, op.utn, op.target, op.amount, group);
    case 'fullRefund':
      // The interface's transitions table: a full refund refunds the whole remaining balance, whatever
      // valid Amount it was sent (the answer only says so).
      return refund(m, op.utn, op.target, null, group);
    case 'void': {
      const refused = numberRefusal(m, op.utn);
      if (refused) return refused;
      const p = m.payments[op.target];
      if (!p) return one(ResponseCode.ServiceTransactionNumberNotFound, {}, m, 'unknown payment');
      const blocker = cancelRefusal(m, p);
      if (blocker) return [{ codes: blocker.codes, expect: {}, next: m, why: blocker.why }];
      const next = clone(m);
      cancel(next, op.target, 'voided');
      next.numbers[op.utn] = 'used';
      return one(ResponseCode.Success, {}, next, 'voided');
    }
    case 'reverse': {
      const state = m.numbers[op.target];
      const p = m.payments[op.target];
      if (state === undefined) {
        const next = clone(m);
        next.numbers[op.target] = 'blocked';
        return one(ResponseCode.Success, {}, next, 'unknown number: blocked');
      }
      if (state === 'blocked') return one(ResponseCode.Success, {}, m, 'already blocked');
      if (state === 'caught') return one(ResponseCode.Success, {}, m, 'already reversed at the processor');
      if (!p) return one(ResponseCode.VoidImpossible, {}, m, 'the number names no payment (a void)');
      if (p.status !== 'approved') return one(ResponseCode.Success, {}, m, 'nothing to reverse');
      const blocker = cancelRefusal(m, p);
      if (blocker) return [{ codes: blocker.codes, expect: {}, next: m, why: blocker.why }];
      const next = clone(m);
      cancel(next, op.target, 'reversed');
      return one(ResponseCode.Success, {}, next, 'reversed');
    }
    case 'settle': {
      const { amount, count } = openBatchTotal(m);
      if (count === 0) return one(ResponseCode.Success, { settled: 0 }, m, 'nothing to settle');
      const next = clone(m);
      next.settlements.push({ batch: m.openBatch, amount });
      next.openBatch += 1;
      return one(ResponseCode.Success, { settled: amount }, next, 'settled');
    }
    case 'giftActivate': {
      const refused = numberRefusal(m, op.utn);
      if (refused) return refused;
      if (m.gifts[op.card])
        return one(ResponseCode.GiftCardAlreadyActive, {}, m, 'the card is already active');
      const next = clone(m);
      next.gifts[op.card] = { key: op.card, opening: 0 };
      next.giftOrder.push(op.card);
      if (op.amount === 0) {
        next.numbers[op.utn] = 'used';
        return one(ResponseCode.Success, { balance: 0 }, next, 'activated empty');
      }
      addPayment(
        next,
        newPayment(next, {
          utn: op.utn,
          kind: 'gift_activate',
          status: 'approved',
          base: op.amount,
          account: op.card,
        }),
      );
      return one(ResponseCode.Success, { charged: op.amount, balance: op.amount }, next, 'activated');
    }
    case 'giftReload':
    case 'giftSale':
    case 'giftReturn': {
      if (!m.gifts[op.card]) {
        const refused = numberRefusal(m, op.utn);
        return refused ?? one(ResponseCode.NotFound, {}, m, 'the card was never activated');
      }
      const kind = op.t === 'giftReload' ? 'gift_reload' : op.t === 'giftSale' ? 'gift_sale' : 'gift_return';
      return storedValue(m, op.utn, kind, op.card, op.amount);
    }
    case 'giftBalance':
      return m.gifts[op.card]
        ? one(ResponseCode.Success, { balance: balanceOf(m, op.card) }, m, 'balance')
        : one(ResponseCode.NotFound, {}, m, 'never activated');
    case 'ebtSale': {
      if (op.wrongPin) {
        const refused = numberRefusal(m, op.utn);
        if (refused) return refused;
        const next = clone(m);
        addPayment(
          next,
          newPayment(next, {
            utn: op.utn,
            kind: 'ebt_sale',
            status: 'declined',
            base: op.amount,
            account: m.ebt.key,
          }),
        );
        return declined(DeclineCode.IncorrectPin, {}, next, 'wrong PIN');
      }
      return storedValue(m, op.utn, 'ebt_sale', m.ebt.key, op.amount);
    }
    case 'ebtReturn':
      return storedValue(m, op.utn, 'ebt_return', m.ebt.key, op.amount);
    case 'ebtBalance':
      return one(ResponseCode.Success, { balance: balanceOf(m, m.ebt.key) }, m, 'balance');
    case 'check': {
      const next = clone(m);
      next.checks[op.ref] = { ref: op.ref, amount: op.amount, status: 'approved', day: op.day };
      next.checkOrder.push(op.ref);
      return one(ResponseCode.Success, {}, next, 'check authorized');
    }
    case 'checkVoid': {
      const c = m.checks[op.ref];
      if (!c) return one(ResponseCode.CheckNotFound, {}, m, 'unknown check');
      if (c.status === 'voided') return one(ResponseCode.CheckAlreadyVoided, {}, m, 'voided');
      if (c.day !== op.today) return one(ResponseCode.VoidWindowClosed, {}, m, 'another day');
      const next = clone(m);
      const voided = next.checks[op.ref];
      if (voided) voided.status = 'voided';
      return one(ResponseCode.Success, {}, next, 'check voided');
    }
  }
}
