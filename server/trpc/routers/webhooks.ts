import { z } from 'zod';
import { EVENT_NAMES } from '@/server/core/event-names';
import { idSchema } from '@/server/core/ids';
import { getDelivery, listDeliveries, retryDelivery, testWebhook } from '@/server/services/webhooks/deliveries';
import { createWebhookInput, listDeliveriesQuery, recoverInput, updateWebhookInput } from '@/server/services/webhooks/schemas';
import {
  createWebhook,
  deleteWebhook,
  failingWebhooks,
  getWebhook,
  getWebhookSecret,
  listWebhooks,
  recoverWebhook,
  rotateWebhookSecret,
  updateWebhook,
} from '@/server/services/webhooks/webhooks';
import { adminProcedure, router } from '@/server/trpc/init';
import { exampleBody } from '@/server/services/events/catalogue';
import { byId, pageInput, pageOf, searchPageInput } from './shared';

export const webhooksRouter = router({
  list: adminProcedure.input(searchPageInput).query(({ ctx, input }) => listWebhooks(ctx.svc, pageOf(input))),
  get: adminProcedure.input(byId).query(({ ctx, input }) => getWebhook(ctx.svc, input.id)),
  create: adminProcedure.input(createWebhookInput).mutation(({ ctx, input }) => createWebhook(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateWebhookInput }))
    .mutation(({ ctx, input }) => updateWebhook(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteWebhook(ctx.svc, input.id)),
  secret: adminProcedure.input(byId).mutation(({ ctx, input }) => getWebhookSecret(ctx.svc, input.id)),
  rotateSecret: adminProcedure.input(byId).mutation(({ ctx, input }) => rotateWebhookSecret(ctx.svc, input.id)),
  test: adminProcedure
    .input(z.object({ id: idSchema, event: z.enum(EVENT_NAMES) }))
    .mutation(({ ctx, input }) => testWebhook(ctx.svc, input.id, input.event)),
  /** The admin log: newest first. */
  deliveries: adminProcedure
    .input(listDeliveriesQuery.extend({ id: idSchema, ...pageInput }))
    .query(({ ctx, input }) => listDeliveries(ctx.svc, input.id, input, pageOf(input, true))),
  delivery: adminProcedure
    .input(z.object({ id: idSchema, deliveryId: idSchema }))
    .query(({ ctx, input }) => getDelivery(ctx.svc, input.id, input.deliveryId)),
  retry: adminProcedure
    .input(z.object({ id: idSchema, deliveryId: idSchema }))
    .mutation(({ ctx, input }) => retryDelivery(ctx.svc, input.id, input.deliveryId)),
  failing: adminProcedure.query(({ ctx }) => failingWebhooks(ctx.svc)),
  recover: adminProcedure.input(recoverInput.extend({ id: idSchema })).mutation(({ ctx, input }) => recoverWebhook(ctx.svc, input.id, input.since)),
  /** The catalogue's example payload of an event, shown before "Send test". */
  example: adminProcedure.input(z.object({ event: z.enum(EVENT_NAMES) })).query(({ ctx, input }) => exampleBody(input.event, ctx.svc.projectId)),
});
