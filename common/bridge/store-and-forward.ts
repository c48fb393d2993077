import { Type, type Static } from 'typebox';
import { Cents } from './schema-kit';

export const SafPolicySchema = Type.Object({
  enabled: Type.Boolean({ problem: 'enabled is true or false.' }),
  /** Largest single offline sale. */
  perTransactionLimitCents: Cents({
    minimum: 0,
    problem: 'perTransactionLimitCents is a non-negative number of cents.',
  }),
  /** Largest total held offline at once. */
  totalLimitCents: Cents({ minimum: 0, problem: 'totalLimitCents is a non-negative number of cents.' }),
  /** Older stored sales are not forwarded; they are reported for follow-up. */
  maxAgeHours: Type.Number({
    exclusiveMinimum: 0,
    maximum: 24 * 7,
    problem: 'maxAgeHours is between 0 and 168.',
  }),
});
export type SafPolicy = Static<typeof SafPolicySchema>;

export type SafItemView = {
  userTransactionNumber: string;
  amountCents: number;
  last4: string;
  cardType?: string;
  storedAt: number;
  state: 'queued' | 'forwarding' | 'forwarded' | 'declined' | 'expired' | 'failed';
  message?: string;
};

export type SafView = {
  policy: SafPolicy;
  exposureCents: number;
  count: number;
  items: SafItemView[];
};
