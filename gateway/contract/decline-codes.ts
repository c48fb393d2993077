/**
 * Why a card payment was declined. The real service's catalog has no decline code of its own: every issuer
 * or processor decline answers ResponseCode 3 (transaction error) with the reason in its verbiage
 * (`EXPIRED CARD`, `DO NOT HONOR`), and the reason travels as a number in the one extra response field
 * `DeclineCode`, for clients that tell the cashier what to do next (ask for another card, let the customer
 * try the PIN again). The numbers are the ResponseCodes these reasons had before the catalog followed the
 * real service's, so a stored payment keeps its reason and a client that knew them keeps working from
 * `DeclineCode`.
 */
export const DeclineCode = {
  Declined: 100,
  InsufficientFunds: 101,
  ExpiredCard: 102,
  CvnMismatch: 103,
  IncorrectPin: 105,
  CardNotSupported: 109,
  FraudDeniedAddress: 110,
  FraudDeniedZipCode: 111,
  FraudDeniedCvn: 112,
  FraudDeniedAccount: 113,
  CardInactive: 114,
  // The sandbox issuer's chip checks (docs/chip.md): each is an issuer decline, the card told so in 8A.
  EmvCryptogramMissing: 720,
  EmvCryptogramInvalid: 721,
  EmvTransactionCounterReplayed: 722,
  EmvAmountMismatch: 723,
  EmvCryptogramVersionUnsupported: 724,
} as const;

export type DeclineCodeName = keyof typeof DeclineCode;
export type DeclineCodeValue = (typeof DeclineCode)[DeclineCodeName];

// rule: decline-reasons
/**
 * Each reason's `verbiage` (what clients that map verbiage to their own errors read, the way the real
 * service's processors word it: a PHP integration tells EXPIRED CARD from INSUFFICIENT FUNDS by it) and
 * what it means, for docs/response-codes.md. No verbiage of a decline contains APPROV: a published Node
 * client reads any verbiage containing it as an approval.
 */
export const declineCatalog: Record<DeclineCodeValue, { verbiage: string; meaning: string }> = {
  100: { verbiage: 'DO NOT HONOR', meaning: 'The issuer declined the payment (do not honor).' },
  101: { verbiage: 'INSUFFICIENT FUNDS', meaning: 'Declined for insufficient funds or balance.' },
  102: { verbiage: 'EXPIRED CARD', meaning: 'The card is expired.' },
  103: {
    verbiage: 'CVV2 MISMATCH',
    meaning: 'The issuer declined because the security code did not match.',
  },
  105: {
    verbiage: 'INCORRECT PIN',
    meaning: 'The PIN block does not verify (incorrect PIN): the customer can try again.',
  },
  109: {
    verbiage: 'CARD TYPE NOT SUPPORTED',
    meaning: 'The card type is not accepted for this operation (e.g. not an EBT card of the EBT issuer).',
  },
  110: {
    verbiage: 'AVS STREET MISMATCH',
    meaning: "Auto-denied by the merchant's fraud options: the AVS street address check failed.",
  },
  111: {
    verbiage: 'AVS ZIP MISMATCH',
    meaning: "Auto-denied by the merchant's fraud options: the AVS zip code check failed.",
  },
  112: {
    verbiage: 'CVV2 MISMATCH',
    meaning: "Auto-denied by the merchant's fraud options: the CVN check failed.",
  },
  113: { verbiage: 'ACCOUNT BLOCKED', meaning: 'Auto-denied: the account is on the merchant blacklist.' },
  114: { verbiage: 'CARD NOT ACTIVE', meaning: 'The gift card is not active.' },
  720: {
    verbiage: 'CRYPTOGRAM MISSING',
    meaning:
      'EmvData (a chip read or a tap) lacks its ARQC or the data it covers (9F26, 9F27 = ARQC, 9F10, 9F36, 9F37, 82 and the CDOL1 data).',
  },
  721: {
    verbiage: 'CRYPTOGRAM INVALID',
    meaning:
      'The ARQC does not verify under the issuer key: a wrong cryptogram, or EmvData altered after the card signed it.',
  },
  722: {
    verbiage: 'CRYPTOGRAM REPLAYED',
    meaning:
      "The card's transaction counter (9F36) is not above the highest the issuer has seen for it: a replayed or stale cryptogram.",
  },
  723: {
    verbiage: 'CRYPTOGRAM AMOUNT MISMATCH',
    meaning:
      'The ARQC verifies but the card signed another amount (9F02 / 9F03) than the one charged (the total / CashBackAmount).',
  },
  724: {
    verbiage: 'CRYPTOGRAM VERSION NOT SUPPORTED',
    meaning: "The issuer holds no keys for this card's scheme or cryptogram version (9F10).",
  },
};

const declineValues: ReadonlySet<number> = new Set(Object.values(DeclineCode));

/** Whether an outcome code inside the gateway is a decline reason (answered as ResponseCode 3). */
export function isDeclineCode(code: number): code is DeclineCodeValue {
  return declineValues.has(code);
}
