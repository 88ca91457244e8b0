import { sql } from 'drizzle-orm';

/** postgres.js cannot bind a Date in raw SQL; ISO strings cast to timestamptz work on both drivers. */
export const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Rows from `db.execute`, which PGlite returns as `{rows}` and postgres.js as an array. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
