import { lt } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { deleteExpiredIdempotencyKeys } from '@/server/services/idempotency/idempotency';

/** How long a rate-limit counter is kept after its window ended (the library's own threshold). */
const RATE_LIMIT_KEPT_MS = 60 * 60_000;

/**
 * Forgets what has expired: idempotency keys older than 24 h, and the shared rate-limit counters whose
 * window ended over an hour ago (an expired counter still in use is reset by its next count, so deleting
 * it races with nothing). Safe to run from any number of workers.
 */
export async function runHousekeeping(db: Queryable, now: Date): Promise<{ idempotencyKeys: number; rateLimits: number }> {
  const idempotencyKeys = await deleteExpiredIdempotencyKeys(db, now);
  const counters = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, new Date(now.getTime() - RATE_LIMIT_KEPT_MS)))
    .returning({ key: rateLimits.key });
  return { idempotencyKeys, rateLimits: counters.length };
}
