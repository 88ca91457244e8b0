// Loaded with NODE_OPTIONS=--require by the executor-thread test (a --require runs in every worker thread
// too): each worker thread of the process appends a JSON line to WORKER_THREADS_FILE with the keys of its
// workerData (Turbopack's worker loader passes its own there; process.argv is not filled in yet here).
const { isMainThread, threadId, workerData } = require('node:worker_threads');
const file = process.env.WORKER_THREADS_FILE;
if (!isMainThread && file) {
  const keys = workerData && typeof workerData === 'object' ? Object.keys(workerData) : [];
  require('node:fs').appendFileSync(file, `${JSON.stringify({ pid: process.pid, threadId, workerData: keys })}\n`);
}
