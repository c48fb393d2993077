import type { Queryable } from '../storage/queryable';
import { ResponseCode } from '../contract/response-codes';
import { DomainError } from './outcome';
import type { Amounts } from './payments';

export type MerchantSettings = {
  cardDifferenceEnabled: boolean;
  cardDifferencePercentBp: number;
  surchargeEnabled: boolean;
  surchargePercentBp: number;
  threeDSecureEnabled: boolean;
};

export const defaultSettings: MerchantSettings = {
  cardDifferenceEnabled: false,
  cardDifferencePercentBp: 0,
  surchargeEnabled: false,
  surchargePercentBp: 0,
  threeDSecureEnabled: false,
};

export async function merchantSettings(q: Queryable, mid: number): Promise<MerchantSettings> {
  const row = await q.first(q.qb.selectFrom('business_settings').selectAll().where('mid', '=', mid));
  if (!row) return defaultSettings;
  return {
    cardDifferenceEnabled: row.card_difference_enabled === 1,
    cardDifferencePercentBp: row.card_difference_percent_bp,
    surchargeEnabled: row.surcharge_enabled === 1,
    surchargePercentBp: row.surcharge_percent_bp,
    threeDSecureEnabled: row.three_ds_enabled === 1,
  };
}

/**
 * The merchant-specific rules that run after the request's own checks: a surcharge or card difference is
 * taken only where the merchant enabled it (the caller computes the amount; the service never derives it).
 */
export async function checkMerchantAmountRules(q: Queryable, mid: number, amounts: Amounts): Promise<void> {
  if (amounts.surchargeCents === 0 && amounts.cardDifferenceCents === 0) return;
  const s = await merchantSettings(q, mid);
  const problems: string[] = [];
  if (amounts.surchargeCents > 0 && !s.surchargeEnabled)
    problems.push('SurchargeAmount is not allowed: surcharge is not enabled for this merchant');
  if (amounts.cardDifferenceCents > 0 && !s.cardDifferenceEnabled) {
    problems.push('CardDifferenceAmount is not allowed: card difference is not enabled for this merchant');
  }
  if (problems.length > 0) throw new DomainError(ResponseCode.InvalidRequest, problems);
}
