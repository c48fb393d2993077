/**
 * The one catalog of ResponseCode values (docs/response-codes.md renders it). The interface fixes
 * 200, 506, 501, 3, 404 and 300; every other distinct condition has its own number here, and a
 * number never changes meaning once shipped.
 */
import { commerceCatalog, commerceCodes } from './response-codes-commerce';
import { emvCatalog, emvCodes } from './response-codes-emv';
import { safeguardCatalog, safeguardCodes } from './response-codes-safeguards';
import { tenderCatalog, tenderCodes } from './response-codes-tenders';

const coreCodes = {
  Success: 200,
  PartialApproval: 210,

  MissingToken: 3,
  OperationNotSupported: 300,
  NotFound: 404,
  InvalidTransactionType: 501,
  InvalidAmount: 506,

  Declined: 100,
  InsufficientFunds: 101,
  ExpiredCard: 102,
  CvnMismatch: 103,
  InvalidCardNumber: 104,
  IncorrectPin: 105,
  CardDataMissing: 106,
  InvalidExpiry: 107,
  PinDataMissing: 108,
  CardNotSupported: 109,
  FraudDeniedAddress: 110,
  FraudDeniedZipCode: 111,
  FraudDeniedCvn: 112,
  FraudDeniedAccount: 113,
  CardInactive: 114,
  InvalidWalletToken: 115,

  InvalidRequest: 400,
  AuthenticationFailed: 401,
  MerchantAccessDenied: 403,
  RequestTooLarge: 413,
  MethodNotAllowed: 405,
  UnsupportedMediaType: 415,
  TooManyAttempts: 429,

  DuplicateTransactionNumber: 409,
  DuplicatePayment: 410,
  TransactionNumberBlocked: 411,
  RefundExceedsBalance: 420,
  AlreadyVoidedOrRefunded: 421,
  PreauthAlreadyClosed: 422,
  NotEligible: 423,
  AlreadySettled: 424,
  NotEnrolled: 425,
  AlreadyExists: 426,
  InvalidState: 427,

  ProcessorUnavailable: 502,
  ProcessorTimeout: 504,
  InternalError: 500,
} as const;

export const ResponseCode = {
  ...coreCodes,
  ...commerceCodes,
  ...tenderCodes,
  ...emvCodes,
  ...safeguardCodes,
} as const;

export type ResponseCodeName = keyof typeof ResponseCode;
export type ResponseCodeValue = (typeof ResponseCode)[ResponseCodeName];

type CatalogEntry = { meaning: string; verbiage: string };

