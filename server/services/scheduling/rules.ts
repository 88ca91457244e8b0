import { TZDate } from '@date-fns/tz';
import { isCalendarDate } from '@/server/core/offsets';
import { remembered } from '@/server/core/remembered';

/**
 * Free slots of a schedule (CONTRACT 10), pure: availability windows in local time (exceptions replace a
 * day's windows), cut into `slotMinutes` pieces from each window's start, minus slots that have begun or
 * fall within the minimum notice, minus slots overlapping a booked appointment widened by the buffer on
 * both sides. Local times become instants through @date-fns/tz, so a 09:00 window is 09:00 local on both
 * sides of a daylight saving change.
 */
export type Window = { start: string; end: string };
export type ScheduleRules = {
  timeZone: string;
  slotMinutes: number;
  availability: (Window & { day: string })[];
  exceptions: { date: string; windows: Window[] }[];
  minimumNoticeMinutes: number;
  bufferMinutes: number;
};
/** A slot as instants in ms (formatted only in the answer: each Date construction goes through Next's wrapper). */
export type Slot = { start: number; end: number };
export type Booked = { start: Date; end: Date };

export const WEEKDAY_OF_INDEX = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const MAX_SLOT_DAYS = 62;
const MINUTE = 60_000;

export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The local calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  const t = new TZDate(at.getTime(), timeZone);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
}

/** The dates from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`).getTime();
  for (; d.getTime() <= end; d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
}

/** Days between two calendar dates, both counted (1 for the same date). */
export const daysInclusive = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * The instant (ms) of a local time on a local date (24:00 is the next day's midnight), remembered: a zone's
 * rules do not change while the process runs, and a TZDate costs dozens of Date constructions, each a
 * `Reflect.construct` through Next's `Date` wrapper in the server (62 days of slots: 1.8 ms of computing
 * without the wrapper, 7.4-9.4 with it, before this was remembered).
 */
const instants = new Map<string, number>();
const instantMs = (date: string, hhmm: string, timeZone: string): number =>
  remembered(
    instants,
    `${timeZone} ${date} ${hhmm}`,
    () => {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const minutes = minutesOf(hhmm);
      return new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, 0, 0, timeZone).getTime();
    },
    20_000,
  );

/** The windows of one local date: its exception's if it has one, else the weekday's. */
export function windowsOn(rules: Pick<ScheduleRules, 'availability' | 'exceptions'>, date: string): Window[] {
  const exception = rules.exceptions.find((e) => e.date === date);
  if (exception) return exception.windows;
  const day = WEEKDAY_OF_INDEX[new Date(`${date}T12:00:00Z`).getUTCDay()];
  return rules.availability.filter((w) => w.day === day);
}

/**
 * Every slot of a local date, ignoring bookings and notice, ascending and never overlapping. Windows that do not overlap in local time can as instants: on a day a clock change skips
 * 02:00-03:00, a window ending at 02:05 ends at 03:05 new time, past the start of a 03:00 window. There the
 * earlier slot is kept and a slot starting before it ends is left out, so no instant is offered twice.
 */
export function slotsOn(rules: Pick<ScheduleRules, 'availability' | 'exceptions' | 'slotMinutes' | 'timeZone'>, date: string): Slot[] {
  const cut: Slot[] = [];
  const step = rules.slotMinutes * MINUTE;
  for (const w of windowsOn(rules, date)) {
    const end = instantMs(date, w.end, rules.timeZone);
    for (let s = instantMs(date, w.start, rules.timeZone); s + step <= end; s += step) cut.push({ start: s, end: s + step });
  }
  cut.sort((a, b) => a.start - b.start);
  const slots: Slot[] = [];
  let free = -Infinity;
  for (const s of cut) {
    if (s.start < free) continue;
    slots.push(s);
    free = s.end;
  }
  return slots;
}

/** Whether [start, end) overlaps a booked appointment widened by the buffer on both sides. */
export const clashes = (slot: Booked, booked: Booked[], bufferMinutes: number) =>
  booked.some((b) => slot.start.getTime() < b.end.getTime() + bufferMinutes * MINUTE && b.start.getTime() - bufferMinutes * MINUTE < slot.end.getTime());

/** Whether a slot may still be booked now: it has not begun and lies beyond the minimum notice. */
const bookableAt = (start: number, now: number, minimumNoticeMinutes: number) => start > now && start >= now + minimumNoticeMinutes * MINUTE;

/** The free slots from `from` 00:00 to the end of `to` (local dates of the schedule), ascending. */
export function freeSlots(rules: ScheduleRules, from: string, to: string, booked: Booked[], now: Date): Slot[] {
  if (!isCalendarDate(from) || !isCalendarDate(to)) return [];
  // One sweep over slots and bookings, both by start (O(n + m), not n x m: 62 days of a busy calendar).
  // Bookings widened by the buffer, merged where they touch, so their ends ascend too.
  const buffer = rules.bufferMinutes * MINUTE;
  const blocked: { from: number; to: number }[] = [];
  for (const b of booked.map((x) => ({ from: x.start.getTime() - buffer, to: x.end.getTime() + buffer })).sort((x, y) => x.from - y.from)) {
    const last = blocked.at(-1);
    if (last && b.from <= last.to) last.to = Math.max(last.to, b.to);
    else blocked.push(b);
  }
  const free: Slot[] = [];
  const at = now.getTime();
  let j = 0;
  for (const date of datesBetween(from, to)) {
    for (const slot of slotsOn(rules, date)) {
      if (!bookableAt(slot.start, at, rules.minimumNoticeMinutes)) continue;
      while (j < blocked.length && blocked[j]!.to <= slot.start) j++;
      if (j < blocked.length && blocked[j]!.from < slot.end) continue;
      free.push(slot);
    }
  }
  return free;
}

/** Why `start` is not a bookable slot start of these rules now (ignoring bookings), or null. */
export function slotProblem(rules: ScheduleRules, start: Date, now: Date): string | null {
  const slot = slotsOn(rules, localDate(start, rules.timeZone)).find((s) => s.start === start.getTime());
  if (!slot) return `Not the start of a slot of this schedule (slots of ${rules.slotMinutes} min, in ${rules.timeZone})`;
  if (slot.start <= now.getTime()) return 'This slot has begun';
  if (!bookableAt(slot.start, now.getTime(), rules.minimumNoticeMinutes)) return `This slot is within the schedule's minimum notice of ${rules.minimumNoticeMinutes} min`;
  return null;
}
