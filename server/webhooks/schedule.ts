/** Delays before attempts 2..8 (CONTRACT 7): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/**
 * The delay after failed attempt `attempt` (1-based), or null when retries are exhausted. ±20 % jitter
 * spreads retries of many deliveries; a `Retry-After` is honoured, but never beyond the following step.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  if (retryAfterMs !== null && retryAfterMs >= 0) {
    const cap = RETRY_DELAYS_MS[attempt] ?? base;
    return Math.min(retryAfterMs, cap);
  }
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
