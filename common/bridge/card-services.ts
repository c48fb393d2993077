import { Type, type Static } from 'typebox';
import { Cents, Text } from './schema-kit';
import type { CardSummary } from './sale';
import { GiftEntrySchema, KeyedGiftCardSchema, TipSchema } from './sale';
import { OptionalApproval } from './session';

export type BalanceView = {
  kind: 'gift' | 'ebt-food' | 'ebt-cash';
  balanceCents: number;
  card: CardSummary;
};

/**
 * Loads value on a gift card. Paid: `ticketId` of a `gift-reload` ticket paid in full, `amountCents` its
 * amount (each ticket loads once). Unpaid (a promotion, a correction): a manager's approval. Audited.
 */
export const GiftReloadRequestSchema = Type.Object({
  amountCents: Cents({
    exclusiveMinimum: 0,
    problem: 'The reload amount must be a positive number of cents.',
  }),
  entry: Type.Optional(GiftEntrySchema),
  keyed: Type.Optional(KeyedGiftCardSchema),
  ticketId: Type.Optional(Text(64, 'ticketId')),
  approval: OptionalApproval,
});
export type GiftReloadRequest = Static<typeof GiftReloadRequestSchema>;

export const PreauthCompleteRequestSchema = Type.Object({
  serviceReferenceNumber: Text(64, 'serviceReferenceNumber'),
  /** Final base amount, at most the authorized amount. */
  amountCents: Cents({
    exclusiveMinimum: 0,
    problem: 'Choose the pre-authorization and the final amount.',
  }),
  /**
   * Above `preauthTipMaxPercent` of the hold (20 % unless changed), or on a hold this lane did not make,
   * a tip needs a manager: a signed-in manager or `approval`.
   */
  tipCents: Type.Optional(TipSchema),
  approval: OptionalApproval,
});
export type PreauthCompleteRequest = Static<typeof PreauthCompleteRequestSchema>;
