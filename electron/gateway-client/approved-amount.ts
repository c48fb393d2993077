import type { SaleResponse } from '../../gateway/contract/card-sale';
import { ResponseCode } from '../../gateway/contract/response-codes';
import { fromWire } from '../util/money';

/**
 * What an approved sale took: a partial approval (210) says it in its amounts, anything else approved what
 * was asked (`askedCents`: base + tax + tip, cash back apart).
 */
export function approvedCentsOf(code: number, r: SaleResponse, askedCents: number): number {
  const approved =
    code === ResponseCode.PartialApproval
      ? fromWire(r.Amount) + fromWire(r.TaxAmount) + fromWire(r.TipAmount)
      : askedCents;
  return Math.min(askedCents, approved);
}
