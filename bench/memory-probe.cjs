// Loaded with NODE_OPTIONS=--require by bench/soak: every MEMORY_PROBE_MS (default 60 s) each Node
// process appends its RSS and heap to MEMORY_PROBE_FILE as one JSON line. Heap used is also read each
// second, and the line carries that minute's lowest reading: the heap just after a collection, what is
// really held, as opposed to garbage not yet collected; and the minute's lowest RSS, the process's size
// at the bottom of the collector's sawtooth rather than wherever one sample falls on it. With
// MEMORY_PROBE_FULL_GC=1 each sample first runs a full collection and also records RSS and heap just after
// it: what the process holds, free of where the sawtooth stood. It costs more than that one collection: in
// the sixty-ninth pass's soak the server ran 16-20 mark-compacts a minute with it, about 2 without. Not
// part of the app.
// NODE_OPTIONS' --require runs in worker threads too: each thread samples its own heap, event loop and
// collections, and its line carries its threadId (0 on the main thread). RSS is the process's, shared by
// its threads (the executor's thread, server/executor/thread.ts, has its heap in its own lines).
const fs = require('node:fs');
const { monitorEventLoopDelay, PerformanceObserver, constants } = require('node:perf_hooks');
const { threadId } = require('node:worker_threads');
const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  let heapUsedMin = Infinity;
  let rssMin = Infinity;
  let gc;
  if (process.env.MEMORY_PROBE_FULL_GC === '1') {
    require('node:v8').setFlagsFromString('--expose-gc');
    gc = require('node:vm').runInNewContext('gc');
  }
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  // Mark-compacts since the last sample and their pauses: what a smaller heap growing factor costs (with
  // MEMORY_PROBE_FULL_GC the forced ones count too, in the following sample).
  let majorGcs = 0;
  let majorGcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        majorGcs++;
        majorGcMs += e.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const m = process.memoryUsage();
    heapUsedMin = Math.min(heapUsedMin, m.heapUsed);
    rssMin = Math.min(rssMin, m.rss);
  }, 1000).unref();
  const sample = () => {
    const m = process.memoryUsage();
    const line = {
      pid: process.pid,
      threadId,
      cmd: process.argv.slice(1).join(' ').slice(0, 120),
      t: Date.now(),
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapUsedMin: Math.min(heapUsedMin, m.heapUsed),
      rssMin: Math.min(rssMin, m.rss),
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      loopDelayP99Ms: Math.round(delay.percentile(99) / 1e5) / 10,
      majorGcs,
      majorGcMs: Math.round(majorGcMs * 10) / 10,
    };
    if (gc) {
      gc();
      const after = process.memoryUsage();
      line.rssAfterGc = after.rss;
      line.heapAfterGc = after.heapUsed;
    }
    heapUsedMin = Infinity;
    rssMin = Infinity;
    majorGcs = 0;
    majorGcMs = 0;
    delay.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, Number(process.env.MEMORY_PROBE_MS ?? 60_000)).unref();
}
