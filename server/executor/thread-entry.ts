/**
 * The executor's own thread (started by server/executor/thread.ts): the delivery loop, the transition
 * scheduler and their housekeeping, in an isolate of their own with their own PostgreSQL pool, so the
 * server's requests and the executor do not take turns on one event loop.
 *
 * Messages from the server: 'wake' (a commit wrote deliveries), 'stop' (finish what is in flight, hand
 * back what is claimed, close the pool, and end). To the server: 'started', once the pool is open and the
 * loops run.
 */
import { parentPort } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { closeDb, getDbHandle } from '@/db/client';
import { errorSummary } from '@/server/errors';
import { startEmbeddedExecutor, stopExecutor } from './index';
import type { FromThread, ToThread } from './thread-messages';

const port = parentPort;
if (!port) throw new Error('server/executor/thread-entry runs as a worker thread only');

let stopping: Promise<void> | undefined;

port.on('message', (message: ToThread) => {
  if (message === 'wake') embedded?.wake();
  else if (message === 'stop') {
    stopping ??= stopExecutor()
      .then(() => closeDb())
      .catch((e: unknown) => console.error(`[executor thread] stopping failed: ${errorSummary(e)}`))
      .finally(() => port.close());
  }
});

// Reach the database before announcing the start (postgres.js connects on the first query), so a database
// that is not there shows as a thread that did not start (the server logs it and tries again) rather than
// as a loop logging failed claims.
let embedded: ReturnType<typeof startEmbeddedExecutor> | undefined;
getDbHandle()
  .then((handle) => handle.db.execute(sql`select 1`))
  .then(
    () => {
      if (stopping) return;
      embedded = startEmbeddedExecutor();
      port.postMessage('started' satisfies FromThread);
    },
    (e: unknown) => {
      console.error(`[executor thread] the database could not be reached: ${errorSummary(e)}`);
      process.exitCode = 1;
      port.close();
    },
  );
