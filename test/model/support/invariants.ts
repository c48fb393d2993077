import { rowCharged, rowRefundable, type BookPayment, type Books } from './books';
import { isSettled, type Kind, type Model } from './money-model';

/**
 * The invariants of issue 11, judged after every group on the gateway's books (read from the database)
 * and the sandbox processor's ledger, against each other and against the model. Each returns the
 * violations found, as sentences naming the invariant, the payment and the amounts; never card data.
 */

export type Violation = { invariant: string; detail: string };

const money = (c: number) => (c / 100).toFixed(2);

/** The gateway's `operation` of each kind of the model. */
export const OPERATION: Record<Kind, string> = {
  sale: 'sale',
  debit: 'debit',
  preauth: 'preauth',
  completion: 'completion',
  refund: 'refund',
  gift_activate: 'gift_activate',
  gift_reload: 'gift_reload',
  gift_sale: 'gift_sale',
  gift_return: 'refund',
  ebt_sale: 'ebt_food_sale',
  ebt_return: 'refund',
};

const CARD_OPERATIONS = new Set(['sale', 'debit', 'preauth', 'completion']);
const CAPTURES = new Set(['sale', 'debit', 'completion']);
const signedRow = (p: BookPayment) => (p.operation === 'refund' ? -p.amount_cents : rowCharged(p));

/** Refunds never exceed what the card paid: per payment, in its books and by its refund rows. */
export function refundCeiling(b: Books): Violation[] {
  const out: Violation[] = [];
  const refundsOf = new Map<number, number>();
  for (const r of b.payments)
    if (r.operation === 'refund' && r.parent_id !== null && r.status === 'approved')
      refundsOf.set(r.parent_id, (refundsOf.get(r.parent_id) ?? 0) + r.amount_cents);
  for (const p of b.payments) {
    const ceiling =
      p.status === 'approved' || p.status === 'voided' || p.status === 'reversed' ? rowRefundable(p) : 0;
    const refunded = refundsOf.get(p.id) ?? 0;
    if (refunded > ceiling)
      out.push({
        invariant: 'refunds never exceed what the card paid',
        detail: `payment ${p.utn} (${p.operation}, ${p.status}) paid ${money(ceiling)} and has ${money(refunded)} of approved refunds`,
      });
    if (refunded !== p.refunded_cents)
      out.push({
        invariant: 'refunds never exceed what the card paid',
        detail: `payment ${p.utn} books ${money(p.refunded_cents)} refunded but its approved refunds total ${money(refunded)}`,
      });
    if (p.pending_refund_cents !== 0)
      out.push({
        invariant: 'refunds never exceed what the card paid',
        detail: `payment ${p.utn} still reserves ${money(p.pending_refund_cents)} for a refund no one is waiting for`,
      });
  }
  return out;
}

/** No gift card or EBT account below zero, whatever was voided or reversed. */
export function balancesNotNegative(b: Books): Violation[] {
  return b.accounts
    .filter((a) => a.balance < 0)
    .map((a) => ({
      invariant: 'no balance below zero',
      detail: `${a.kind === 'gift' ? 'gift card' : 'EBT account'} #${a.id} holds ${money(a.balance)}`,
    }));
}

type LedgerAccount = {
  kind: string;
  authorizations: number;
  authorized: number;
  reversed: boolean;
  captured: number;
  /** Refunds the processor made and has not taken back. */
  refunded: number;
};

/** A refund as the processor's ledger holds it, by the gateway's reference of the refund. */
type LedgerRefund = { authCode: string; amount: number; takenBack: boolean };

/**
 * What the processor's ledger holds equals what the gateway's books say, authorization by authorization
 * and refund by refund: what the card paid (an approved sale's amount, a preauthorization's captures;
 * nothing once reversed), and each refund it got (made, and not taken back, exactly when the books have
 * it approved).
 */
