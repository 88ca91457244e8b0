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
 * ids, rows of an insert) cannot fill a backend's memory. PGlite has no connections: PostgreSQL only.
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
