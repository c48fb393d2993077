/**
 * The one catalog of ResponseCode values (docs/response-codes.md renders it). It follows the real
 * service's catalog wherever that catalog names the condition, because its published clients map those
 * numbers (one of them treats any other number as "unhandled, retry may help"): 1 and 2 credentials,
 * 3 transaction error (every decline: its reason is in `DeclineCode`, contract/decline-codes.ts), 4-7
 * settlement, reference, refund and void impossible, 13 empty request, 14-23 checks, 25-31 tokens,
 * pre-authorization and transaction numbers, 50-57 pre-authorization, signature and batch close, 200
 * success, 300 system error / not supported. The interface fixes 200, 506, 501, 3, 404 and 300. Every
 * condition the real catalog does not name keeps its own documented number, and a number never changes
 * meaning once shipped.
 */
import { commerceCatalog, commerceCodes } from './response-codes-commerce';
import { safeguardCatalog, safeguardCodes } from './response-codes-safeguards';
import { tenderCatalog, tenderCodes } from './response-codes-tenders';

// rule: response-code-catalog
const coreCodes = {
  Success: 200,
  PartialApproval: 210,

  // The real service's catalog.
  AuthenticationFailed: 1,
  InvalidHostCredentials: 2,
  /** Any processor decline: the reason's verbiage (decline-codes.ts), the reason in DeclineCode. */
  Declined: 3,
  /** The interface fixes 3 for SaleWithToken's missing Token too: both are "transaction error". */
  MissingToken: 3,
  SettlementImpossible: 4,
  UnauthorizedReference: 5,
  RefundImpossible: 6,
  VoidImpossible: 7,
  EmptyRequest: 13,
  TokenNotGenerated: 25,
  PreauthImpossible: 26,
  UserTransactionNumberNotFound: 29,
  UserTransactionNumberEmpty: 30,
  ServiceTransactionNumberNotFound: 31,
  PreauthNotFound: 50,
  PreauthNotClosable: 51,
  PreauthDeclined: 52,
  PreauthCompletedBefore: 53,
  SignatureDataEmpty: 54,
  NotEnrolled: 57,
  OperationNotSupported: 300,
  /** "System error" of the real catalog; HTTP 500. */
  InternalError: 300,

  // Fixed by the interface.
  NotFound: 404,
  InvalidTransactionType: 501,
  InvalidAmount: 506,

  // Conditions the real catalog does not name.
  InvalidCardNumber: 104,
  CardDataMissing: 106,
  InvalidExpiry: 107,
  PinDataMissing: 108,
  InvalidWalletToken: 115,

  InvalidRequest: 400,
  MerchantAccessDenied: 403,
  RequestTooLarge: 413,
  MethodNotAllowed: 405,
  UnsupportedMediaType: 415,
  TooManyAttempts: 429,

  DuplicateTransactionNumber: 409,
  DuplicatePayment: 410,
  TransactionNumberBlocked: 411,
  AlreadyExists: 426,
  InvalidState: 427,
  TransactionCancelled: 430,
  TransactionPending: 431,

  ProcessorUnavailable: 502,
  ProcessorTimeout: 504,
} as const;

export const ResponseCode = {
  ...coreCodes,
  ...commerceCodes,
  ...tenderCodes,
  ...safeguardCodes,
} as const;

export type ResponseCodeName = keyof typeof ResponseCode;
export type ResponseCodeValue = (typeof ResponseCode)[ResponseCodeName];

export type CatalogEntry = { meaning: string; verbiage: string };

/** GetTokenForCard's verbiage for an Account failing the Luhn check digit (ResponseCode 25). */
export const LUHN_FAILED_VERBIAGE = 'LUHN/MOD10 CHECK ON ACCOUNT NUMBER FAILED';