export function ledgerMatchesBooks(b: Books): Violation[] {
  const out: Violation[] = [];
  const v = (detail: string) =>
    out.push({ invariant: "the processor's ledger equals the gateway's books", detail });
  const ledger = new Map<string, LedgerAccount>();
  const refunds = new Map<string, LedgerRefund>();
  for (const row of b.ledger) {
    if (row.event !== 'authorize') continue;
    const a = ledger.get(row.auth_code) ?? {
      kind: row.authorization_kind,
      authorizations: 0,
      authorized: 0,
      reversed: false,
      captured: 0,
      refunded: 0,
    };
    a.authorizations += 1;
    a.authorized += row.amount_cents;
    ledger.set(row.auth_code, a);
  }
  for (const row of b.ledger) {
    if (row.event === 'authorize') continue;
    const a = ledger.get(row.auth_code);
    if (!a) {
      // A reversal of nothing cancels nothing; money moved for an authorization never made is a loss.
      if (row.event !== 'reverse')
        v(
          `the processor made a ${row.event} of ${money(row.amount_cents)} for an authorization it never approved`,
        );
      continue;
    }
    if (row.event === 'reverse') a.reversed = true;
    else if (row.event === 'capture') a.captured += row.amount_cents;
    else if (row.event === 'refund') {
      if (refunds.has(row.reference)) v(`the processor made refund ${row.reference} twice`);
      refunds.set(row.reference, { authCode: row.auth_code, amount: row.amount_cents, takenBack: false });
    } else if (row.event === 'refund_reversal') {
      const r = refunds.get(row.reference);
      if (r) r.takenBack = true;
    }
  }
  for (const r of refunds.values()) {
    const a = ledger.get(r.authCode);
    if (a && !r.takenBack) a.refunded += r.amount;
  }

  const byId = new Map(b.payments.map((p) => [p.id, p]));
  type BookAccount = { captured: number; refunded: number; rows: BookPayment[] };
  const books = new Map<string, BookAccount>();
  const account = (code: string) => {
    let a = books.get(code);
    if (!a) books.set(code, (a = { captured: 0, refunded: 0, rows: [] }));
    return a;
  };
  const bookedRefunds = new Set<string>();
  for (const p of b.payments) {
    if (CARD_OPERATIONS.has(p.operation) && p.auth_code !== '') {
      const a = account(p.auth_code);
      a.rows.push(p);
      if (CAPTURES.has(p.operation) && p.status === 'approved') a.captured += rowCharged(p);
    }
    const parent = p.operation === 'refund' && p.parent_id !== null ? byId.get(p.parent_id) : undefined;
    if (!parent || !CARD_OPERATIONS.has(parent.operation)) continue;
    // A card refund, refund by refund: approved in the books exactly when the processor holds it.
    bookedRefunds.add(p.srn);
    const held = refunds.get(p.srn);
    const atProcessor = held !== undefined && !held.takenBack;
    if (p.status === 'approved') {
      account(parent.auth_code).refunded += p.amount_cents;
      if (!atProcessor)
        v(
          `refund ${p.utn} of ${parent.utn} is approved in the books (${money(p.amount_cents)}) but the processor ${held ? 'took it back' : 'never made it'}`,
        );
      else if (held.amount !== p.amount_cents)
        v(
          `refund ${p.utn} of ${parent.utn}: ${money(p.amount_cents)} in the books, ${money(held.amount)} at the processor`,
        );
    } else if (atProcessor) {
      v(
        `refund ${p.utn} of ${parent.utn} is ${p.status} in the books, but the processor refunded ${money(held.amount)} and kept it`,
      );
    }
  }
  for (const [reference, r] of refunds)
    if (!r.takenBack && !bookedRefunds.has(reference))
      v(
        `the processor refunded ${money(r.amount)} (reference ${reference || 'none'}) that no refund of the books names`,
      );

  for (const [code, a] of books) {
    const names = a.rows.map((r) => `${r.utn} (${r.operation} ${r.status})`).join(', ');
    const l = ledger.get(code);
    if (!l) {
      v(`${names}: the books name an authorization the processor never approved`);
      continue;
    }
    if (l.authorizations > 1)
      v(`${names}: the processor approved ${l.authorizations} authorizations under one number`);
    const paid = l.reversed ? 0 : l.kind === 'preauth' ? l.captured : l.authorized;
    if (paid !== a.captured)
      v(
        `${names}: the card paid ${money(paid)} at the processor (${l.kind} ${money(l.authorized)}${l.reversed ? ', reversed' : ''}${l.captured ? `, captured ${money(l.captured)}` : ''}) but the books say ${money(a.captured)}`,
      );
    if (l.refunded !== a.refunded)
      v(`${names}: the processor holds ${money(l.refunded)} of refunds, the books ${money(a.refunded)}`);
    if (l.refunded > paid)
      v(`${names}: the card got back ${money(l.refunded)} at the processor and paid ${money(paid)}`);
  }
  for (const [code, l] of ledger) {
    if (books.has(code)) continue;
    if (!l.reversed || l.refunded !== 0)
      v(
        `the processor holds a ${l.kind} of ${money(l.authorized)}${l.refunded ? ` with ${money(l.refunded)} refunded` : ''} that no payment of the books names`,
      );
  }
  return out;
}

