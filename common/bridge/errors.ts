/**
 * The error taxonomy of the bridge. A renderer switches on `code`; `message` is plain words for the
 * cashier (never card data).
 * - `invalid`: the payload is wrong (amount not integer cents, unknown ticket, missing field).
 * - `unauthorized`: nobody is signed in, or the PIN is wrong.
 * - `forbidden`: the signed-in role may not do this and no valid manager approval came with it.
 * - `declined`: the gateway or issuer said no (also in SaleOutcome; here for non-sale commands).
 * - `unreachable`: the gateway could not be reached; nothing was charged.
 * - `unknown-outcome`: the request may have reached the gateway; the terminal is reversing it.
 * - `offline`: refused because the gateway is unreachable and store-and-forward does not allow it.
 * - `busy`: another tender or device action is in progress.
 * - `device`: a device is missing or failed (the message says which).
 * - `not-found`: the referenced transaction, ticket or item does not exist.
 * - `conflict`: the state does not allow it (e.g. batch close with unresolved orphans).
 * - `unavailable`: the feature is not available here (e.g. simulator controls outside the sandbox).
 * - `internal`: a bug; the diagnostics bundle has the details.
 */
export type BridgeErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'declined'
  | 'unreachable'
  | 'unknown-outcome'
  | 'offline'
  | 'busy'
  | 'device'
  | 'not-found'
  | 'conflict'
  | 'unavailable'
  | 'internal';

export type BridgeError = {
  code: BridgeErrorCode;
  message: string;
  /** Gateway ResponseCode when the gateway answered (see docs/response-codes.md). */
  gatewayCode?: number;
  /** A decline's reason (gatewayCode 3): the DeclineCode table of docs/response-codes.md. */
  declineCode?: number;
  /** For `invalid`: one entry per problem. */
  problems?: string[];
  /**
   * The message's id in the screens' message catalogs (renderer/src/i18n, namespace `errors`) and the
   * values it names, so a screen says it in its own language; `message` stays the English words (tools,
   * logs, a screen that does not know the id).
   */
  messageId?: string;
  params?: Record<string, string | number>;
  /** For `invalid`: each of `problems` by its id in the screens' catalogs, in the same order. */
  problemWords?: MessageWords[];
};

/** Words a screen says in its own language: a message's id in its catalogs and the values it names. */
export type MessageWords = { messageId: string; params?: Record<string, string | number> };

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };
