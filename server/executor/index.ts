import { getDb, getDbHandle } from '@/db/client';
import { getEnv } from '@/server/env';
import { errorSummary } from '@/server/errors';
import { runHousekeeping } from '@/server/jobs/housekeeping';
import { analyzeStaleTables } from '@/server/jobs/statistics';
import { DELIVERY_PLAN_TABLES } from '@/server/jobs/claim-deliveries';
import { registerWorker } from '@/server/events/work-notifier';
import { EmbeddedExecutor } from './embedded';
import { TransitionScheduler } from './scheduler';

const KEY = Symbol.for('carebase.executor');
type G = typeof globalThis & {
  [KEY]?: {
    embedded?: EmbeddedExecutor;
    scheduler?: TransitionScheduler;
    unregister?: () => void;
    housekeeping?: NodeJS.Timeout;
    statistics?: NodeJS.Timeout;
    analyzing?: Promise<unknown>;
    /** When a backlog last asked, per scope (the tables it names, or every stale table). */
    backlogAskedAt?: Map<string, number>;
  };
};
const state = ((globalThis as G)[KEY] ??= {});
const HOUSEKEEPING_MS = 10 * 60_000;
/**
 * How often the statistics job looks for stale tables (one catalog query; ANALYZE only where 10 % of a table
 * changed). Every 10 s, not autovacuum's minute: in a fresh database's first minute, statements planned
 * while the tables were empty scanned them whole until the first ANALYZE (the claim read 31.6 million rows
 * of webhook_delivery in 10,450 sequential scans; decision 0014, thirty-first pass). A growing table gets
 * analyzed more often only while it is small: 10 % of it must change first.
 */
const STATISTICS_MS = 10_000;
/** How soon after the last analyze a backlog may ask for another (of the same tables). */
const BACKLOG_STATISTICS_MS = 10_000;

/**
 * Refreshes the statistics of the tables that changed most (server/jobs/statistics), one run at a time:
 * every stale table, or only those `only` names. Answers whether a run started.
 */
function analyzeTables(only?: readonly string[]): boolean {
  if (state.analyzing) return false;
  state.analyzing = getDbHandle()
    .then((handle) => analyzeStaleTables(handle, only))
    .catch((e: unknown) => console.error(`[executor] analyze failed: ${errorSummary(e)}`))
    .finally(() => {
      state.analyzing = undefined;
    });
  return true;
}

/**
 * When a claim comes back full, a burst is filling a table whose cached plans may have been made when it
 * was small (the drain's claim read 22,000 rows by sequential scan per claim of 48 until the next
 * minute's ANALYZE): analyze at once, at most every 10 s per scope, the tables `only` names (without it,
 * every stale table). The delivery executor names what its statements read; analyzing the attempts,
 * members and events a burst also wrote took 135-265 ms at the start of a drain, while its claims waited
 * for a core.
 */
function analyzeForBacklog(only?: readonly string[]): void {
  const scope = only?.join(',') ?? '*';
  const asked = (state.backlogAskedAt ??= new Map());
  if (Date.now() - (asked.get(scope) ?? 0) < BACKLOG_STATISTICS_MS) return;
  if (analyzeTables(only)) asked.set(scope, Date.now());
}

/**
 * Starts the embedded executor in this process (the server does at boot): the delivery loop
 * and the activity transition scheduler. It registers with the events' work notifier, so commits that
 * write deliveries wake it at once.
 */
export function startEmbeddedExecutor(): EmbeddedExecutor {
  const env = getEnv();
  const embedded = (state.embedded ??= new EmbeddedExecutor({
    concurrency: env.EXECUTOR_CONCURRENCY,
    perWebhook: env.EXECUTOR_CONCURRENCY_PER_WEBHOOK,
    leaseMs: env.EXECUTOR_LEASE_MS,
    onBacklog: () => analyzeForBacklog(DELIVERY_PLAN_TABLES),
  }));
  embedded.start();
  // Applying transitions reads and writes many tables (activities, plans, events, deliveries): all stale ones.
  const scheduler = (state.scheduler ??= new TransitionScheduler({ leaseMs: env.EXECUTOR_LEASE_MS, onBacklog: () => analyzeForBacklog() }));
  scheduler.start();
  state.housekeeping ??= setInterval(() => {
    getDb()
      .then((db) => runHousekeeping(db, new Date()))
      .catch((e: unknown) => console.error(`[executor] housekeeping failed: ${errorSummary(e)}`));
  }, HOUSEKEEPING_MS).unref();
  state.statistics ??= setInterval(() => analyzeTables(), STATISTICS_MS).unref();
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
  await Promise.all([state.embedded?.stop(), state.scheduler?.stop(), state.analyzing]);
  state.embedded = undefined;
  state.scheduler = undefined;
  state.unregister = undefined;
}
