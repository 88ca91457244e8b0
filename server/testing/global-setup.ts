import postgres from 'postgres';
import { ensureBuild } from '@/scripts/ensure-build';

/**
 * On PostgreSQL, start each run from an empty schema so migrations are tested from scratch; refuses any
 * database whose name does not end in "test". PGlite runs in memory per worker and needs nothing here.
 */
export default async function setup(): Promise<void> {
  // The HTTP tests serve the production build in process; build it when the sources changed.
  ensureBuild();
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const name = new URL(url).pathname.slice(1);
  if (!name.endsWith('test')) throw new Error(`Refusing to reset database "${name}": tests need one named *test`);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;');
  await sql.end();
  process.env.CAREBASE_TEST_DB = name;
  const { migrateDb, closeDb } = await import('@/db/client');
  await migrateDb();
  await closeDb();
}
