/** ResponseCodes of the tender and administration groups (range 650-699). Rendered with the core catalog. */
export const tenderCodes = {
  GiftCardAlreadyActive: 650,
  GiftCardBalanceLimit: 651,
  VoidWindowClosed: 652,
  InvalidRoutingNumber: 653,
  InvalidBankAccount: 654,
  DriverLicenseRequired: 655,
  CheckDeclined: 656,
  IdentityVerificationFailed: 657,
  DuplicateCheck: 658,
  InvalidFraudOptions: 659,
  InvalidPaging: 660,
  InvalidJurisdiction: 661,
  InvalidCloseTime: 662,
  AchDetailsMismatch: 663,
  IdentityDataRequired: 664,
  ExtraAmountNotAllowed: 665,
} as const;

export const tenderCatalog: Record<number, { meaning: string; verbiage: string }> = {
  650: {
    verbiage: 'GIFT CARD ALREADY ACTIVE',
    meaning: 'Activate was sent for a gift card that is already active; use Reload to add value.',
  },
  651: {
    verbiage: 'GIFT CARD BALANCE LIMIT',
    meaning: 'The load would take the gift card past its maximum balance (2,000.00); nothing was loaded.',
  },
  652: {
    verbiage: 'VOID WINDOW CLOSED',
    meaning:
      "A check or ACH void is possible only on the authorization's calendar day (merchant's time zone); it is a later day now.",
  },
  653: {
    verbiage: 'INVALID ROUTING NUMBER',
    meaning: 'The routing number is not 9 digits with a valid ABA prefix and check digit.',
  },
  654: {
    verbiage: 'INVALID BANK ACCOUNT',
    meaning: 'ACCOUNT_NUMBER is missing or not 4 to 17 digits.',
  },
  655: {
    verbiage: 'DRIVER LICENSE REQUIRED',
    meaning: 'The check Method requires DL_NUMBER and DL_STATE.',
  },
  656: {
    verbiage: 'CHECK DECLINED',
    meaning: 'The check verification service declined the account (negative file); nothing was authorized.',
  },
  657: {
    verbiage: 'IDENTITY NOT VERIFIED',
    meaning: 'The identity verification of the check writer failed; nothing was authorized.',
  },
  658: {
    verbiage: 'DUPLICATE CHECK',
    meaning: 'This check number of this account was already authorized by the merchant and is not voided.',
  },
  659: {
    verbiage: 'INVALID FRAUD OPTIONS',
    meaning: 'Options must be comma-separated integers from the fraud option table (1-4).',
  },
  660: {
    verbiage: 'INVALID PAGING',
    meaning: 'CurrentPageIndex must be 0 or more and PageSize 1 to 500.',
  },
  661: {
    verbiage: 'INVALID JURISDICTION',
    meaning: 'DL_STATE or STATE is not a jurisdiction code (AB..YT) or its position (0-67).',
  },
  662: {
    verbiage: 'INVALID CLOSE TIME',
    meaning: 'Time must be a date-time (or HH:MM) giving the daily batch closing time.',
  },
  663: {
    verbiage: 'ACH DETAILS MISMATCH',
    meaning: 'AbaRouting, AccountNumber or AchAmount of VoidAch do not match the ACH transaction.',
  },
  664: {
    verbiage: 'IDENTITY DATA REQUIRED',
    meaning: 'The check Method verifies identity: FIRST_NAME and LAST_NAME are required.',
  },
  665: {
    verbiage: 'EXTRA AMOUNT NOT ALLOWED',
    meaning: 'This tender takes only the amounts listed for it (no tax, tip, surcharge or card difference).',
  },
};
