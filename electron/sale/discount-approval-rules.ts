import type {
  ApprovedDiscount,
  DiscountLimitsView,
  ItemizedTicketView,
  Role,
  TicketLineView,
} from '../../common/bridge/contract';
import { percentAtMost, withinPercent } from '../../common/percent';
import { formatCents } from '../util/money';

/**
 * What a cashier may do to a ticket's prices without a manager, and what needs the manager's PIN (the
 * existing approval: a signed-in manager, or `approval: { managerPin }` with the call, audited):
 *
 * - A line discount above `maxLineDiscountPercent` of the line. A percent discount is judged by the
 *   percent typed (10 % is 10 %, even where rounding a tiny line makes it a bigger share); an amount by
 *   its share of the line, compared exactly (percent.ts `withinPercent`).
 * - A ticket discount above `maxTicketDiscountPercent` of what the lines come to after their own
 *   discounts, judged the same way.
 * - A catalog item's price changed (`priceOverrideNeedsApproval`, on by default). Open items and the
 *   catalog's open-price items are priced by the cashier: that is what they are for.
 *
 * The rule judges the ticket as it would be after a change, so a discount cannot grow past the limit by
 * another road (fewer units under an amount discount make it a bigger share of the line). An approval
 * covers what was approved: the same or a smaller share later passes; more needs the manager again.
 * Setting a new discount or price drops the line's earlier approval (ticket-lines.ts).
 *
 * Callers: electron/sale/itemized-sale.ts (every change to a ticket's lines goes through it).
 */

export type ApprovalNeed = {
  action: 'line-discount' | 'ticket-discount' | 'price-override';
  lineId?: string;
  /** The cashier's words: what needs the manager and why. */
  reason: string;
  /** The audit's words: ids and amounts. */
  detail: string;
};

function shareText(partCents: number, wholeCents: number): string {
  if (wholeCents === 0) return '0%';
  // Display only: one decimal of the share (the decision above is exact).
  return `${Math.round((partCents * 1000) / wholeCents) / 10}%`;
}

function covered(
  approval: ApprovedDiscount | undefined,
  discount: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
  partCents: number,
  wholeCents: number,
): boolean {
  if (!approval) return false;
  if (discount.kind === 'percent')
    return approval.kind === 'percent' && percentAtMost(discount.percent, approval.percent);
  if (approval.kind !== 'share') return false;
  // part / whole ≤ approved part / approved whole, exactly.
  return BigInt(partCents) * BigInt(approval.wholeCents) <= BigInt(approval.partCents) * BigInt(wholeCents);
}

function aboveLimit(
  discount: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
  partCents: number,
  wholeCents: number,
  limit: number,
): boolean {
  return discount.kind === 'percent'
    ? !percentAtMost(discount.percent, limit)
    : !withinPercent(partCents, wholeCents, limit);
}

function words(
  discount: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
  partCents: number,
  wholeCents: number,
): string {
  return discount.kind === 'percent'
    ? `${discount.percent}%`
    : `${formatCents(discount.amountCents)} (${shareText(partCents, wholeCents)})`;
}

function lineNeeds(line: TicketLineView, limits: DiscountLimitsView): ApprovalNeed[] {
  if (line.voided) return [];
  const needs: ApprovalNeed[] = [];
  const d = line.discount;
  const part = line.priced.lineDiscountCents;
  const whole = line.priced.grossCents;
  if (
    d &&
    aboveLimit(d, part, whole, limits.maxLineDiscountPercent) &&
    !covered(line.discountApproval, d, part, whole)
  )
    needs.push({
      action: 'line-discount',
      lineId: line.lineId,
      reason: `A manager must approve a discount of ${words(d, part, whole)} on ${line.name}: a cashier may give up to ${limits.maxLineDiscountPercent}%.`,
      detail: `line ${line.lineId} ${line.sku ?? line.kind}: discount ${words(d, part, whole)} of ${formatCents(whole)}, limit ${limits.maxLineDiscountPercent}%`,
    });
  const overridden =
    line.kind === 'item' &&
    !line.openPrice &&
    line.listPriceCents !== undefined &&
    line.unitPriceCents !== line.listPriceCents;
  if (
    overridden &&
    limits.priceOverrideNeedsApproval &&
    line.priceApproval?.unitPriceCents !== line.unitPriceCents
  )
    needs.push({
      action: 'price-override',
      lineId: line.lineId,
      reason: `A manager must approve the price ${formatCents(line.unitPriceCents)} for ${line.name} (the catalog price is ${formatCents(line.listPriceCents ?? 0)}).`,
      detail: `line ${line.lineId} ${line.sku ?? ''}: unit price ${formatCents(line.unitPriceCents)} instead of ${formatCents(line.listPriceCents ?? 0)}`,
    });
  return needs;
}

/** Every approval the ticket needs as it stands (none: the cashier may do it alone). */
export function approvalsNeeded(t: ItemizedTicketView, limits: DiscountLimitsView): ApprovalNeed[] {
  const needs = t.lines.flatMap((l) => lineNeeds(l, limits));
  const d = t.discount;
  const part = t.pricing.ticketDiscountCents;
  const whole = t.pricing.itemsCents - t.pricing.lineDiscountCents;
  if (
    d &&
    aboveLimit(d, part, whole, limits.maxTicketDiscountPercent) &&
    !covered(t.discountApproval, d, part, whole)
  )
    needs.push({
      action: 'ticket-discount',
      reason: `A manager must approve a ticket discount of ${words(d, part, whole)}: a cashier may give up to ${limits.maxTicketDiscountPercent}%.`,
      detail: `ticket discount ${words(d, part, whole)} of ${formatCents(whole)}, limit ${limits.maxTicketDiscountPercent}%`,
    });
  return needs;
}

/** Records the approval of `needs` on the ticket: each covers what it approved, as it is now. */
export function recordApprovals(
  t: ItemizedTicketView,
  needs: readonly ApprovalNeed[],
  by: Role,
  at: number,
): void {
  const share = (
    d: { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number },
    part: number,
    whole: number,
  ): ApprovedDiscount =>
    d.kind === 'percent'
      ? { kind: 'percent', percent: d.percent, approvedBy: by, at }
      : { kind: 'share', partCents: part, wholeCents: whole, approvedBy: by, at };
  for (const need of needs) {
    if (need.action === 'ticket-discount' && t.discount)
      t.discountApproval = share(
        t.discount,
        t.pricing.ticketDiscountCents,
        t.pricing.itemsCents - t.pricing.lineDiscountCents,
      );
    const line = t.lines.find((l) => l.lineId === need.lineId);
    if (!line) continue;
    if (need.action === 'line-discount' && line.discount)
      line.discountApproval = share(line.discount, line.priced.lineDiscountCents, line.priced.grossCents);
    if (need.action === 'price-override')
      line.priceApproval = { unitPriceCents: line.unitPriceCents, approvedBy: by, at };
  }
}
