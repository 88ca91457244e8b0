import { closeDb, getDb, migrateDb } from '@/db/client';
import { seedIfEmpty } from '@/server/seed';
import { getEnv, type Env } from './env';
import { startEmbeddedExecutor, stopExecutor } from './executor';
import { startExecutorThread, stopExecutorThread } from './executor/thread';
import { applyHeapGrowing } from './heap';
import { closeHttpServers, installRequestEntryPolicy } from './http/request-entry';

const BOOTED = Symbol.for('carebase.booted');
type G = typeof globalThis & { [BOOTED]?: boolean };

export type BootOptions = {
  /** Seed an empty database (project 1, admin, API key). */
  seed?: boolean;
  /** Move background work in this process (the embedded executor, or the Inngest notifier). */
  background?: boolean;
  /** Close the database on SIGINT/SIGTERM (the server owns the process). */
  signals?: boolean;
};

/**
 * Server start, once per process: validate env (a bad variable stops the process here, naming it), set
 * V8's heap-growing factor (server/heap.ts), install the forwarding-header policy before the first
 * request, open the database (warming PGlite up), apply migrations, seed an empty database, start
 * background work, and on SIGINT/SIGTERM answer the requests in flight (closeHttpServers, up to
 * CAREBASE_SHUTDOWN_GRACE_SECONDS) and stop background work, then close the database cleanly so a restart
 * of PGlite is not a crash recovery (NEXT_MANUAL_SIG_HANDLE=true leaves the signals to us, and with them
 * Next's own closing of its server, which this replaces). Next calls it from instrumentation;
 * tests that serve HTTP call it first, with options.
 */
export async function bootServer(options: BootOptions = {}): Promise<void> {
  const g = globalThis as G;
  if (g[BOOTED]) return;
  g[BOOTED] = true;
  const { seed = true, background = true, signals = true } = options;
  let env: Env;
  try {
    env = getEnv();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  applyHeapGrowing(env.CAREBASE_HEAP_GROWING_PERCENT);
  installRequestEntryPolicy(env.CAREBASE_TRUST_PROXY);
  if (env.CAREBASE_AUTO_MIGRATE) await migrateDb();
  if (seed) await seedIfEmpty(await getDb());
  if (background) {
    if (env.CAREBASE_EXECUTOR === 'inngest') (await import('@/inngest/client')).connectInngestNotifier();
    else if (env.EXECUTOR_THREAD) startExecutorThread();
    else startEmbeddedExecutor();
  }
  if (!signals) return;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: answering the requests in flight, then closing the database…`);
    const requests = closeHttpServers(env.CAREBASE_SHUTDOWN_GRACE_SECONDS * 1000).then((cut) => {
      if (cut) console.error(`${signal}: ${cut} request(s) still unanswered after ${env.CAREBASE_SHUTDOWN_GRACE_SECONDS} s (CAREBASE_SHUTDOWN_GRACE_SECONDS) were cut`);
    });
    Promise.all([requests, stopExecutorThread(), stopExecutor()])
      .then(() => closeDb())
      .catch((e: unknown) => console.error('Error while closing the database', (e as Error).name))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
