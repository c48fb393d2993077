import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCents } from '../../common/largest-remainder';

describe('allocating cents in proportion, to the cent (common/largest-remainder.ts)', () => {
  it('gives each its floor and the left-over cents to the largest remainders, ties to the earlier', () => {
    // 1.00 over three equal lines: 33.33… each, one cent left, to the first (equal remainders).
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    // 10.00 over 3.00, 3.00, 4.00: exact, nothing left over.
    expect(allocateCents(1000, [300, 300, 400])).toEqual([300, 300, 400]);
    // 5 cents over 1.99, 1.01: 3.3166 and 1.6833 → floors 3 and 1, the cent to the larger remainder (.6833).
    expect(allocateCents(5, [199, 101])).toEqual([3, 2]);
    // Two cents over four equal weights: the first two (ties in order).
    expect(allocateCents(2, [5, 5, 5, 5])).toEqual([1, 1, 0, 0]);
    expect(allocateCents(0, [3, 4])).toEqual([0, 0]);
    expect(allocateCents(7, [0, 3, 0])).toEqual([0, 7, 0]);
    expect(allocateCents(0, [0, 0])).toEqual([0, 0]);
    expect(allocateCents(0, [])).toEqual([]);
  });

  it('refuses what cannot be split: money over no weight, negatives, fractions', () => {
    expect(() => allocateCents(1, [0, 0])).toThrow(RangeError);
    expect(() => allocateCents(1, [])).toThrow(RangeError);
    expect(() => allocateCents(-1, [1])).toThrow(RangeError);
    expect(() => allocateCents(1, [-1, 2])).toThrow(RangeError);
    expect(() => allocateCents(1.5, [1])).toThrow(RangeError);
    expect(() => allocateCents(1, [0.5])).toThrow(RangeError);
  });

  it('sums exactly, each share within a cent of its exact share and never above its weight (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 99_999_999 }), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        (weights, seed) => {
          const whole = weights.reduce((s, w) => s + w, 0);
          if (whole === 0) return true;
          const total = seed % (whole + 1);
          const shares = allocateCents(total, weights);
          const sum = shares.reduce((s, x) => s + x, 0);
          return (
            sum === total &&
            shares.every((x, i) => {
              const w = BigInt(weights[i] ?? 0);
              const exactTimesWhole = BigInt(total) * w; // exact share × whole
              const xw = BigInt(x) * BigInt(whole);
              // floor(exact) ≤ x ≤ ceil(exact), and x ≤ weight when the total is at most the whole
              return (
                xw <= exactTimesWhole + BigInt(whole) - 1n &&
                xw + BigInt(whole) > exactTimesWhole &&
                x <= (weights[i] ?? 0)
              );
            })
          );
        },
      ),
      { seed: 19, numRuns: 3000 },
    );
  });

  it('is deterministic: the same input, the same split, whatever the order it is asked in', () => {
    const weights = [250, 125, 125, 500];
    const first = allocateCents(333, weights);
    expect(allocateCents(333, [...weights])).toEqual(first);
    expect(first.reduce((s, x) => s + x, 0)).toBe(333);
  });
});
