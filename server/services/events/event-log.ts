import { and, asc, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { events, webhookDeliveries } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import type { EventName } from '@/server/core/event-names';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { notFound } from '@/server/errors';
import { toDeliveryDto } from '@/server/services/webhooks/deliveries';
import type { EventDto, ListEventsQuery } from './schemas';

type Row = typeof events.$inferSelect;

const toDto = (r: Row): EventDto => ({ id: r.id, name: r.name as EventName, params: r.params, responseData: r.responseData ?? null, createdAt: iso(r.createdAt) });

/**
 * The event log (CONTRACT 11): every event Carebase recorded, whether or not a webhook listened, id
 * ascending (REST) or newest first (the console).
 */
export async function listEvents(ctx: ServiceContext, query: ListEventsQuery, page: Page = FIRST_PAGE): Promise<Paged<EventDto>> {
  requireAdmin(ctx);
  const where: SQL[] = [eq(events.projectId, ctx.projectId)];
  if (page.newestFirst) {
    if (page.afterId) where.push(lt(events.id, page.afterId));
  } else where.push(gt(events.id, page.afterId));
  if (query.name) where.push(eq(events.name, query.name));
  if (query.from) where.push(gte(events.createdAt, new Date(query.from)));
  if (query.to) where.push(lt(events.createdAt, new Date(query.to)));
  const rows = await ctx.db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(page.newestFirst ? desc(events.id) : asc(events.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

/** How the deliveries of some events stand, for the console's list (one query per page). */
export async function deliverySummaries(ctx: ServiceContext, eventIds: number[]) {
  requireAdmin(ctx);
  if (eventIds.length === 0) return {};
  const rows = await ctx.db
    .select({
      eventId: webhookDeliveries.eventId,
      total: sql<number>`count(*)::int`,
      delivered: sql<number>`(count(*) filter (where ${webhookDeliveries.status} = 'delivered'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookDeliveries.status} in ('failed', 'blocked')))::int`,
      pending: sql<number>`(count(*) filter (where ${webhookDeliveries.status} = 'pending'))::int`,
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, ctx.projectId), inArray(webhookDeliveries.eventId, eventIds)))
    .groupBy(webhookDeliveries.eventId);
  return Object.fromEntries(rows.map((r) => [r.eventId!, { total: r.total, delivered: r.delivered, failed: r.failed, pending: r.pending }]));
}

export async function getEvent(ctx: ServiceContext, id: number) {
  requireAdmin(ctx);
  const [row] = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.projectId, ctx.projectId)));
  if (!row) throw notFound('Event');
  const deliveries = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, id)).orderBy(asc(webhookDeliveries.id));
  return { ...toDto(row), deliveries: deliveries.map(toDeliveryDto) };
}
