import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { attemptDelivery } from '@/server/jobs/attempt-delivery';
import { claimDelivery } from '@/server/jobs/claim-deliveries';
import { LEASE_MS } from '@/server/executor/embedded';
import { MAX_ATTEMPTS } from '@/server/webhooks/schedule';
import { inngest } from '../client';
import { deliveryCreated } from '../events';

/**
 * Delivers one webhook delivery with the same job the embedded executor runs. Retries follow the
 * delivery row's own schedule (jitter, Retry-After) through `step.sleepUntil`, so Inngest's retries are
 * off: each attempt is one step, recorded once.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: 'deliver-webhook',
    triggers: [deliveryCreated],
    concurrency: { key: 'event.data.webhookId', limit: 5 },
    retries: 0,
  },
  async ({ event, step }) => {
    const { deliveryId } = event.data;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, async () => {
        const db = await getDb();
        if (!(await claimDelivery(db, deliveryId, new Date(), LEASE_MS))) return 'skipped' as const;
        return attemptDelivery(db, deliveryId);
      });
      if (outcome !== 'retry') return { deliveryId, outcome };
      const nextAt = await step.run(`next-${attempt}`, async () => {
        const [row] = await (await getDb())
          .select({ nextAttemptAt: webhookDeliveries.nextAttemptAt })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.id, deliveryId));
        return row?.nextAttemptAt?.toISOString() ?? null;
      });
      if (!nextAt) return { deliveryId, outcome };
      await step.sleepUntil(`wait-${attempt}`, new Date(nextAt));
    }
    return { deliveryId, outcome: 'failed' as const };
  },
);
