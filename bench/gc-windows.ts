import type { ChildProcess } from 'node:child_process';
import { percentile, type Span } from './lib';

/** One `--trace-gc` line: V8's own time (ms since the isolate started), heap before and after (MB), the pause. */
export type GcEvent = { ms: number; kind: 'scavenge' | 'mark-compact'; before: number; after: number; pause: number; marking: number };

// "[pid:addr]  22064 ms: Mark-Compact 216.4 (250.5) -> 63.6 (250.5) MB, 5.72 / 0.02 ms (+ 3.5 ms in 34 steps
// since start of marking, biggest step 0.3 ms, walltime since start of marking 59 ms) ..."; a scavenge's
// line has no marking part. Node 24's V8 adds the pooled pages after the sizes ("MB, pooled: 39 MB, 5.72 /").
const GC_LINE = /\s(\d+) ms: (Scavenge|Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms(?:.*?walltime since start of marking ([\d.]+) ms)?/;

/** Parses one line of `--trace-gc` output; undefined for any other line. */
export function parseGcLine(line: string): GcEvent | undefined {
  const m = GC_LINE.exec(line);
  if (!m) return undefined;
  return {
    ms: Number(m[1]),
    kind: m[2] === 'Scavenge' ? 'scavenge' : 'mark-compact',
    before: Number(m[3]),
    after: Number(m[4]),
    pause: Number(m[5]),
    marking: Number(m[6] ?? 0),
  };
}

/** When a server's old-generation collection ran, on this process's clock: from the start of its marking to sweeping. */
type Window = { start: number; end: number };

/** Sweeping runs after the pause, and the line reaches us a little after the pause ended. */
const AFTER_MS = 30;
const BEFORE_MS = 5;

/**
 * Watches a server started with `--trace-gc` (startBenchApp's nodeArgs) and keeps the windows of its
 * mark-compacts: the line is printed when the pause ends, and says how long marking ran before it
 * (concurrently on the other core, in steps on the main thread). Decision 0014's twentieth pass found
 * the half-load tail in these windows. Node 20 writes each line to the pipe as the collection ends (a
 * child's lines arrived one per read, a constant ~58 ms after V8's own time), so the time a line arrives
 * places the collection. Reading the server's stdout is needed anyway: a pipe nobody reads would fill and
 * block the server's writes.
 */
export function watchMarkCompacts(child: ChildProcess): { windows: () => readonly Window[] } {
  const windows: Window[] = [];
  let rest = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const now = performance.now();
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = parseGcLine(line);
      if (gc?.kind === 'mark-compact') windows.push({ start: now - gc.pause - gc.marking - BEFORE_MS, end: now + AFTER_MS });
    }
  });
  return { windows: () => windows };
}

/**
 * Splits a run's requests by whether they overlapped one of the server's mark-compacts: how many did, how
 * many of the slow ones (over `slowMs`) did, and p99 of the rest.
 */
function byMarkCompacts(spans: readonly Span[], windows: readonly Window[], slowMs = 50) {
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

/** One row of the tables both benches print under their half-load runs (and careplans under its 1-client runs, slow over 15 ms). */
export function markCompactRow(name: string, spans: readonly Span[], windows: readonly Window[], slowMs = 50): Record<string, string | number> {
  const split = byMarkCompacts(spans, windows, slowMs);
  return {
    run: name,
    'mark-compacts': split.collections,
    'requests during them': `${split.requestsDuring} of ${spans.length}`,
    [`slow (> ${slowMs} ms) during them`]: `${split.slowDuring} of ${split.slow}`,
    'p99 ms of the rest': split.p99Outside,
  };
}
