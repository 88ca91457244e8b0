import { sql } from 'drizzle-orm';
import type { DbHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';

/** One instance at a time analyzes (the others skip the round). */
const ANALYZE_LOCK = 727275;

/**
 * Analyzes the tables whose statistics autovacuum would refresh but will not, because it is off (for
 * the server, or for the table): more rows changed since the last ANALYZE than autovacuum's own
 * default threshold (50 rows and a tenth of the table). Answers the tables analyzed.
 *
 * Why the app does this at all (docs/decisions/0014): prepared statements switch to a generic plan
 * after five runs, and that plan is kept until the statistics of a table it reads change. A plan made
 * while a table was nearly empty scans the whole table on every later run; on a server without
 * autovacuum nothing ever replaces it. ANALYZE replaces it, and the next runs plan for the table as it
 * is. With autovacuum on, as PostgreSQL ships, this finds nothing to do. PGlite is left alone: one
 * process, no autovacuum to stand in for, and statistics its own queries keep up.
 */
export async function analyzeStaleTables({ kind, db }: Pick<DbHandle, 'kind' | 'db'>): Promise<string[]> {
  if (kind !== 'postgres') return [];
  return db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${ANALYZE_LOCK}) as locked`));
    if (!lock?.locked) return [];
    const stale = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select format('%I.%I', s.schemaname, s.relname) as name
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = current_schema()
          and (current_setting('autovacuum') = 'off' or coalesce(c.reloptions @> array['autovacuum_enabled=false'], false))
          and s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
        order by s.n_mod_since_analyze desc`),
    );
    if (stale.length === 0) return [];
    // ANALYZE samples at most 30,000 rows of a table; a big one may take longer than a request's limit.
    await tx.execute(sql`set local statement_timeout = '60s'`);
    for (const { name } of stale) await tx.execute(sql.raw(`analyze ${name}`));
    return stale.map((s) => s.name);
  });
}
