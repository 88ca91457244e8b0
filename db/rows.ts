import { sql, type SQL } from 'drizzle-orm';

/** Rows from `db.execute`, which PGlite answers as `{rows}` and postgres.js as an array. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * `rows` as a relation from one JSON parameter, however many there are (binding a parameter per value
 * cost more CPU than the write itself): `select * from jsonb_to_recordset($1) as <alias>(<columns>)`.
 * The limit, the number of rows it holds anyway, gives the planner the row count: it guesses 100 for any
 * set-returning function, and with 100 it hash-joined a sequential scan of tables up to about 50,000
 * rows instead of probing their keys once per row. A generic plan (a prepared statement's, after five
 * runs) cannot read the limit, and from a small table's statistics it still hash-joins a sequential scan,
 * kept as the table grows: a statement that writes a growing table by key also filters on
 * `key = any(array(select ...))` of the rows, which the planner probes (the delivery claim, recordOutcomes).
 */
export function jsonRows(rows: object[], alias: string, columns: string): SQL {
  return sql`select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.raw(alias)}(${sql.raw(columns)}) limit ${rows.length}`;
}
