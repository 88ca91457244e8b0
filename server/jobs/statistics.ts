import { sql } from 'drizzle-orm';
import type { DbHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';

/** One instance at a time analyzes (the others skip the round). */
const ANALYZE_LOCK = 727275;

/**
 * Analyzes the tables with more rows changed since their last ANALYZE than autovacuum's own default
 * threshold (50 rows and a tenth of the table): what autovacuum will analyze at its next look, or never
 * where it is off (for the server, or for the table). Answers the tables analyzed. A table another
 * session holds (autovacuum at work on it) is skipped, not waited for.
 *
 * Why the app does this at all (docs/decisions/0014): prepared statements switch to a generic plan
 * after five runs, and that plan is kept until the statistics of a table it reads change. A plan made
 * while a table was nearly empty scans the whole table on every later run; on a server without
 * autovacuum nothing ever replaces it, and with autovacuum it lasts until autovacuum's next look (up to
 * a minute, the length of a burst). ANALYZE replaces it, and the next runs plan for the table as it is.
 * The embedded executor runs this every 10 s (the Inngest sweep once a minute), and at once when its
 * claims find a backlog. `only` limits a run to the tables named (unqualified, in the current schema): a
 * backlog of deliveries needs only webhook_delivery's statistics (decision 0014, sixteenth pass). PGlite is left alone: one process, no
 * autovacuum to stand in for, and statistics its own queries keep up.
 */
export async function analyzeStaleTables({ kind, db }: Pick<DbHandle, 'kind' | 'db'>, only?: readonly string[]): Promise<string[]> {
  if (kind !== 'postgres' || only?.length === 0) return [];
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${ANALYZE_LOCK}) as locked`));
    if (!lock?.locked) return [];
    const stale = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select format('%I.%I', s.schemaname, s.relname) as name
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = current_schema()
          and s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
          ${only ? sql`and s.relname in (${sql.join(only.map((t) => sql`${t}`), sql`, `)})` : sql.empty()}
        order by s.n_mod_since_analyze desc`),
    );
    if (stale.length === 0) return [];
    // ANALYZE samples at most 30,000 rows of a table; a big one may take longer than a request's limit.
    // And it is paced as autovacuum paces its own (a 2 ms rest after each `vacuum_cost_limit` of page
    // cost), not at full speed: unpaced, ANALYZE of a big table took a core for 0.3-0.7 s every 10 s of a
    // write burst, and the requests at half load queued behind it (decision 0014, fifty-second pass).
    await tx.execute(sql`select set_config('statement_timeout', '60s', true), set_config('vacuum_cost_delay', '2ms', true)`);
    for (const { name } of stale) await tx.execute(sql.raw(`analyze (skip_locked) ${name}`));
    return stale.map((s) => s.name);
  });
}
