/**
 * The test files that run an executor or the scheduler. Executors claim every due delivery and transition
 * in the database they see, so on PostgreSQL each of these files gets a database of its own, cloned by
 * global setup from the migrated one the other files share. On PGlite every file has its own database
 * anyway. Either way they run beside the other files instead of after them, one at a time.
 */
export const OWN_DATABASE_FILES = ['server/executor/executor.int.test.ts', 'server/executor/thread.int.test.ts', 'server/executor/scheduler.int.test.ts'];

/** The chaos test terminates backends and times requests (two cores: another file's CPU would be its latency): last, alone. */
export const ALONE_FILES = ['server/executor/chaos.int.test.ts'];

/** `url` with the database of `file`'s own: `<database>_<file's base name>`, e.g. test_scheduler. */
export function ownDatabaseUrl(url: string, file: string): string {
  const u = new URL(url);
  u.pathname = `/${u.pathname.slice(1)}_${ownDatabaseSuffix(file)}`;
  return u.toString();
}

const ownDatabaseSuffix = (file: string) => file.split('/').at(-1)!.replace('.int.test.ts', '').replace(/\W/g, '_');
