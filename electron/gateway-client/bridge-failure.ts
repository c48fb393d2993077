import { BridgeFailure } from '../../common/bridge/failure';
import type { GatewayFailure } from './errors';

/**
 * The one mapping of a gateway failure (errors.ts) to the bridge's error taxonomy (docs/bridge.md
 * "Errors"). The kinds keep their names: `unknown-outcome` stays `unknown-outcome` everywhere, never
 * `unreachable`, which promises the cashier that nothing was charged.
 */

/** What the terminal does about an unknown outcome: reverse it, or leave it to the reconciliation view. */
export type AfterUnknown = 'reversing' | 'reconcile';

/** An answer lost on a call the reversal worker undoes (journaled and reversible). */
export const UNKNOWN_MESSAGE =
  'Do not retry — no answer from the gateway. The terminal is reversing this sale.';

/** An answer lost on a call nothing reverses (a void, a check, anything not journaled as reversible). */
export const UNKNOWN_UNREVERSED_MESSAGE =
  'Do not retry — no answer from the gateway. Check the transaction in the reconciliation view before trying again.';

/** Plain words for a failed call. */
export function failureMessage(f: GatewayFailure, after: AfterUnknown = 'reconcile'): string {
  if (f.kind === 'unknown-outcome')
    return after === 'reversing' ? UNKNOWN_MESSAGE : UNKNOWN_UNREVERSED_MESSAGE;
  if (f.kind === 'unreachable' && f.where === 'processor')
    return 'The card network is unavailable; nothing was charged. Try again or use another tender.';
  if (f.kind === 'unreachable')
    return 'The gateway is unreachable (offline); nothing was charged. Use another tender.';
  return f.message;
}

/** The bridge error a command answers with when its gateway call failed. */
export function bridgeFailureOf(f: GatewayFailure, after: AfterUnknown = 'reconcile'): BridgeFailure {
  return new BridgeFailure(f.kind, failureMessage(f, after), {
    ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
    ...(f.declineCode !== undefined ? { declineCode: f.declineCode } : {}),
  });
}
