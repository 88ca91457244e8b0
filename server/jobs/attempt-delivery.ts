import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { webhookDeliveries, webhooks } from '@/db/schema';
import { FAILING_DISABLE_AFTER_MS, parseRetryAfter, retryDelayMs } from '@/server/webhooks/schedule';
import type { Resolver } from '@/server/webhooks/safety';
import { AFTER_TIMEOUT_MS, sendAttempt } from '@/server/webhooks/send';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'blocked' | 'skipped';

/** Fails every pending delivery of a webhook that was just disabled. */
async function disableWebhook(db: Queryable, webhookId: number, reason: string, now: Date) {
  await db.update(webhooks).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(eq(webhooks.id, webhookId));
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, leaseUntil: null })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
}

/**
 * The job behind every executor: one attempt of one `after` delivery, and its outcome written to the
 * row (delivered, retry at the next step, failed, blocked). Safe to run twice for the same row: a row
 * that is no longer pending is skipped.
 */
export async function attemptDelivery(db: Queryable, deliveryId: number, opts: { now?: Date; resolver?: Resolver } = {}): Promise<AttemptOutcome> {
  const now = opts.now ?? new Date();
  const [row] = await db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.delivery.status !== 'pending') return 'skipped';
  const { delivery, webhook } = row;
  if (!webhook.enabled) {
    await db.update(webhookDeliveries).set({ status: 'failed', nextAttemptAt: null, leaseUntil: null }).where(eq(webhookDeliveries.id, deliveryId));
    return 'failed';
  }
  const attempt = delivery.attemptCount + 1;
  const result = await sendAttempt(db, delivery, attempt, webhook, { now, timeoutMs: AFTER_TIMEOUT_MS, resolver: opts.resolver });
  const base = { attemptCount: attempt, leaseUntil: null };

  if (result.ok) {
    await db.update(webhookDeliveries).set({ ...base, status: 'delivered', deliveredAt: new Date(), nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    if (webhook.failingSince) await db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, webhook.id));
    return 'delivered';
  }
  if (result.blocked) {
    await db.update(webhookDeliveries).set({ ...base, status: 'blocked', nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    return 'blocked';
  }
  if (result.statusCode === 410) {
    await db.update(webhookDeliveries).set({ ...base, status: 'failed', nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    await disableWebhook(db, webhook.id, 'the target answered 410 Gone', now);
    return 'failed';
  }
  const failingSince = webhook.failingSince ?? now;
  if (!webhook.failingSince) {
    await db.update(webhooks).set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${now.toISOString()}::timestamptz)` }).where(eq(webhooks.id, webhook.id));
  }
  const delay = retryDelayMs(attempt, parseRetryAfter(result.headers?.['retry-after'], now));
  if (delay === null) {
    await db.update(webhookDeliveries).set({ ...base, status: 'failed', nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
  } else {
    await db.update(webhookDeliveries).set({ ...base, nextAttemptAt: new Date(now.getTime() + delay) }).where(eq(webhookDeliveries.id, deliveryId));
  }
  if (now.getTime() - failingSince.getTime() >= FAILING_DISABLE_AFTER_MS) {
    await disableWebhook(db, webhook.id, 'failing for 5 days', now);
    return 'failed';
  }
  return delay === null ? 'failed' : 'retry';
}
