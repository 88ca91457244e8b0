import { and, eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { attemptDelivery } from '@/server/jobs/attempt-delivery';

/**
 * Runs a project's pending deliveries once, as the executor would, for tests that own the clock: those due
 * by `dueBy` (default: `now`), each attempted at `now` (default: the real clock). Oldest first, since tests
 * assert the order a receiver saw; without ORDER BY, PostgreSQL answers in heap order, which updates change.
 */
export async function runDueDeliveries(db: Queryable, projectId: number, now = new Date(), { dueBy = now }: { dueBy?: Date } = {}): Promise<void> {
  const rows = await db
    .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, projectId), eq(webhookDeliveries.status, 'pending')))
    .orderBy(webhookDeliveries.id);
  for (const r of rows) if (r.nextAttemptAt && r.nextAttemptAt <= dueBy) await attemptDelivery(db, r.id, { now });
}
