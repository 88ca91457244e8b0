import { TZDate } from '@date-fns/tz';

/** Midnight of a calendar date (YYYY-MM-DD) in a time zone, as an instant: date filters mean local days. */
export function startOfDayIn(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, 0, 0, 0, 0, timeZone).getTime());
}

/** A `datetime-local` value (YYYY-MM-DDTHH:mm) read as wall time in a time zone, as an ISO instant. */
export function wallTimeToIso(value: string, timeZone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, 0, 0, timeZone).getTime()).toISOString();
}
