import type { Queryable } from '@/db/client';
import { deleteExpiredIdempotencyKeys } from '@/server/services/idempotency/idempotency';

/** Forgets what has expired: idempotency keys older than 24 h. Safe to run from any number of workers. */
export async function runHousekeeping(db: Queryable, now: Date): Promise<{ idempotencyKeys: number }> {
  return { idempotencyKeys: await deleteExpiredIdempotencyKeys(db, now) };
}
