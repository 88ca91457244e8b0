import { getEnv } from '@/server/env';
import { EmbeddedExecutor } from './embedded';
import { TransitionScheduler } from './scheduler';

const KEY = Symbol.for('carebase.executor');
type G = typeof globalThis & {
  [KEY]?: { embedded?: EmbeddedExecutor; scheduler?: TransitionScheduler; notify?: (work: NewDelivery[]) => Promise<void> };
};
const g = globalThis as G;
const state = (g[KEY] ??= {});

/**
 * Starts the embedded executor in this process (server boot, the standalone worker): the delivery loop
 * and the activity transition scheduler.
 */
export function startEmbeddedExecutor(): EmbeddedExecutor {
  state.embedded ??= new EmbeddedExecutor({ concurrency: getEnv().EXECUTOR_CONCURRENCY, leaseMs: getEnv().EXECUTOR_LEASE_MS });
  state.embedded.start();
  state.scheduler ??= new TransitionScheduler({ leaseMs: getEnv().EXECUTOR_LEASE_MS });
  state.scheduler.start();
  return state.embedded;
}

export async function stopExecutor(): Promise<void> {
  await Promise.all([state.embedded?.stop(), state.scheduler?.stop()]);
  state.embedded = undefined;
  state.scheduler = undefined;
}

/** With Inngest, new deliveries are announced as events; set by the Inngest module at boot. */
export type NewDelivery = { deliveryId: number; webhookId: number };

export function setWorkNotifier(notify: (work: NewDelivery[]) => Promise<void>): void {
  state.notify = notify;
}

/** Called after a commit that wrote deliveries: wake the local loop, or tell Inngest. */
export function notifyNewWork(work: NewDelivery[]): void {
  if (work.length === 0) return;
  state.embedded?.wake();
  state.notify?.(work).catch((e: unknown) => console.error('[executor] could not announce new work', e));
}
