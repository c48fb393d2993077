/**
 * ResponseCodes of the tender and administration groups: checks and ACH use the real service's check codes
 * (14/15 not processed / incorrect data, 20-23 void outcomes; the check response's own Code and ResultCode
 * keep the finer reason); the rest (range 650-699) are conditions its catalog does not name. Rendered with
 * the core catalog.
 */
export const tenderCodes = {
  CheckNotProcessed: 14,
  IncorrectCheckData: 15,
  CheckVoidNotProcessed: 20,
  CheckAlreadyVoided: 21,
  CheckNotFound: 22,
  VoidWindowClosed: 23,
  GiftCardAlreadyActive: 650,
  GiftCardBalanceLimit: 651,
  InvalidFraudOptions: 659,
  InvalidPaging: 660,
  InvalidCloseTime: 662,
  ExtraAmountNotAllowed: 665,
} as const;

export const tenderCatalog: Record<number, { meaning: string; verbiage: string }> = {
  14: {
    verbiage: 'CHECK NOT PROCESSED',
    meaning:
      'The check or ACH payment was not authorized: the verification service declined the account ' +
      '(negative file, ResultCode 05), the identity of the writer was not verified (ResultCode 12), or ' +
      'this check number of this account is already authorized and not voided.',
  },
  15: {
    verbiage: 'INCORRECT CHECK DATA',
    meaning:
      'The check data is incorrect: ROUTING_NUMBER not 9 digits with a valid ABA prefix and check digit, ' +
      'ACCOUNT_NUMBER not 4 to 17 digits, DL_NUMBER/DL_STATE or FIRST_NAME/LAST_NAME missing where the ' +
      'Method requires them, a jurisdiction that is not a code (AB..YT) or its position (0-67), or VoidAch ' +
      'details that do not match the ACH transaction. Msg names the field.',
  },
  20: {
    verbiage: 'CHECK VOID NOT PROCESSED',
    meaning: 'The check or ACH transaction cannot be voided: it was not approved.',
  },
  21: { verbiage: 'CHECK ALREADY VOIDED', meaning: 'The check or ACH transaction is already voided.' },
  22: {
    verbiage: 'CHECK NOT FOUND',
    meaning: 'CheckTransactionId (or AchId) names no check or ACH transaction of this merchant.',
  },
  23: {
    verbiage: 'VOID WINDOW CLOSED',
    meaning:
      "A check or ACH void is possible only on the authorization's calendar day (merchant's time zone); it is a later day now.",
  },
  650: {
    verbiage: 'GIFT CARD ALREADY ACTIVE',
    meaning: 'Activate was sent for a gift card that is already active; use Reload to add value.',
  },
  651: {
    verbiage: 'GIFT CARD BALANCE LIMIT',
    meaning: 'The load would take the gift card past its maximum balance (2,000.00); nothing was loaded.',
  },
  659: {
    verbiage: 'INVALID FRAUD OPTIONS',
    meaning: 'Options must be comma-separated integers from the fraud option table (1-4).',
  },
  660: {
    verbiage: 'INVALID PAGING',
    meaning: 'CurrentPageIndex must be 0 or more and PageSize 1 to 500.',
  },
  662: {
    verbiage: 'INVALID CLOSE TIME',
    meaning: 'Time must be a date-time (or HH:MM) giving the daily batch closing time.',
  },
  665: {
    verbiage: 'EXTRA AMOUNT NOT ALLOWED',
    meaning: 'This tender takes only the amounts listed for it (no tax, tip, surcharge or card difference).',
  },
};
