import type { JournalOperation } from './transactions';

export type ReversalItemView = {
  userTransactionNumber: string;
  amountCents: number;
  operation: JournalOperation;
  attempts: number;
  nextAttemptAt?: number;
  lastError?: string;
  since: number;
};

export type ReversalQueueView = { pending: number; items: ReversalItemView[] };
