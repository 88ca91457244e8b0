import v8 from 'node:v8';

const FLAG = '--heap-growing-percent';

/**
 * The V8 flag that caps how far the heap may grow between full collections, or undefined to leave V8's
 * own factor: when `percent` is 0 (the default), or when node was started with the flag (the command
 * line wins).
 *
 * The trade (decision 0014, twenty-sixth and twenty-seventh passes): V8's own factor lets the old
 * generation grow to 2-4x what survived before it collects again, so under load a server's RSS saws
 * between ~200 and ~400 MB. At 50 % the hour's soak peaked at 222 MB instead of 409, with a flat slope;
 * but mark-compacts come 4-5x as often, and at half of the write paths' ceiling rates 4x as many
 * requests overlapped one, which raised p99 there. So it is an operator's choice for memory-limited
 * hosts, not the default.
 */
export function heapGrowingFlag(percent: number, execArgv: readonly string[] = process.execArgv): string | undefined {
  if (percent === 0) return undefined;
  if (execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))) return undefined;
  return `${FLAG}=${percent}`;
}

/** Sets the heap-growing factor for this process (V8 reads it at each collection, so it applies at once). */
export function applyHeapGrowing(percent: number): void {
  const flag = heapGrowingFlag(percent);
  if (flag) v8.setFlagsFromString(flag);
}
