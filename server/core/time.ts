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
