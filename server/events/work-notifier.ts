/**
 * How committed work reaches whoever moves it. `emit` and the services announce new delivery rows here;
 * the embedded executor and the Inngest client register at boot. Keeping the registry in the events
 * layer lets the layers above (executor, Inngest) depend on it, never the other way round. Kept on
 * globalThis: Next bundles route handlers and instrumentation separately.
 */
export type NewDelivery = { deliveryId: number; webhookId: number };

export type Worker = {
  name: 'embedded' | 'inngest';
  /** New rows were committed: wake up, or hand them to the queue. Must not throw. */
  announce(work: NewDelivery[]): void;
  /** Whether the worker is moving work (readiness). */
  isRunning(): boolean;
};

const KEY = Symbol.for('carebase.workers');
type G = typeof globalThis & { [KEY]?: Set<Worker> };
const workers = ((globalThis as G)[KEY] ??= new Set<Worker>());

export function registerWorker(worker: Worker): () => void {
  workers.add(worker);
  return () => workers.delete(worker);
}

/** Called after a commit that wrote deliveries (or made one due again). */
export function announceNewWork(work: NewDelivery[]): void {
  if (work.length === 0) return;
  for (const w of workers) w.announce(work);
}

/** The registered workers and whether each is running, for `/api/ready`. */
export function workerStatus(): { name: Worker['name']; running: boolean }[] {
  return [...workers].map((w) => ({ name: w.name, running: w.isRunning() }));
}
