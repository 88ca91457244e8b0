import postgres from 'postgres';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { projects } from '@/db/schema';

/**
 * Every statement the app sends to PostgreSQL is prepared (patches/drizzle-orm: drizzle asks postgres.js
 * to prepare only the statements given a name, and postgres.js sends an unprepared statement with
 * parameters in two round trips: Parse+Describe, then Bind+Execute once it knows the parameters' types).
 * And a connection prepares at most 200 (patches/postgres), so statements of many shapes (lists of
 * ids, rows of an insert) cannot fill a backend's memory. Each run gets a plan for its own parameters and
 * the tables as they are (plan_cache_mode). PGlite has no connections: PostgreSQL only.
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

  it('plans each run anew, so a plan made while a table was empty does not scan it once it has grown', async () => {
    const db = await getDb();
    const [mode] = (await db.execute(sql`show plan_cache_mode`)) as unknown as { plan_cache_mode: string }[];
    expect(mode!.plan_cache_mode).toBe('force_custom_plan');
    // The executor's outcome write has this shape: a JSON parameter joined to a table by its key. With
    // PostgreSQL's default (a generic plan after five runs), the plan chosen while the table was empty is
    // a hash join over a sequential scan, kept as the table grows: the last run below read all 100,000
    // rows. A custom plan, made for the table as it is, probes the key.
    const scans = await db.transaction(async (tx) => {
      await tx.execute(sql`create temp table plan_probe (id int primary key, v int not null) on commit drop`);
      const write = (id: number) => tx.execute(sql`update plan_probe d set v = o.v from jsonb_to_recordset(${JSON.stringify([{ id, v: 1 }])}::jsonb) as o(id int, v int) where d.id = o.id`);
      for (let i = 0; i < 7; i++) await write(1);
      await tx.execute(sql`insert into plan_probe select g, g from generate_series(1, 100000) g`);
      await write(5);
      return tx.execute(sql`select seq_tup_read::int as read, idx_scan::int as index_scans from pg_stat_xact_user_tables where relname = 'plan_probe'`);
    });
    const [row] = scans as unknown as { read: number; index_scans: number }[];
    expect(row).toEqual({ read: 0, index_scans: 1 });
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
