import { TZDate } from '@date-fns/tz';
import { addDays, addHours, addMinutes, addMonths, addSeconds, addWeeks, addYears } from 'date-fns';

export const OFFSET_UNITS = ['s', 'min', 'h', 'd', 'wk', 'mo', 'a'] as const;
export type OffsetUnit = (typeof OFFSET_UNITS)[number];
export type Offset = { offset: number; offsetUnit: OffsetUnit };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a string is a real calendar date `YYYY-MM-DD` (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** A date anchor is that calendar date at 00:00 in the project's time zone. */
export function startOfDateIn(date: string, timeZone: string): Date {
  const m = DATE.exec(date);
  if (!m || !isCalendarDate(date)) throw new Error(`Not a calendar date: ${date}`);
  return new Date(new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0, timeZone).getTime());
}

/**
 * Adds an offset. Seconds, minutes and hours are exact durations; days, weeks, months and years are
 * calendar arithmetic in the project's time zone, so "1 d" keeps the wall-clock time across a daylight
 * saving change and "1 mo" from 31 January is the last day of February (date-fns clamps month ends).
 */
export function addOffset(from: Date, { offset, offsetUnit }: Offset, timeZone: string): Date {
  // Exact durations need no time zone (building a TZDate is most of this function's cost).
  if (offsetUnit === 's') return addSeconds(from, offset);
  if (offsetUnit === 'min') return addMinutes(from, offset);
  if (offsetUnit === 'h') return addHours(from, offset);
  const local = new TZDate(from.getTime(), timeZone);
  let result: Date;
  switch (offsetUnit) {
    case 'd':
      result = addDays(local, offset);
      break;
    case 'wk':
      result = addWeeks(local, offset);
      break;
    case 'mo':
      result = addMonths(local, offset);
      break;
    case 'a':
      result = addYears(local, offset);
      break;
  }
  return new Date(result.getTime());
}
