/**
 * Times a person reads — on a receipt, a screen, a report — are the store's wall-clock time: the
 * merchant's time zone as the gateway keeps it, or the machine's where none is known. The terminal and its
 * screens format every such time here, with the zone handed in (Intl only, no date library), so a receipt
 * and the screen beside it never disagree, and neither prints UTC or a raw ISO string.
 *
 * The locale says how the words and figures of a time are written ("Nov 22, 9:05 AM" in en-US,
 * "22 nov, 9:05 a.m." in es-US): the locale of the text the time sits in (common/store-locale.ts
 * `formatLocale`). It defaults to en-US, the store's default.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The store's default locale: times are written in it unless the caller names another. */
const DEFAULT_LOCALE = 'en-US';

/**
 * Recent ICU puts a narrow no-break space before AM/PM; a receipt printer's code page has no such
 * character (it would print "?"), and a screen reads the same with a plain space.
 */
function plain(text: string): string {
  return text.replace(/[\u202f\u00a0]/g, ' ');
}

function formatter(
  zone: string,
  options: Intl.DateTimeFormatOptions,
  locale: string = DEFAULT_LOCALE,
): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formatters.set(key, f);
  }
  return f;
}

/** True when Intl knows the IANA zone (a merchant's zone is free text at the gateway). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0) return false;
  try {
    formatter(zone, {});
    return true;
  } catch {
    return false;
  }
}

/** The store's zone: the merchant's when it is a zone Intl knows, else the machine's. */
export function storeTimeZone(merchantZone: string | null | undefined, machineZone: string): string {
  if (isTimeZone(merchantZone)) return merchantZone;
  return isTimeZone(machineZone) ? machineZone : 'UTC';
}

/** "9:05 AM": a time of today (the transactions list). */
export function formatStoreTime(at: number, zone: string, locale?: string): string {
  return plain(formatter(zone, { hour: 'numeric', minute: '2-digit' }, locale).format(at));
}

/** "Nov 22, 9:05 AM": a time of the last days (holds, queues, devices, reports, settlements). */
export function formatStoreDateTime(at: number, zone: string, locale?: string): string {
  return plain(
    formatter(zone, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }, locale).format(
      at,
    ),
  );
}

/** "Nov 22, 9:05:07 AM": to the second, where two entries a minute apart must not read the same (audit). */
export function formatStoreStamp(at: number, zone: string, locale?: string): string {
  return plain(
    formatter(
      zone,
      { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
      locale,
    ).format(at),
  );
}

/**
 * "11/22/2026 9:05 AM EST" (es-US: "22/11/2026 9:05 a.m. EST"): a receipt's date line, with the zone's
 * short name so paper is unambiguous.
 */
export function formatReceiptTime(at: number, zone: string, locale?: string): string {
  const f = formatter(
    zone,
    {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    },
    locale,
  );
  // en-US and es-US put a comma between date and time; a receipt line reads better without it.
  return plain(f.format(at).replace(',', ''));
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClock(at: number, zone: string): WallClock {
  const out: Record<string, number> = {};
  const f = formatter(zone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const p of f.formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    year: out['year'] ?? 1970,
    month: out['month'] ?? 1,
    day: out['day'] ?? 1,
    hour: out['hour'] ?? 0,
    minute: out['minute'] ?? 0,
    second: out['second'] ?? 0,
  };
}

/** The hour (0-23) of `at` on the store's clock: sales by hour. */
export function storeHour(at: number, zone: string): number {
  return wallClock(at, zone).hour;
}

/** The store's calendar day of `at`, as YYYY-MM-DD (a date input's value). */
export function storeDay(at: number, zone: string): string {
  const w = wallClock(at, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetMs(at: number, zone: string): number {
  const w = wallClock(at, zone);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/**
 * The first millisecond of a store day (YYYY-MM-DD) as an instant. The offset is read twice: once at the
 * naive guess and once at the instant it gives, so a day that starts next to a DST change lands right.
 */
export function startOfStoreDay(day: string, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError('a store day is YYYY-MM-DD');
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const first = wall - offsetMs(wall, zone);
  return wall - offsetMs(first, zone);
}

/** The last millisecond of a store day. */
export function endOfStoreDay(day: string, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError('a store day is YYYY-MM-DD');
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
  return startOfStoreDay(next.toISOString().slice(0, 10), zone) - 1;
}

/** Local midnight of the store day that holds `at`: "today" on the transactions list. */
export function startOfStoreDayAt(at: number, zone: string): number {
  return startOfStoreDay(storeDay(at, zone), zone);
}
