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
 * kept as the table grows: a statement that writes a growing table by key also filters on the keys as an
 * array, `key ${anyKey(...)}`, which the planner probes.
 */
export function jsonRows(rows: object[], alias: string, columns: string): SQL {
  return sql`select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.raw(alias)}(${sql.raw(columns)}) limit ${rows.length}`;
}

/**
 * `= any($1::<type>[])` of the keys, one text parameter however many there are: beside a join on
 * jsonRows, it makes the generic plan probe the key. Joined on the key alone, a generic plan made from
 * the statistics of up to 1,000-2,000 rows hash-joined a sequential scan and kept it as the table grew
 * (until the next ANALYZE): a 20,000-delivery drain read webhook_delivery 227-293 times, a batch of two
 * transitions read 101,009 activities. With the array it probed from statistics of 400 rows up (below
 * that a scan is what both choose, until the statistics job analyzes the table again).
 */
export function anyKey(keys: readonly number[], type: 'int' | 'bigint'): SQL {
  return sql`= any(${`{${keys.join(',')}}`}::${sql.raw(type)}[])`;
}
