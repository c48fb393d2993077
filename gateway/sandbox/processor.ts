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

export type ReturnRequest = {
  mid: number;
  amountCents: Cents;
  authCode: string;
  /**
   * The gateway's ServiceReferenceNumber of the operation (a refund, a completion): two refunds of one sale
   * for the same amount are two operations, and undoing one must not undo the other.
   */
  reference?: string;
};

/** A preauthorization's completion: the hold becomes a charge of `amountCents` (additional tip included). */
export type CaptureRequest = {
  mid: number;
  authCode: string;
  /** What the preauthorization held. */
  authorizedCents: Cents;
  amountCents: Cents;
  reference: string;
};

export type ProcessorAnswer = { ok: true } | { ok: false; code: number; message: string };

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
  /** Credits a settled or unsettled sale back to the card (refund): the card has the money at once. */
  refund(request: ReturnRequest): Promise<ProcessorAnswer>;
  /**
   * Takes back a refund's credit before its batch settles (a void or reversal of the refund). Idempotent
   * by `reference`, like `reverse`: the gateway sends it again after a crash or a timeout.
   */
  reverseRefund(request: ReturnRequest & { reference: string }): Promise<ProcessorAnswer>;
  /** Completes a preauthorization for its final amount; `reverse` with the same authCode undoes it. */
  capture(request: CaptureRequest): Promise<ProcessorAnswer>;
};
