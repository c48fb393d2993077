import type { SafPolicy } from '../../common/bridge/contract';

/**
 * Which sale may be stored offline (store-and-forward) while the gateway cannot be reached: the store
 * carries the risk until it is forwarded, so only what is hardest to counterfeit, within limits a manager
 * sets — a credit sale read from the chip or contactless (never a swipe or keyed card; never PIN debit,
 * whose PIN block must not be stored), at most the per-sale limit, and with the total stored offline
 * (queued, not yet forwarded) under the total limit. Off by default.
 */

export type SafEligibility = { ok: true } | { ok: false; reason: string };

export type SafCandidate = { source: 'swipe' | 'emv' | 'keyed'; tender: string; amountCents: number };

// rule: offline-limit
export function safEligibility(policy: SafPolicy, exposureCents: number, c: SafCandidate): SafEligibility {
  if (!policy.enabled) return { ok: false, reason: 'Store-and-forward is off.' };
  if (c.tender !== 'credit') return { ok: false, reason: 'Only credit sales can be stored offline.' };
  if (c.source !== 'emv')
    return { ok: false, reason: 'Only chip or contactless cards can be stored offline.' };
  if (c.amountCents > policy.perTransactionLimitCents)
    return { ok: false, reason: 'The amount is over the offline limit for one sale.' };
  if (exposureCents + c.amountCents > policy.totalLimitCents)
    return { ok: false, reason: 'The offline total limit is reached.' };
  return { ok: true };
}
