import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { getDbHandle, MIGRATIONS_DIR } from '@/db/client';
import { workerStatus } from '@/server/events/work-notifier';

export type Readiness = { database: 'ok' | 'unavailable'; migrations: 'ok' | 'pending' | 'unknown'; executor: 'running' | 'stopped' };

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

let journalCount: number | undefined;
function expectedMigrations(): number {
  return (journalCount ??= (JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length);
}

/**
 * Whether this instance can serve (CONTRACT 1, `GET /api/ready`): the database answers within two
 * seconds, every committed migration is applied, and a worker (the embedded executor, or the Inngest
 * notifier) is moving background work.
 */
export async function readiness(): Promise<{ ready: boolean; checks: Readiness }> {
  const checks: Readiness = { database: 'unavailable', migrations: 'unknown', executor: 'stopped' };
  try {
    const { db, statementTimeoutMs } = await withTimeout(getDbHandle(), 2_000);
    const result = await withTimeout(db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`), Math.min(2_000, statementTimeoutMs));
    checks.database = 'ok';
    const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
    checks.migrations = rows[0]!.n >= expectedMigrations() ? 'ok' : 'pending';
  } catch {
    // database stays 'unavailable' (a missing migrations table on a reachable database is not "ok" either)
  }
  checks.executor = workerStatus().some((w) => w.running) ? 'running' : 'stopped';
  return { ready: checks.database === 'ok' && checks.migrations === 'ok' && checks.executor === 'running', checks };
}
