import { z } from 'zod';
import { EVENT_NAMES } from '@/server/events/catalogue';
import { getDelivery, listDeliveries, retryDelivery, testWebhook } from '@/server/services/webhooks/deliveries';
import { createWebhookInput, listDeliveriesQuery, updateWebhookInput } from '@/server/services/webhooks/schemas';
import {
  createWebhook,
  deleteWebhook,
  failingWebhooks,
  getWebhook,
  getWebhookSecret,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '@/server/services/webhooks/webhooks';
import { adminProcedure, router } from '@/server/trpc/init';

const id = z.object({ id: z.number().int() });

export const webhooksRouter = router({
  list: adminProcedure.query(({ ctx }) => listWebhooks(ctx.svc, { limit: 1000, afterId: 0 })),
  get: adminProcedure.input(id).query(({ ctx, input }) => getWebhook(ctx.svc, input.id)),
  create: adminProcedure.input(createWebhookInput).mutation(({ ctx, input }) => createWebhook(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateWebhookInput }))
    .mutation(({ ctx, input }) => updateWebhook(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(id).mutation(({ ctx, input }) => deleteWebhook(ctx.svc, input.id)),
  secret: adminProcedure.input(id).mutation(({ ctx, input }) => getWebhookSecret(ctx.svc, input.id)),
  rotateSecret: adminProcedure.input(id).mutation(({ ctx, input }) => rotateWebhookSecret(ctx.svc, input.id)),
  test: adminProcedure
    .input(z.object({ id: z.number().int(), event: z.enum(EVENT_NAMES) }))
    .mutation(({ ctx, input }) => testWebhook(ctx.svc, input.id, input.event)),
  deliveries: adminProcedure
    .input(listDeliveriesQuery.extend({ id: z.number().int(), beforeId: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(200).default(25) }))
    .query(({ ctx, input }) => listDeliveries(ctx.svc, input.id, input, { limit: input.limit, afterId: input.beforeId, newestFirst: true })),
  delivery: adminProcedure
    .input(z.object({ id: z.number().int(), deliveryId: z.number().int() }))
    .query(({ ctx, input }) => getDelivery(ctx.svc, input.id, input.deliveryId)),
  retry: adminProcedure
    .input(z.object({ id: z.number().int(), deliveryId: z.number().int() }))
    .mutation(({ ctx, input }) => retryDelivery(ctx.svc, input.id, input.deliveryId)),
  failing: adminProcedure.query(({ ctx }) => failingWebhooks(ctx.svc)),
});
