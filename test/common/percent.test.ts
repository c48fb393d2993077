import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  includedTaxCents,
  isExactRate,
  percentAtMost,
  percentOfCents,
  rateUnits,
  taxCents,
  withinPercent,
} from '../../common/percent';
import { taxOf, tipOf } from '../../renderer/src/format/money';

describe('one rounding rule for tax, tips and bounds (common/percent.ts)', () => {
  it('rounds half up on the exact product: the boundary values', () => {
    // 30.00 at 9.95 % is 298.5 cents exactly: half up is 2.99 (a float product, 298.49999…, gave 2.98).
    expect(taxCents(3000, 9.95)).toBe(299);
    expect(taxCents(2999, 9.95)).toBe(298); // 298.4005
    expect(taxCents(1000, 0.05)).toBe(1); // 0.5: a half goes up
    expect(taxCents(999, 0.05)).toBe(0); // 0.4995: just under a half goes down
    expect(taxCents(1001, 0.05)).toBe(1); // 0.5005
    expect(taxCents(200, 8.875)).toBe(18); // 17.75
    expect(taxCents(40, 8.875)).toBe(4); // 3.55
    expect(taxCents(1000, 8.25)).toBe(83); // 82.5
    expect(taxCents(1999, 7.3)).toBe(146); // 145.927
    expect(taxCents(0, 9.95)).toBe(0);
    expect(taxCents(1000, 0)).toBe(0);
    expect(taxCents(99_999_999, 30)).toBe(30_000_000); // 29,999,999.7 at the keypad's largest amount
    expect(taxCents(Number.MAX_SAFE_INTEGER, 1.1)).toBe(99_079_191_802_151); // 99,079,191,802,150.901: exact past 2^53
    expect(percentOfCents(-3000, 9.95)).toBe(-299); // half away from zero
  });

  it('reads a rate from its decimal digits, at most four decimals', () => {
    expect(rateUnits(9.95)).toBe(99_500n);
    expect(rateUnits(8.875)).toBe(88_750n);
    expect(rateUnits(0.0001)).toBe(1n);
    expect(rateUnits(30)).toBe(300_000n);
    for (const bad of [8.87501, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e-7])
      expect(isExactRate(bad), String(bad)).toBe(false);
    expect(() => taxCents(100, 8.87501)).toThrow(RangeError);
    expect(() => taxCents(1.5, 8)).toThrow(RangeError);
  });

  it('is half up by definition for every amount and rate (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 0, max: 300_000 }),
        (amount, units) => {
          const percent = units / 10_000;
          const got = BigInt(taxCents(amount, percent));
          // |got - exact| <= 1/2 cent, and an exact half goes up: 2·exact − 2·got ∈ (−1, 1] in cents.
          const twiceExactScaled = 2n * BigInt(amount) * BigInt(units); // 2·exact·10^6
          const diff = twiceExactScaled - 2n * got * 1_000_000n;
          return diff > -1_000_000n && diff <= 1_000_000n;
        },
      ),
      { seed: 20_240_611, numRuns: 2000 },
    );
  });

  it('compares a share exactly, with no rounding in between', () => {
    expect(withinPercent(400, 2000, 20)).toBe(true);
    expect(withinPercent(401, 2000, 20)).toBe(false);
    expect(withinPercent(399, 1999, 20)).toBe(true); // 399.8 allowed: 399 is under
    expect(withinPercent(400, 1999, 20)).toBe(false); // rounding 399.8 up to 400 would let this through
  });

  it('the screen previews with the same rule the core charges', () => {
    expect(taxOf(3000, 9.95)).toBe(taxCents(3000, 9.95));
    expect(taxOf(200, 8.875)).toBe(18);
    expect(tipOf(2000, 18)).toBe(360);
    expect(tipOf(333, 15)).toBe(50);
  });

  it('extracts the tax inside a tax-inclusive amount, half up on the exact quotient', () => {
    // 11.00 at 10 % included: 11.00 × 10 / 110 = 1.00 exactly.
    expect(includedTaxCents(1100, 10)).toBe(100);
    // 10.00 at 8.25 % included: 1000 × 8.25 / 108.25 = 76.212… → 76.
    expect(includedTaxCents(1000, 8.25)).toBe(76);
    // 2.10 at 5 % included: 210 × 5 / 105 = 10 exactly; 2.11 → 10.047… → 10; 2.31 → 11.
    expect(includedTaxCents(210, 5)).toBe(10);
    expect(includedTaxCents(211, 5)).toBe(10);
    expect(includedTaxCents(231, 5)).toBe(11);
    // An exact half goes up: 21 × 5 / 105 = 1.0 ; 105 at 5 % → 5.0 ; 1 cent at 100 % → 0.5 → 1.
    expect(includedTaxCents(1, 100)).toBe(1);
    expect(includedTaxCents(0, 8.25)).toBe(0);
    expect(includedTaxCents(1000, 0)).toBe(0);
    expect(includedTaxCents(-1100, 10)).toBe(-100);
    expect(() => includedTaxCents(100, 8.12345)).toThrow(RangeError);
    expect(() => includedTaxCents(10.5, 8)).toThrow(RangeError);
  });

  it('the included tax is half up by definition, and never more than the amount (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.integer({ min: 0, max: 300_000 }),
        (amount, units) => {
          const got = BigInt(includedTaxCents(amount, units / 10_000));
          // exact = amount·u / (10^6 + u); |got − exact| ≤ ½, a half up: 2·amount·u − 2·got·d ∈ (−d, d].
          const d = 1_000_000n + BigInt(units);
          const diff = 2n * BigInt(amount) * BigInt(units) - 2n * got * d;
          return diff > -d && diff <= d && got <= BigInt(amount) && got >= 0n;
        },
      ),
      { seed: 20_261_201, numRuns: 2000 },
    );
  });

  it('compares two percentages exactly by their decimal digits', () => {
    expect(percentAtMost(10, 10)).toBe(true);
    expect(percentAtMost(9.9999, 10)).toBe(true);
    expect(percentAtMost(10.0001, 10)).toBe(false);
    // 0.30000000000000004 is not a four-decimal rate: refused, as every rule here refuses it.
    expect(() => percentAtMost(0.1 + 0.2, 0.3)).toThrow(RangeError);
    expect(() => percentAtMost(-1, 10)).toThrow(RangeError);
  });
});
