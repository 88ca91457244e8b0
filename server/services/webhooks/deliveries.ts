import { and, asc, desc, eq, gt, gte, lt, type SQL } from 'drizzle-orm';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { AppError, notFound } from '@/server/errors';
import { announceNewWork } from '@/server/events/work-notifier';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { Resolver } from '@/server/webhooks/safety';
import { AFTER_TIMEOUT_MS, sendOnce } from '@/server/webhooks/send';
import type { AttemptDto, DeliveryDto, ListDeliveriesQuery } from './schemas';
import { findWebhook } from './webhooks';

type Row = typeof webhookDeliveries.$inferSelect;

const toDto = (d: Row): DeliveryDto => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attemptCount: d.attemptCount,
  nextAttemptAt: d.nextAttemptAt ? iso(d.nextAttemptAt) : null,
  createdAt: iso(d.createdAt),
  deliveredAt: d.deliveredAt ? iso(d.deliveredAt) : null,
});

const toAttemptDto = (a: typeof webhookAttempts.$inferSelect): AttemptDto => ({
  id: a.id,
  attempt: a.attempt,
  startedAt: iso(a.startedAt),
  durationMs: a.durationMs,
  statusCode: a.statusCode,
  error: a.error,
  response: a.response,
  url: a.url,
  requestHeaders: a.requestHeaders,
});

/** Id-ascending like every list (REST); the admin UI's log asks for newest first. */
export async function listDeliveries(ctx: ServiceContext, webhookId: number, query: ListDeliveriesQuery, page: Page = FIRST_PAGE): Promise<Paged<DeliveryDto>> {
  requireAdmin(ctx);
  await findWebhook(ctx, webhookId);
  const where: SQL[] = [eq(webhookDeliveries.webhookId, webhookId)];
  if (page.newestFirst) {
    if (page.afterId) where.push(lt(webhookDeliveries.id, page.afterId));
  } else where.push(gt(webhookDeliveries.id, page.afterId));
  if (query.status) where.push(eq(webhookDeliveries.status, query.status));
  if (query.event) where.push(eq(webhookDeliveries.event, query.event));
  if (query.since) where.push(gte(webhookDeliveries.createdAt, new Date(query.since)));
  if (query.until) where.push(lt(webhookDeliveries.createdAt, new Date(query.until)));
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(...where))
    .orderBy(page.newestFirst ? desc(webhookDeliveries.id) : asc(webhookDeliveries.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

async function findDelivery(ctx: ServiceContext, webhookId: number, deliveryId: number): Promise<Row> {
  await findWebhook(ctx, webhookId);
  const [row] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
  if (!row) throw notFound('Delivery');
  return row;
}

export async function getDelivery(ctx: ServiceContext, webhookId: number, deliveryId: number) {
  requireAdmin(ctx);
  const row = await findDelivery(ctx, webhookId, deliveryId);
  const attempts = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.attempt));
  let payload: unknown = row.payload;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    /* stored as sent */
  }
  return { ...toDto(row), payload, attempts: attempts.map(toAttemptDto) };
}

/** Queues another attempt now, whatever the delivery's state; its webhook must be enabled. */
export async function retryDelivery(ctx: ServiceContext, webhookId: number, deliveryId: number): Promise<DeliveryDto> {
  requireAdmin(ctx);
  const webhook = await findWebhook(ctx, webhookId);
  if (!webhook.enabled) throw new AppError('conflict', 'The webhook is disabled; enable it before retrying');
  await findDelivery(ctx, webhookId, deliveryId);
  const [row] = await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: ctx.clock(), leaseUntil: null })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning();
  announceNewWork([{ deliveryId, webhookId }]);
  return toDto(row!);
}

/** A sample payload for an event, sent now; answers the attempt. Recorded in the log, never retried. */
export async function testWebhook(ctx: ServiceContext, webhookId: number, event: string, resolver?: Resolver): Promise<AttemptDto> {
  requireAdmin(ctx);
  const webhook = await findWebhook(ctx, webhookId);
  const payload = JSON.stringify({
    event,
    projectId: ctx.projectId,
    params: { test: true },
    responseData: { test: true, message: `A test of ${event} sent from Carebase` },
  });
  const { deliveryId } = await sendOnce(ctx.db, { projectId: ctx.projectId, webhook, event, payload, now: ctx.clock(), timeoutMs: AFTER_TIMEOUT_MS, resolver });
  const [attempt] = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
  return toAttemptDto(attempt!);
}

