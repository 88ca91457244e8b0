import { eventType } from 'inngest';
import { z } from 'zod';

/** A delivery row was committed and is due: deliver it. Keyed by webhook for per-webhook concurrency. */
export const deliveryCreated = eventType('carebase/delivery.created', {
  schema: z.object({ deliveryId: z.number().int().positive(), webhookId: z.number().int().positive() }),
});

/** An activity has a transition due: run it. `id` on the event lets Inngest drop repeats of a sweep. */
export const activityDue = eventType('carebase/activity.due', {
  schema: z.object({ activityId: z.number().int().positive(), projectId: z.number().int().positive() }),
});
