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
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const wall = Date.UTC(y, mo, d);
  const fast = y >= 1000 ? instantOfWallTime(wall, timeZone, offsetAt(wall, timeZone)) : undefined;
  return new Date(fast ?? new TZDate(y, mo, d, 0, 0, 0, 0, timeZone).getTime());
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
  const fast = addCalendarOffset(from.getTime(), offset, offsetUnit, timeZone);
  return new Date(fast ?? addOffsetByTZDate(from, { offset, offsetUnit }, timeZone).getTime());
}

/**
 * Calendar arithmetic with TZDate: the reference, and the answer where the direct way below declines (a
 * wall-clock time near a transition). A TZDate costs a dozen time zone look-ups; setting a reference date
 * of eight activities spent a tenth of the app's CPU here.
 */
export function addOffsetByTZDate(from: Date, { offset, offsetUnit }: Offset, timeZone: string): Date {
  const local = new TZDate(from.getTime(), timeZone);
  const add = { s: addSeconds, min: addMinutes, h: addHours, d: addDays, wk: addWeeks, mo: addMonths, a: addYears }[offsetUnit];
  return new Date(add(local, offset).getTime());
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const OFFSET = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** The zone's offset from UTC at an instant, in milliseconds (the zone's wall clock minus UTC). */
export function offsetAt(t: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const m = OFFSET.exec(format.format(t));
  if (!m) return NaN;
  if (!m[1]) return 0;
  return (m[1] === '-' ? -1 : 1) * ((Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60 + Number(m[4] ?? 0)) * 1000;
}

/** No zone moves its clocks by more than this (Antarctica/Troll: 2 h), nor twice within it. */
const TRANSITION_REACH_MS = 3 * 3_600_000;

/**
 * The instant whose wall-clock time in the zone is `wall` (that time written as if it were UTC), when
 * there is exactly one: no transition within three hours of it, so the time neither falls into a gap nor
 * repeats. `guess` is an offset likely to hold there. Undefined otherwise (the caller asks TZDate).
 */
function instantOfWallTime(wall: number, timeZone: string, guess: number): number | undefined {
  if (!Number.isFinite(wall) || !Number.isFinite(guess)) return undefined;
  const t = wall - guess;
  const offset = offsetAt(t, timeZone);
  if (offset !== guess) return undefined;
  if (offsetAt(t - TRANSITION_REACH_MS, timeZone) !== offset || offsetAt(t + TRANSITION_REACH_MS, timeZone) !== offset) return undefined;
  return t;
}

/**
 * Days, weeks, months and years as date-fns does them on a TZDate (the same wall-clock time; a month
 * from the 31st clamped to the month's end), on the wall-clock time written as UTC: undefined where the
 * result is near a transition.
 */
function addCalendarOffset(from: number, offset: number, unit: 'd' | 'wk' | 'mo' | 'a', timeZone: string): number | undefined {
  const fromOffset = offsetAt(from, timeZone);
  if (!Number.isFinite(fromOffset)) return undefined;
  const wall = new Date(from + fromOffset);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (!(wall.getUTCFullYear() >= 1000)) return undefined;
  const [year, month, day] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  const timeOfDay = from + fromOffset - Date.UTC(year, month, day);
  let target: number;
  if (unit === 'd' || unit === 'wk') {
    target = Date.UTC(year, month, day + (unit === 'wk' ? 7 * offset : offset));
  } else {
    const toMonth = month + (unit === 'a' ? 12 * offset : offset);
    const daysInMonth = new Date(Date.UTC(year, toMonth + 1, 0)).getUTCDate();
    target = Date.UTC(year, toMonth, Math.min(day, daysInMonth));
  }
  return instantOfWallTime(target + timeOfDay, timeZone, fromOffset);
}
