import type { ChildProcess } from 'node:child_process';
import { percentile, type Span } from './lib';

/** When a server's old-generation collection ran, on the same clock: from the start of its marking to sweeping. */
type Window = { start: number; end: number };

// `--trace-gc`: "... 22064 ms: Mark-Compact 216.4 (250.5) -> 63.6 (250.5) MB, 5.72 / 0.02 ms (+ 3.5 ms in 34
// steps since start of marking, biggest step 0.3 ms, walltime since start of marking 59 ms) ..."
const MARK_COMPACT = /: Mark-Compact .*?, ([\d.]+) \/ [\d.]+ ms(?:.*?walltime since start of marking ([\d.]+) ms)?/;
/** Sweeping runs after the pause, and the line reaches us a little after the pause ended. */
const AFTER_MS = 30;
const BEFORE_MS = 5;

/**
 * Watches a server started with `--trace-gc` (startBenchApp's nodeArgs) and keeps the windows of its
 * mark-compacts: the line is printed when the pause ends, and says how long marking ran before it
 * (concurrently on the other core, in steps on the main thread). Decision 0014's twentieth pass found
 * the half-load tail in these windows. Reading the server's stdout is needed anyway: `--trace-gc` writes
 * a line per collection, and a pipe nobody reads would fill and block the server's writes.
 */
export function watchMarkCompacts(child: ChildProcess): { windows: () => readonly Window[] } {
  const windows: Window[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const now = performance.now();
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const m = MARK_COMPACT.exec(line);
      if (!m) continue;
      const pause = Number(m[1]);
      const marking = Number(m[2] ?? 0);
      windows.push({ start: now - pause - marking - BEFORE_MS, end: now + AFTER_MS });
    }
  });
  return { windows: () => windows };
}

/**
 * Splits a run's requests by whether they overlapped one of the server's mark-compacts: how many did, how
 * many of the slow ones (over `slowMs`) did, and p99 of the rest.
 */
export function byMarkCompacts(spans: readonly Span[], windows: readonly Window[], slowMs = 50) {
  const from = spans.reduce((a, s) => Math.min(a, s.due), Infinity);
  const to = spans.reduce((a, s) => Math.max(a, s.done), -Infinity);
  const inRun = windows.filter((w) => w.end >= from && w.start <= to);
  const during = (s: Span) => inRun.some((w) => s.done >= w.start && s.due <= w.end);
  const slow = spans.filter((s) => s.done - s.due > slowMs);
  const outside = spans.filter((s) => !during(s)).map((s) => s.done - s.due);
  return {
    collections: inRun.length,
    requestsDuring: spans.length - outside.length,
    slow: slow.length,
    slowDuring: slow.filter(during).length,
    p99Outside: Math.round(percentile(outside, 99) * 10) / 10,
  };
}

/** One row of the table both benches print under their half-load runs. */
export function markCompactRow(name: string, spans: readonly Span[], windows: readonly Window[]): Record<string, string | number> {
  const split = byMarkCompacts(spans, windows);
  return {
    run: name,
    'mark-compacts': split.collections,
    'requests during them': `${split.requestsDuring} of ${spans.length}`,
    'slow (> 50 ms) during them': `${split.slowDuring} of ${split.slow}`,
    'p99 ms of the rest': split.p99Outside,
  };
}
