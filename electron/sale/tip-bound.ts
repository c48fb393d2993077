import { withinPercent } from '../../common/percent';

/** A pre-authorization's completion as the tip bound reads it. */
export type CompletionTip = {
  /** The tip added at completion, in cents. */
  tipCents: number;
  /** The hold this lane's journal holds for it (its approved cents), or undefined: not this lane's hold. */
  holdCents: number | undefined;
  /** The lane's share of the hold a tip may reach without a manager (settings: `preauthTipMaxPercent`). */
  sharePercent: number;
};

// rule: preauth-tip-approval
/**
 * Whether a completion's tip needs a manager before anything is sent: a tip the cardholder never saw at
 * the hold — above the lane's share of it (the gateway's bound on ClosePreauth's AdditionalTip, mirrored:
 * 20 % by default), or on a hold this lane did not make, whose amount it cannot check. Compared exactly,
 * in integer cents (common/percent.ts). The gateway still applies its own ceiling to an approved tip.
 */
export function completionTipNeedsManager(c: CompletionTip): boolean {
  return (
    c.tipCents > 0 && (c.holdCents === undefined || !withinPercent(c.tipCents, c.holdCents, c.sharePercent))
  );
}
