import type {
  ReturnLegKind,
  ReturnLegPlanView,
  ReturnMethod,
  ReturnableLineView,
  ReturnTenderOptionView,
  TicketView,
} from '../../common/bridge/contract';
import { tenderName } from '../../common/money-figures';
import { proportionalReturn, type ProportionalReturn } from '../../common/proportional-return';
import { refundableCents, takenCents } from '../../common/transaction-amounts';
import type { JournalRow } from '../journal/journal-store';
import { formatCents } from '../util/money';

/**
 * What a return of a sale may take and give (docs/terminal.md "Returns"), as pure rules: the sale's lines
 * (a ticket of lines, or an open amount as its one line), the money each of its tenders can still take
 * back, and the plan of a return — its units checked against what every earlier return took, its money by
 * the proportional rule (common/proportional-return.ts) and spread over the tenders in the cashier's order.
 * The journal applies them inside the one transaction that records the return (journal/return-store.ts),
 * and the screen's preview asks for the same plan.
 */

/** A refusal in the cashier's words; its name carries the bridge's code across the journal's thread. */
export class ReturnRefusal extends Error {
  /** The screens' words for it (contract/errors.ts), carried across the journal's thread. */
  readonly messageId: string | undefined;
  readonly params: Record<string, string | number> | undefined;
  constructor(
    code: 'conflict' | 'not-found' | 'invalid',
    message: string,
    messageId?: string,
    params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = `ReturnRefusal-${code}`;
    this.messageId = messageId;
    this.params = params;
  }
}

export type SoldLineInfo = Omit<ReturnableLineView, 'returnedQuantity'> & { lineId?: string };

/** A sale a return can be made of: paid, and not the payment of a gift card load. */
export function checkReturnable(t: TicketView): void {
  if (t.purpose === 'gift-reload')
    throw new ReturnRefusal(
      'conflict',
      'A gift card load is not returned: its value is on the card.',
      'returns.giftLoad',
    );
  if (t.status !== 'paid')
    throw new ReturnRefusal(
      'conflict',
      t.status === 'open'
        ? 'That sale is still open: finish or abandon it first.'
        : 'That sale was abandoned: nothing was paid.',
      t.status === 'open' ? 'returns.saleOpen' : 'returns.saleAbandoned',
    );
}

/**
 * The sale's lines in their places on the ticket (a voided line keeps its place with nothing to return). An
 * open-amount sale is one line: its amount and its tax (the tip is not goods and does not come back).
 */
export function soldLinesOf(t: TicketView): SoldLineInfo[] {
  if (!t.itemized)
    return [
      {
        lineNo: 0,
        name: 'Sale amount',
        quantity: 1,
        unitPriceCents: t.subtotalCents + t.taxCents,
        totalCents: t.subtotalCents + t.taxCents,
        taxCents: t.taxCents,
        discountCents: 0,
      },
    ];
  return t.itemized.lines.map((l, lineNo) => ({
    lineNo,
    lineId: l.lineId,
    name: l.name,
    ...(l.sku ? { sku: l.sku } : {}),
    quantity: l.voided ? 0 : l.quantity,
    unitPriceCents: l.unitPriceCents,
    totalCents: l.voided ? 0 : l.priced.totalCents,
    taxCents: l.voided ? 0 : l.priced.taxCents,
    discountCents: l.voided ? 0 : l.priced.lineDiscountCents + l.priced.ticketDiscountCents,
  }));
}

/** Journal operations whose money goes back to the card by DoRefund / DoVoid at the gateway. */
const CARD_OPERATIONS: ReadonlySet<string> = new Set(['sale', 'debit', 'token-sale', 'preauth-complete']);

export type TenderFunds = ReturnTenderOptionView & {
  operation: string;
  last4?: string;
  cardType?: string;
};

function labelOf(row: JournalRow, tender: string): string {
  if (row.operation === 'cash') return 'Cash';
  if (row.operation === 'check') return 'Check (refunded in cash)';
  return row.last4 ? `${row.cardType ?? tender} ****${row.last4}` : tender;
}

