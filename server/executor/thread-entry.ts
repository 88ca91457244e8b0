/**
 * The executor's own thread (started by server/executor/thread.ts): the delivery loop, the transition
 * scheduler and their housekeeping, in an isolate of their own with their own PostgreSQL pool, so the
 * server's requests and the executor do not take turns on one event loop.
 *
 * Messages from the server: 'wake' (a commit wrote deliveries), 'stop' (finish what is in flight, hand
 * back what is claimed, close the pool). To the server: 'started', then 'stopped'.
 */
import { parentPort } from 'node:worker_threads';
import { closeDb, getDbHandle } from '@/db/client';
import { errorSummary } from '@/server/errors';
import { startEmbeddedExecutor, stopExecutor } from './index';
import type { FromThread, ToThread } from './thread-messages';

const port = parentPort;
if (!port) throw new Error('server/executor/thread-entry runs as a worker thread only');

const post = (message: FromThread) => port.postMessage(message);
let stopping: Promise<void> | undefined;

port.on('message', (message: ToThread) => {
  if (message === 'wake') embedded?.wake();
  else if (message === 'stop') {
    stopping ??= stopExecutor()
      .then(() => closeDb())
      .catch((e: unknown) => console.error(`[executor thread] stopping failed: ${errorSummary(e)}`))
      .finally(() => {
        post('stopped');
        port.close();
      });
  }
});

// Open the pool before announcing the start, so a database that is not there shows as a thread that
// did not start (the server logs it and tries again) rather than as a loop logging failed claims.
let embedded: ReturnType<typeof startEmbeddedExecutor> | undefined;
getDbHandle().then(
  () => {
    if (stopping) return;
    embedded = startEmbeddedExecutor();
    post('started');
  },
  (e: unknown) => {
    console.error(`[executor thread] the database did not open: ${errorSummary(e)}`);
    process.exitCode = 1;
    port.close();
  },
);
