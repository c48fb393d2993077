import type { AfterUnknown } from '../gateway-client/bridge-failure';
import type { GatewayResult } from '../gateway-client/client';
import type { Journal } from './journal-protocol';
import type { JournalRow, NewEntry } from './journal-store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { askAfterLostAnswer, type InquiryOptions } from './lost-answer-inquiry';

/**
 * The journaled gateway call (docs/decisions.md#write-ahead-journal): every request that can move money
 * commits its journal row before it leaves, the answer updates the row, and no answer marks it unknown and
 * queues a reversal. The sale engine, its tenders and the post-sale operations all send through here.
 */

export type JournaledCallDeps = {
  journal: Journal;
  clock: Clock;
  log: Logger;
  kickReversals: () => void;
  gatewayReached: (reached: boolean, error?: string) => void;
};

export type JournaledOptions<R> = {
  /** false: an unknown outcome is left to the reconciliation view (checks and voids: no DoReversal). */
  reversible?: boolean;
  /** May take over a request that provably never left (store-and-forward). */
  offline?: (row: JournalRow) => Promise<boolean>;
} & InquiryOptions<R>;

export type JournaledOutcome<R> = {
  row: JournalRow;
  result: GatewayResult<R>;
  /** What happens to an unknown outcome: the words the cashier reads follow from it (bridge-failure.ts). */
  after: AfterUnknown;
};

export type JournaledSend = <R>(
  entry: Omit<NewEntry, 'now'>,
  send: (utn: string) => Promise<GatewayResult<R>>,
  options?: JournaledOptions<R>,
) => Promise<JournaledOutcome<R>>;

/** Who a journal row names: the employee who did it, and the manager who approved it for them. */
export type Stamp = { employeeId: number | null; approvedById: number | null };

/** The journaled call with every row it writes naming `by`. */
export function stamped(journaled: JournaledSend, by: Stamp): JournaledSend {
  return (entry, send, options) => journaled({ ...entry, ...by }, send, options);
}

/**
 * The journaled call telling `onNumber` the number of each row it commits, before the request leaves: a
 * return records which refund moves its money, so a stop in between leaves a number to ask about, never a
 * refund nobody can find.
 */
export function numbered(journaled: JournaledSend, onNumber: (utn: string) => Promise<void>): JournaledSend {
  return (entry, send, options) =>
    journaled(
      entry,
      async (utn) => {
        await onNumber(utn);
        return send(utn);
      },
      options,
    );
}

export async function journaledCall<R>(
  deps: JournaledCallDeps,
  entry: Omit<NewEntry, 'now'>,
  send: (utn: string) => Promise<GatewayResult<R>>,
  options: JournaledOptions<R> = {},
): Promise<JournaledOutcome<R>> {
  const reversible = options.reversible ?? true;
  const after: AfterUnknown = reversible ? 'reversing' : 'reconcile';
  const row = await deps.journal.allocate({ ...entry, now: deps.clock.now() });
  let result: GatewayResult<R>;
  try {
    result = await send(row.utn);
  } catch (error) {
    // A bug between commit and answer: treat as an unknown outcome, which is always safe.
    result = {
      ok: false,
      failure: { kind: 'unknown-outcome', message: error instanceof Error ? error.message : String(error) },
    };
  }
  // The answer was lost: ask before reversing (lost-answer-inquiry.ts).
  if (reversible) result = await askAfterLostAnswer(deps.log, row, result, options);
  const now = deps.clock.now();
  if (result.ok) {
    deps.gatewayReached(true);
    return { row, result, after };
  }
  const f = result.failure;
  deps.gatewayReached(f.where !== 'network', f.where === 'network' ? f.message : undefined);
  if (f.kind === 'unknown-outcome') {
    const updated = reversible
      ? await deps.journal.markUnknown(row.utn, f.message, now, now)
      : await deps.journal.update(
          row.utn,
          { state: 'unknown', message: `${f.message} (check the reconciliation view)` },
          now,
        );
    if (reversible) deps.kickReversals();
    deps.log.log(
      'warn',
      'sale',
      `${row.utn} ${entry.operation}: unknown outcome (${f.message})${reversible ? '; reversal queued' : ''}`,
    );
    return { row: updated, result, after };
  }
  if (f.kind === 'unreachable' && f.where === 'network' && options.offline && (await options.offline(row))) {
    return { row: (await deps.journal.get(row.utn)) ?? row, result, after };
  }
  const updated = await deps.journal.update(
    row.utn,
    {
      state: f.kind === 'declined' ? 'declined' : 'failed',
      message: result.confirmedByInquiry
        ? `${f.message} (answer lost; confirmed by GetTransaction)`
        : f.message,
      ...(f.code !== undefined ? { gatewayCode: f.code } : {}),
    },
    now,
  );
  return { row: updated, result, after };
}
