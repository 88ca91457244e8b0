import { z } from 'zod';
import { DELIVERY_STATUSES, WEBHOOK_STRATEGIES } from '@/db/schema/enums';
import { EVENT_NAMES } from '@/server/core/event-names';
import { idSchema } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';

export { DELIVERY_STATUSES, WEBHOOK_STRATEGIES as STRATEGIES };

export const triggerSchema = z
  .object({
    event: z.enum(EVENT_NAMES),
    strategy: z.enum(WEBHOOK_STRATEGIES).default('after'),
  })
  .strict()
  .meta({ id: 'WebhookTrigger' });

const triggers = z
  .array(triggerSchema)
  .min(1, 'Add at least one trigger')
  .max(EVENT_NAMES.length)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((t, i) => {
      if (seen.has(t.event)) ctx.addIssue({ code: 'custom', path: [i, 'event'], message: `${t.event} is listed twice` });
      seen.add(t.event);
    });
  });

export const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((u) => {
    if (u.startsWith('//endpoint')) return true;
    try {
      const url = new URL(u);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'Must be an http(s) URL without user name or password, or start with //endpoint');

export const webhookSchema = z
  .object({
    id: idSchema,
    display: z.string(),
    url: z.string(),
    triggers: z.array(z.object({ event: z.enum(EVENT_NAMES), strategy: z.enum(WEBHOOK_STRATEGIES) })),
    configurationId: idSchema.nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Webhook' });
export type WebhookDto = z.infer<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: 'whsec_…; also at GET /webhook/{id}/secret' }) })
  .meta({ id: 'WebhookCreated' });

export const createWebhookInput = z
  .object({
    display: z.string().trim().min(1).max(200),
    url: webhookUrl,
    triggers,
    configurationId: idSchema.nullable().optional(),
  })
  .strict()
  .meta({ id: 'WebhookCreate' });
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export const updateWebhookInput = z
  .object({
    display: z.string().trim().min(1).max(200),
    url: webhookUrl,
    triggers,
    configurationId: idSchema.nullable(),
    enabled: z.boolean().meta({ description: 'Enabling a disabled webhook clears its failure state' }),
  })
  .partial()
  .strict()
  .meta({ id: 'WebhookUpdate' });
export type UpdateWebhookInput = z.input<typeof updateWebhookInput>;

export const secretSchema = z.object({ secret: z.string() }).meta({ id: 'WebhookSecret' });

export const deliverySchema = z
  .object({
    id: idSchema,
    webhookId: idSchema,
    eventId: idSchema.nullable(),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attemptCount: z.number().int(),
    nextAttemptAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    deliveredAt: timestampSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryDto = z.infer<typeof deliverySchema>;

export const attemptSchema = z
  .object({
    id: idSchema,
    attempt: z.number().int(),
    startedAt: timestampSchema,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    response: z.string().nullable().meta({ description: 'The first 4096 bytes of the answer' }),
    url: z.string(),
    requestHeaders: z.record(z.string(), z.string()),
  })
  .meta({ id: 'WebhookAttempt' });
export type AttemptDto = z.infer<typeof attemptSchema>;

export const deliveryWithAttemptsSchema = deliverySchema
  .extend({ payload: z.unknown().meta({ description: 'The body sent' }), attempts: z.array(attemptSchema) })
  .meta({ id: 'WebhookDeliveryDetail' });

export const listDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: z.enum(EVENT_NAMES).optional(),
  since: z.iso.datetime().optional().meta({ description: 'Deliveries created at or after this time' }),
  until: z.iso.datetime().optional().meta({ description: 'Deliveries created before this time' }),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

export const testSendInput = z.object({ event: z.enum(EVENT_NAMES) }).strict().meta({ id: 'WebhookTest' });
