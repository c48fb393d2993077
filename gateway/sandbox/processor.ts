import type { Cents } from '../domain/money';

/** What a processor sees of a card: the PAN travels to it, and nowhere else. */
export type ProcessorCard = {
  pan: string;
  expiryYYMM: string;
  cvn?: string;
  name?: string;
  street?: string;
  zip?: string;
  entryMode: string;
  cardType: string;
};

export type AuthorizationKind =
  'sale' | 'preauth' | 'debit' | 'ebt_food' | 'ebt_cash' | 'token_sale' | 'wallet' | 'gift';

export type AuthorizationRequest = {
  kind: AuthorizationKind;
  mid: number;
  /** Everything the card is charged: base + tax + tip + surcharge + card difference + cash back. */
  totalCents: Cents;
  cashbackCents: Cents;
  card: ProcessorCard;
  pin?: { ksn: string; pinBlock: string };
  /** Card-present retail sales accept a partial approval; e-commerce and token sales do not. */
  allowPartial: boolean;
  /**
   * The EMV data of a chip or contactless read, for the issuer's cryptogram check (docs/chip.md). In
   * memory for this call only: never stored, never logged.
   */
  emv?: { tlvHex: string };
};

export type AvsResult = 'Y' | 'A' | 'Z' | 'N' | 'U';
export type CvnResult = 'M' | 'N' | 'P' | 'U';

export type AuthorizationResult =
  | {
      approved: true;
      /** Less than requested on a partial approval. */
      approvedCents: Cents;
      authCode: string;
      avs: AvsResult;
      cvn: CvnResult;
      message: string;
      balanceCents?: Cents;
      /** The issuer's answer for a chip card: 8A, 91 and scripts, as EmvData hex for the sale response. */
      issuerEmvData?: string;
    }
  | {
      approved: false;
      code: number;
      message: string;
      avs: AvsResult;
      cvn: CvnResult;
      /** The issuer's answer for a chip card (8A, and 91 when the ARQC verified), for the card's AAC. */
      issuerEmvData?: string;
    };

export type ReturnRequest = { mid: number; amountCents: Cents; authCode: string };

/**
 * The processor behind the gateway. The sandbox implements it; a real acquirer connection would too.
 * `authorize` may take time (network); `reverse` must be idempotent because the gateway retries it.
 */
export type Processor = {
  readonly name: string;
  readonly supportsTokenLookup: boolean;
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** Cancels an authorization that has not settled (void, reversal). */
  reverse(request: ReturnRequest): Promise<void>;
  /** Credits a settled or unsettled sale back to the card (refund). */
  refund(request: ReturnRequest): Promise<{ ok: true } | { ok: false; code: number; message: string }>;
};
