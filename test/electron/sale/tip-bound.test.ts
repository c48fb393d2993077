import { describe, expect, it } from 'vitest';
import { completionTipNeedsManager } from '../../../electron/sale/tip-bound';

describe("a completion's tip bound (sale/tip-bound.ts)", () => {
  const on = (tipCents: number, holdCents: number | undefined, sharePercent = 20) =>
    completionTipNeedsManager({ tipCents, holdCents, sharePercent });

  it('no tip never needs a manager, even on a hold this lane did not make', () => {
    expect(on(0, 10_000)).toBe(false);
    expect(on(0, undefined)).toBe(false);
  });

  it('up to the share of the hold, exactly, the cashier completes alone; one cent more needs a manager', () => {
    expect(on(2_000, 10_000)).toBe(false);
    expect(on(2_001, 10_000)).toBe(true);
    // 20 % of 33.33 is 6.666: 6.66 is within, 6.67 is not (compared exactly, never rounded up).
    expect(on(666, 3_333)).toBe(false);
    expect(on(667, 3_333)).toBe(true);
  });

  it("any tip on a hold the lane's journal does not hold needs a manager", () => {
    expect(on(1, undefined)).toBe(true);
  });

  it("follows the lane's share", () => {
    expect(on(2_500, 10_000, 25)).toBe(false);
    expect(on(2_500, 10_000, 20)).toBe(true);
  });
});
