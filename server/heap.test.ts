import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseEnv } from './env';
import { heapGrowingFlag } from './heap';

describe("V8's heap-growing factor (CAREBASE_HEAP_GROWING_PERCENT)", () => {
  it('defaults to 0 ("leave V8 alone"), reads a percentage, and refuses what is not one', () => {
    expect(parseEnv({}).CAREBASE_HEAP_GROWING_PERCENT).toBe(0);
    expect(parseEnv({ CAREBASE_HEAP_GROWING_PERCENT: '' }).CAREBASE_HEAP_GROWING_PERCENT).toBe(0);
    expect(parseEnv({ CAREBASE_HEAP_GROWING_PERCENT: '50' }).CAREBASE_HEAP_GROWING_PERCENT).toBe(50);
    expect(() => parseEnv({ CAREBASE_HEAP_GROWING_PERCENT: '-5' })).toThrow('CAREBASE_HEAP_GROWING_PERCENT');
    expect(() => parseEnv({ CAREBASE_HEAP_GROWING_PERCENT: 'half' })).toThrow('CAREBASE_HEAP_GROWING_PERCENT');
  });

  it('sets the flag unless it is 0 or node was started with the flag', () => {
    expect(heapGrowingFlag(50, [])).toBe('--heap-growing-percent=50');
    expect(heapGrowingFlag(0, [])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap-growing-percent=30'])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap-growing-percent', '30'])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap-growing-percentage=30', '--trace-gc'])).toBe('--heap-growing-percent=50');
  });

  it('takes effect when set in a running process: V8 collects the old generation more often, and the heap peaks lower', () => {
    // What the server does at boot, in a fresh node: 300,000 live objects replaced 1.5 million times.
    // Were V8 to ignore (or, with frozen flags, refuse) a flag set after start, the counts would match or
    // the child would fail. The count of mark-compacts is what the factor decides: 2 against 5-6 on Node
    // 20, 2 against 3 on Node 24, whose V8 grows the heap less eagerly to begin with. The peak follows from
    // it but moves with when concurrent marking finishes: a CI run under load saw V8's own peak at 158 MB
    // instead of 171-185, and the capped one at 128 (Node 24: 212-319 against 180-184).
    const run = (percent: number): { peak: number; majors: number } => {
      const script = `
        const { applyHeapGrowing } = await import(${JSON.stringify(new URL('./heap.ts', import.meta.url).pathname)});
        const { PerformanceObserver, constants } = await import('node:perf_hooks');
        let majors = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
        }).observe({ entryTypes: ['gc'] });
        applyHeapGrowing(${percent});
        const keep = new Array(300000); let peak = 0;
        for (let i = 0; i < 1.5e6; i++) {
          keep[i % keep.length] = { a: i, b: 'x' + i, c: [i, i + 1] };
          if (i % 25000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
        }
        // The observer is told of collections asynchronously.
        await new Promise((resolve) => setTimeout(resolve, 50));
        console.log(JSON.stringify({ peak, majors }));`;
      return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
    };
    const v8Own = run(0);
    const capped = run(50);
    expect(v8Own.majors).toBeGreaterThan(0);
    expect(capped.majors).toBeGreaterThan(v8Own.majors);
    expect(capped.peak).toBeLessThan(v8Own.peak);
  }, 60_000);
});
