import type { Queryable } from '../storage/queryable';

/**
 * Wall-clock time in a merchant's IANA time zone, with Intl only (no date library): the batch-close
 * schedule, the check void window ("same calendar day") and report dates are all local to the merchant.
 */

export type LocalParts = {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24-hour */
  time: string;
  minutesOfDay: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the zone (merchants.time_zone is free text in the core table). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function fields(instant: Date, timeZone: string) {
  const out: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 0,
    month: out.month ?? 0,
    day: out.day ?? 0,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function localParts(instant: Date, timeZone: string): LocalParts {
  const f = fields(instant, timeZone);
  return {
    date: `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`,
    time: `${pad(f.hour)}:${pad(f.minute)}`,
    minutesOfDay: f.hour * 60 + f.minute,
  };
}

/** The zone's offset from UTC at an instant, in minutes (New York in winter: -300). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const f = fields(instant, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the merchant's clock shows `date` `time`. A time skipped by a daylight-saving jump
 * (02:30 on the spring-forward day) maps to the same distance past the jump; a repeated one (fall back) to
 * its first occurrence. Two passes of the offset suffice because offsets change at most once around a day.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  const first = offsetMinutes(new Date(wall), timeZone);
  let guess = wall - first * 60_000;
  const second = offsetMinutes(new Date(guess), timeZone);
  if (second !== first) {
    const alt = wall - second * 60_000;
    // Fall back: both offsets are valid, take the earlier instant. Spring forward: neither maps back
    // exactly, keep the one computed with the pre-jump offset.
    if (localParts(new Date(alt), timeZone).time === time) guess = Math.min(guess, alt);
  }
  return new Date(guess);
}

/** The local calendar date `days` after `date` (YYYY-MM-DD arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** The merchant's time zone, UTC when the row names one Intl does not know. */
export function safeZone(timeZone: string | undefined): string {
  return timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';
}

/** A merchant's time zone from its row (UTC when it has none Intl knows). */
export async function merchantTimeZone(q: Queryable, mid: number): Promise<string> {
  const row = await q.first(q.qb.selectFrom('merchants').select('time_zone').where('mid', '=', mid));
  return safeZone(row?.time_zone);
}
