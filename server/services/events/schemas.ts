import { z } from 'zod';
import { EVENT_NAMES } from '@/server/core/event-names';
import { idSchema } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';
import { deliverySchema } from '@/server/services/webhooks/schemas';

export const eventSchema = z
  .object({
    id: idSchema,
    name: z.enum(EVENT_NAMES),
    params: z.record(z.string(), z.unknown()),
    responseData: z.unknown().meta({ description: "The operation's output, as after webhooks got it" }),
    createdAt: timestampSchema,
  })
  .meta({ id: 'Event' });
export type EventDto = z.infer<typeof eventSchema>;

export const eventWithDeliveriesSchema = eventSchema
  .extend({ deliveries: z.array(deliverySchema).meta({ description: 'The webhook deliveries the event caused (after, and the before/handle calls)' }) })
  .meta({ id: 'EventDetail' });

/** Per event in the console's list: how its deliveries stand. */
export const deliverySummarySchema = z.object({ total: z.number().int(), delivered: z.number().int(), failed: z.number().int(), pending: z.number().int() });

const instant = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });
export const listEventsQuery = z.object({
  name: z.enum(EVENT_NAMES).optional(),
  from: instant.optional().meta({ description: 'Events at or after this time' }),
  to: instant.optional().meta({ description: 'Events before this time' }),
});
export type ListEventsQuery = z.infer<typeof listEventsQuery>;