/**
 * A settled batch's total equals its approved, unvoided payments; a reversed or voided payment is in no
 * batch total (when the two differ, the cancelled payments that explain it are named).
 */
export function settledBatches(b: Books): Violation[] {
  const out: Violation[] = [];
  const batchByNumber = new Map(b.batches.map((x) => [x.batch_number, x]));
  for (const s of b.settlements) {
    const numbers = JSON.parse(s.batch_numbers) as string[];
    const ids = new Set(numbers.map((n) => batchByNumber.get(n)?.id));
    const rows = b.payments.filter((p) => p.batch_id !== null && ids.has(p.batch_id));
    const approved = rows.filter((p) => p.status === 'approved').reduce((t, p) => t + signedRow(p), 0);
    if (approved === s.amount_settled_cents) continue;
    const cancelled = rows.filter((p) => p.status === 'voided' || p.status === 'reversed');
    const counted = cancelled.filter((p) => signedRow(p) === s.amount_settled_cents - approved);
    out.push({
      invariant:
        counted.length > 0 || cancelled.length > 0
          ? 'a reversed or voided payment is in no batch total'
          : "a settled batch's total equals its approved, unvoided payments",
      detail: `batch ${numbers.join(',')} settled ${money(s.amount_settled_cents)}; its approved payments total ${money(approved)}${
        cancelled.length
          ? `; cancelled in it: ${cancelled.map((p) => `${p.utn} ${p.status} ${money(signedRow(p))}`).join(', ')}`
          : ''
      }`,
    });
  }
  const open = b.batches.filter((x) => x.status === 'open');
  if (open.length > 1)
    out.push({
      invariant: "a settled batch's total equals its approved, unvoided payments",
      detail: `${open.length} open batches`,
    });
  return out;
}

/** Every UserTransactionNumber is used once: one payment per number, no number left half-claimed. */
export function numbersUsedOnce(b: Books): Violation[] {
  const out: Violation[] = [];
  const seen = new Map<string, number>();
  for (const p of b.payments) seen.set(p.utn, (seen.get(p.utn) ?? 0) + 1);
  for (const [utn, n] of seen)
    if (n > 1)
      out.push({
        invariant: 'every UserTransactionNumber is used once',
        detail: `${n} payments carry ${utn}`,
      });
  for (const n of b.numbers)
    if (n.state === 'reserved')
      out.push({
        invariant: 'every UserTransactionNumber is used once',
        detail: `${n.utn} is still reserved with nothing in flight`,
      });
  for (const p of b.payments)
    if (p.status === 'pending')
      out.push({
        invariant: 'every UserTransactionNumber is used once',
        detail: `payment ${p.utn} is still pending with nothing in flight`,
      });
  return out;
}

export type RunNames = {
  /** The real batch number of each of the model's settled batches. */
  batchNumber(modelBatch: number): string | undefined;
};

