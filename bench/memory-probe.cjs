// Loaded with NODE_OPTIONS=--require by bench/soak: every MEMORY_PROBE_MS (default 60 s) each Node
// process appends its RSS and heap to MEMORY_PROBE_FILE as one JSON line. Not part of the app.
const fs = require('node:fs');
const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const sample = () => {
    const m = process.memoryUsage();
    fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, cmd: process.argv.slice(1).join(' ').slice(0, 120), t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal })}\n`);
  };
  setInterval(sample, Number(process.env.MEMORY_PROBE_MS ?? 60_000)).unref();
}
