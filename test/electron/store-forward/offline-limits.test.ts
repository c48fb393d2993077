import { describe, expect, it } from 'vitest';
import type { SafPolicy } from '../../../common/bridge/contract';
import { safEligibility } from '../../../electron/store-forward/offline-limits';

const policy: SafPolicy = {
  enabled: true,
  perTransactionLimitCents: 5_000,
  totalLimitCents: 20_000,
  maxAgeHours: 24,
};
const chip = { source: 'emv', tender: 'credit', amountCents: 5_000 } as const;

describe('which sale may be stored offline (store-forward/offline-limits.ts)', () => {
  it('a chip or contactless credit sale within both limits may', () => {
    expect(safEligibility(policy, 15_000, chip)).toEqual({ ok: true });
  });

  it('off by policy: none may', () => {
    expect(safEligibility({ ...policy, enabled: false }, 0, chip)).toEqual({
      ok: false,
      reason: 'Store-and-forward is off.',
    });
  });

  it('never a swipe or keyed card, never a tender but credit', () => {
    expect(safEligibility(policy, 0, { ...chip, source: 'swipe' }).ok).toBe(false);
    expect(safEligibility(policy, 0, { ...chip, source: 'keyed' }).ok).toBe(false);
    expect(safEligibility(policy, 0, { ...chip, tender: 'debit' })).toEqual({
      ok: false,
      reason: 'Only credit sales can be stored offline.',
    });
  });

  it('the per-sale limit: at it may, one cent above may not', () => {
    expect(safEligibility(policy, 0, { ...chip, amountCents: 5_001 })).toEqual({
      ok: false,
      reason: 'The amount is over the offline limit for one sale.',
    });
  });

  it('the total limit counts what is already stored: reaching it exactly may, passing it may not', () => {
    expect(safEligibility(policy, 15_001, chip)).toEqual({
      ok: false,
      reason: 'The offline total limit is reached.',
    });
  });
});
