import { and, asc, desc, eq, gt, gte, lt, type SQL } from 'drizzle-orm';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { onCommit, withTransaction, type ServiceContext } from '@/server/context';
import type { EventName } from '@/server/core/event-names';
import { exampleBody } from '@/server/services/events/catalogue';
import { AppError, notFound } from '@/server/errors';
import { announceNewWork } from '@/server/events/work-notifier';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { Resolver } from '@/server/webhooks/safety';
import { AFTER_TIMEOUT_MS, sendAndRecord } from '@/server/webhooks/send';
import type { AttemptDto, DeliveryDto, ListDeliveriesQuery } from './schemas';
import { findWebhook } from './webhooks';

type Row = typeof webhookDeliveries.$inferSelect;

export const toDeliveryDto = (d: Row): DeliveryDto => ({
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
  return toPaged(rows, page, toDeliveryDto);
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
  return { ...toDeliveryDto(row), payload, attempts: attempts.map(toAttemptDto) };
}

/** Queues another attempt now, whatever the delivery's state; its webhook must be enabled. */
export async function retryDelivery(ctx: ServiceContext, webhookId: number, deliveryId: number): Promise<DeliveryDto> {
  requireAdmin(ctx);
  const webhook = await findWebhook(ctx, webhookId);
  if (!webhook.enabled) throw new AppError('conflict', 'The webhook is disabled; enable it before retrying');
  await findDelivery(ctx, webhookId, deliveryId);
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).for('update');
    const [row] = await tx.db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: ctx.clock(), leaseUntil: null })
      .where(eq(webhookDeliveries.id, deliveryId))
      .returning();
    const before = toDeliveryDto(current!);
    const after = toDeliveryDto(row!);
    await audit(tx, { action: 'update', resource: 'webhook-delivery', resourceId: deliveryId, before: { status: before.status, nextAttemptAt: before.nextAttemptAt }, after: { status: after.status, nextAttemptAt: after.nextAttemptAt } });
    onCommit(tx, () => announceNewWork([{ deliveryId, webhookId }]));
    return after;
  });
}

/**
 * "Send test": the catalogue's example of the event (CONTRACT 11), signed and sent now, as a receiver
 * would get it; answers the attempt. Logged as a one-attempt delivery of no event, never retried.
 */
export async function testWebhook(ctx: ServiceContext, webhookId: number, event: EventName, resolver?: Resolver): Promise<AttemptDto> {
  requireAdmin(ctx);
  const webhook = await findWebhook(ctx, webhookId);
  const payload = JSON.stringify(exampleBody(event, ctx.projectId));
  const deliveryId = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(webhookDeliveries)
      .values({ projectId: ctx.projectId, webhookId, event, payload, status: 'pending', nextAttemptAt: null })
      .returning({ id: webhookDeliveries.id });
    await audit(tx, { action: 'create', resource: 'webhook-delivery', resourceId: row!.id, after: { webhookId, event, test: true } });
    return row!.id;
  });
  const { attempt } = await sendAndRecord(ctx.db, { id: deliveryId, payload }, webhook, { now: ctx.clock(), timeoutMs: AFTER_TIMEOUT_MS, resolver });
  return toAttemptDto(attempt);
}

