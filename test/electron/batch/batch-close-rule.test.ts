import { describe, expect, it } from 'vitest';
import { batchCloseBlockers } from '../../../electron/batch/batch-close-rule';

describe('when the lane’s batch may close (batch-close-rule.ts)', () => {
  it('closes when nothing is unresolved', () => {
    expect(batchCloseBlockers({ orphans: 0, pendingReversals: 0, safQueued: 0 })).toEqual([]);
  });

  it.each([
    [{ orphans: 2, pendingReversals: 0, safQueued: 0 }, /2 transaction\(s\) approved at the gateway/],
    [{ orphans: 0, pendingReversals: 1, safQueued: 0 }, /1 reversal\(s\) not yet acknowledged/],
    [{ orphans: 0, pendingReversals: 0, safQueued: 3 }, /3 sale\(s\) stored offline/],
  ])('one unresolved kind alone keeps it open: %j', (open, words) => {
    const blockers = batchCloseBlockers(open);
    expect(blockers).toHaveLength(1);
    expect(blockers[0]?.text).toMatch(words);
  });

  it('names every kind that blocks, orphans first', () => {
    const blockers = batchCloseBlockers({ orphans: 1, pendingReversals: 1, safQueued: 1 });
    expect(blockers).toHaveLength(3);
    expect(blockers[0]?.text).toMatch(/keep or reverse each/);
    expect(blockers.map((b) => b.words.messageId)).toEqual([
      'batch.blockers.orphans',
      'batch.blockers.reversals',
      'batch.blockers.stored',
    ]);
  });
});
