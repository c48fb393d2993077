import { describe, expect, it } from 'vitest';
import { changeDueCents, changeNeedsConfirmation, LARGEST_BILL_CENTS } from '../../common/cash-change';

describe('the change a cash tender gives (common/cash-change.ts)', () => {
  it('is what was handed over beyond what is due, never negative', () => {
    expect(changeDueCents(3000, 5000)).toBe(2000);
    expect(changeDueCents(3000, 3000)).toBe(0);
    // Short: the rest needs another tender, and no change goes back.
    expect(changeDueCents(3000, 1000)).toBe(0);
  });

  it('asks for a confirmation above the largest bill over the amount due', () => {
    expect(LARGEST_BILL_CENTS).toBe(10_000);
    // The slip the issue reproduced: "1000" typed on top of a pre-filled $30.00.
    expect(changeDueCents(3000, 30_001_000)).toBe(29_998_000);
    expect(changeNeedsConfirmation(3000, 30_001_000)).toBe(true);
    // A $100 bill for a $0.50 sale is ordinary; one cent more than a whole bill of change is not.
    expect(changeNeedsConfirmation(50, 10_000)).toBe(false);
    expect(changeNeedsConfirmation(3000, 13_000)).toBe(false);
    expect(changeNeedsConfirmation(3000, 13_001)).toBe(true);
  });
});
