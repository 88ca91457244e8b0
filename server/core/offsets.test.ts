import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { addOffset, addOffsetByTZDate, isCalendarDate, offsetAt, startOfDateIn } from './offsets';

const ZONES = ['UTC', 'Europe/Amsterdam', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'];

/** The wall-clock reading of an instant in a zone, as `YYYY-MM-DD HH:mm:ss`. */
function wallClock(d: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

const calendarDate = fc
  .record({ y: fc.integer({ min: 1990, max: 2090 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)
  .filter(isCalendarDate);
const zone = fc.constantFrom(...ZONES);

describe('calendar dates', () => {
  it('accepts real dates only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-4-1')).toBe(false);
  });

  it('anchors a date at 00:00 in the time zone', () => {
    fc.assert(
      fc.property(calendarDate, zone, (date, tz) => {
        expect(wallClock(startOfDateIn(date, tz), tz)).toBe(`${date} 00:00:00`);
      }),
    );
    expect(startOfDateIn('2026-03-29', 'Europe/Amsterdam').toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });
});

describe('offset arithmetic', () => {
  it('keeps the wall-clock time for day and week offsets across daylight saving changes', () => {
    fc.assert(
      fc.property(calendarDate, zone, fc.integer({ min: -400, max: 400 }), fc.constantFrom('d' as const, 'wk' as const), (date, tz, n, unit) => {
        const at = addOffset(startOfDateIn(date, tz), { offset: n, offsetUnit: unit }, tz);
        expect(wallClock(at, tz).slice(11)).toBe('00:00:00');
      }),
    );
    // 2026-03-29 is 23 hours long in Amsterdam: one day is not 24 hours there.
    const anchor = startOfDateIn('2026-03-29', 'Europe/Amsterdam');
    expect(addOffset(anchor, { offset: 1, offsetUnit: 'd' }, 'Europe/Amsterdam').getTime() - anchor.getTime()).toBe(23 * 3_600_000);
    expect(addOffset(anchor, { offset: 24, offsetUnit: 'h' }, 'Europe/Amsterdam').getTime() - anchor.getTime()).toBe(24 * 3_600_000);
  });

  it('makes seconds, minutes and hours exact durations', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }), zone, fc.integer({ min: -1e6, max: 1e6 }), (d, tz, n) => {
        expect(addOffset(d, { offset: n, offsetUnit: 's' }, tz).getTime() - d.getTime()).toBe(n * 1000);
        expect(addOffset(d, { offset: n, offsetUnit: 'min' }, tz).getTime() - d.getTime()).toBe(n * 60_000);
        expect(addOffset(d, { offset: n, offsetUnit: 'h' }, tz).getTime() - d.getTime()).toBe(n * 3_600_000);
      }),
    );
  });

  it('clamps month ends and leap days', () => {
    const tz = 'Europe/Amsterdam';
    const at = (date: string, n: number, unit: 'mo' | 'a') => wallClock(addOffset(startOfDateIn(date, tz), { offset: n, offsetUnit: unit }, tz), tz).slice(0, 10);
    expect(at('2026-01-31', 1, 'mo')).toBe('2026-02-28');
    expect(at('2024-01-31', 1, 'mo')).toBe('2024-02-29');
    expect(at('2026-03-31', -1, 'mo')).toBe('2026-02-28');
    expect(at('2024-02-29', 1, 'a')).toBe('2025-02-28');
    expect(at('2024-02-29', 4, 'a')).toBe('2028-02-29');
    expect(at('2026-10-31', 1, 'mo')).toBe('2026-11-30');
  });

  it('lands months and years on the same day of month, or the month end, at the same time', () => {
    fc.assert(
      fc.property(calendarDate, zone, fc.integer({ min: -60, max: 60 }), (date, tz, n) => {
        const result = wallClock(addOffset(startOfDateIn(date, tz), { offset: n, offsetUnit: 'mo' }, tz), tz);
        const [y, m, d] = date.split('-').map(Number) as [number, number, number];
        const total = y * 12 + (m - 1) + n;
        const ty = Math.floor(total / 12);
        const tm = (total % 12) + 1;
        const lastDay = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
        const expected = `${ty}-${String(tm).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')} 00:00:00`;
        expect(result).toBe(expected);
      }),
    );
  });

  it('is monotonic: a larger offset is never earlier', () => {
    fc.assert(
      fc.property(calendarDate, zone, fc.constantFrom('s' as const, 'min' as const, 'h' as const, 'd' as const, 'wk' as const, 'mo' as const, 'a' as const), fc.integer({ min: -500, max: 500 }), fc.integer({ min: 0, max: 500 }), (date, tz, unit, a, delta) => {
        const anchor = startOfDateIn(date, tz);
        expect(addOffset(anchor, { offset: a + delta, offsetUnit: unit }, tz).getTime()).toBeGreaterThanOrEqual(addOffset(anchor, { offset: a, offsetUnit: unit }, tz).getTime());
      }),
    );
  });
});

