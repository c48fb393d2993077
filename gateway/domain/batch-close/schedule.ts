/**
 * Batch close, part 1 of 2: WHEN a merchant's open batch closes by itself. Interface, Limits 6: "Default
 * automatic batch closing time is 17:00"; Errors: "UpdateAutomaticHourToCloseBatch for a merchant not
 * enrolled: error message returned" (57); docs/decisions.md#batches: enrolled at 17:00 by default, in the
 * merchant's local time. Part 2, what a close does to the batch and its money, is settlement.ts beside this
 * file; schedulers/batch-close.ts runs this schedule and calls it.
 */
import { ResponseCode } from '../../contract/response-codes';
import type { Queryable } from '../../storage/queryable';
import { addDays, localParts, safeZone, zonedInstant } from '../local-time';
import { DomainError } from '../outcome';

// rule: automatic-batch-close
/** The interface's default: every merchant is enrolled in automatic batch close at 17:00. */
export const DEFAULT_CLOSE_TIME = '17:00';

export type CloseSchedule = {
  enrolled: boolean;
  /** HH:MM in the merchant's time zone. */
  closeTime: string;
  /** When the schedule last changed: a close time that passed before this is not due that day. */
  changedAt: string;
  timeZone: string;
};

/** A merchant's schedule; without a row it is the default (enrolled at 17:00 since the merchant exists). */
export async function readSchedule(q: Queryable, mid: number): Promise<CloseSchedule> {
  const row = await q.first(
    q.qb
      .selectFrom('merchants as m')
      .leftJoin('batch_close_settings as s', 's.mid', 'm.mid')
      .select(['m.time_zone', 'm.created_at', 's.enrolled', 's.close_time', 's.changed_at'])
      .where('m.mid', '=', mid),
  );
  return scheduleOf({
    time_zone: row?.time_zone ?? 'UTC',
    created_at: row?.created_at ?? new Date(0).toISOString(),
    enrolled: row?.enrolled ?? null,
    close_time: row?.close_time ?? null,
    changed_at: row?.changed_at ?? null,
  });
}

export function scheduleOf(r: {
  time_zone: string;
  created_at: string;
  enrolled: number | null;
  close_time: string | null;
  changed_at: string | null;
}): CloseSchedule {
  return {
    enrolled: r.enrolled === null ? true : r.enrolled === 1,
    closeTime: r.close_time ?? DEFAULT_CLOSE_TIME,
    changedAt: r.changed_at ?? r.created_at,
    timeZone: safeZone(r.time_zone),
  };
}

/**
 * The local day whose automatic close is due at `now`, or null: enrolled, the close time has passed today
 * in the merchant's zone, and it passed after the schedule was last set (enrolling at 10:00 for 09:00
 * starts tomorrow, it does not close the batch at once). A day the gateway was down through is not made
 * up the next morning: that day's close settles everything the next time it runs.
 */
export function dueLocalDate(s: CloseSchedule, now: Date): string | null {
  if (!s.enrolled) return null;
  const today = localParts(now, s.timeZone).date;
  const scheduled = zonedInstant(today, s.closeTime, s.timeZone);
  if (now.getTime() < scheduled.getTime()) return null;
  if (scheduled.getTime() < Date.parse(s.changedAt)) return null;
  return today;
}

/** The next instant the scheduler will close the batch, for the answers. */
export function nextCloseOn(s: CloseSchedule, now: Date, ranToday: boolean): string | null {
  if (!s.enrolled) return null;
  const today = localParts(now, s.timeZone).date;
  const scheduled = zonedInstant(today, s.closeTime, s.timeZone);
  const todayStillAhead =
    !ranToday && scheduled.getTime() >= Date.parse(s.changedAt) && now.getTime() <= scheduled.getTime();
  return (
    todayStillAhead ? scheduled : zonedInstant(addDays(today, 1), s.closeTime, s.timeZone)
  ).toISOString();
}

export type ParsedTime = { ok: true; time: string } | { ok: false; reason: string };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const TIME_ONLY = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The Time of SetAutomaticBatchClose / UpdateAutomaticHourToCloseBatch as a daily HH:MM in the merchant's
 * zone. A date-time without an offset is read as the merchant's wall clock (its date part is ignored); one
 * with an offset (Z, ±hh:mm) is an instant, converted to the merchant's zone. Bare HH:MM is accepted too.
 * Seconds are dropped: the schedule has minute resolution.
 */
