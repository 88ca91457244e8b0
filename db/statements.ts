import { is, Param, Placeholder, sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client';

/**
 * Statements whose SQL is built once per shape instead of once per request.
 *
 * drizzle builds the text and parameter list of every query anew each time it runs, walking every chunk
 * of it: an insert of eight activities took about 0.8 ms of CPU to build on a slow machine, against about
 * 7 ms for the whole request that sends it (decision 0014, eleventh pass). Its own prepared queries
 * (`.prepare()` with `sql.placeholder`) keep the built text, but run only on the connection they were
 * made on, so never inside a transaction begun later, and they hand a placeholder's null to the
 * column's encoder (a nullable timestamp throws). A `Statement` keeps drizzle's prepared query per
 * key (the shape: for inserts, the number of rows) and runs it on whatever it is given, the database or an
 * open transaction, with the values filled in here: null stays null, anything else goes through the
 * column's encoder as drizzle would have done. Result rows are mapped by drizzle as for any query.
 *
 * A placeholder named `<i>.<field>` reads `field` of the i-th of an array of rows (multi-row inserts);
 * any other name reads that property of the values object.
 */

/** What a drizzle builder's `.prepare()` answers. */
type Prepared<R> = { execute(values?: Record<string, unknown>): Promise<R> };
/** The parts of drizzle's prepared queries (postgres.js and PGlite alike) a Statement uses. */
type PreparedInternals = { client: unknown; params: unknown[] };
type Session = { client: unknown };

type Values = Record<string, unknown> | readonly Record<string, unknown>[];
type Slot = { value: unknown } | { row: number | null; field: string; encoder: { mapToDriverValue(v: unknown): unknown } | null };

type Built<R> = { prepared: Prepared<R> & PreparedInternals; slots: Slot[] };

function sessionOf(on: Queryable): Session {
  return (on as unknown as { session: Session }).session;
}

function slotOf(param: unknown): Slot {
  const placeholder = is(param, Placeholder) ? param : is(param, Param) && is(param.value, Placeholder) ? param.value : undefined;
  if (!placeholder) return { value: param };
  const encoder = is(param, Param) ? (param.encoder as { mapToDriverValue(v: unknown): unknown } | undefined) ?? null : null;
  const m = /^(\d+)\.(.+)$/.exec(placeholder.name);
  return m ? { row: Number(m[1]), field: m[2]!, encoder } : { row: null, field: placeholder.name, encoder };
}

function fill(slots: Slot[], values: Values): unknown[] {
  const out = new Array<unknown>(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if ('value' in slot) {
      out[i] = slot.value;
      continue;
    }
    const source = slot.row === null ? (values as Record<string, unknown>) : (values as readonly Record<string, unknown>[])[slot.row];
    const value = source?.[slot.field];
    if (value === undefined) throw new Error(`No value for the statement's placeholder ${slot.row === null ? '' : `${slot.row}.`}${slot.field}`);
    out[i] = value === null || !slot.encoder ? value : slot.encoder.mapToDriverValue(value);
  }
  return out;
}

export type Statement<K, R> = { run(on: Queryable, key: K, values: Values): Promise<R> };

/** Row counts above this are built for the one run (a scheduler batch): the cache holds request-sized shapes. */
const MAX_CACHED_ROWS = 32;

/**
 * `build(db, key)` makes the statement of one shape with `sql.placeholder`s and `.prepare()`s it; it runs
 * once per key and kind of session (postgres.js or PGlite). A numeric key is a row count: past
 * MAX_CACHED_ROWS the statement is built each time, as drizzle would, and not kept.
 */
export function statement<K extends string | number, R>(build: (db: Queryable, key: K) => Prepared<R>): Statement<K, R> {
  const bySession = new Map<unknown, Map<K, Built<R>>>();
  const make = (on: Queryable, key: K): Built<R> => {
    const prepared = build(on, key) as Prepared<R> & PreparedInternals;
    // It is run on the connection given each time; the one it was built on (maybe a transaction's) is not kept.
    prepared.client = undefined;
    return { prepared, slots: prepared.params.map(slotOf) };
  };
  return {
    async run(on, key, values) {
      const session = sessionOf(on);
      let built: Built<R> | undefined;
      if (typeof key === 'number' && key > MAX_CACHED_ROWS) built = make(on, key);
      else {
        let byKey = bySession.get(session.constructor);
        if (!byKey) bySession.set(session.constructor, (byKey = new Map()));
        built = byKey.get(key);
        if (!built) byKey.set(key, (built = make(on, key)));
      }
      // drizzle's own execute on this connection with these parameters (already filled: its fill passes them through).
      const run = Object.create(built.prepared) as Prepared<R> & PreparedInternals;
      run.client = session.client;
      run.params = fill(built.slots, values);
      return run.execute();
    },
  };
}

/**
 * A placeholder where drizzle's types take only a value (an update's `set`): at run time it is bound to
 * the column and its encoder as any value would be.
 */
export function valuePlaceholder<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}

/**
 * The values of one inserted row as placeholders, one per column: named after the column, or `<row>.<column>`
 * for row `row` of a multi-row insert (filled from an array of rows). The other columns take their defaults.
 */
export function insertPlaceholders<T extends PgTable>(columns: readonly (keyof T['$inferInsert'] & string)[], row?: number): PgInsertValue<T> {
  return Object.fromEntries(columns.map((column) => [column, sql.placeholder(row === undefined ? column : `${row}.${column}`)])) as PgInsertValue<T>;
}
