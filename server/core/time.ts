import { z } from 'zod';

/** Timestamps leave the service as ISO 8601 in UTC with `Z`. */
export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A timestamp in a response. */
export const timestampSchema = z.string().meta({ format: 'date-time', example: '2026-01-31T09:30:00.000Z' });

/** A timestamp in a request: ISO 8601 with a zone (`Z` or an offset). */
export const instantSchema = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
/** An IANA time zone name (`Europe/Amsterdam`). */
export const timeZoneSchema = z.string().max(64).refine(isTimeZone, 'An IANA time zone, e.g. Europe/Amsterdam').meta({ example: 'Europe/Amsterdam' });
