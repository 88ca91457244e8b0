/**
 * One way to write dates and times across Carebase: "24 Nov 2026, 14:05" in the reader's time zone
 * (staff: the project's; members: their own), days as "24 Nov 2026", and relative times in words.
 */
const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.DateTimeFormat('en-GB', { timeZone, ...options })));
  return f;
}

const toDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);

/** "24 Nov 2026, 14:05" */
export function dateTime(value: string | Date, timeZone: string): string {
  return formatter(timeZone, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(toDate(value));
}

/** "24 Nov 2026, 14:05:09": for logs, where seconds tell attempts apart. */
export function dateTimeSeconds(value: string | Date, timeZone: string): string {
  return formatter(timeZone, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(toDate(value));
}

/** "24 Nov 2026", for an instant in a zone or a calendar date (YYYY-MM-DD, which has no zone). */
export function day(value: string | Date, timeZone = 'UTC'): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatter('UTC', { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(`${value}T12:00:00Z`));
  return formatter(timeZone, { day: 'numeric', month: 'short', year: 'numeric' }).format(toDate(value));
}

/** "14:05" */
export function time(value: string | Date, timeZone: string): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(toDate(value));
}

/** "Tuesday 24 November 2026 at 14:05": for members, where nothing should need decoding. */
export function longDateTime(value: string | Date, timeZone: string): string {
  const d = toDate(value);
  return `${formatter(timeZone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(d)} at ${time(d, timeZone)}`;
}

/** "Tuesday 24 November" (this year) or with the year otherwise. */
export function longDay(value: string | Date, timeZone: string, now = new Date()): string {
  const d = toDate(value);
  const sameYear = formatter(timeZone, { year: 'numeric' }).format(d) === formatter(timeZone, { year: 'numeric' }).format(now);
  return formatter(timeZone, { weekday: 'long', day: 'numeric', month: 'long', ...(sameYear ? {} : { year: 'numeric' }) }).format(d);
}

/** The zone's short name at that moment: "GMT", "CET", "GMT+1". */
export function zoneName(timeZone: string, at: Date = new Date()): string {
  return formatter(timeZone, { timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "in 2 days", "3 hours ago", "now". */
export function relative(value: string | Date, now: Date = new Date()): string {
  const diff = toDate(value).getTime() - now.getTime();
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return relativeFormat.format(Math.round(diff / ms), unit);
  return Math.abs(diff) < 45_000 ? 'now' : relativeFormat.format(Math.round(diff / 60_000), 'minute');
}

/** How long ago, as a length of time: "less than a minute", "1 minute", "3 hours", "2 days". */
export function elapsed(value: string | Date, now: Date = new Date()): string {
  const ms = Math.max(0, now.getTime() - toDate(value).getTime());
  for (const [unit, size] of UNITS) {
    if (ms >= size) {
      const n = Math.floor(ms / size);
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return 'less than a minute';
}