/** What each code means, for the documentation page and for `displayMessage` defaults. */
const coreCatalog: Record<(typeof coreCodes)[keyof typeof coreCodes], CatalogEntry> = {
  200: { verbiage: 'APPROVED', meaning: 'Success: the operation was carried out (a payment was approved).' },
  210: {
    verbiage: 'PARTIAL APPROVAL',
    meaning:
      'Approved for less than requested; Amount holds the approved amount, collect the rest another way.',
  },
  3: { verbiage: 'MISSING TOKEN', meaning: 'Token is required (SaleWithToken, wallet sales).' },
  300: {
    verbiage: 'OPERATION NOT SUPPORTED',
    meaning:
      'The configured processor does not support this operation (OperationCode OPERATION_NOT_SUPPORTED); it does not mean the token is missing or invalid.',
  },
  404: {
    verbiage: 'NOT FOUND',
    meaning: 'The referenced record does not exist for this merchant, or the path is unknown.',
  },
  501: {
    verbiage: 'INVALID TRANSACTION TYPE',
    meaning: 'TransactionType is missing or not the one this operation takes.',
  },
  506: {
    verbiage: 'INVALID AMOUNT',
    meaning:
      'An amount is missing, not a JSON number, not positive, has more than two decimals or exceeds the ceiling.',
  },
  100: { verbiage: 'DECLINED', meaning: 'The issuer declined the payment.' },
  101: { verbiage: 'INSUFFICIENT FUNDS', meaning: 'Declined for insufficient funds or balance.' },
  102: { verbiage: 'EXPIRED CARD', meaning: 'The card is expired.' },
  103: { verbiage: 'CVN MISMATCH', meaning: 'The issuer declined because the security code did not match.' },
  104: { verbiage: 'INVALID CARD NUMBER', meaning: 'The card number fails the check digit or length rules.' },
  105: { verbiage: 'INCORRECT PIN', meaning: 'The PIN block does not verify.' },
  106: {
    verbiage: 'CARD DATA MISSING',
    meaning: 'No usable card data: card number, track or EMV data is required.',
  },
  107: { verbiage: 'INVALID EXPIRY', meaning: 'ExpDate is missing or not MMYY.' },
  108: { verbiage: 'PIN DATA MISSING', meaning: 'KSN and PinBlock are required for PIN debit and EBT.' },
  109: { verbiage: 'CARD NOT SUPPORTED', meaning: 'The card type is not accepted for this operation.' },
  110: { verbiage: 'FRAUD DENY: ADDRESS', meaning: 'Auto-denied: the AVS street address check failed.' },
  111: { verbiage: 'FRAUD DENY: ZIP', meaning: 'Auto-denied: the AVS zip code check failed.' },
  112: { verbiage: 'FRAUD DENY: CVN', meaning: 'Auto-denied: the CVN check failed.' },
  113: { verbiage: 'FRAUD DENY: ACCOUNT', meaning: 'Auto-denied: the account is on the merchant blacklist.' },
  114: { verbiage: 'CARD INACTIVE', meaning: 'The gift card is not active.' },
  115: { verbiage: 'INVALID WALLET TOKEN', meaning: 'The device-wallet token cannot be decoded.' },
  400: {
    verbiage: 'INVALID REQUEST',
    meaning: 'The request does not match the operation schema; Msg lists every problem.',
  },
  401: {
    verbiage: 'AUTHENTICATION FAILED',
    meaning: 'The credentials are missing or wrong, or the bearer token is invalid.',
  },
  403: {
    verbiage: 'ACCESS DENIED',
    meaning: 'The user does not belong to mid, or cid is not a cashier of mid.',
  },
  413: { verbiage: 'REQUEST TOO LARGE', meaning: 'The body exceeds the size limit (HTTP 413).' },
  405: {
    verbiage: 'METHOD NOT ALLOWED',
    meaning: 'The path exists but not with this HTTP method (HTTP 405).',
  },
  415: {
    verbiage: 'UNSUPPORTED MEDIA TYPE',
    meaning: 'The body is neither JSON nor form-urlencoded (HTTP 415).',
  },
  429: {
    verbiage: 'TOO MANY ATTEMPTS',
    meaning: 'Too many failed logins for this user or address; wait and retry.',
  },
  409: {
    verbiage: 'DUPLICATE TRANSACTION NUMBER',
    meaning: 'UserTransactionNumber was already used by this merchant; nothing was changed.',
  },
  410: {
    verbiage: 'DUPLICATE PAYMENT',
    meaning:
      'A payment with the same card, amount and type was made within the duplicate window; send ForceDuplication to run it anyway.',
  },
  411: {
    verbiage: 'TRANSACTION NUMBER REVERSED',
    meaning:
      'A reversal already claimed this UserTransactionNumber; the late original is refused, not charged.',
  },
  420: {
    verbiage: 'REFUND EXCEEDS BALANCE',
    meaning: 'The refund is larger than the remaining refundable balance.',
  },
  421: { verbiage: 'ALREADY VOIDED OR REFUNDED', meaning: 'The transaction is voided or fully refunded.' },
  422: { verbiage: 'PREAUTH CLOSED', meaning: 'The preauthorization was already closed (or voided).' },
  423: { verbiage: 'NOT ELIGIBLE', meaning: 'The referenced transaction cannot take this operation.' },
  424: {
    verbiage: 'ALREADY SETTLED',
    meaning: 'The transaction is settled: void is no longer possible, refund it instead.',
  },
  425: { verbiage: 'NOT ENROLLED', meaning: 'The merchant is not enrolled in automatic batch close.' },
  426: { verbiage: 'ALREADY EXISTS', meaning: 'The record already exists.' },
  427: { verbiage: 'INVALID STATE', meaning: 'The record is not in a state that allows this operation.' },
  502: {
    verbiage: 'PROCESSOR UNAVAILABLE',
    meaning: 'The processor could not be reached; nothing was charged.',
  },
  504: {
    verbiage: 'PROCESSOR TIMEOUT',
    meaning: 'The processor did not answer in time; the payment was reversed.',
  },
  500: {
    verbiage: 'INTERNAL ERROR',
    meaning: 'An unexpected error; nothing was changed. The log has a reference.',
  },
};

export const responseCatalog: Record<number, CatalogEntry> = {
  ...coreCatalog,
  ...commerceCatalog,
  ...tenderCatalog,
  ...emvCatalog,
  ...safeguardCatalog,
};
