import fs from 'node:fs';
import path from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { getEnv } from '@/server/env';
import { ResilientPglite } from './pglite-client';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

/** The open database: the driver, what kind it is and its limits (getDbHandle). */
export type DbHandle = Handle;

type Handle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Largest number of queries that can run at once without queueing inside the driver. */
  concurrency: number;
  /** The longest any statement or lock wait may take (DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number;
  ready: Promise<void>;
  close: () => Promise<void>;
  /** PGlite only: times the embedded database was reopened after a trap. */
  reopened?: () => number;
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

/**
 * A new PGlite: on `dir`'s `pg` folder (PGlite wants a dir of its own: it runs initdb into an empty one;
 * our lock file sits beside it), or in memory, from `template` (a dumpDataDir tar) when one is given.
 */
async function createPglite(dir: string, template?: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const inMemory = dir.startsWith('memory://');
  const where = !inMemory ? { dataDir: path.join(dir, 'pg') } : template ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {};
  // btree_gist: the appointments' exclusion constraint (migration 0007).
  return PGlite.create({ ...where, extensions: { btree_gist } });
}

/**
 * Writes a migrated, otherwise empty in-memory database to `file` as a PGLITE_TEMPLATE: the test suite
 * makes one per run, and each test file's database starts from it (1.1 s) instead of running initdb and
 * every migration (4.5 s).
 */
export async function writePgliteTemplate(file: string): Promise<void> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const pg = await createPglite('memory://');
  try {
    await migratePglite(drizzle(pg, { schema }) as unknown as Db);
    const dump = await pg.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pg.close();
  }
}

async function openPglite(dir: string, template: string | undefined, statementTimeoutMs: number): Promise<Handle> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const inMemory = dir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDataDir(dir);
  const open = () => createPglite(dir, template);
  // A trapped instance is replaced; an in-memory one comes back empty (or as the template), so migrations run again.
  const client: ResilientPglite = new ResilientPglite(await open(), open, () => migratePglite(db));
  const db = drizzle(client as never, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    concurrency: 4,
    statementTimeoutMs,
    ready: Promise.resolve(),
    close: async () => {
      await client.close();
      unlock();
    },
    reopened: () => client.reopened,
  };
}

async function migratePglite(db: Db): Promise<void> {
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await migrate(db as any, { migrationsFolder: MIGRATIONS_DIR });
}

/**
 * Time limits on every connection (CONTRACT 1): a statement, or a wait for a lock, past the limit is
 * cancelled by the server (SQLSTATE 57014 or 55P03), which rolls its transaction back; connecting may not
 * take longer either. A transaction left idle by a stuck client is ended after six times the limit.
 * `application_name` names the instance in pg_stat_activity, and the thread when not the main one (the
 * executor's own pool, server/executor/thread.ts).
 */
async function openPostgres(url: string, max: number, statementTimeoutMs: number): Promise<Handle> {
  const { postgresClient } = await import('./postgres-url');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgresClient(url, {
    max,
    onnotice: () => {},
    idle_timeout: 60,
    connect_timeout: Math.max(1, Math.ceil(statementTimeoutMs / 1000)),
    // Seconds before a connection that closed with an error connects again. postgres.js's own backoff
    // grows with a count shared by the whole pool (3^n / 100 s, up to 20 s): when every backend ends at
    // once (a restart, a failover, an operator's pg_terminate_backend) the count reaches the pool's size,
    // and a request queued on a reconnecting connection waited 5 to 17 s (the chaos test). Doubling from
    // 50 ms with jitter, never past a quarter of the statement limit, keeps such a request within it.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, statementTimeoutMs / 4000) * (0.5 + Math.random() / 2),
    connection: {
      application_name: `carebase-${process.pid}${isMainThread ? '' : `-thread-${threadId}`}`,
      // Short queries only: JIT compiling a plan the estimates call expensive took 15 ms of a 1 ms claim.
      jit: 'off',
      // Prepared statements keep PostgreSQL's default plan cache (a generic plan after five runs): a
      // custom plan per run cost PostgreSQL 40 % more CPU per care plan enrolment. A generic plan lasts
      // until its tables' statistics change; where autovacuum is off, server/jobs/statistics analyzes them.
      statement_timeout: statementTimeoutMs,
      lock_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: Math.max(60_000, 6 * statementTimeoutMs),
    },
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    concurrency: max,
    statementTimeoutMs,
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
      ? await openPostgres(env.DATABASE_URL, env.DB_POOL_MAX, env.DB_STATEMENT_TIMEOUT_MS)
      : await openPglite(env.PGLITE_DIR, env.PGLITE_TEMPLATE, env.DB_STATEMENT_TIMEOUT_MS);
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
  if (handle.kind === 'pglite') return migratePglite(handle.db);
  // A dedicated single connection so the session-level advisory lock and the migration share it.
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const { postgresClient } = await import('./postgres-url');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client = postgresClient(getEnv().DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727274)`;
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.end({ timeout: 5 });
  }
}
