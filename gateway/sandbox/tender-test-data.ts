/**
 * Sandbox data of the tender groups (docs/gateway-tenders.md renders these tables). Every number is
 * Luhn-valid; none belongs to a real issuer range that the card processor would accept.
 */

export type SandboxGiftCard = {
  pan: string;
  status: 'active' | 'inactive';
  openingCents: number;
  note: string;
};

/**
 * Pre-issued gift cards: each sandbox merchant gets its own copy of each, in this state, the first time it
 * uses the number (gift cards are per-merchant closed-loop programs). Any other Luhn-valid number can be
 * issued with Activate.
 */
export const sandboxGiftCards: readonly SandboxGiftCard[] = [
  { pan: '6035710000000018', status: 'active', openingCents: 100_00, note: 'active, holds 100.00' },
  {
    pan: '6035710000000026',
    status: 'active',
    openingCents: 25_00,
    note: 'active, holds 25.00 (partial approval above that)',
  },
  { pan: '6035710000000034', status: 'active', openingCents: 0, note: 'active, empty (declines 101)' },
  {
    pan: '6035710000000042',
    status: 'inactive',
    openingCents: 0,
    note: 'issued but not activated: refused (114) until Activate, which loads Amount',
  },
  {
    pan: '6035710000000059',
    status: 'inactive',
    openingCents: 40_00,
    note: 'deactivated with 40.00 on it: refused (114); Activate restores it and adds Amount',
  },
];

/** The most value a gift card may hold; a load past it is refused (651). */
export const GIFT_CARD_MAX_BALANCE_CENTS = 2_000_00;

export type SandboxEbtCard = { pan: string; foodCents: number; cashCents: number; note: string };

/** Sandbox EBT issuer accounts: one benefit account per card, shared by every merchant it is used at. */
export const sandboxEbtCards: readonly SandboxEbtCard[] = [
  { pan: '5077010000000014', foodCents: 150_00, cashCents: 80_00, note: 'food 150.00, cash 80.00' },
  {
    pan: '5077010000000022',
    foodCents: 10_00,
    cashCents: 5_00,
    note: 'food 10.00, cash 5.00 (partial approval above that)',
  },
  { pan: '5077010000000030', foodCents: 0, cashCents: 0, note: 'both balances empty (declines 101)' },
];

/** Check and ACH triggers of the sandbox verification service. */
export const sandboxBankTriggers = {
  /** An ACCOUNT_NUMBER ending in these digits is on the negative file: verification declines it (656). */
  negativeFileSuffix: '0002',
  /** A DL_NUMBER starting with these characters fails identity verification (657). */
  identityFailDlPrefix: '999',
  /** An SSN4 of 0000 fails identity verification (657). */
  identityFailSsn4: '0000',
} as const;

/** A routing number that passes the ABA check, for examples and tests. */
export const SANDBOX_ROUTING_NUMBER = '021000021';

/** The sandbox merchants' deposit account, shown masked in the Reporting deposits summary. */
export const sandboxDepositAccount = { routing: '011000015', dda: '000123456789' } as const;