/** The books say what the gateway answered: every payment as the model holds it, and nothing else. */
export function booksMatchModel(m: Model, b: Books, names: RunNames): Violation[] {
  const out: Violation[] = [];
  const v = (detail: string) => out.push({ invariant: 'the books hold what the gateway answered', detail });
  const rows = new Map(b.payments.map((p) => [p.utn, p]));
  const batches = new Map(b.batches.map((x) => [x.id, x]));
  for (const utn of m.order) {
    const p = m.payments[utn];
    if (!p) continue;
    const r = rows.get(utn);
    if (!r) {
      v(`${utn} (${p.kind} ${p.status}) has no row`);
      continue;
    }
    const want = `${OPERATION[p.kind]} ${p.status} ${money(p.base)}+${money(p.tax)}+${money(p.tip)}+${money(p.cashback)} refunded ${money(p.refunded)}`;
    const got = `${r.operation} ${r.status} ${money(r.amount_cents)}+${money(r.tax_cents)}+${money(r.tip_cents)}+${money(r.cashback_cents)} refunded ${money(r.refunded_cents)}`;
    if (want !== got) v(`${utn}: the model holds ${want}, the books ${got}`);
    if (p.status !== 'approved' || p.batch === null) continue;
    const batch = r.batch_id === null ? undefined : batches.get(r.batch_id);
    const settled = isSettled(m, p);
    if (!batch) v(`${utn} is approved in no batch`);
    else if (settled !== (batch.status !== 'open'))
      v(
        `${utn}: the model has it ${settled ? 'settled' : 'unsettled'}, its batch ${batch.batch_number} is ${batch.status}`,
      );
    else if (settled && names.batchNumber(p.batch) !== batch.batch_number)
      v(
        `${utn} settled in batch ${batch.batch_number}, DoSettlement named ${names.batchNumber(p.batch) ?? 'none'}`,
      );
  }
  for (const r of b.payments) {
    if (m.payments[r.utn]) continue;
    // A payment a reversal caught at the processor: its answer said "reversed first", nothing is charged.
    if (m.numbers[r.utn] === 'caught' && r.status === 'reversed') continue;
    v(`${r.utn} (${r.operation} ${r.status} ${money(rowCharged(r))}) was never answered as a payment`);
  }
  const numbers = new Map(b.numbers.map((n) => [n.utn, n]));
  for (const [utn, state] of Object.entries(m.numbers)) {
    const n = numbers.get(utn);
    const booked = state === 'caught' ? 'used' : state;
    if (n?.state !== booked)
      v(`number ${utn} is ${state} in the model, ${n?.state ?? 'unknown'} in the books`);
    if (state === 'caught' && rows.get(utn)?.status !== 'reversed')
      v(
        `number ${utn} names a payment caught at the processor; the books have ${rows.get(utn)?.status ?? 'none'}`,
      );
  }
  for (const n of b.numbers)
    if (m.numbers[n.utn] === undefined) v(`number ${n.utn} is ${n.state} in the books, unknown to the model`);
  const settlements = m.settlements;
  if (settlements.length !== b.settlements.length)
    v(`the model settled ${settlements.length} batches, the books ${b.settlements.length}`);
  settlements.forEach((s, i) => {
    const real = b.settlements[i];
    if (real && real.amount_settled_cents !== s.amount)
      v(
        `settlement ${i + 1} is ${money(real.amount_settled_cents)} in the books, ${money(s.amount)} in the model`,
      );
  });
  return out;
}

/** The invariants the books must hold whatever the model says. */
export function judgeBooksAlone(b: Books): Violation[] {
  return [
    ...refundCeiling(b),
    ...balancesNotNegative(b),
    ...ledgerMatchesBooks(b),
    ...settledBatches(b),
    ...numbersUsedOnce(b),
  ];
}

/** The invariants the books alone must hold, and the books against the model. */
export function judgeBooks(m: Model, b: Books, names: RunNames): Violation[] {
  return [...judgeBooksAlone(b), ...booksMatchModel(m, b, names)];
}
