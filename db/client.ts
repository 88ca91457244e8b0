import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { getEnv } from '@/server/env';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

type Handle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Largest number of queries that can run at once without queueing inside the driver. */
  concurrency: number;
  ready: Promise<void>;
  close: () => Promise<void>;
};

const globalKey = Symbol.for('carebase.db');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Handle> };
const g = globalThis as GlobalWithDb;

export const MIGRATIONS_DIR = path.join(process.cwd(), 'db', 'migrations');

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The PGlite data dir ${path.resolve(dir)} is held by process ${pid} (a running Carebase server?). ` +
        'Stop that process first, or point PGLITE_DIR at another dir, or set DATABASE_URL.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite has no lock of its own: two processes on one dir corrupt it. We keep a pid file beside the data. */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'carebase.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dir, pid);
  } catch (e) {
    if (e instanceof DataDirInUseError) throw e;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => {
    try {
      if (Number(fs.readFileSync(lockFile, 'utf8')) === process.pid) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

async function openPglite(dir: string): Promise<Handle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const inMemory = dir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDataDir(dir);
  // PGlite wants a dir of its own (it runs initdb into an empty one); our lock file sits beside it.
  const client = new PGlite(inMemory ? undefined : path.join(dir, 'pg'));
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    concurrency: 4,
    ready: client.waitReady,
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Handle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgres(url, { max, onnotice: () => {}, idle_timeout: 60, connect_timeout: 10 });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    concurrency: max,
    ready: Promise.resolve(),
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * The process-wide database handle (one PGlite or one postgres.js pool), opened on first use. Kept on
 * globalThis because Next bundles instrumentation and routes separately: module state is not shared.
 */
export function getDbHandle(): Promise<Handle> {
  return (g[globalKey] ??= (async () => {
    const env = getEnv();
    const handle = env.DATABASE_URL
      ? await openPostgres(env.DATABASE_URL, env.DB_POOL_MAX)
      : await openPglite(env.PGLITE_DIR);
    await handle.ready;
    return handle;
  })().catch((e: unknown) => {
    g[globalKey] = undefined;
    throw e;
  }));
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

export async function closeDb(): Promise<void> {
  const pending = g[globalKey];
  g[globalKey] = undefined;
  if (pending) await (await pending).close();
}

/** Applies committed drizzle-kit migrations; safe to run from several processes at once on PostgreSQL. */
export async function migrateDb(): Promise<void> {
  const handle = await getDbHandle();
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  // A dedicated single connection so the session-level advisory lock and the migration share it.
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgres(getEnv().DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727274)`;
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.end({ timeout: 5 });
  }
}
