/**
 * The record of automatic batch closes (table batch_close_runs): one row per merchant and local day, whose
 * primary key (mid, local_date) is the claim that lets one process — of one or several on one database —
 * settle that day; schedulers/batch-close.ts takes the claim before settling and records the settlement on
 * it afterwards.
 */
import { UniqueViolation, type Queryable, type Storage } from '../../storage/queryable';

/** Every merchant with its automatic-close settings (none when it never changed them), by mid. */
export function closeScheduleRows(q: Queryable) {
  return q.all(
    q.qb
      .selectFrom('merchants as m')
      .leftJoin('batch_close_settings as s', 's.mid', 'm.mid')
      .select(['m.mid', 'm.time_zone', 'm.created_at', 's.enrolled', 's.close_time', 's.changed_at'])
      .orderBy('m.mid'),
  );
}

/** Whether the merchant's close of `localDate` was already claimed (done, or claimed by a process that died). */
export async function closeRunClaimed(q: Queryable, mid: number, localDate: string): Promise<boolean> {
  const row = await q.first(
    q.qb
      .selectFrom('batch_close_runs')
      .select('mid')
      .where('mid', '=', mid)
      .where('local_date', '=', localDate),
  );
  return row !== undefined;
}

/** Claims the merchant's close of `localDate` in a unit of work of its own; false when another claimed it. */
export async function claimCloseRun(
  storage: Storage,
  mid: number,
  localDate: string,
  now: string,
): Promise<boolean> {
  try {
    await storage.write((tx) =>
      tx.run(
        tx.qb.insertInto('batch_close_runs').values({
          mid,
          local_date: localDate,
          claimed_at: now,
          status: 'claimed',
          settlement_id: null,
          finished_at: null,
        }),
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof UniqueViolation) return false;
    throw error;
  }
}

/** Records on the claim the settlement its close made (null when the batch was empty). */
export async function recordCloseRun(
  storage: Storage,
  mid: number,
  localDate: string,
  settlementId: number | null,
  finishedAt: string,
): Promise<void> {
  await storage.write((tx) =>
    tx.run(
      tx.qb
        .updateTable('batch_close_runs')
        .set({ status: 'done', settlement_id: settlementId, finished_at: finishedAt })
        .where('mid', '=', mid)
        .where('local_date', '=', localDate),
    ),
  );
}
