import { eventType } from 'inngest';
import { z } from 'zod';

/** A delivery row was committed and is due: deliver it. Keyed by webhook for per-webhook concurrency. */
export const deliveryCreated = eventType('carebase/delivery.created', {
  schema: z.object({ deliveryId: z.number().int().positive(), webhookId: z.number().int().positive() }),
});
