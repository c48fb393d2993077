import { Type, type Static } from 'typebox';
import type { MoneyFigures } from '../money-figures';
import { Text } from './schema-kit';
import { OptionalApproval } from './session';
import type { MessageWords } from './errors';
import type { JournalOperation, JournalState } from './transactions';

export type TotalsLine = { key: string; count: number; amountCents: number };

/**
 * The lane's open batch: the money figures (common/money-figures.ts) of its journal since the batch
 * opened, and what the gateway's open batch holds when it answers.
 */
export type BatchTotals = {
  /** When the open batch began: the last close, the manager's or the gateway's automatic one (0: never). */
  since: number;
  figures: MoneyFigures;
  /** The gateway's open batch, when reachable: this lane's payments in it, and every lane's. */
  gateway?: { laneCount: number; allLanesCount: number };
};

export type ReconciliationRow = {
  userTransactionNumber: string;
  journal?: { state: JournalState; amountCents: number; operation: JournalOperation };
  gateway?: { status: string; amountCents: number; serviceReferenceNumber: string; inOpenBatch: boolean };
  /**
   * `match`: both agree. `orphan`: approved at the gateway, unknown or missing locally (must be
   * resolved before batch close). `pending-reversal`: the journal is reversing it. `mismatch`: they
   * disagree (amount or state). `local-only`: in the journal, not at the gateway (declined/failed/cash).
   */
  verdict: 'match' | 'orphan' | 'pending-reversal' | 'mismatch' | 'local-only';
  note?: string;
  /** `note` by its id in the screens' catalogs (namespace `batch`, `rec.notes`). */
  noteWords?: MessageWords;
};

export type ReconciliationView = {
  at: number;
  rows: ReconciliationRow[];
  orphans: number;
  mismatches: number;
  pendingReversals: number;
  /** True when nothing blocks closing the batch. */
  canClose: boolean;
  /** Why not, in plain words. */
  blockers: string[];
  /** `blockers` by their ids in the screens' catalogs (namespace `errors`, `batch.blockers`). */
  blockerWords?: MessageWords[];
};

/** `keep`: the gateway's approval stands, the journal adopts it. `reverse`: send DoReversal. */
export const OrphanResolutionSchema = Type.Object({
  userTransactionNumber: Text(64, 'userTransactionNumber'),
  action: Type.Enum(['keep', 'reverse'], { problem: 'The action is keep or reverse.' }),
  approval: OptionalApproval,
});
export type OrphanResolution = Static<typeof OrphanResolutionSchema>;

export type SettlementView = {
  /** The gateway's own sum of what it settled (every lane of the merchant). */
  amountSettledCents: number;
  batches: { batchNumber: string; count: number; saleCents: number; returnCents: number; netCents: number }[];
  completedAt?: string;
  /** This lane's card net for the batch just closed, by the figures the batch screen showed. */
  laneCardNetCents: number;
};

export type LastSettlementView = { amountSettledCents: number; batches: string[]; completedOn: string };

export type AutoCloseView = {
  enrolled: boolean;
  /** HH:MM, merchant local time, when known. */
  time?: string;
};
