import { sql } from 'drizzle-orm';

/** postgres.js cannot bind a Date in raw SQL; ISO strings cast to timestamptz work on both drivers. */
export const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export { anyKey, jsonRows, rowsOf } from '@/db/rows';