/** What each code means, for the documentation page and for `displayMessage` defaults. */
const coreCatalog: Record<(typeof coreCodes)[keyof typeof coreCodes], CatalogEntry> = {
  200: { verbiage: 'APPROVED', meaning: 'Success: the operation was carried out (a payment was approved).' },
  210: {
    verbiage: 'PARTIAL APPROVAL',
    meaning:
      'Approved for less than requested; Amount holds the approved amount, collect the rest another way. ' +
      'Not in the real catalog, which has no partial approval: a code of its own, because a client that ' +
      'read it as full success would hand over goods for money it did not get.',
  },
  1: {
    verbiage: 'INVALID CREDENTIALS',
    meaning:
      'Invalid credentials: AppKey/AppType, UserName or Password missing or wrong (also a missing or ' +
      'invalid bearer token of the Reporting group). Failed logins are throttled (429).',
  },
  2: {
    verbiage: 'INVALID HOST CREDENTIALS',
    meaning:
      "Invalid host credentials: the user's credentials are right but do not open this merchant's " +
      'account: the user does not belong to mid, or cid is not an enabled cashier of mid.',
  },
  3: {
    verbiage: 'TRANSACTION ERROR',
    meaning:
      "Transaction error. A processor decline (Declined): verbiage is the reason's (EXPIRED CARD, DO NOT " +
      'HONOR…), Msg says it in words and DeclineCode is the machine-readable reason (table below). SaleWithToken without Token (MissingToken, ' +
      'fixed by the interface): Token is required.',
  },
  4: {
    verbiage: 'SETTLEMENT IMPOSSIBLE',
    meaning:
      'Settlement impossible. Reserved for the real catalog: DoSettlement here always settles what the ' +
      'open batch holds (an empty batch settles nothing and answers 200 with AmountSettled 0).',
  },
  5: {
    verbiage: 'UNAUTHORIZED REFERENCE NUMBER',
    meaning:
      "The ServiceTransactionNumber (or ServiceReferenceNumber) is another merchant's transaction: " +
      'nothing was done and nothing of it is shown.',
  },
  6: {
    verbiage: 'REFUND IMPOSSIBLE',
    meaning:
      'Refund impossible: the transaction is voided, reversed or fully refunded, is not an approved sale ' +
      '(a preauthorization is voided or closed, not refunded), or the refund exceeds the remaining ' +
      'refundable balance. Msg says which.',
  },
  7: {
    verbiage: 'VOID IMPOSSIBLE',
    meaning:
      'Void impossible: the transaction is already voided or reversed, is refunded, is not approved, is a ' +
      'closed preauthorization (void its completion), is settled (refund it instead), or the number names ' +
      'a void (DoReversal). Msg says which.',
  },
  13: {
    verbiage: 'EMPTY REQUEST',
    meaning: 'The request has no body (nothing, only whitespace, or JSON null).',
  },
  25: {
    verbiage: 'TOKEN NOT GENERATED',
    meaning:
      'GetTokenForCard stored no token: Account is missing or not a valid card number, or expDate is not ' +
      `MMYY. An Account that fails the check digit answers verbiage ${LUHN_FAILED_VERBIAGE}, the real ` +
      "service's wording, which its PHP integration maps to its invalid-card error.",
  },
  26: {
    verbiage: 'PRE-AUTHORIZATION IMPOSSIBLE',
    meaning:
      'ProcessPreauth cannot hold this: IsClosable false is not offered (every hold here is completed by ' +
      'ClosePreauth or voided).',
  },
  29: {
    verbiage: 'USER TRANSACTION NUMBER NOT FOUND',
    meaning: 'GetTransaction: the merchant has no transaction with this UserTransactionNumber.',
  },
  30: {
    verbiage: 'USER TRANSACTION NUMBER EMPTY',
    meaning: 'UserTransactionNumber is required and was missing or empty.',
  },
  31: {
    verbiage: 'SERVICE TRANSACTION NUMBER NOT FOUND',
    meaning: 'No transaction has this ServiceTransactionNumber (or ServiceReferenceNumber).',
  },
  50: {
    verbiage: 'PRE-AUTHORIZATION NOT FOUND',
    meaning: 'ClosePreauth: ServiceReferenceNumber names no preauthorization of this merchant.',
  },
  51: {
    verbiage: 'PRE-AUTHORIZATION NOT CLOSABLE',
    meaning: 'ClosePreauth: the preauthorization is voided or reversed and can no longer be completed.',
  },
  52: {
    verbiage: 'PRE-AUTHORIZATION DECLINED',
    meaning: 'ClosePreauth: the referenced preauthorization was declined (nothing is held).',
  },
  53: {
    verbiage: 'PRE-AUTHORIZATION COMPLETED BEFORE',
    meaning: 'ClosePreauth: the preauthorization was already completed.',
  },
  54: {
    verbiage: 'SIGNATURE DATA EMPTY',
    meaning: 'SignatureCapture/Add: SignatureData is missing or empty.',
  },
  57: {
    verbiage: 'NOT ENROLLED',
    meaning: 'The merchant is not enrolled in automatic batch close (UpdateAutomaticHourToCloseBatch).',
  },
  300: {
    verbiage: 'OPERATION NOT SUPPORTED',
    meaning:
      'OperationNotSupported (fixed by the interface): the configured processor does not support this ' +
      'operation (OperationCode OPERATION_NOT_SUPPORTED); it does not mean the token is missing or invalid. ' +
      'InternalError (the real catalog\'s "system error"): an unexpected error with HTTP 500 and verbiage ' +
      'SYSTEM ERROR; nothing was changed, the log has the reference given in Msg.',
  },
  404: {
    verbiage: 'NOT FOUND',
    meaning:
      'The referenced record does not exist for this merchant (token identifier, token, link, billing, ' +
      'customer, gift card), or the path is unknown (HTTP 404).',
  },
  501: {
    verbiage: 'INVALID TRANSACTION TYPE',
    meaning: 'TransactionType is missing or not the one this operation takes.',
  },
  506: {
    verbiage: 'INVALID AMOUNT',
    meaning:
      'An amount is missing, not a number (SaleWithToken in JSON: not a JSON number), not positive, has ' +
      'more than two decimals or exceeds the ceiling.',
  },
  104: { verbiage: 'INVALID CARD NUMBER', meaning: 'The card number fails the check digit or length rules.' },
  106: {
    verbiage: 'CARD DATA MISSING',
    meaning: 'No usable card data: card number, track or EMV data is required.',
  },
  107: { verbiage: 'INVALID EXPIRY', meaning: 'ExpDate is missing or not MMYY.' },
  108: { verbiage: 'PIN DATA MISSING', meaning: 'KSN and PinBlock are required for PIN debit and EBT.' },
  115: { verbiage: 'INVALID WALLET TOKEN', meaning: 'The device-wallet token cannot be decoded.' },
  400: {
    verbiage: 'INVALID REQUEST',
    meaning:
      'The request does not match the operation schema; Msg lists every problem. Also, with its HTTP status: ' +
      'a body that is not JSON or a form, a field name with a __proto__, constructor or prototype segment ' +
      '(400); a path with a malformed percent-escape or HTTP the parser refuses — a body shorter than its ' +
      'Content-Length, a NUL in a header, an unknown method, bad chunking (400); a path segment over the ' +
      'length limit (414); a request that did not arrive in time (408).',
  },
  403: {
    verbiage: 'ACCESS DENIED',
    meaning:
      'A field names another merchant (PaymentLink.MerchantId, MerchantId, MerchantNumber): records ' +
      'belong to the authenticated merchant.',
  },
  413: {
    verbiage: 'REQUEST TOO LARGE',
    meaning: 'The body exceeds the size limit (HTTP 413), or the headers do (HTTP 431).',
  },
  405: {
    verbiage: 'METHOD NOT ALLOWED',
    meaning: 'The path exists but not with this HTTP method (HTTP 405).',
  },
  415: {
    verbiage: 'UNSUPPORTED MEDIA TYPE',
    meaning: 'The body is neither JSON nor form-urlencoded, or names a charset we cannot decode (HTTP 415).',
  },
  429: {
    verbiage: 'TOO MANY ATTEMPTS',
    meaning: 'Too many failed logins for this user or address; wait and retry.',
  },
  409: {
    verbiage: 'DUPLICATE TRANSACTION NUMBER',
    meaning:
      'UserTransactionNumber was already used by this merchant; nothing was changed. Not in the real ' +
      'catalog: a code of its own because it says "this exact request already happened" (look it up with ' +
      'GetTransaction), which no decline or error code says.',
  },
  410: {
    verbiage: 'DUPLICATE PAYMENT',
    meaning:
      'A payment with the same card, amount and type was made within the duplicate window; send ' +
      'ForceDuplication to run it anyway. Not in the real catalog: a code of its own because the right ' +
      "reaction (confirm, then charge again) differs from a decline's.",
  },
  411: {
    verbiage: 'TRANSACTION NUMBER REVERSED',
    meaning:
      'A reversal already claimed this UserTransactionNumber; the late original is refused, not charged. ' +
      'Not in the real catalog: a code of its own because it tells a terminal that its own reversal won ' +
      'the race (nothing is charged), which 3 would not.',
  },
  426: { verbiage: 'ALREADY EXISTS', meaning: 'The record already exists.' },
  430: {
    verbiage: 'TRANSACTION VOIDED OR REVERSED',
    meaning:
      'GetTransaction: the transaction was voided or reversed, nothing of it is charged (TransactionStatus ' +
      'says which). Not in the real catalog: a code of its own so that no client reads a cancelled ' +
      "payment as approved (a lookup's 200 would be).",
  },
  431: {
    verbiage: 'TRANSACTION PENDING',
    meaning:
      'GetTransaction: the processor has not answered yet; ask again shortly, or reverse it (DoReversal ' +
      'cancels it as soon as the answer arrives). Not in the real catalog: nothing is decided yet.',
  },
  427: { verbiage: 'INVALID STATE', meaning: 'The record is not in a state that allows this operation.' },
  502: {
    verbiage: 'PROCESSOR UNAVAILABLE',
    meaning: 'The processor could not be reached; nothing was charged.',
  },
  504: {
    verbiage: 'PROCESSOR TIMEOUT',
    meaning: 'The processor did not answer in time; the payment was reversed.',
  },
};

export const responseCatalog: Record<number, CatalogEntry> = {
  ...coreCatalog,
  ...commerceCatalog,
  ...tenderCatalog,
  ...safeguardCatalog,
};
