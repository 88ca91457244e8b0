import postgres from 'postgres';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb, getDbHandle } from '@/db/client';
import { projects } from '@/db/schema';
import { analyzeStaleTables } from '@/server/jobs/statistics';

/**
 * Every statement the app sends to PostgreSQL is prepared (patches/drizzle-orm: drizzle asks postgres.js
 * to prepare only the statements given a name, and postgres.js sends an unprepared statement with
 * parameters in two round trips: Parse+Describe, then Bind+Execute once it knows the parameters' types).
 * And a connection prepares at most 200 (patches/postgres), so statements of many shapes (lists of
 * ids, rows of an insert) cannot fill a backend's memory. Generic plans follow the tables as they grow
 * where autovacuum is off too (server/jobs/statistics). PGlite has no connections: PostgreSQL only.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(onPostgres)('prepared statements on PostgreSQL', () => {
  it("prepares an unnamed drizzle query, so running it again is one Bind+Execute", async () => {
    const db = await getDb();
    const marker = `prepared-${Date.now()}`;
    const found = await db.transaction(async (tx) => {
      // A query text no other test sends, run twice on the transaction's one connection.
      for (let i = 0; i < 2; i++) await tx.select({ id: projects.id }).from(projects).where(eq(projects.name, marker));
      return tx.execute(sql`select statement from pg_prepared_statements where statement like ${'%"project"."name" = $1%'}`);
    });
    const statements = (found as unknown as { statement: string }[]).map((r) => r.statement);
    expect(statements.some((s) => s.startsWith('select "id" from "project" where "project"."name" = $1'))).toBe(true);
  });

  it('replaces a generic plan made while a table was empty once the table has grown and been analyzed', async () => {
    // The executor's outcome write has this shape: a JSON parameter joined to a table by its key. After
    // five runs PostgreSQL keeps a generic plan; made while the table was empty, it is a hash join over a
    // sequential scan, and stays one as the table grows until the table's statistics change. With
    // autovacuum off (here for this table; on this machine for the whole server) only ANALYZE changes
    // them: analyzeStaleTables runs it, and the next run probes the key.
    const table = `plan_probe_${process.pid}`;
    const client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { jit: 'off' } });
    const handle = await getDbHandle();
    try {
      await client.unsafe(`create table ${table} (id int primary key, v int not null) with (autovacuum_enabled = false)`);
      const write = (q: postgres.Sql | postgres.TransactionSql, id: number) =>
        q.unsafe(`update ${table} d set v = o.v from jsonb_to_recordset($1::text::jsonb) as o(id int, v int) where d.id = o.id`, [JSON.stringify([{ id, v: 1 }])], { prepare: true });
      // One run's reads, from this connection's own transaction.
      const reads = (id: number) =>
        client.begin(async (tx) => {
          await write(tx, id);
          const [row] = await tx.unsafe<{ read: number; index_scans: number }[]>(`select seq_tup_read::int as read, idx_scan::int as index_scans from pg_stat_xact_user_tables where relname = $1`, [table]);
          return row;
        });
      for (let i = 0; i < 7; i++) await write(client, 1);
      await client.unsafe(`insert into ${table} select g, g from generate_series(1, 100000) g`);
      expect(await reads(5)).toEqual({ read: 100_000, index_scans: 0 });
      // A backend reports its changes to the statistics views when idle, at most once a second (forced
      // here); another test's sweep may hold the analyze lock for a moment.
      await client`select pg_stat_force_next_flush()`;
      const until = Date.now() + 10_000;
      let analyzed: string[] = [];
      while (!analyzed.includes(`public.${table}`) && Date.now() < until) {
        analyzed = await analyzeStaleTables(handle);
        if (!analyzed.includes(`public.${table}`)) await new Promise((r) => setTimeout(r, 200));
      }
      expect(analyzed).toContain(`public.${table}`);
      expect(await reads(6)).toEqual({ read: 0, index_scans: 1 });

      // A few changed rows are below autovacuum's threshold: left alone.
      await client.unsafe(`update ${table} set v = 2 where id <= 10`);
      await client`select pg_stat_force_next_flush()`;
      expect(await analyzeStaleTables(handle)).not.toContain(`public.${table}`);
    } finally {
      await client.unsafe(`drop table if exists ${table}`);
      await client.end({ timeout: 5 });
    }
  });

  it('prepares at most 200 statements on one connection, and runs the rest unnamed', async () => {
    const client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      for (let i = 0; i < 260; i++) {
        const [row] = await client.unsafe<{ n: number }[]>(`select $1::int + ${i} as n`, [1], { prepare: true });
        expect(row!.n).toBe(1 + i);
      }
      const [prepared] = await client<{ count: number }[]>`select count(*)::int as count from pg_prepared_statements`;
      expect(prepared!.count).toBeGreaterThanOrEqual(190);
      expect(prepared!.count).toBeLessThanOrEqual(200);
    } finally {
      await client.end({ timeout: 5 });
    }
  });
});
