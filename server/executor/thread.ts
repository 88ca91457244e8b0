import { Worker } from 'node:worker_threads';
import { getEnv } from '@/server/env';
import { errorSummary } from '@/server/errors';
import { registerWorker } from '@/server/events/work-notifier';
import type { FromThread, ToThread } from './thread-messages';

const KEY = Symbol.for('carebase.executor-thread');
type State = {
  worker?: Worker;
  /** The thread said it started, and has not exited since. */
  running: boolean;
  stopping?: Promise<void>;
  unregister?: () => void;
  restart?: NodeJS.Timeout;
  /** Exits in a row without a start in between: each doubles the wait before the next try. */
  failures: number;
};
type G = typeof globalThis & { [KEY]?: State };
const state = ((globalThis as G)[KEY] ??= { running: false, failures: 0 });

/** How long after an unexpected exit the thread is started again; doubled for each exit in a row, up to 30 s. */
const RESTART_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** How long a stop waits for the thread to finish its calls and hand back its claims before ending it. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * Run from source (tsx, Vitest) rather than from Next's build: the thread needs tsx to load TypeScript. Next
 * replaces `process.env.NEXT_RUNTIME` with 'nodejs' when it builds server code; from source it is unset.
 * (`import.meta.url` cannot tell: in its build Turbopack answers it with the source file's URL.)
 */
const fromSource = !process.env.NEXT_RUNTIME;

/** The thread, with its own copy of the environment (the thread opens its own pool from it). */
function newThread(env: NodeJS.ProcessEnv): Worker {
  if (fromSource) {
    // Not `new URL('./thread-entry.ts', …)`: Next's bundler would take that for an asset to copy.
    const entry = import.meta.url.replace(/thread\.ts$/, 'thread-entry.ts');
    const load = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
    return new Worker(load, { name: 'carebase-executor', env, eval: true });
  }
  // Next's bundler builds the thread's own chunk from this literal `new Worker(new URL(…, import.meta.url),
  // {…})`. With the options passed as a variable, Next 16.4 copied the .ts file as an asset instead.
  return new Worker(new URL('./thread-entry.ts', import.meta.url), { name: 'carebase-executor', env });
}

function spawn(): void {
  // The server's DB_POOL_MAX is for requests; the thread's pool is EXECUTOR_DB_POOL_MAX.
  const worker = newThread({ ...process.env, DB_POOL_MAX: String(getEnv().EXECUTOR_DB_POOL_MAX) });
  state.worker = worker;
  worker.on('message', (message: FromThread) => {
    if (message !== 'started') return;
    state.running = true;
    state.failures = 0;
  });
  worker.on('error', (e) => console.error(`[executor] the executor thread failed: ${errorSummary(e)}`));
  worker.on('exit', (code) => {
    state.running = false;
    if (state.worker === worker) state.worker = undefined;
    if (state.stopping || !state.unregister) return;
    const wait = Math.min(RESTART_MS * 2 ** state.failures++, RESTART_MAX_MS);
    console.error(`[executor] the executor thread exited (code ${code}); starting it again in ${wait} ms`);
    state.restart = setTimeout(spawn, wait);
  });
}

/**
 * Starts the embedded executor on a thread of its own (EXECUTOR_THREAD=true; PostgreSQL only): the same loop
 * and scheduler as startEmbeddedExecutor, with their own event loop and pool. Commits in this thread
 * wake it through the work notifier; should it exit, it is started again.
 */
export function startExecutorThread(): void {
  if (state.unregister) return;
  spawn();
  state.unregister = registerWorker({
    name: 'embedded',
    announce: () => state.worker?.postMessage('wake' satisfies ToThread),
    isRunning: () => state.running,
  });
}

/** Asks the thread to finish what is in flight and hand back what it claimed; ends it after 30 s. */
export async function stopExecutorThread(): Promise<void> {
  state.unregister?.();
  state.unregister = undefined;
  clearTimeout(state.restart);
  const worker = state.worker;
  if (!worker) return;
  state.stopping ??= new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage('stop' satisfies ToThread);
  });
  await state.stopping;
  state.stopping = undefined;
}

/** The running thread, for tests that end it to see it come back. */
export function executorThread(): Worker | undefined {
  return state.running ? state.worker : undefined;
}
