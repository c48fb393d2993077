import type { Cents } from './money';

/**
 * The issuers the gateway stands in for: the gift card and EBT programs whose money it keeps
 * (stored-value.ts), the check verification service, the merchants' deposit bank. The domain keeps the
 * ledgers and applies the rules; what an issuer knows — its pre-issued cards, its PIN check, its
 * verification triggers, its authorization numbers, the deposit account — comes through this port. The
 * sandbox implements it (sandbox/sandbox-issuers.ts); app.ts builds it beside the processor.
 */
export type GiftCardPreset = { status: 'active' | 'inactive'; openingCents: Cents };

export type EbtPreset = { foodCents: Cents; cashCents: Cents };

/** What makes the check verification service decline (docs/gateway-tenders.md). */
export type BankVerificationTriggers = {
  /** An ACCOUNT_NUMBER ending in these digits is on the negative file (656). */
  negativeFileSuffix: string;
  /** A DL_NUMBER starting with these characters fails identity verification (657). */
  identityFailDlPrefix: string;
  /** This SSN4 fails identity verification (657). */
  identityFailSsn4: string;
};

export type DepositAccount = { routing: string; dda: string };

export type Issuers = {
  /** A gift card the program pre-issued, in its state on first use. */
  giftCard(pan: string): GiftCardPreset | undefined;
  /** The most value a gift card may hold; a load past it is refused (651). */
  giftCardMaxBalanceCents: Cents;
  /** The benefit account of an EBT card, opened with these balances on first use. */
  ebtAccount(pan: string): EbtPreset | undefined;
  /** The EBT issuer's PIN check of a PIN block (KSN + block); the PIN never leaves it. */
  ebtPinVerifies(pan: string, pin: { ksn: string; pinBlock: string }): boolean;
  /** A new authorization number for a stored-value approval. */
  authorizationNumber(): string;
  bankVerification: BankVerificationTriggers;
  /** The merchants' deposit account, shown masked in the Reporting deposits summary and statements. */
  depositAccount: DepositAccount;
};