describe('the direct calendar arithmetic agrees with TZDate', () => {
  // Zones with the awkward transitions: 30-minute (Lord Howe) and 2-hour (Troll) changes, DST at midnight
  // (Sao Paulo until 2019, Havana), negative DST (Dublin), a skipped day (Apia, 2011-12-30), odd offsets.
  const HARD = [...ZONES, 'Australia/Lord_Howe', 'Antarctica/Troll', 'America/Sao_Paulo', 'America/Havana', 'Europe/Dublin', 'Pacific/Apia', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham'];
  const hardZone = fc.constantFrom(...HARD);
  const unit = fc.constantFrom('d' as const, 'wk' as const, 'mo' as const, 'a' as const);
  // Instants near transitions are where a shortcut would go wrong: half of them fall within a day of one.
  const transitions = HARD.flatMap((tz) => {
    const found: number[] = [];
    const DAY = 86_400_000;
    for (let t = Date.UTC(1995, 0, 1), before = offsetAt(t, tz); t < Date.UTC(2035, 0, 1); t += DAY) {
      const after = offsetAt(t + DAY, tz);
      if (after !== before) {
        // To the hour, by halving the day.
        let [lo, hi] = [t, t + DAY];
        while (hi - lo > 3_600_000) {
          const mid = lo + Math.floor((hi - lo) / 7_200_000) * 3_600_000;
          if (offsetAt(mid, tz) === before) lo = mid;
          else hi = mid;
        }
        found.push(lo);
      }
      before = after;
    }
    return found;
  });
  const instant = fc.oneof(
    fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2035, 0, 1) }),
    fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -86_400_000, max: 86_400_000 })).map(([t, d]) => t + d),
  );

  it('reads offsets as TZDate does', () => {
    fc.assert(
      fc.property(instant, hardZone, (t, tz) => {
        expect(offsetAt(t, tz)).toBe(-new TZDate(t, tz).getTimezoneOffset() * 60_000);
      }),
      { numRuns: 2000 },
    );
  });

  it('adds days, weeks, months and years to the same instant, near transitions too', () => {
    fc.assert(
      fc.property(instant, hardZone, unit, fc.integer({ min: -400, max: 400 }), (t, tz, offsetUnit, offset) => {
        expect(addOffset(new Date(t), { offset, offsetUnit }, tz).getTime()).toBe(addOffsetByTZDate(new Date(t), { offset, offsetUnit }, tz).getTime());
      }),
      { numRuns: 5000 },
    );
    // A start at a transition's day: both ways, on the dates that have one.
    fc.assert(
      fc.property(fc.constantFrom(...transitions), fc.constantFrom(...HARD), unit, fc.integer({ min: -3, max: 3 }), (t, tz, offsetUnit, offset) => {
        const from = new Date(t - (t % 86_400_000));
        expect(addOffset(from, { offset, offsetUnit }, tz).getTime()).toBe(addOffsetByTZDate(from, { offset, offsetUnit }, tz).getTime());
      }),
      { numRuns: 2000 },
    );
  });

  it('anchors dates at the same instant as TZDate, where midnight is skipped too', () => {
    fc.assert(
      fc.property(fc.oneof(calendarDate, fc.constantFrom(...transitions).map((t) => new Date(t).toISOString().slice(0, 10))), hardZone, (date, tz) => {
        const [y, m, d] = date.split('-').map(Number) as [number, number, number];
        expect(startOfDateIn(date, tz).getTime()).toBe(new TZDate(y, m - 1, d, 0, 0, 0, 0, tz).getTime());
      }),
      { numRuns: 3000 },
    );
    // Sao Paulo skipped 2018-11-04 00:00: the day began at 01:00.
    expect(startOfDateIn('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });
});
