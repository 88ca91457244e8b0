import { getDb, getDbHandle } from '@/db/client';
import { getEnv } from '@/server/env';
import { errorSummary } from '@/server/errors';
import { runHousekeeping } from '@/server/jobs/housekeeping';
import { analyzeStaleTables } from '@/server/jobs/statistics';
import { registerWorker } from '@/server/events/work-notifier';
import { EmbeddedExecutor } from './embedded';
import { TransitionScheduler } from './scheduler';

const KEY = Symbol.for('carebase.executor');
type G = typeof globalThis & {
  [KEY]?: { embedded?: EmbeddedExecutor; scheduler?: TransitionScheduler; unregister?: () => void; housekeeping?: NodeJS.Timeout; statistics?: NodeJS.Timeout };
};
const state = ((globalThis as G)[KEY] ??= {});
const HOUSEKEEPING_MS = 10 * 60_000;
/** As often as autovacuum looks (autovacuum_naptime): where it is off, plans follow tables within a minute. */
const STATISTICS_MS = 60_000;

/**
 * Starts the embedded executor in this process (server boot, the standalone worker): the delivery loop
 * and the activity transition scheduler. It registers with the events' work notifier, so commits that
 * write deliveries wake it at once.
 */
export function startEmbeddedExecutor(): EmbeddedExecutor {
  const env = getEnv();
  const embedded = (state.embedded ??= new EmbeddedExecutor({ concurrency: env.EXECUTOR_CONCURRENCY, perWebhook: env.EXECUTOR_CONCURRENCY_PER_WEBHOOK, leaseMs: env.EXECUTOR_LEASE_MS }));
  embedded.start();
  const scheduler = (state.scheduler ??= new TransitionScheduler({ leaseMs: env.EXECUTOR_LEASE_MS }));
  scheduler.start();
  state.housekeeping ??= setInterval(() => {
    getDb()
      .then((db) => runHousekeeping(db, new Date()))
      .catch((e: unknown) => console.error(`[executor] housekeeping failed: ${errorSummary(e)}`));
  }, HOUSEKEEPING_MS).unref();
  state.statistics ??= setInterval(() => {
    getDbHandle()
      .then(analyzeStaleTables)
      .catch((e: unknown) => console.error(`[executor] analyze failed: ${errorSummary(e)}`));
  }, STATISTICS_MS).unref();
  state.unregister ??= registerWorker({
    name: 'embedded',
    announce: () => embedded.wake(),
    isRunning: () => embedded.isRunning() && scheduler.isRunning(),
  });
  return embedded;
}

export async function stopExecutor(): Promise<void> {
  state.unregister?.();
  clearInterval(state.housekeeping);
  clearInterval(state.statistics);
  state.housekeeping = undefined;
  state.statistics = undefined;
  await Promise.all([state.embedded?.stop(), state.scheduler?.stop()]);
  state.embedded = undefined;
  state.scheduler = undefined;
  state.unregister = undefined;
}