/**
 * What each tender of the sale can still take back: what it took, less what was refunded on it, less what
 * returns not finished yet have reserved on it (`reserved`, by journal number). A voided or reversed
 * payment takes nothing back; EBT and a hold cannot be returned here.
 */
export function tenderFunds(
  t: TicketView,
  rows: ReadonlyMap<string, JournalRow>,
  reserved: ReadonlyMap<string, number>,
): TenderFunds[] {
  const out: TenderFunds[] = [];
  for (const x of t.tenders) {
    const utn = x.userTransactionNumber;
    const row = utn ? rows.get(utn) : undefined;
    if (!utn || !row) continue;
    if (x.status !== 'approved' && x.status !== 'partial' && x.status !== 'voided') continue;
    const op = row.operation;
    const kind: ReturnLegKind =
      op === 'cash' || op === 'check' ? 'cash' : op === 'gift-sale' ? 'gift-card' : 'card';
    const tender = op === 'cash' ? 'Cash' : op === 'check' ? 'Check' : tenderName(op);
    const live = row.state === 'approved' || row.state === 'partial';
    const left = live ? Math.max(0, refundableCents(row) - (reserved.get(utn) ?? 0)) : 0;
    let unavailable: string | undefined;
    if (op === 'ebt-food' || op === 'ebt-cash')
      unavailable =
        'An EBT payment goes back to the EBT card, which this lane cannot do: refund it another way.';
    else if (op === 'preauth') unavailable = 'A hold is completed or voided, not returned.';
    else if (!live) unavailable = `That payment is ${row.state}: nothing of it can go back.`;
    else if (kind === 'card' && !CARD_OPERATIONS.has(op))
      unavailable = 'This payment cannot be refunded here.';
    out.push({
      key: utn,
      kind,
      tender,
      label: labelOf(row, tender),
      paidCents: takenCents(row),
      refundableCents: unavailable ? 0 : left,
      ...(unavailable ? { unavailable } : {}),
      operation: op,
      ...(row.last4 ? { last4: row.last4 } : {}),
      ...(row.cardType ? { cardType: row.cardType } : {}),
    });
  }
  return out;
}

/**
 * The order the money goes back in unless the cashier changes it: cards (and gift cards) first, in the
 * order they paid, cash last — the card's money goes back to the card's account, and a split sale is not
 * turned into cash out of the drawer.
 */
export function defaultOrder(funds: readonly TenderFunds[]): string[] {
  return [...funds.filter((f) => f.kind !== 'cash'), ...funds.filter((f) => f.kind === 'cash')].map(
    (f) => f.key,
  );
}

export type ReturnPlan = {
  refund: ProportionalReturn;
  /** The sale's lines with a quantity returned now. */
  lines: { line: SoldLineInfo; quantity: number; totalCents: number; taxCents: number }[];
  legs: (Omit<ReturnLegPlanView, 'method'> & { funds: TenderFunds })[];
};

/**
 * The plan of a return: `returning[lineNo]` units of each line (missing lines: none), checked against what
 * earlier returns took (`returnedBefore`); the money by the proportional rule; spread over the tenders in
 * `order` (the default order when left out), each taking what it can. Refused — nothing planned — when a
 * quantity is more than what is left, nothing comes back, or the tenders cannot take the money.
 */
