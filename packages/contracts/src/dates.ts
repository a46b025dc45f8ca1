/**
 * Dates. Invoice queries carry days as dd/MM/yyyy; screens show times in the long
 * ('dd MMM yyyy HH:mm:ss') or short ('dd/MM/yyyy HH:mm:ss') format. Days and times are UTC, like
 * the clock in the top bar, so a day filter means the same rows for every viewer.
 */

export type CalendarDay = { year: number; month: number; day: number };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MS = 86_400_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function validDay(year: number, month: number, day: number): CalendarDay | null {
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth ? { year, month, day } : null;
}

/** Strict dd/MM/yyyy (real calendar days only), or null. */
export function parseDdMmYyyy(input: string): CalendarDay | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(input);
  return m ? validDay(Number(m[3]), Number(m[2]), Number(m[1])) : null;
}

/** Strict yyyy-MM-dd (what date pickers hand out), or null. */
export function parseIsoDay(input: string): CalendarDay | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input);
  return m ? validDay(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export const formatDdMmYyyy = (d: CalendarDay) => `${pad(d.day)}/${pad(d.month)}/${pad(d.year, 4)}`;
const formatIsoDay = (d: CalendarDay) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

/** '2026-11-21' → '21/11/2026'; null when not a valid day. */
export function isoDayToDdMmYyyy(input: string): string | null {
  const d = parseIsoDay(input);
  return d ? formatDdMmYyyy(d) : null;
}

/** '21/11/2026' → '2026-11-21'; null when not a valid day. */
export function ddMmYyyyToIsoDay(input: string): string | null {
  const d = parseDdMmYyyy(input);
  return d ? formatIsoDay(d) : null;
}

/** The UTC day as a half-open interval [start, end). */
export function utcDayRange(d: CalendarDay): { start: Date; end: Date } {
  const start = new Date(Date.UTC(d.year, d.month - 1, d.day));
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

function toDate(value: Date | string | number): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'dd MMM yyyy HH:mm:ss' in UTC, e.g. '21 Nov 2026 05:19:30'; '' for an invalid value. */
export function formatDateLong(value: Date | string | number): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** 'dd/MM/yyyy HH:mm:ss' in UTC; '' for an invalid value. */
export function formatDateShort(value: Date | string | number): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** 'HH:mm' (or 'HH:mm:ss') in UTC; '' for an invalid value. */
export function formatUtcTime(value: Date | string | number, seconds = false): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${seconds ? `:${pad(d.getUTCSeconds())}` : ''}`;
}

/** The UTC calendar day `offsetDays` from `now`, as YYYY-MM-DD (report periods). */
export function utcIsoDay(offsetDays = 0, now: Date = new Date()): string {
  const d = new Date(now.getTime() + offsetDays * 86_400_000);
  return formatIsoDay({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}