export function parseCloseTime(raw: string, timeZone: string): ParsedTime {
  const bad: ParsedTime = {
    ok: false,
    reason: 'Time must be a date-time such as 2025-01-01T18:30:00 (or HH:MM) giving the closing time',
  };
  const t = raw.trim();
  const only = TIME_ONLY.exec(t);
  const full = only ? null : DATE_TIME.exec(t);
  const hh = Number(only?.[1] ?? full?.[4]);
  const mm = Number(only?.[2] ?? full?.[5]);
  if ((!only && !full) || !(hh >= 0 && hh <= 23) || !(mm >= 0 && mm <= 59)) return bad;
  if (full) {
    const month = Number(full[2]);
    const day = Number(full[3]);
    if (month < 1 || month > 12 || day < 1 || day > 31) return bad;
    if (full[7]) {
      const instant = new Date(t.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      if (Number.isNaN(instant.getTime())) return bad;
      return { ok: true, time: localParts(instant, timeZone).time };
    }
  }
  return { ok: true, time: `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}` };
}

async function save(
  tx: Queryable,
  mid: number,
  enrolled: boolean,
  closeTime: string,
  now: string,
): Promise<void> {
  const values = { enrolled: enrolled ? 1 : 0, close_time: closeTime, changed_at: now } as const;
  const r = await tx.run(tx.qb.updateTable('batch_close_settings').set(values).where('mid', '=', mid));
  if (r.changes === 0) await tx.run(tx.qb.insertInto('batch_close_settings').values({ mid, ...values }));
}

export type Transition = { changed: boolean; schedule: CloseSchedule; message: string };

/**
 * The interface's transitions table, exactly:
 * - SetAutomaticBatchClose: not enrolled → enrolled at Time; enrolled → unchanged, no action taken.
 * - UpdateAutomaticHourToCloseBatch: enrolled → enrolled at the new Time; not enrolled → unchanged, an
 *   error (NotEnrolled, 425).
 * - RemoveMerchantFromAutomaticCloseBatch: enrolled → not enrolled (batches then close only by hand).
 */
export async function setAutomaticClose(
  tx: Queryable,
  mid: number,
  time: string | undefined,
  now: string,
): Promise<Transition> {
  await tx.lock(`batch-close:${mid}`);
  const s = await readSchedule(tx, mid);
  if (s.enrolled) {
    return {
      changed: false,
      schedule: s,
      message: `Already enrolled at ${s.closeTime}: no action taken (UpdateAutomaticHourToCloseBatch moves the time)`,
    };
  }
  const closeTime = time ?? DEFAULT_CLOSE_TIME;
  await save(tx, mid, true, closeTime, now);
  return {
    changed: true,
    schedule: { ...s, enrolled: true, closeTime, changedAt: now },
    message: `Enrolled in automatic batch close at ${closeTime}`,
  };
}

export async function updateAutomaticHour(
  tx: Queryable,
  mid: number,
  time: string,
  now: string,
): Promise<Transition> {
  await tx.lock(`batch-close:${mid}`);
  const s = await readSchedule(tx, mid);
  if (!s.enrolled) {
    throw new DomainError(ResponseCode.NotEnrolled, [
      'The merchant is not enrolled in automatic batch close: SetAutomaticBatchClose enrolls it',
    ]);
  }
  await save(tx, mid, true, time, now);
  return {
    changed: time !== s.closeTime,
    schedule: { ...s, closeTime: time, changedAt: now },
    message: `Automatic batch close moved to ${time}`,
  };
}

export async function removeAutomaticClose(tx: Queryable, mid: number, now: string): Promise<Transition> {
  await tx.lock(`batch-close:${mid}`);
  const s = await readSchedule(tx, mid);
  if (!s.enrolled) {
    return { changed: false, schedule: s, message: 'Not enrolled in automatic batch close: nothing changed' };
  }
  await save(tx, mid, false, s.closeTime, now);
  return {
    changed: true,
    schedule: { ...s, enrolled: false, changedAt: now },
    message: 'Removed from automatic batch close: close batches with DoSettlement',
  };
}

/** Whether the automatic close already ran for the merchant's current local day. */
export async function ranOn(q: Queryable, mid: number, localDate: string): Promise<boolean> {
  const row = await q.first(
    q.qb
      .selectFrom('batch_close_runs')
      .select('mid')
      .where('mid', '=', mid)
      .where('local_date', '=', localDate),
  );
  return row !== undefined;
}
