import type { Generated } from 'kysely';

/**
 * Tables only the sandbox writes (migration 007). Same conventions as schema.ts: integer cents, ISO-8601
 * UTC text, 0/1 flags.
 */
type Flag = 0 | 1;

/** What the sandbox processor did, one row per call that moved money or a hold (processor-ledger.ts). */
export type SandboxLedgerEvent = 'authorize' | 'capture' | 'reverse' | 'refund' | 'refund_reversal';

/**
 * The sandbox processor's own books, kept apart from the gateway's: the authorizations it approved and
 * the captures, reversals, refunds and refunds taken back it carried out, by merchant and authorization number. No card data: the
 * authorization number is the processor's reference, as in a real acquirer's settlement file.
 */
export type SandboxProcessorLedgerTable = {
  id: Generated<number>;
  mid: number;
  auth_code: string;
  event: SandboxLedgerEvent;
  /** The authorization's kind (sale, preauth, debit, …) on `authorize` rows; '' on the others. */
  authorization_kind: string;
  amount_cents: number;
  /**
   * The gateway's ServiceReferenceNumber of the operation, where the call names one (a refund, a refund
   * taken back, a capture, a void's or a reversal's payment); '' otherwise.
   */
  reference: string;
  /** The authorization was made with the slow test card: later calls about it are slow too. */
  slow: Flag;
  created_at: string;
};

export type SandboxTables = { sandbox_processor_ledger: SandboxProcessorLedgerTable };
