import type { BackoffPolicy } from '../../native/drivers/backoff';

// The delay rule is the lane's one backoff (native/drivers/backoff.ts); only the reversal policy is here.
export type { BackoffPolicy } from '../../native/drivers/backoff';

/** Reversal retries: 1 s, 2 s, 4 s … capped at 60 s, ±20 %. */
export const reversalBackoff: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, multiplier: 2, jitter: 0.2 };
