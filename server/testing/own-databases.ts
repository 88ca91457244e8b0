/**
 * The test files that run an executor or the scheduler. Executors claim every due delivery and transition
 * in the database they see, so on PostgreSQL each of these files gets a database of its own, cloned by
 * global setup from the migrated one the other files share. On PGlite every file has its own database
 * anyway. Either way they run beside the other files instead of after them, one at a time.
 */
export const OWN_DATABASE_FILES = [
  'server/executor/executor.int.test.ts',
  'server/executor/thread.int.test.ts',
  'server/executor/scheduler.int.test.ts',
  // Its backlog test runs the embedded executor for up to 25 s: on the shared database it could deliver
  // other files' pending deliveries and apply their due transitions meanwhile.
  'db/prepared-statements.int.test.ts',
];

/** A test file's name without folder and suffix: `scheduler` for server/executor/scheduler.int.test.ts. */
export const testFileName = (file: string) => file.split('/').at(-1)!.replace(/(\.int)?\.test\.ts$/, '');

/** The database of `file`'s own: `<database>_<file name>`, e.g. test_scheduler. */
export const ownDatabaseName = (database: string, file: string) => `${database}_${testFileName(file).replace(/\W/g, '_')}`;

/** The database a PostgreSQL URL names. */
export const databaseOf = (url: string) => new URL(url).pathname.slice(1);

/** `url` pointing at another database on the same server. */
export const withDatabase = (url: string, database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).toString();

/** `url` pointing at the database of `file`'s own. */
export const ownDatabaseUrl = (url: string, file: string) => withDatabase(url, ownDatabaseName(databaseOf(url), file));
