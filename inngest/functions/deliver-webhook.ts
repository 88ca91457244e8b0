import { getDb } from '@/db/client';
import { getEnv } from '@/server/env';
import { deliverNamed, MAX_DELIVERY_ATTEMPTS } from '@/server/jobs/attempt-delivery';
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
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      const { outcome, nextAttemptAt } = await step.run(`attempt-${attempt}`, async () =>
        deliverNamed(await getDb(), deliveryId, getEnv().EXECUTOR_LEASE_MS),
      );
      if (outcome !== 'retry' || !nextAttemptAt) return { deliveryId, outcome };
      await step.sleepUntil(`wait-${attempt}`, new Date(nextAttemptAt));
    }
    return { deliveryId, outcome: 'failed' as const };
  },
);
