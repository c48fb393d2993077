/**
 * Failed-login state, one row per throttle scope (migration 005): `pair:<user>|<address>` for one user
 * name from one address, `addr:<address>` for one address across user names, `user:<user>` for one user
 * ID from any address (its lockout: `next_allowed_at` is the end of the lockout, `trusted_key` the
 * credential that last verified for it). In the database, not in a process's memory, so every gateway
 * process on one PostgreSQL database throttles the same guesses.
 */
export type LoginThrottleTable = {
  scope_key: string;
  /** Attempts counted in the current streak (counted before verification; a success resets the pair). */
  failures: number;
  /** When the streak's last counted attempt was made; a streak older than the window is forgotten. */
  last_attempt_at: string;
  /** No unverified attempt of this scope is taken before this instant ('' for none). */
  next_allowed_at: string;
  /** Keyed hash of the credential last verified from this pair ('' for none): it is not a guess. */
  trusted_key: string;
  trusted_at: string;
};

/**
 * Declined checkout attempts, one row per payment link and payer address (migration 008): in the database
 * so that every gateway process on one PostgreSQL database turns the same card tester away.
 */
export type CheckoutThrottleTable = {
  scope_key: string;
  /** Declines counted in the current window. */
  failures: number;
  /** When the window of the first of them began; a window that has passed starts afresh. */
  window_started_at: string;
};

export type SecurityTables = {
  login_throttle: LoginThrottleTable;
  checkout_throttle: CheckoutThrottleTable;
};
