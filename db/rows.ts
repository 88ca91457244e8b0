/** Rows from `db.execute`, which PGlite answers as `{rows}` and postgres.js as an array. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
