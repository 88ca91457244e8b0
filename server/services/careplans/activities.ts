import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { activities } from '@/db/schema';
import { requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { notFound } from '@/server/errors';
import type { Page } from '@/server/http/define-route';
import { afterId, pageLimit } from '@/server/services/shared';
import { toActivityDto } from './careplans';
import type { ActivityDto } from './schemas';

export async function listActivities(
  ctx: ServiceContext,
  query: { careplanId?: number; subjectId?: number; status?: ActivityDto['status'] },
  page?: Page,
): Promise<ActivityDto[]> {
  requireReadEverything(ctx);
  const where: SQL[] = [eq(activities.projectId, ctx.projectId), gt(activities.id, afterId(page))];
  if (query.careplanId) where.push(eq(activities.careplanId, query.careplanId));
  if (query.subjectId) where.push(eq(activities.subjectId, query.subjectId));
  if (query.status) where.push(eq(activities.status, query.status));
  const rows = await ctx.db.select().from(activities).where(and(...where)).orderBy(asc(activities.id)).limit(pageLimit(page));
  return rows.map(toActivityDto);
}

export async function getActivity(ctx: ServiceContext, id: number): Promise<ActivityDto> {
  requireReadEverything(ctx);
  const [row] = await ctx.db.select().from(activities).where(and(eq(activities.id, id), eq(activities.projectId, ctx.projectId)));
  if (!row) throw notFound('Activity');
  return toActivityDto(row);
}
