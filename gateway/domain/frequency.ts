/**
 * The FrequencyId table (the interface leaves its meaning unshown; docs/gateway-commerce.md publishes this
 * one) and the calendar arithmetic of due dates. Dates are `YYYY-MM-DD` calendar dates: a billing is due on
 * a day of the merchant's calendar, not at an instant.
 */
export type Frequency = {
  readonly id: number;
  readonly name: string;
  readonly unit: 'day' | 'month';
  readonly count: number;
};

export const frequencies: readonly Frequency[] = [
  { id: 1, name: 'Daily', unit: 'day', count: 1 },
  { id: 2, name: 'Weekly', unit: 'day', count: 7 },
  { id: 3, name: 'Biweekly', unit: 'day', count: 14 },
  { id: 4, name: 'Monthly', unit: 'month', count: 1 },
  { id: 5, name: 'Quarterly', unit: 'month', count: 3 },
  { id: 6, name: 'Semiannual', unit: 'month', count: 6 },
  { id: 7, name: 'Annual', unit: 'month', count: 12 },
];

export function frequencyById(id: number | undefined): Frequency | undefined {
  return frequencies.find((f) => f.id === id);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: string): [number, number, number] {
  const m = DATE.exec(date);
  if (!m) throw new Error(`not a calendar date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function format(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * The n-th due date after the anchor. Always computed from the anchor, never from the previous due date,
 * so month steps do not drift: a billing anchored on Jan 31 is due Feb 28 (29), then Mar 31.
 */
export function dueDate(anchor: string, f: Frequency, n: number): string {
  const [y, m, d] = parts(anchor);
  if (f.unit === 'day') {
    const t = new Date(Date.UTC(y, m - 1, d + f.count * n));
    return format(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  }
  const months = m - 1 + f.count * n;
  const year = y + Math.floor(months / 12);
  const month = (months % 12) + 1;
  return format(year, month, Math.min(d, daysInMonth(year, month)));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of an instant in a time zone (the merchant's): when its billings fall due. */
export function localDate(instant: Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * The calendar date a date-time names, as its writer meant it: `2025-03-01T00:00:00-05:00` is March 1st,
 * not the UTC instant's February 28th. Null when the text is not a real date.
 */
export function calendarDateOf(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return format(y, mo, d);
}

/** `2025-03-01` → `20250301`, for the deterministic UserTransactionNumber of a recurring charge. */
export function compactDate(date: string): string {
  return date.replaceAll('-', '');
}
