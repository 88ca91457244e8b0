'use client';

import { dateTime, dateTimeSeconds, day, relative, zoneName } from './dates';
import { useStaff } from './staff-context';

/** The project's time zone, in which the console shows every time. */
export function useTimeZone(): string {
  return useStaff().timeZone;
}

/**
 * A time as the console writes it ("24 Nov 2026, 14:05", in the project's zone); the full moment with its
 * zone is the tooltip and the machine-readable value.
 */
export function When({ at, style = 'dateTime', className }: { at: string | null | undefined; style?: 'dateTime' | 'seconds' | 'day' | 'relative'; className?: string }) {
  const timeZone = useTimeZone();
  if (!at) return <span className={className}>—</span>;
  const full = `${dateTimeSeconds(at, timeZone)} ${zoneName(timeZone, new Date(at))}`;
  const text = style === 'seconds' ? dateTimeSeconds(at, timeZone) : style === 'day' ? day(at, timeZone) : style === 'relative' ? relative(at) : dateTime(at, timeZone);
  return (
    <time dateTime={at} title={full} className={className}>
      {text}
    </time>
  );
}

/** The console's date functions, bound to the project's time zone (for text in labels and sentences). */
export function useDates() {
  const timeZone = useTimeZone();
  return {
    timeZone,
    dateTime: (at: string | Date) => dateTime(at, timeZone),
    day: (at: string | Date) => day(at, timeZone),
    relative: (at: string | Date) => relative(at),
  };
}
