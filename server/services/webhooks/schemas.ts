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

/** Headers Carebase sets itself, which a webhook's custom headers may not replace (CONTRACT 11). */
export const RESERVED_HEADERS = ['content-type', 'content-length', 'host', 'user-agent', 'connection', 'transfer-encoding'];
export const MAX_CUSTOM_HEADERS = 20;
/** An HTTP token (RFC 9110 `tchar`s). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Visible characters, spaces and tabs: no line breaks that could smuggle another header. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\uffff]{0,2000}$/;

export const webhookHeaders = z
  .record(z.string(), z.string())
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_CUSTOM_HEADERS) ctx.addIssue({ code: 'custom', message: `At most ${MAX_CUSTOM_HEADERS} headers` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'A header name has letters, digits and !#$%&\'*+.^_`|~- only' });
      else if (lower.startsWith('webhook-') || RESERVED_HEADERS.includes(lower)) ctx.addIssue({ code: 'custom', path: [name], message: `Carebase sets ${lower} itself` });
      else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: 'This header is listed twice' });
      seen.add(lower);
      if (!HEADER_VALUE.test(headers[name]!)) ctx.addIssue({ code: 'custom', path: [name], message: 'A header value is one line of at most 2,000 characters' });
    }
  })
  .meta({ description: `Up to ${MAX_CUSTOM_HEADERS} custom request headers sent on every call; webhook-*, content-type, content-length, host and user-agent are Carebase's own` });

export const webhookHealthSchema = z
  .object({
    lastDeliveryAt: timestampSchema.nullable(),
    lastDeliveryStatus: z.enum(DELIVERY_STATUSES).nullable(),
    deliveries24h: z.number().int().meta({ description: 'Deliveries of the last 24 hours that were attempted' }),
    successRate24h: z.number().nullable().meta({ description: 'Share of those delivered, 0-1; null when there were none' }),
    failingSince: timestampSchema.nullable().meta({ description: 'Start of the current run of failed attempts' }),
  })
  .meta({ id: 'WebhookHealth' });
export type WebhookHealth = z.infer<typeof webhookHealthSchema>;

export const webhookSchema = z
  .object({
    id: idSchema,
    display: z.string(),
    url: z.string(),
    triggers: z.array(z.object({ event: z.enum(EVENT_NAMES), strategy: z.enum(WEBHOOK_STRATEGIES) })),
    configurationId: idSchema.nullable(),
    headers: z.record(z.string(), z.string()),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    health: webhookHealthSchema,
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
    headers: webhookHeaders.optional(),
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
    headers: webhookHeaders.meta({ description: 'Replaces the custom headers' }),
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

/** Recovery (CONTRACT 11): at most 14 days back. */
export const RECOVERY_WINDOW_MS = 14 * 24 * 3_600_000;
export const recoverInput = z
  .object({ since: z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' }) })
  .strict()
  .meta({ id: 'WebhookRecover' });
export const recoveredSchema = z.object({ queued: z.number().int().meta({ description: 'Failed deliveries queued for a new attempt' }) }).meta({ id: 'WebhookRecovered' });
