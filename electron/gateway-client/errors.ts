import { DeclineCode } from '../../gateway/contract/decline-codes';
import { ResponseCode } from '../../gateway/contract/response-codes';

/**
 * The terminal's error taxonomy for a gateway call (docs/terminal.md "Gateway client"):
 * - `declined`: the gateway answered and said no (issuer decline, duplicate payment, fraud deny).
 * - `invalid`: the gateway answered that the request is wrong (schema, credentials, state); retrying the
 *   same request cannot help.
 * - `unreachable`: nothing was charged: the request never left, or the gateway answered that its
 *   processor could not be reached.
 * - `unknown-outcome`: the request may have been acted on and no usable answer came back. For anything
 *   that moves money this is the case the reversal worker exists for.
 */
export type GatewayFailureKind = 'declined' | 'invalid' | 'unreachable' | 'unknown-outcome';

export type GatewayFailure = {
  kind: GatewayFailureKind;
  /** Plain words, safe to show and log (never card data). */
  message: string;
  /** The gateway's ResponseCode when it answered. */
  code?: number;
  /** A decline's reason (ResponseCode 3 carries it in `DeclineCode`, contract/decline-codes.ts). */
  declineCode?: number;
  /** HTTP status when the gateway answered at the transport level. */
  status?: number;
  /** `network` when the gateway itself was not reached; `processor` when the gateway's processor was not. */
  where?: 'network' | 'processor';
};

/** Codes where the gateway says nothing was charged because its processor is down or slow. */
const PROCESSOR_DOWN = new Set<number>([ResponseCode.ProcessorUnavailable, ResponseCode.ProcessorTimeout]);

/** Success codes: the operation was carried out (210: for less than asked). */
export function isSuccessCode(code: number): boolean {
  return code === ResponseCode.Success || code === ResponseCode.PartialApproval;
}

/**
 * Classifies a gateway ResponseCode that is not a success. A decline is ResponseCode 3 with a DeclineCode
 * (3 without one is the interface's missing Token: a wrong request). `movesMoney`: 300 is the real
 * catalog's "system error" as well as "not supported", so on a payment it is an unknown outcome (a
 * reversal is harmless when nothing happened), never "nothing happened".
 */
export function classifyCode(
  code: number,
  declineCode: number | undefined,
  movesMoney: boolean,
): GatewayFailureKind {
  if (code === ResponseCode.Declined && declineCode !== undefined) return 'declined';
  if (code === ResponseCode.DuplicatePayment) return 'declined';
  if (PROCESSOR_DOWN.has(code)) return 'unreachable';
  if (code === ResponseCode.InternalError && movesMoney) return 'unknown-outcome';
  return 'invalid';
}

/** What the cashier reads for a decline or refusal: the gateway's words, or the catalog's. */
export function plainMessage(
  code: number,
  declineCode: number | undefined,
  msg: readonly string[] | undefined,
  fallback: string,
): string {
  const joined = (msg ?? []).filter((m) => m.length > 0).join('; ');
  if (code === ResponseCode.DuplicatePayment)
    return 'Looks like a duplicate of a recent payment (same card and amount). Confirm to charge it again.';
  if (code !== ResponseCode.Declined || declineCode === undefined) return joined || fallback;
  switch (declineCode) {
    case DeclineCode.InsufficientFunds:
      return 'Declined: insufficient funds. Ask for another card or tender.';
    case DeclineCode.ExpiredCard:
      return 'Declined: the card is expired. Ask for another card.';
    case DeclineCode.IncorrectPin:
      return 'Incorrect PIN. The customer can try again.';
    case DeclineCode.CvnMismatch:
      return 'Declined: the security code did not match.';
    case DeclineCode.Declined:
      return 'Declined by the card issuer. Ask for another card or tender.';
    default:
      return joined || fallback;
  }
}
