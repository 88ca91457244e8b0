import { and, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import { notifications } from '@/db/schema';
import { canReadEverything } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { AppError, conflict, notFound } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { type NotificationDto, type UpdateNotificationInput } from './schemas';

type NotificationRow = typeof notifications.$inferSelect;

export const toNotificationDto = (n: NotificationRow): NotificationDto => ({
  id: n.id,
  memberId: n.memberId,
  activityId: n.activityId,
  title: n.title,
  body: n.body,
  topic: n.topic,
  medium: n.medium ?? null,
  status: n.status,
  createdAt: iso(n.createdAt),
  readAt: n.readAt ? iso(n.readAt) : null,
});

/** Staff and integrations see every notification of the project; a member token only its own. */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(notifications.projectId, ctx.projectId), eq(notifications.memberId, ctx.actor.memberId))!;
  if (!canReadEverything(ctx.actor)) throw new AppError('forbidden', 'Reading notifications needs the admin role or a member token');
  return eq(notifications.projectId, ctx.projectId);
}

export async function listNotifications(ctx: ServiceContext, query: { memberId?: number; activityId?: number }, page: Page = FIRST_PAGE): Promise<Paged<NotificationDto>> {
  const where: SQL[] = [visibleTo(ctx), gt(notifications.id, page.afterId)];
  if (query.memberId) where.push(eq(notifications.memberId, query.memberId));
  if (query.activityId) where.push(eq(notifications.activityId, query.activityId));
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(...where))
    .orderBy(notifications.id)
    .limit(fetchSize(page));
  return toPaged(rows, page, toNotificationDto);
}

/** Newest first, for inboxes (the member home, a member's page). */
export async function recentNotifications(ctx: ServiceContext, memberId: number, limit = 50, beforeId?: number): Promise<NotificationDto[]> {
  const where: SQL[] = [visibleTo(ctx), eq(notifications.memberId, memberId)];
  if (beforeId) where.push(lt(notifications.id, beforeId));
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(...where))
    .orderBy(desc(notifications.id))
    .limit(limit);
  return rows.map(toNotificationDto);
}

export async function getNotification(ctx: ServiceContext, id: number): Promise<NotificationDto> {
  const [row] = await ctx.db
    .select()
    .from(notifications)
    .where(and(visibleTo(ctx), eq(notifications.id, id)));
  if (!row) throw notFound('Notification');
  return toNotificationDto(row);
}

/**
 * PATCH /notification/<id>: `read` marks it read (keeping the first readAt) or unread; `status: sent` is
 * how an integration that delivers a medium (email, sms, push) reports a pending notification as sent.
 */
export async function updateNotification(ctx: ServiceContext, id: number, input: UpdateNotificationInput): Promise<NotificationDto> {
  const current = await getNotification(ctx, id);
  if (input.status !== undefined) {
    if (ctx.actor.kind === 'member') throw new AppError('forbidden', 'Only integrations and staff report a notification as sent');
    if (current.status === 'suppressed') throw conflict('A suppressed notification is never sent', 'status');
  }
  const readAt = input.read === undefined ? undefined : input.read ? (current.readAt ? new Date(current.readAt) : ctx.clock()) : null;
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(notifications)
      .set({ ...(readAt !== undefined ? { readAt } : {}), ...(input.status ? { status: input.status } : {}) })
      .where(eq(notifications.id, id))
      .returning();
    const dto = toNotificationDto(row!);
    await audit(tx, { action: 'update', resource: 'notification', resourceId: id, before: { status: current.status, readAt: current.readAt }, after: { status: dto.status, readAt: dto.readAt } });
    return dto;
  });
}