export function planReturn(input: {
  sold: readonly SoldLineInfo[];
  returnedBefore: readonly number[];
  returning: readonly { lineNo: number; quantity: number }[];
  funds: readonly TenderFunds[];
  order?: readonly string[] | undefined;
}): ReturnPlan {
  const { sold, returnedBefore, funds } = input;
  const wanted = sold.map(() => 0);
  for (const r of input.returning) {
    const line = sold[r.lineNo];
    if (!line || line.quantity === 0)
      throw new ReturnRefusal(
        'invalid',
        `The sale has no line ${r.lineNo + 1} to return.`,
        'returns.noLine',
        {
          line: r.lineNo + 1,
        },
      );
    if (!Number.isSafeInteger(r.quantity) || r.quantity < 0)
      throw new ReturnRefusal('invalid', 'A quantity is a whole number.', 'returns.quantityWhole');
    wanted[r.lineNo] = (wanted[r.lineNo] ?? 0) + r.quantity;
  }
  sold.forEach((line, i) => {
    const before = returnedBefore[i] ?? 0;
    const want = wanted[i] ?? 0;
    if (before + want > line.quantity)
      throw new ReturnRefusal(
        'conflict',
        line.quantity - before <= 0
          ? `${line.name}: all ${line.quantity} sold were returned already.`
          : `${line.name}: only ${line.quantity - before} of the ${line.quantity} sold can still be returned.`,
        line.quantity - before <= 0 ? 'returns.allReturned' : 'returns.onlyLeft',
        { name: line.name, count: line.quantity, left: line.quantity - before },
      );
  });
  if (wanted.every((q) => q === 0))
    throw new ReturnRefusal('invalid', 'Choose at least one item to return.', 'returns.chooseItem');

  const refund = proportionalReturn(
    sold.map((l) => ({ quantity: l.quantity, totalCents: l.totalCents, taxCents: l.taxCents })),
    sold.map((_, i) => returnedBefore[i] ?? 0),
    wanted,
  );

  const byKey = new Map(funds.map((f) => [f.key, f]));
  const order = input.order ?? defaultOrder(funds);
  const seen = new Set<string>();
  for (const key of order) {
    if (!byKey.has(key))
      throw new ReturnRefusal('invalid', 'That payment is not one of this sale’s.', 'returns.notThisSale');
    if (seen.has(key))
      throw new ReturnRefusal('invalid', 'A payment is named twice in the order.', 'returns.namedTwice');
    seen.add(key);
  }
  let left = refund.totalCents;
  const legs: ReturnPlan['legs'] = [];
  for (const key of order) {
    const f = byKey.get(key);
    if (!f || left === 0 || f.refundableCents === 0) continue;
    const amount = Math.min(left, f.refundableCents);
    legs.push({ key: f.key, kind: f.kind, tender: f.tender, label: f.label, amountCents: amount, funds: f });
    left -= amount;
  }
  if (left > 0) {
    const can = refund.totalCents - left;
    throw new ReturnRefusal(
      'conflict',
      `${formatCents(refund.totalCents)} comes back, but the sale's payments${input.order ? ' chosen' : ''} can take back only ${formatCents(can)} (refunded or in a return already).`,
      'returns.cannotTakeBack',
      { totalCents: refund.totalCents, canCents: can },
    );
  }
  return {
    refund,
    lines: sold.flatMap((line, i) => {
      const q = wanted[i] ?? 0;
      const r = refund.lines[i];
      return q > 0 && r ? [{ line, quantity: q, totalCents: r.totalCents, taxCents: r.taxCents }] : [];
    }),
    legs,
  };
}

/**
 * How a card leg's money goes back: a void cancels the payment before its batch settles, and only when the
 * whole of it comes back and nothing of it was refunded before (a void cannot take part of a payment);
 * otherwise a refund. Cash comes from the drawer, a gift card is credited.
 */
export function legMethod(
  kind: ReturnLegKind,
  amountCents: number,
  row:
    | Pick<
        JournalRow,
        'createdAt' | 'refundedCents' | 'approvedCents' | 'amountCents' | 'tipCents' | 'cashBackCents'
      >
    | undefined,
  settledBefore: number,
  reservedByOthers: number,
): ReturnMethod {
  if (kind === 'cash') return 'drawer';
  if (kind === 'gift-card') return 'gift-card';
  if (
    row &&
    row.createdAt >= settledBefore &&
    row.refundedCents === 0 &&
    reservedByOthers === 0 &&
    amountCents === takenCents(row)
  )
    return 'void';
  return 'refund';
}
