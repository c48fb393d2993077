/**
 * The one retry backoff of the lane: device reconnects (devices/device-manager.ts) and the terminal's
 * reversal worker (electron/journal/reversal-worker.ts) both wait by it.
 */
export type BackoffPolicy = {
  /** Delay before the second attempt. */
  initialMs: number;
  /** Cap. */
  maxMs: number;
  multiplier: number;
  /** ± fraction of the delay, so lanes that lost a shared hub or link do not retry in lockstep. */
  jitter: number;
};

/**
 * Exponential backoff with symmetric jitter (the stripe-node `RequestSender` habit): attempt 0 waits
 * about `initialMs`, each further attempt `multiplier` times longer, capped at `maxMs`.
 */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.multiplier ** Math.max(0, attempt));
  const spread = base * policy.jitter;
  return Math.max(0, Math.round(base - spread + 2 * spread * random()));
}
