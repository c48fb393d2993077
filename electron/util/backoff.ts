export type BackoffPolicy = {
  /** Delay before the second attempt. */
  initialMs: number;
  maxMs: number;
  multiplier: number;
  /** ± fraction of the delay, so a store's lanes coming back online do not retry in lockstep. */
  jitter: number;
};

/** Reversal retries: 1 s, 2 s, 4 s … capped at 60 s, ±20 %. */
export const reversalBackoff: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, multiplier: 2, jitter: 0.2 };

/** Exponential backoff with symmetric jitter (stripe-node's RequestSender habit). `attempt` counts from 0. */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.multiplier ** Math.max(0, attempt));
  const spread = base * policy.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}
